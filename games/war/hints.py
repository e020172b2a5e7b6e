"""Why the ``normal`` War player makes its move, in one line (see :mod:`games.hints`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Action
from ..concept import CMP, relation
from ..cards import PRETTY
from .actions import PARSED

if TYPE_CHECKING:
    from .state import WarState


def reason(state: "WarState", seat: int, action: Action) -> str:
    kind, card, target = PARSED[action]
    theirs = [t for s, f in enumerate(state.fields) if s != seat for t in f]
    if kind == 0:
        result = CMP[card][target]
        if result > 0:
            threat = sum(1 for mine in state.fields[seat] if CMP[target][mine] > 0)
            why = f"{relation(card, target)}, so {PRETTY[card]} wins the attack on {PRETTY[target]}"
            return why + (f", which beats {threat} of your cards" if threat else "")
        if result == 0:
            return f"{relation(card, target)}: both cards go, a fair trade against {PRETTY[target]}"
        return "no attack can win now; this one costs your least useful card"
    if kind == 1:
        wins = sum(1 for t in theirs if CMP[card][t] > 0)
        if wins:
            return f"untapped, {PRETTY[card]} can attack again: it beats {wins} of your opponents' cards"
        return "nothing better to do: untapped, it can defend your field again"
    return "no attack wins now, so grow your field with a new card"
