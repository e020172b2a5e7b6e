"""Deckhand's rule engines: pure Python, no Discord, no asyncio, no database.

The registry: every subpackage of ``games`` that exposes ``GAME`` (a
:class:`~games.base.Game`) is a game, and so is every module of ``games`` that defines
one (a small game may be a single file), found by walking the package's ``__path__`` —
adding a game is adding its package, nothing else. A game's package or module is named
after its id (``-`` as ``_``), and its catalogs (``locales/<language>.po`` in its package)
are read with the shared ones (:mod:`games.i18n`).
``GAME_IDS`` lists the ids in the games' ``order``, then by id; ``get_game(game_id)``
returns one game, ``all_games()`` all of them, ``all_rules()`` their rules
text, ``home_of(game)`` the package folder or module file it lives in (``package_of(game)``
its package's name). ``register(game)``
adds a game from elsewhere, ``discover(path)`` the game packages of another directory, and
``registered(game)`` swaps a game in for one block (tests use these). See DESIGN.md,
"Engine contract".
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from .base import Action, Event, Game, GameState, Outcome
from .errors import GameError, GameFinished, IllegalAction, MalformedAction, NotYourTurn
from .i18n import read_catalogs, say
from .rules_text import GameRules

_GAMES: dict[str, Game[Any]] = {}


def _load_packages(path: Iterable[str], prefix: str) -> None:
    """Register the ``GAME`` of every package or module directly under ``path`` (module names
    ``prefix`` + name; ``__main__`` and other private names are not games)."""
    for info in pkgutil.iter_modules(list(path), prefix):
        package = info.name.rpartition(".")[2]
        if package.startswith("_"):
            continue
        game = getattr(importlib.import_module(info.name), "GAME", None)
        if isinstance(game, Game):
            if game.package != package:
                raise GameError(say("Package {package} holds the game {game}: a game's package is its id "
                                    "with '-' as '_', so its id must be {id}", package=repr(package),
                                    game=repr(game.id), id=repr(package.replace("_", "-"))))
            register(game)


def _home_module(game: Game[Any]) -> ModuleType:
    """The module its state class is defined in, or the package holding that module directly
    under ``games`` (or at the top level)."""
    parts = game.state_class.__module__.split(".")
    return sys.modules[".".join(parts[:2] if parts[0] == __name__ and len(parts) > 1 else parts[:1])]


def home_of(game: Game[Any]) -> Path:
    """Where ``game`` lives: its package's folder (``games/war``), or the file of a game that is
    one module (``games/duel.py``)."""
    module = _home_module(game)
    if module.__file__ is None:  # a namespace package
        return Path(next(iter(module.__path__)))
    path = Path(module.__file__)
    return path.parent if path.name == "__init__.py" else path


def package_of(game: Game[Any]) -> str | None:
    """The dotted name of ``game``'s package (``games.war``), where its optional modules are
    found (its pictures: :mod:`games.pictures`); None for a game that is one module."""
    module = _home_module(game)
    return module.__name__ if hasattr(module, "__path__") else None


def _catalogs_of(game: Game[Any]) -> Path:
    """The folder of ``game``'s catalogs: ``locales`` in its package; a game that is one module
    has its words in the folder beside it (in ``games/``: the shared catalogs)."""
    home = home_of(game)
    return (home if home.is_dir() else home.parent) / "locales"


def _set(game_id: str, game: Game[Any] | None) -> None:
    """Put (or, with ``None``, remove) the game under ``game_id``, refresh ``GAME_IDS`` and the
    catalogs read."""
    global GAME_IDS
    if game is None:
        _GAMES.pop(game_id, None)
    else:
        _GAMES[game_id] = game
    GAME_IDS = tuple(g.id for g in all_games())
    read_catalogs([_catalogs_of(g) for g in all_games()])


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
    """Register the game packages (and game modules) found in ``directory`` (which must be on
    ``sys.path``, each imported under its own top-level name); return the games found."""
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
    "MalformedAction", "NotYourTurn", "GAME_IDS", "get_game", "all_games", "all_rules", "home_of", "package_of",
    "register",
    "unregister", "registered", "discover",
]
