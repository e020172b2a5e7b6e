"""Why the ``normal`` NG player makes its move, in one line (see :mod:`games.hints`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Action
from ..cards import ID_BY_CODE, PRETTY
from ..concept import CMP, relation

if TYPE_CHECKING:
    from .state import NGState


def reason(state: "NGState", seat: int, action: Action) -> str:
    kind, args = action.kind, action.args
    if kind == "draw":
        return "nothing worth attacking or defending now: a new card for your hand"
    if kind == "pick":
        return f"{PRETTY[ID_BY_CODE[args[0]]]} is your resource card the fewest cards beat: back into your hand"
    if kind == "defend":
        return "another card on your own stack keeps your field safe, and few cards beat this one"
    if kind == "sacrifice":
        return "no other move is legal: give up the stack that costs you least"
    card, where, target_seat = ID_BY_CODE[args[0]], args[1], args[2]
    if where == "hand":
        return "a card from their hand: a win takes it, and a hand card you can't see is a fair gamble"
    if where == "resource":
        top = state.resources[target_seat][-1]
        return f"{relation(card, top)}, it beats {PRETTY[top]} on their resource pile"
    stack = state.fields[target_seat][args[3]]
    last = " and knocks the player out" if state.field_counts()[target_seat] == 1 else ""
    if len(stack) == 1 and state.down[target_seat][args[3]] and not state.faceup:
        return f"a face-down card: {PRETTY[card]} beats most of the cards you haven't seen{last}"
    top = stack[-1]
    verdict = "it beats" if CMP[card][top] > 0 else "it ties with"
    return f"{relation(card, top)}, {verdict} {PRETTY[top]}: a stack card gone{last}"
