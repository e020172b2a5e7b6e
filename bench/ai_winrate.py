"""How much better each game's AI plays than uniform random play.

    python -m bench.ai_winrate [--games 400] [--game q2j] [--options '{"variant": "classic"}']

For every available game: one AI seat against random seats, over ``--games``
seeded games, the AI's seat rotating so each seat is played equally often.
Two players (AI vs random) and, where the game allows it, four players (one AI
vs three random). A win shared by k seats counts 1/k. Games without their own
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


def ai_share(game: games.Game, players: int, options: dict, seed: int, ai_seat: int) -> float:
    """The AI seat's share of the win in one seeded game (0 when unfinished)."""
    state = game.new_game(players, options, seed)
    rng = Rng(seed * 7 + 1)
    for _ in range(MAX_STEPS):
        acting = state.to_act()
        if not acting:
            break
        seat = acting[0] if len(acting) == 1 else acting[rng.below(len(acting))]
        if seat == ai_seat:
            action = choose_action(state, seat, rng)
        else:
            legal = state.legal_actions(seat)
            action = legal[rng.below(len(legal))]
        state.apply(seat, action)
    outcome = state.outcome()
    if outcome is None or ai_seat not in outcome.winners:
        return 0.0
    return 1.0 / len(outcome.winners)


def win_rate(game: games.Game, players: int, options: dict, count: int) -> float:
    return sum(ai_share(game, players, options, seed, seed % players) for seed in range(count)) / count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per table size")
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every available game)")
    parser.add_argument("--options", default="{}", help="table options as JSON")
    args = parser.parse_args(argv)
    options = json.loads(args.options)
    print(f"{'game':<16} {'table':<22} {'AI wins':>8} {'random baseline':>16}")
    for game_id in args.game or games.available_game_ids():
        try:
            game = games.get_game(game_id)
        except Exception as exc:  # an engine still being written must not stop the others
            print(f"{game_id:<16} skipped: {exc!r}")
            continue
        policy = "own AI" if game.ai else "no AI policy"
        for players in (2, 4):
            if players not in game.allowed_player_counts():
                continue
            table = f"1 AI vs {players - 1} random"
            try:
                game.new_game(players, options, 0)
            except games.GameError as exc:
                print(f"{game_id:<16} {table:<22} skipped: {exc}")
                continue
            rate = win_rate(game, players, options, args.games)
            print(f"{game_id:<16} {table:<22} {rate:>8.1%} {1 / players:>16.1%}  ({policy}, {args.games} games)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
