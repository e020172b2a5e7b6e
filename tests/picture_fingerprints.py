"""Fingerprints of the pictures of many seeded positions, to prove that a change to how pictures
are drawn (caches, layers, encoding) keeps every picture the same, pixel for pixel.

For every registered game, a few of its contract cases (players × options, spread evenly) are
played at random from a seed; positions spread over each game are drawn in every language: the
table picture from the public view and the hand picture of a seat to act (its legal moves
marked) or of another seat, the seats named as at a real table, one of them by a long name with
an emoji (cut short, the emoji left out). A fingerprint is the sha256 of the picture's size and
decoded RGBA pixels, not of the PNG bytes: a different encoding of the same pixels keeps it.

``tests/data/picture_fingerprints.json`` holds the fingerprints the pictures gave when they
were recorded: ``python -m tests.picture_fingerprints --write`` rewrites it, which is right
only when a change of look is meant (say so in the commit); ``tests/test_picture_fingerprints.py``
recomputes them.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image

import games
from games.i18n import LANGUAGES
from games.pictures import hand_png, table_png
from games.pictures.samples import SAMPLE_NAMES, random_positions
from tests.contract import contract_cases

RECORDING = Path(__file__).parent / "data" / "picture_fingerprints.json"
CASES = 6
"""Contract cases (players × options) played per game, spread evenly over its list."""
POSITIONS = 10
"""Positions drawn per case, spread over the game from the deal to the end."""
LONG_NAME = "Marie-Ève Duchâteau-Lefebvre 🎲"


def cases(game: games.Game) -> list[tuple[int, dict[str, Any]]]:
    every_case = contract_cases(game)
    return every_case[::-(-len(every_case) // CASES)]


def pixels(png: bytes | None) -> str | None:
    """The fingerprint of a picture: its size and decoded RGBA pixels (None for no picture)."""
    if png is None:
        return None
    with Image.open(io.BytesIO(png)) as image:
        rgba = image.convert("RGBA")
    return hashlib.sha256(f"{rgba.width}x{rgba.height}:".encode() + rgba.tobytes()).hexdigest()[:24]


def pictures(game_id: str) -> Iterator[tuple[str, str | None]]:
    """``(label, fingerprint)`` of every picture drawn for ``game_id``, in a fixed order."""
    game = games.get_game(game_id)
    for seed, (players, options) in enumerate(cases(game)):
        names = list(SAMPLE_NAMES[:players])
        names[seed % players] = LONG_NAME
        length = sum(1 for _ in random_positions(game, players, options, seed))
        picks = {round(i * (length - 1) / max(1, POSITIONS - 1)) for i in range(POSITIONS)}
        for move, state in enumerate(random_positions(game, players, options, seed)):
            if move not in picks:
                continue
            acting = state.to_act()
            seat = acting[0] if acting and move % 2 == 0 else move % players
            legal = [action.code() for action in state.legal_actions(seat)] if seat in state.to_act() else []
            public, own = state.view(None), state.view(seat)
            for language in LANGUAGES:
                where = f"{players}p {options} seed {seed} move {move} {language}"
                yield f"table {where}", pixels(table_png(public, names, language))
                yield f"hand of seat {seat} {where}", pixels(hand_png(own, legal, names, language))


def fingerprints(game_id: str) -> dict[str, str | None]:
    return dict(pictures(game_id))


def recorded() -> dict[str, dict[str, str | None]]:
    return json.loads(RECORDING.read_text()) if RECORDING.exists() else {}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.picture_fingerprints", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {RECORDING.name} (a change of look is meant)")
    args = parser.parse_args(argv)
    found = {game_id: fingerprints(game_id) for game_id in games.GAME_IDS}
    if args.write:
        RECORDING.parent.mkdir(parents=True, exist_ok=True)
        RECORDING.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {sum(map(len, found.values()))} fingerprints to {RECORDING}")
        return 0
    old = recorded()
    changed = [f"{game_id} {label}" for game_id, prints in found.items() for label, value in prints.items()
               if old.get(game_id, {}).get(label) != value]
    print("\n".join(changed) or "every picture as recorded")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
