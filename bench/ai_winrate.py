"""How much better each game's AI plays than uniform random play.

    python -m bench.ai_winrate [--games 400] [--game q2j] [--options '{"variant": "classic"}']

For every available game: one AI seat against random seats, over ``--games``
seeded games, the AI's seat rotating so each seat is played equally often.
Two players (AI vs random) and, where the game allows it, four players (one AI
vs three random). In team games the AI plays every seat of one team against a
random team. A win shared by k seats (or teams) counts 1/k. Games without their own
policy play randomly through ``games.ai.choose_action``, so they show the baseline.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from games.ai import choose_action
from games.rng import Rng

MAX_STEPS = 200_000


def teams_of(game: games.Game, players: int, options: dict) -> list[tuple[int, ...]]:
    """The game's sides, read from the outcome of one random game (a seat each when no teams)."""
    state = game.new_game(players, options, 0)
    rng = Rng(0)
    for _ in range(MAX_STEPS):
        acting = state.to_act()
        if not acting:
            break
        seat = acting[rng.below(len(acting))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    outcome = state.outcome()
    if outcome is not None and outcome.teams:
        return [tuple(t) for t in outcome.teams]
    return [(s,) for s in range(players)]


def ai_share(game: games.Game, players: int, options: dict, seed: int, teams: list[tuple[int, ...]],
             ai_seats: tuple[int, ...]) -> float:
    """The AI side's share of the win in one seeded game (0 when unfinished)."""
    state = game.new_game(players, options, seed)
    rng = Rng(seed * 7 + 1)
    for _ in range(MAX_STEPS):
        acting = state.to_act()
        if not acting:
            break
        seat = acting[0] if len(acting) == 1 else acting[rng.below(len(acting))]
        if seat in ai_seats:
            action = choose_action(state, seat, rng)
        else:
            legal = state.legal_actions(seat)
            action = legal[rng.below(len(legal))]
        state.apply(seat, action)
    outcome = state.outcome()
    if outcome is None or not set(ai_seats) & set(outcome.winners):
        return 0.0
    winning_sides = {next((t for t in teams if s in t), (s,)) for s in outcome.winners}
    return 1.0 / len(winning_sides)


def win_rate(game: games.Game, players: int, options: dict, count: int) -> tuple[float, int]:
    """The AI side's win rate, and how many sides there are."""
    teams = teams_of(game, players, options)
    total = sum(ai_share(game, players, options, seed, teams, teams[seed % len(teams)]) for seed in range(count))
    return total / count, len(teams)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per table size")
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every available game)")
    parser.add_argument("--options", default="{}", help="table options as JSON")
    args = parser.parse_args(argv)
    options = json.loads(args.options)
    print(f"{'game':<16} {'table':<22} {'AI wins':>8} {'random baseline':>16}")
    for game_id in args.game or games.GAME_IDS:
        try:
            game = games.get_game(game_id)
        except Exception as exc:  # an engine still being written must not stop the others
            print(f"{game_id:<16} skipped: {exc!r}")
            continue
        policy = "own AI" if game.ai else "no AI policy"
        for players in (2, 4):
            if players not in game.allowed_player_counts():
                continue
            try:
                game.new_game(players, options, 0)
            except games.GameError as exc:
                print(f"{game_id:<16} {players} players{'':<12} skipped: {exc}")
                continue
            rate, sides = win_rate(game, players, options, args.games)
            table = f"1 AI vs {players - 1} random" if sides == players else "AI team vs random team"
            print(f"{game_id:<16} {table:<22} {rate:>8.1%} {1 / sides:>16.1%}  ({policy}, {args.games} games)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
