"""The example game of ``docs/adding-a-game.md``, built from the page's own code blocks.

Every fenced Python or ``po`` block of the guide whose first line is ``# <path>`` is that
file, whole (but that line): ``# games/duel/state.py`` belongs to the engine package,
``# games/duel/locales/fr.po`` is its French catalog, ``# tests/test_duel_rules.py`` its rules
tests, ``# cogs/looks/duel.py`` its optional Discord look. :func:`guide_files` reads them;
:func:`installed` writes them into a temporary directory laid out as a checkout, adds it to
the ``games`` and ``cogs.looks`` package paths, and registers the game for the length of a
block (its catalog is read with the others while it is registered).
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import games
from games.base import Game

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "adding-a-game.md"
GAME_ID = "duel"
PACKAGE = "duel"
_BLOCK = re.compile(r"```(?:python|po)\n# (\S+\.(?:py|po))\n(.*?)```", re.S)


def skip_if_a_duel_is_installed() -> None:
    """The guide's example is tested in a checkout without a game of its id: one that has it
    (someone trying the guide in place) skips these tests, saying why."""
    if GAME_ID in games.GAME_IDS:
        pytest.skip(f"this checkout has a game {GAME_ID!r} of its own: the guide's example is tested without it",
                    allow_module_level=True)


def guide_files() -> dict[str, str]:
    """``path -> source`` of every file the guide writes out whole."""
    return {path: source for path, source in _BLOCK.findall(GUIDE.read_text(encoding="utf-8"))}


@contextmanager
def installed(root: Path) -> Iterator[Game]:
    """The guide's game written under ``root``, importable as ``games.duel`` (its Discord
    look as ``cogs.looks.duel``) and registered; afterwards everything is as it was."""
    for path, source in guide_files().items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source, encoding="utf-8")
    # The packages as imported now (a test may have imported them afresh since this module was).
    extra = [(importlib.import_module(name), str(root / name.replace(".", "/"))) for name in ("games", "cogs.looks")]
    for package, directory in extra:
        package.__path__.append(directory)
    try:
        importlib.invalidate_caches()
        game = importlib.import_module(f"games.{PACKAGE}").GAME
        with importlib.import_module("games").registered(game):
            yield game
    finally:
        for package, directory in extra:
            package.__path__.remove(directory)
        for name in [n for n in sys.modules if n.startswith((f"games.{PACKAGE}", f"cogs.looks.{PACKAGE}"))]:
            del sys.modules[name]
