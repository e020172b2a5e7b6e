"""Each game's look on Discord (its GameUI), found by the game's package name.

A registered game whose engine is ``games/<package>/`` (or the module ``games/<package>.py``)
may have a module ``cogs/looks/<package>.py`` defining ``UI``, a :class:`~cogs.ui.GameUI`
subclass; a game without one is shown by :class:`~cogs.ui.DefaultUI`.
"""

from __future__ import annotations

import importlib
import importlib.util

import games
from games.base import Game

from ..ui import DefaultUI, GameUI, register


def ui_class(game: Game) -> type[GameUI]:
    name = f"{__name__}.{game.package}"
    if importlib.util.find_spec(name) is None:
        return DefaultUI
    return importlib.import_module(name).UI


def load_game_uis() -> list[GameUI]:
    """Register the look of every registered game; returns them in ``GAME_IDS`` order."""
    uis = [ui_class(game)(game) for game in map(games.get_game, games.GAME_IDS)]
    for ui in uis:
        register(ui)
    return uis
