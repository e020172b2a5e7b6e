"""Q2J moves: ``play`` one card, ``qq`` a queen pair (Q²), ``draw``.

Every legal action is a prebuilt constant, so listing legal moves allocates
nothing but the list itself.
"""

from __future__ import annotations

from itertools import combinations

from ..base import Action
from ..cards import CODE, PRETTY, shown_arg
from ..errors import MalformedAction
from .rules import QUEENS, card_id


class Q2JAction(Action):
    """An :class:`Action` whose ``str()`` reads well: ``play 7♠``, ``Q² Q♥ Q♣``, ``draw``."""

    __slots__ = ()

    def __str__(self) -> str:
        if self.kind == "play" and len(self.args) == 1:
            return "play " + shown_arg(self.args[0])
        if self.kind == "qq" and len(self.args) == 2:
            return "Q² " + " ".join(shown_arg(a) for a in self.args)
        return super().__str__()


DRAW = Q2JAction("draw")
PLAY: tuple[Q2JAction, ...] = tuple(Q2JAction("play", (code,)) for code in CODE)
"""``PLAY[i]`` plays card id ``i``."""
QQ_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(QUEENS, 2))
"""Queen pairs in canonical order: suits as in the deck (S, H, D, C)."""
QQ: dict[tuple[int, int], Q2JAction] = {p: Q2JAction("qq", (CODE[p[0]], CODE[p[1]])) for p in QQ_PAIRS}

KINDS = ("play", "qq", "draw")


def card_arg(arg: object) -> int:
    """A card id from an action argument (a code, case-insensitive)."""
    if not isinstance(arg, str):
        raise MalformedAction(f"{arg!r} is not a card code (expected e.g. QS, 10H)")
    return card_id(arg)


def play_arg(args: tuple) -> int:
    if len(args) != 1:
        raise MalformedAction(f"play takes exactly one card, e.g. play:7S (got {len(args)} arguments)")
    return card_arg(args[0])


def qq_args(args: tuple) -> tuple[int, int]:
    """The two queen ids of a Q² action, in canonical order (either order is accepted)."""
    if len(args) != 2:
        raise MalformedAction(f"Q² takes exactly two queens, e.g. qq:QS,QH (got {len(args)} arguments)")
    a, b = card_arg(args[0]), card_arg(args[1])
    if a == b:
        raise MalformedAction(f"Q² needs two different queens, not {PRETTY[a]} twice")
    for c in (a, b):
        if c not in QUEENS:
            raise MalformedAction(f"Q² is played with two queens; {PRETTY[c]} is not a queen")
    return (a, b) if a < b else (b, a)
