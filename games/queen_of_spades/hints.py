"""Why the ``normal`` Queen of Spades player makes its move, in one line (see :mod:`games.hints`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Action
from .points import ID_BY_CODE, POINTS, PRETTY, RANK_OF, TWO

if TYPE_CHECKING:
    from .state import QoSState

LAID_VERSUS_HELD = "laid cards score for you, cards still in hand count against you when the round ends"


def reason(state: "QoSState", seat: int, action: Action) -> str:
    kind, args = action.kind, action.args
    if kind == "next":
        return "nothing to decide between rounds: say you're ready"
    if kind == "deal":
        return "dealing without a cut"
    if kind == "cut":
        return "a cut near the middle of the bonus cuts' reach has the best chance of a bonus"
    if kind == "take":
        if args[0] == "pile":
            return (f"the pile's top {PRETTY[state.discard[-1]]} makes a set with cards in your hand, "
                    "worth more than the rest of the pile costs")
        if args[0] == "discard":
            return f"{PRETTY[state.discard[-1]]} makes or adds to a set of yours"
        return "the discard doesn't help any set of yours: take from the draw pile"
    if kind in ("lay", "extend"):
        return LAID_VERSUS_HELD
    card = ID_BY_CODE[args[0]]
    if PRETTY[card] == "Q♠":
        return f"Q♠ costs {POINTS[card]} points while you hold it: let it go"
    if RANK_OF[card] != TWO and state.rc[seat][RANK_OF[card]] < 2 and state.where[seat][RANK_OF[card]] < 0:
        return f"{PRETTY[card]} fits no set of yours, so it is the card you need least"
    return f"{PRETTY[card]} is the card you need least; your pairs, sets and 2s are worth keeping"
