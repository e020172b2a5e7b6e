"""What the hard AI (:mod:`games.search`) needs to know about QUASH.

Hidden: the pile, the set-aside cards, every other hand (a partner's too), the
other side's tiebreak leftovers and face-down tiebreak card. A position is worth
the side's track points (plus the points it has scored in the round so far)
against the other side's, measured against the distance to the finish.
Rollouts play uniformly at random: the heuristic is too slow to play out games.
"""

from __future__ import annotations

from typing import Any

from ..base import Action
from ..determinize import Slot
from ..evaluation import margin_value
from ..rng import Rng
from .state import QuashState

BUDGET = 800
MARGIN = 0.1
"""Random playouts judge QUASH placements roughly: only a clear difference overrides the heuristic."""
ROLLOUT_MOVES = 60


def hidden_slots(snap: dict[str, Any], seat: int | None) -> list[Slot]:
    slots: list[Slot] = [(snap[name], i) for name in ("pile", "aside") for i in range(len(snap[name]))]
    for s, hand in enumerate(snap["hands"]):
        if s != seat:
            slots += [(hand, i) for i in range(len(hand))]
    for other in (0, 1):
        if seat is not None and other == seat % 2:
            continue
        slots += [(snap["leftovers"][other], i) for i in range(len(snap["leftovers"][other]))]
        if snap["pending"][other] is not None:
            slots.append((snap["pending"], other))
    return slots


def evaluate(state: QuashState, seat: int) -> float:
    side = seat % 2
    points = [state.track[s] + state.round_points[s] for s in (0, 1)]
    return margin_value(points[side], [points[1 - side]], max(2, state.finish / 4))


def rollout_policy(state: QuashState, seat: int, rng: Rng) -> Action:
    return rng.choice(state.legal_actions(seat))
