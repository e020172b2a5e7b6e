"""Each game's Discord module, found by the game's package name.

A registered game whose engine lives in ``games/<package>/`` may have a module
``cogs/games/<package>.py`` defining ``UI``, a :class:`~cogs.ui.GameUI` subclass; a game
without one is shown by :class:`~cogs.ui.DefaultUI`.
"""

from __future__ import annotations

import importlib
import importlib.util

import games
from games.base import Game

from ..ui import DefaultUI, GameUI, register


def package_of(game: Game) -> str:
    """The name of the package under ``games/`` that holds the game's engine."""
    module = importlib.import_module(game.state_class.__module__)
    return (module.__package__ or module.__name__).rpartition(".")[2]


def ui_class(game: Game) -> type[GameUI]:
    name = f"{__name__}.{package_of(game)}"
    if importlib.util.find_spec(name) is None:
        return DefaultUI
    return importlib.import_module(name).UI


def load_game_uis() -> list[GameUI]:
    """Register the look of every registered game; returns them in ``GAME_IDS`` order."""
    uis = [ui_class(game)(game) for game in map(games.get_game, games.GAME_IDS)]
    for ui in uis:
        register(ui)
    return uis
