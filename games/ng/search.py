"""What the hard AI (:mod:`games.search`) needs to know about NG.

Hidden (unless the game is face up): the deck, every face-down field card (the
owner's too) and every other hand. A position is worth the seat's field (what
keeps it alive and wins a stalled game) and its resource pile (the cards it won,
its strength for the rest of the game) against the strongest rival.
"""

from __future__ import annotations

from typing import Any

from ..determinize import Slot
from ..evaluation import margin_value
from .state import NGState

BUDGET = 2500
ROLLOUT_MOVES = 24
FIELD_WEIGHT = 2.0


def hidden_slots(snap: dict[str, Any], seat: int | None) -> list[Slot]:
    if snap["options"].get("faceup"):
        return []
    slots: list[Slot] = [(snap["deck"], i) for i in range(len(snap["deck"]))]
    for s, (stacks, down) in enumerate(zip(snap["fields"], snap["down"])):
        slots += [(stack, 0) for stack, hidden in zip(stacks, down) if stack and hidden]
        if s != seat:
            slots += [(snap["hands"][s], i) for i in range(len(snap["hands"][s]))]
    return slots


def strength(state: NGState, seat: int) -> float:
    if not state.alive[seat]:
        return -100.0
    field = sum(len(stack) for stack in state.fields[seat])
    return FIELD_WEIGHT * field + len(state.resources[seat]) + 0.5 * len(state.hands[seat])


def evaluate(state: NGState, seat: int) -> float:
    others = [strength(state, s) for s in range(state.players) if s != seat and state.alive[s]]
    return margin_value(strength(state, seat), others, 3)
