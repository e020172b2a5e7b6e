"""Pictures of tables and hands, drawn with Pillow from game views (never from states).

Public API:

- :func:`table_png(view, names=None) <table_png>`: the table picture from the public view
  (``state.view(None)``);
- :func:`hand_png(view, legal, names=None) <hand_png>`: a seat's hand picture from that
  seat's view, the cards named by ``legal`` (action codes) marked as playable, or None when
  the seat has nothing to draw (before the deal, an empty field);
- ``names``: the seats' names, in seat order (else "Seat 1", "Seat 2"…); the hand
  picture calls its own seat "You";
- ``language``: the language of the picture's words (English unless told).

A game's own look is ``pictures.py`` in its package (``games/<package>/pictures.py``)
defining ``Pictures``, a :class:`~games.pictures.base.GamePictures`; a game without one (or a
game that is one module) gets the generic look. Drawing is deterministic: the same view and
names give the same PNG bytes, so whoever shows pictures (the Discord layer) may keep them.
What sizes pictures are drawn at, and why: :mod:`games.pictures.canvas`. Like every engine,
pictures know nothing of Discord, asyncio or a database: what they draw comes in the view.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

import games
from games.i18n import SOURCE

if TYPE_CHECKING:
    from .base import GamePictures, View

PICTURES_MODULE = "pictures"
"""The module of a game's package that draws it."""


@cache
def pictures_for(game_id: str, language: str = SOURCE) -> GamePictures:
    """The drawer of a registered game (its package's ``Pictures``, else the generic one),
    writing in ``language``."""
    # Imported at the first picture, not with this package: the registry imports every module of
    # games/ looking for games, and Pillow would then load with any engine.
    from .base import GamePictures

    game = games.get_game(game_id)
    package = games.package_of(game)
    name = f"{package}.{PICTURES_MODULE}"
    if package is None or importlib.util.find_spec(name) is None:
        return GamePictures(game, language)
    drawer: type[GamePictures] = importlib.import_module(name).Pictures
    return drawer(game, language)


def table_png(view: View, names: Sequence[str] | None = None, language: str = SOURCE) -> bytes:
    """The table picture (PNG bytes) drawn from the public view."""
    return pictures_for(view["game"], language).table(view, names).png()


def hand_png(view: View, legal: Sequence[str], names: Sequence[str] | None = None,
             language: str = SOURCE) -> bytes | None:
    """A seat's hand picture (PNG bytes) drawn from its view, ``legal`` action codes marked;
    None when the seat has nothing to draw."""
    canvas = pictures_for(view["game"], language).hand(view, legal, names)
    return None if canvas is None else canvas.png()


__all__ = ["hand_png", "pictures_for", "table_png"]
