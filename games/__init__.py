"""Deckhand's rule engines: pure Python, no Discord, no asyncio, no database.

The registry: every subpackage of ``games`` whose package exposes ``GAME`` (a
:class:`~games.base.Game`) is a game, found by walking the package's
``__path__`` — adding a game is adding its package, nothing else.
``GAME_IDS`` lists the ids in the games' ``order``; ``get_game(game_id)``
returns one game, ``all_games()`` all of them, ``all_rules()`` their rules
text. ``register(game)`` adds a game from elsewhere, ``discover(path)`` the game
packages of another directory, and ``registered(game)`` swaps a game in for
one block (tests use these). See DESIGN.md, "Engine contract".
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from .base import Action, Event, Game, GameState, Outcome
from .errors import GameError, GameFinished, IllegalAction, MalformedAction, NotYourTurn
from .i18n import say
from .rules_text import GameRules

_GAMES: dict[str, Game[Any]] = {}


def _load_packages(path: Iterable[str], prefix: str) -> None:
    """Register the ``GAME`` of every package directly under ``path`` (module names ``prefix`` + name)."""
    for info in pkgutil.iter_modules(list(path), prefix):
        if not info.ispkg:
            continue
        game = getattr(importlib.import_module(info.name), "GAME", None)
        if isinstance(game, Game):
            package = info.name.rpartition(".")[2]
            if game.package != package:
                raise GameError(say("Package {package} holds the game {game}: a game's package is its id "
                                    "with '-' as '_', so its id must be {id}", package=repr(package),
                                    game=repr(game.id), id=repr(package.replace("_", "-"))))
            register(game)


def _set(game_id: str, game: Game[Any] | None) -> None:
    """Put (or, with ``None``, remove) the game under ``game_id`` and refresh ``GAME_IDS``."""
    global GAME_IDS
    if game is None:
        _GAMES.pop(game_id, None)
    else:
        _GAMES[game_id] = game
    GAME_IDS = tuple(g.id for g in all_games())


def register(game: Game[Any]) -> None:
    """Add ``game`` to the registry; registering another game under a taken id raises GameError."""
    known = _GAMES.get(game.id)
    if known is not None and known is not game:
        raise GameError(say("Two games use the id {id}", id=repr(game.id)))
    _set(game.id, game)


def unregister(game_id: str) -> None:
    """Remove a game added with :func:`register` or :func:`discover` (tests clean up with it)."""
    _set(game_id, None)


@contextmanager
def registered(game: Game[Any]) -> Iterator[Game[Any]]:
    """Within the block, ``game`` is registered, in place of any game with its id (tests swap
    a game's AI this way); afterwards the registry is as it was."""
    previous = _GAMES.get(game.id)
    _set(game.id, game)
    try:
        yield game
    finally:
        _set(game.id, previous)


def discover(directory: str) -> list[Game[Any]]:
    """Register the game packages found in ``directory`` (which must be on ``sys.path``,
    each package imported under its own top-level name); return the games found."""
    before = set(_GAMES)
    _load_packages([directory], "")
    return [g for g in all_games() if g.id not in before]


def all_games() -> tuple[Game[Any], ...]:
    """Every registered game, by ``order`` then id."""
    return tuple(sorted(_GAMES.values(), key=lambda g: (g.order, g.id)))


def all_rules() -> dict[str, GameRules]:
    """Every registered game's rules text by game id, in the order of ``GAME_IDS``."""
    return {g.id: g.rules for g in all_games() if g.rules is not None}


def get_game(game_id: str) -> Game[Any]:
    """The game registered under ``game_id``; unknown ids raise :class:`GameError`.
    (``python -m games play`` also takes a package name: :func:`games.terminal.find_game`.)"""
    game = _GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise GameError(say("Unknown game {game}; games are: {games}", game=repr(game_id), games=", ".join(GAME_IDS)))
    return game


GAME_IDS: tuple[str, ...] = ()
"""Every registered game's id, in the order of :func:`all_games` (kept up to date by the registry)."""
_load_packages(__path__, __name__ + ".")

__all__ = [
    "Action", "Event", "Game", "GameState", "Outcome", "GameError", "GameFinished", "IllegalAction",
    "MalformedAction", "NotYourTurn", "GAME_IDS", "get_game", "all_games", "all_rules", "register",
    "unregister", "registered", "discover",
]
