"""Engine speed: random self-play for every available game.

    python -m bench.engines [--seconds 2] [--games q2j] [--players 2,4,10] [--options '{"variant": "classic"}']

For each game and player count, plays games from seeds 0, 1, 2, … for its
share of ``--seconds``, with the loop the bot's AI seats and the contract tests
use: ``to_act`` → ``legal_actions`` → seeded random choice → ``apply``. Prints
actions per second and games per second (deals included), per player count
and overall. A new game is measured as soon as it is registered in ``games``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from games.rng import Rng

MAX_STEPS = 200_000


def play_random(game: games.Game, players: int, options: dict, seed: int) -> tuple[int, bool]:
    """One random game; (actions played, finished within MAX_STEPS)."""
    state = game.new_game(players, options, seed)
    rng = Rng(seed ^ 0x5DEECE66D)
    steps = 0
    while steps < MAX_STEPS:
        acting = state.to_act()
        if not acting:
            return steps, True
        seat = acting[0] if len(acting) == 1 else acting[rng.below(len(acting))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
        steps += 1
    return steps, False


def measure(game: games.Game, players: int, options: dict, seconds: float) -> tuple[int, int, int, float]:
    """(actions, finished games, unfinished games, elapsed seconds) for about ``seconds``."""
    actions = finished = unfinished = 0
    seed = 0
    start = time.perf_counter()
    while True:
        steps, done = play_random(game, players, options, seed)
        actions += steps
        finished += done
        unfinished += not done
        seed += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return actions, finished, unfinished, elapsed


def _valid(game: games.Game, players: int, options: dict) -> bool:
    try:
        game.new_game(players, options, 0)
    except games.GameError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game id (split over player counts)")
    parser.add_argument("--games", default=",".join(games.GAME_IDS), help="comma-separated game ids")
    parser.add_argument("--players", default="", help="comma-separated player counts (default: every allowed count)")
    parser.add_argument("--options", default="{}", help="table options as JSON, for every game measured")
    args = parser.parse_args(argv)
    options = json.loads(args.options)
    wanted = {int(p) for p in args.players.split(",") if p}
    print(f"{'game':<16} {'players':>7} {'actions/s':>11} {'games/s':>9} {'actions/game':>12}")
    for game_id in [g for g in args.games.split(",") if g]:
        try:
            game = games.get_game(game_id)
        except Exception as exc:  # an engine still being written must not stop the others
            print(f"{game_id:<16} skipped: {exc!r}")
            continue
        counts = [n for n in game.allowed_player_counts() if (not wanted or n in wanted) and _valid(game, n, options)]
        if not counts:
            print(f"{game_id:<16} no player count accepts options {options}")
            continue
        total_actions = total_games = 0
        total_time = 0.0
        for players in counts:
            actions, finished, unfinished, elapsed = measure(game, players, options, args.seconds / len(counts))
            total_actions += actions
            total_games += finished + unfinished
            total_time += elapsed
            note = f"  ({unfinished} unfinished after {MAX_STEPS} steps)" if unfinished else ""
            print(f"{game_id:<16} {players:>7} {actions / elapsed:>11,.0f} {(finished + unfinished) / elapsed:>9,.1f}"
                  f" {actions / max(1, finished + unfinished):>12,.0f}{note}")
        print(f"{game_id:<16} {'all':>7} {total_actions / total_time:>11,.0f} {total_games / total_time:>9,.1f}"
              f" {total_actions / max(1, total_games):>12,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
