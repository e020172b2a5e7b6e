"""Positions to draw, and the sample pictures of ``docs/images/``.

    python -m games.pictures.samples docs/images

writes ``<game id>.png``, a table picture from the real renderer, and ``<game id>-hand.png``,
the hand picture of the seat to act, for every registered game: a seeded random game
stopped two fifths of the way through, its seats named as at a real table (the same files
every run). :func:`random_positions` is also what the tests and ``bench/pictures.py`` draw.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

import games
from games.base import Game, GameState
from games.rng import Rng

from . import hand_png, table_png

SAMPLE_PLAYERS = {"q2j": 4, "war": 3, "ng": 3, "queen-of-spades": 6, "quash": 2}
"""Table sizes that show each game well; other games use their largest count up to 4."""
SAMPLE_SEED = 7
SAMPLE_POINT = 0.4
SAMPLE_NAMES = ("ana", "ben", "AI 1", "cat", "AI 2", "dan", "eve", "fox", "gus", "hal")
"""Seat names as a table has them: people, and AI seats as :func:`cogs.attachments.seat_names` gives them."""


def random_positions(game: Game, players: int, options: dict, seed: int) -> Iterator[GameState]:
    """Every position of one seeded random game, the deal first and the end last (the same
    state object, moved on after each yield)."""
    state = game.new_game(players, options, seed)
    rng = Rng(seed)
    yield state
    while not state.is_over():
        acting = state.to_act()
        seat = acting[rng.below(len(acting))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
        yield state


def sample_players(game: Game) -> int:
    counts = game.allowed_player_counts()
    return SAMPLE_PLAYERS.get(game.id, max(c for c in counts if c <= 4) if min(counts) <= 4 else min(counts))


def sample_state(game: Game) -> GameState:
    """The documented position of ``game``: two fifths of the way through a seeded game."""
    players, options = sample_players(game), dict(game.quick_options)
    length = sum(1 for _ in random_positions(game, players, options, SAMPLE_SEED))
    for moves, state in enumerate(random_positions(game, players, options, SAMPLE_SEED)):
        if moves >= int(length * SAMPLE_POINT):
            return state
    raise AssertionError("unreachable: the game has at least one position")


def write_samples(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for game in games.all_games():
        state = sample_state(game)
        names = SAMPLE_NAMES[:state.players]
        table = directory / f"{game.id}.png"
        table.write_bytes(table_png(state.view(None), names=names))
        written.append(table)
        if state.to_act():
            seat = state.to_act()[0]
            legal = [action.code() for action in state.legal_actions(seat)]
            png = hand_png(state.view(seat), legal, names=names)
            if png is not None:
                hand = directory / f"{game.id}-hand.png"
                hand.write_bytes(png)
                written.append(hand)
    return written


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.pictures.samples",
                                     description="Write every game's sample table and hand pictures into DIRECTORY.")
    parser.add_argument("directory", type=Path, metavar="DIRECTORY")
    for path in write_samples(parser.parse_args(argv).directory):
        print(f"{path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
