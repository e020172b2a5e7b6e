"""Pictures of tables and hands, drawn with Pillow from game views (never from states).

Public API:

- :func:`table_png(view, key=None, names=None) <table_png>`: the table picture from the
  public view (``state.view(None)``);
- :func:`hand_png(view, legal, key=None, names=None) <hand_png>`: a seat's hand picture
  from that seat's view, the cards named by ``legal`` (action codes) marked as playable, or
  None when the seat has nothing to draw (before the deal, an empty field);
- ``names``: the seats' names, in seat order (else "Seat 1", "Seat 2"…); the hand
  picture calls its own seat "You";
- ``language``: the language of the picture's words (English unless told);
- ``key``: a hashable naming what is drawn, e.g. ``(table_id, version)`` for a table and
  ``(table_id, version, seat)`` for a hand: a picture already drawn under the same key is
  returned from a small LRU cache without drawing again (the language is part of the key).

Each game's look is ``cogs/pictures/<package>.py`` (named after its engine package under
``games/``) defining ``Pictures``, a :class:`~cogs.pictures.base.GamePictures`; a
registered game without one gets the generic look. Rendering is deterministic: the same
view and names give the same PNG bytes. What sizes pictures are drawn at, and why:
:mod:`cogs.pictures.canvas`.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from functools import cache
from typing import Any, TypeVar

import games
from games.i18n import SOURCE

from .base import GamePictures, View

CACHE_SIZE = 64
T = TypeVar("T", bytes, bytes | None)
_cache: OrderedDict[Hashable, Any] = OrderedDict()  # PNG bytes, or None for a hand not drawn
_cache_lock = threading.Lock()


@cache
def pictures_for(game_id: str, language: str = SOURCE) -> GamePictures:
    """The drawer of a registered game (its own module's ``Pictures``, else the generic one),
    writing in ``language``."""
    game = games.get_game(game_id)
    name = f"{__name__}.{game.package}"
    if importlib.util.find_spec(name) is None:
        return GamePictures(game, language)
    return importlib.import_module(name).Pictures(game, language)


def _cached(key: Hashable | None, draw: Callable[[], T]) -> T:
    # Pictures are drawn in worker threads (cogs.pictures.attach): the cache is shared.
    if key is None:
        return draw()
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    png = draw()
    with _cache_lock:
        _cache[key] = png
        if len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return png


def table_png(view: View, key: Hashable | None = None, names: Sequence[str] | None = None,
              language: str = SOURCE) -> bytes:
    """The table picture (PNG bytes) drawn from the public view."""
    drawer = pictures_for(view["game"], language)
    return _cached(None if key is None else ("table", language, key), lambda: drawer.table(view, names).png())


def hand_png(view: View, legal: Sequence[str], key: Hashable | None = None,
             names: Sequence[str] | None = None, language: str = SOURCE) -> bytes | None:
    """A seat's hand picture (PNG bytes) drawn from its view, ``legal`` action codes marked;
    None when the seat has nothing to draw."""
    drawer = pictures_for(view["game"], language)

    def draw() -> bytes | None:
        canvas = drawer.hand(view, legal, names)
        return None if canvas is None else canvas.png()

    return _cached(None if key is None else ("hand", language, key), draw)


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


__all__ = ["CACHE_SIZE", "GamePictures", "clear_cache", "hand_png", "pictures_for", "table_png"]
