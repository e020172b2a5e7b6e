"""How strong each AI level is, heads-up, with 95 % intervals.

    python -m bench.ai_strength [--games 200] [--game q2j] [--workers 2] [--full] [--first-seed 0]

For every game, three cells of ``--games`` seeded games each, the seats rotating
(even seeds: the first level takes seat 0, odd seeds seat 1):

- ``hard vs normal``: heads-up; in a team game also a 4-player table, a hard team
  against a normal team (the hard level plays every seat of its team);
- ``normal vs random``: the game's heuristic against uniformly random play;
- ``hard`` think time: p50 / p95 / max milliseconds per move over the hard cells
  (moves with a single legal action are not timed: they need no thinking).

A shared win counts 1/k; an unfinished game (step limit) counts as a loss. The
interval is Wilson's. Games use each game's ``quick_options`` (shorter matches:
QUASH to 12, two rounds of Queen of Spades) unless ``--full`` is given. Seeds run
from ``--first-seed``: the default 0 is the figure the README reports; other
ranges measure on games nobody tuned against.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from multiprocessing import Pool
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from games.ai import choose_action
from games.rng import Rng

MAX_STEPS = 20_000
TARGETS = {"hard vs normal": 0.65, "normal vs random": 0.90}


def play(task: tuple[str, int, bool, str, str, int]) -> tuple[float, list[float]]:
    """One seeded game: the first level's share of the win, and the hard moves' think times."""
    game_id, players, full, first, second, seed = task
    game = games.get_game(game_id)
    state = game.new_game(players, {} if full else dict(game.quick_options), seed)
    teams = game.teams(players)
    mine = teams[seed % len(teams)]
    rng = Rng(seed * 7919 + 11)
    times: list[float] = []
    for _ in range(MAX_STEPS):
        acting = state.to_act()
        if not acting:
            break
        seat = acting[0]
        level = first if seat in mine else second
        if level == "random":
            action = rng.choice(state.legal_actions(seat))
        else:
            start = time.perf_counter()
            action = choose_action(state, seat, rng, level)
            if level == "hard" and len(state.legal_actions(seat)) > 1:
                times.append(time.perf_counter() - start)
        state.apply(seat, action)
    outcome = state.outcome()
    if outcome is None or not set(mine) & set(outcome.winners):
        return 0.0, times
    sides = {next((t for t in teams if s in t), (s,)) for s in outcome.winners}
    return 1.0 / len(sides), times


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cells(game: games.Game) -> list[tuple[str, int, str, str]]:
    """(cell name, players, first level, second level) for one game."""
    rows = [("hard vs normal", 2, "hard", "normal")]
    if game.sides and 4 in game.allowed_player_counts():
        rows.append(("hard vs normal", 4, "hard", "normal"))
    rows.append(("normal vs random", 2, "normal", "random"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per cell")
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every game)")
    parser.add_argument("--workers", type=int, default=2, help="processes playing games")
    parser.add_argument("--full", action="store_true", help="default options instead of quick_options")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game of each cell")
    args = parser.parse_args(argv)
    print(f"{'game':<16} {'cell':<18} {'table':<14} {'wins':>6} {'95% interval':>16} {'target':>7}  met")
    hard_times: dict[str, list[float]] = {}
    with Pool(args.workers) as pool:
        for game_id in args.game or games.GAME_IDS:
            game = games.get_game(game_id)
            for name, players, first, second in cells(game):
                tasks = [(game_id, players, args.full, first, second, seed) for seed in range(args.first_seed, args.first_seed + args.games)]
                results = pool.map(play, tasks, chunksize=4)
                wins = sum(share for share, _ in results)
                hard_times.setdefault(game_id, []).extend(t for _, ts in results for t in ts)
                low, high = wilson(wins, args.games)
                table = f"{players}p" + (" teams" if game.sides and players > 2 else "")
                target = TARGETS[name]
                met = "yes" if wins / args.games >= target else "NO"
                print(f"{game_id:<16} {name:<18} {table:<14} {wins / args.games:>6.1%} "
                      f"{f'{low:.1%}–{high:.1%}':>16} {target:>7.0%}  {met}", flush=True)
    print(f"\n{'game':<16} {'hard moves':>10} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}   (target p95 ≤ 300 ms)")
    for game_id, times in hard_times.items():
        if times:
            print(f"{game_id:<16} {len(times):>10} {1000 * percentile(times, 0.5):>8.0f} "
                  f"{1000 * percentile(times, 0.95):>8.0f} {1000 * max(times):>8.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
