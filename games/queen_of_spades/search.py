"""What the hard AI (:mod:`games.search`) needs to know about Queen of Spades.

Hidden: the draw pile, the set-aside cards and, while a round is played, every
other hand. A position is worth the match total plus, mid-round, what the seat
has laid minus what it still holds (so the Q♠ counts +100 laid, −100 held),
against the best other seat.
"""

from __future__ import annotations

from typing import Any

from ..evaluation import margin_value
from ..determinize import Slot
from .points import POINTS
from .state import QoSState

BUDGET = 1500
ROLLOUT_MOVES = 60
MARGIN = 0.15
"""Most QoS moves the heuristic already plays well: the search must clearly beat it."""
HELD_WEIGHT = 0.5
"""What a held card costs in an unfinished round, as a share of its points: it may still be laid."""
SCALE = 120
"""Points of margin that make a position clearly better (about a Q♠ laid against one held)."""


def hidden_slots(snap: dict[str, Any], seat: int | None) -> list[Slot]:
    slots: list[Slot] = [(snap["draw"], i) for i in range(len(snap["draw"]))]
    slots += [(snap["aside"], i) for i in range(len(snap["aside"]))]
    if snap["phase"] in ("take", "play"):
        for s, hand in enumerate(snap["hands"]):
            if s != seat:
                slots += [(hand, i) for i in range(len(hand))]
    return slots


def standing(state: QoSState, seat: int) -> float:
    """The seat's match total, plus laid minus held while a round is played."""
    total = state.scores[seat]
    if state.phase in ("take", "play"):
        total += state.laid_points(seat) - HELD_WEIGHT * sum(POINTS[c] for c in state.hand_ids(seat))
    return total


def evaluate(state: QoSState, seat: int) -> float:
    others = [standing(state, s) for s in range(state.players) if s != seat]
    return margin_value(standing(state, seat), others, SCALE)
