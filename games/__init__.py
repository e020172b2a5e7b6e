"""Deckhand's rule engines: pure Python, no Discord, no asyncio, no database.

``get_game(game_id)`` returns a :class:`~games.base.Game`; ``GAME_IDS`` lists
every id. See DESIGN.md, "Engine contract".
"""

from __future__ import annotations

import importlib
import importlib.util

from .base import Action, Event, Game, GameState, Outcome
from .errors import GameError, GameFinished, IllegalAction, MalformedAction, NotYourTurn

GAME_IDS: tuple[str, ...] = ("q2j", "war", "ng", "queen-of-spades", "quash")

_MODULES = {"q2j": "q2j", "war": "war", "ng": "ng", "queen-of-spades": "queen_of_spades", "quash": "quash"}


def available_game_ids() -> tuple[str, ...]:
    """The ids whose engines are installed (every id of GAME_IDS once all are built)."""
    return tuple(g for g in GAME_IDS if importlib.util.find_spec(f"games.{_MODULES[g]}") is not None)


def get_game(game_id: str) -> Game:
    """The game registered under ``game_id``; unknown ids raise :class:`GameError`."""
    module_name = _MODULES.get(game_id) if isinstance(game_id, str) else None
    if module_name is None:
        raise GameError(f"Unknown game {game_id!r}; games are: {', '.join(GAME_IDS)}")
    try:
        module = importlib.import_module(f"games.{module_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"games.{module_name}":
            raise
        raise GameError(f"{game_id} is not available yet") from None
    return module.GAME


__all__ = [
    "Action", "Event", "Game", "GameState", "Outcome", "GameError", "GameFinished",
    "IllegalAction", "MalformedAction", "NotYourTurn", "GAME_IDS", "get_game", "available_game_ids",
]
