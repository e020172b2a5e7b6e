"""Why the ``normal`` QUASH player makes its move, in one line (see :mod:`games.hints`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Action
from ..cards import shown_arg

if TYPE_CHECKING:
    from .state import QuashState


def reason(state: "QuashState", seat: int, action: Action) -> str:
    kind, args = action.kind, action.args
    if kind == "tiebreak":
        return ("the lowest card that does the job: high cards are worth more for later tiebreaks, "
                "unless this spot decides a QUASH or the match")
    if kind == "chooser":
        return "your partner holds the better cards for this tiebreak"
    if kind == "takeback":
        return "this chain of swaps leaves your side worse off than when the turn began: take it back"
    card, spot = shown_arg(args[0]), args[1]
    if kind == "swap":
        return (f"{card} is worth more on spot {spot} than {shown_arg(args[2])}, "
                "which then goes where it helps most")
    return (f"{card} on spot {spot} adds the most to your side's expected points against the spots "
            "opposite, counting the runs your hand can still complete")
