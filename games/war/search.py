"""What the hard AI (:mod:`games.search`) needs to know about War.

Hidden: every deck card (which deck holds which card, and in what order). A
position is worth the seat's cards (deck and field; an untapped field card a
little more, since it can attack) against the strongest rival's.
"""

from __future__ import annotations

from typing import Any

from ..determinize import Slot
from ..evaluation import margin_value
from .state import WarState

BUDGET = 2000
ROLLOUT_MOVES = 24


def hidden_slots(snap: dict[str, Any], seat: int | None) -> list[Slot]:
    return [(deck, i) for deck in snap["decks"] for i in range(len(deck))]


def strength(state: WarState, seat: int) -> float:
    if not state.alive[seat]:
        return -100.0
    return len(state.decks[seat]) + 1.5 * len(state.fields[seat])


def evaluate(state: WarState, seat: int) -> float:
    others = [strength(state, s) for s in range(state.players) if s != seat and state.alive[s]]
    return margin_value(strength(state, seat), others, 4)
