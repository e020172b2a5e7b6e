"""Why the ``normal`` Q2J player makes its move, in one line (see :mod:`games.hints`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Action
from ..cards import ID_BY_CODE, PRETTY
from ..concept import CMP, relation

if TYPE_CHECKING:
    from .state import Q2JState


def reason(state: "Q2JState", seat: int, action: Action) -> str:
    top = state.discard[-1]
    if action.kind == "qq":
        return "two cards gone at once, and the next player must answer with a jack or draw"
    if action.kind == "draw":
        if state.duty is not None and not state.free:
            return "you owe a jack for the Q² and hold none, so you draw"
        return f"no card in your hand is as strong as {PRETTY[top]}, so you draw"
    card = ID_BY_CODE[action.args[0]]
    if state.duty is not None:
        if state.free:
            return "the Q² came back round to you: any card goes, so play the one hardest to cover"
        return "a jack pays the Q² duty"
    if CMP[card][top] == 0:
        return f"{relation(card, top)} with {PRETTY[top]}: a card gone without drawing"
    why = f"{relation(card, top)}, it beats {PRETTY[top]}"
    if sum(1 for c in state.hands[seat] if CMP[c][top] > 0) > 1:
        why += "; of your cards that do, it is the hardest to follow"
    return why
