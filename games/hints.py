"""Hints: the move the ``normal`` AI would make for a seat, and one line why.

The move comes from :func:`games.ai.choose_action` at ``normal``; the line from the
game's own ``Game.reason(state, seat, action) -> Text``, which knows the game (e.g.
"same suit, lower is stronger: it beats J♣"). A game without one gets :data:`GENERIC_REASON`.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import get_game
from .ai import choose_action
from .base import Action, GameState
from .i18n import Text, say
from .rng import Rng

GENERIC_REASON = say("it is the move Deckhand's normal AI would make here")


@dataclass(frozen=True)
class Hint:
    action: Action
    why: Text
    """One line, lower case first, to follow the move's own label: "Play 4♣: <why>"."""


def hint(state: GameState, seat: int, rng: Rng | None = None) -> Hint:
    """The ``normal`` AI's move for ``seat`` (which must be to act) and the reason for it.
    ``rng`` breaks the heuristic's ties (default: a fixed seed, so a position always gets
    the same hint)."""
    action = choose_action(state, seat, rng or Rng(seat), "normal")
    reason = get_game(state.game_id).reason
    return Hint(action, reason(state, seat, action) if reason is not None else GENERIC_REASON)
