"""The example game of ``docs/adding-a-game.md``, built from the page's own code blocks.

Every fenced Python block of the guide whose first line is ``# <path>.py`` is that file,
whole: ``# games/duel/state.py`` belongs to the engine package, ``# cogs/games/duel.py``
to its optional Discord look. :func:`guide_files` reads them; :func:`installed` writes
them into a temporary directory, adds it to the ``games`` and ``cogs.games`` package
paths, and registers the game for the length of a block.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from games.base import Game

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "adding-a-game.md"
GAME_ID = "duel"
PACKAGE = "duel"
_BLOCK = re.compile(r"```python\n# (\S+\.py)\n(.*?)```", re.S)


def guide_files() -> dict[str, str]:
    """``path -> source`` of every file the guide writes out whole."""
    return {path: source for path, source in _BLOCK.findall(GUIDE.read_text(encoding="utf-8"))}


@contextmanager
def installed(root: Path) -> Iterator[Game]:
    """The guide's game written under ``root``, importable as ``games.duel`` (its Discord
    look as ``cogs.games.duel``) and registered; afterwards everything is as it was."""
    for path, source in guide_files().items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source, encoding="utf-8")
    # The packages as imported now (a test may have imported them afresh since this module was).
    extra = [(importlib.import_module(name), str(root / name.replace(".", "/"))) for name in ("games", "cogs.games")]
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
        for name in [n for n in sys.modules if n.startswith((f"games.{PACKAGE}", f"cogs.games.{PACKAGE}"))]:
            del sys.modules[name]
