"""Q2J moves: ``play`` one card, ``qq`` a queen pair (Q²), ``draw``.

Every legal action is a prebuilt constant, so listing legal moves allocates
nothing but the list itself, and :func:`parse` reads one with a single lookup.
"""

from __future__ import annotations

from enum import StrEnum
from itertools import combinations
from typing import Any, NamedTuple

from ..base import Action, action_parts, prebuilt
from ..cards import CODE, DECK, shown_card
from ..errors import MalformedAction
from ..i18n import Text, say
from .rules import QUEENS, card_id


class Kind(StrEnum):
    """Q2J's moves, named as in action codes."""

    PLAY = "play"
    QQ = "qq"
    DRAW = "draw"


class Move(NamedTuple):
    """A parsed move: its kind and card ids (``play``: one; ``qq``: two queens in canonical order)."""

    kind: Kind
    card: int = -1
    other: int = -1


class Q2JAction(Action):
    """An :class:`Action` worded for players: ``play 7♠``, ``Q² Q♥ Q♣``, ``draw``."""

    __slots__ = ()

    def words(self) -> Text:
        if self.kind == "play" and len(self.args) == 1:
            return say("play {card}", card=shown_card(self.args[0]))
        if self.kind == "qq" and len(self.args) == 2:
            return say("Q² {first} {second}", first=shown_card(self.args[0]), second=shown_card(self.args[1]))
        if self.kind == "draw" and not self.args:
            return say("draw")
        return super().words()


DRAW = Q2JAction("draw")
PLAY: tuple[Q2JAction, ...] = tuple(Q2JAction("play", (code,)) for code in CODE)
"""``PLAY[i]`` plays card id ``i``."""
QQ_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(QUEENS, 2))
"""Queen pairs in canonical order: suits as in the deck (S, H, D, C)."""
QQ: dict[tuple[int, int], Q2JAction] = {p: Q2JAction("qq", (CODE[p[0]], CODE[p[1]])) for p in QQ_PAIRS}

PARSED: dict[Action, Move] = {DRAW: Move(Kind.DRAW)}
"""Every prebuilt action (and any action equal to one) → its :class:`Move`."""
PARSED.update({PLAY[c]: Move(Kind.PLAY, c) for c in range(len(CODE))})
PARSED.update({action: Move(Kind.QQ, *pair) for pair, action in QQ.items()})


def card_arg(arg: object) -> int:
    """A card id from an action argument (a code, case-insensitive)."""
    if not isinstance(arg, str):
        raise MalformedAction(say("{arg} is not a card code (expected e.g. QS, 10H)", arg=repr(arg)))
    return card_id(arg)


def play_arg(args: tuple[Any, ...]) -> int:
    if len(args) != 1:
        raise MalformedAction(say("play takes exactly one card, e.g. play:7S (got {count} arguments)", count=len(args)))
    return card_arg(args[0])


def qq_args(args: tuple[Any, ...]) -> tuple[int, int]:
    """The two queen ids of a Q² action, in canonical order (either order is accepted)."""
    if len(args) != 2:
        raise MalformedAction(say("Q² takes exactly two queens, e.g. qq:QS,QH (got {count} arguments)",
                                  count=len(args)))
    a, b = card_arg(args[0]), card_arg(args[1])
    if a == b:
        raise MalformedAction(say("Q² needs two different queens, not {card} twice", card=DECK[a]))
    for c in (a, b):
        if c not in QUEENS:
            raise MalformedAction(say("Q² is played with two queens; {card} is not a queen", card=DECK[c]))
    return (a, b) if a < b else (b, a)


def parse(action: Any) -> Move:
    """The move ``action`` names (codes are case-insensitive; Q² queens in either order);
    only its form is checked, legality is the state's. Anything else raises
    :class:`MalformedAction`."""
    found = prebuilt(PARSED, action)
    if found is not None:
        return found
    kind, args = action_parts(action, say("a Q2J move"))
    if kind == Kind.PLAY:
        return Move(Kind.PLAY, play_arg(args))
    if kind == Kind.DRAW:
        if args:
            raise MalformedAction(say("draw takes no arguments"))
        return Move(Kind.DRAW)
    if kind == Kind.QQ:
        return Move(Kind.QQ, *qq_args(args))
    raise MalformedAction(say("Unknown move {kind}; Q2J moves are: play, qq, draw", kind=repr(kind)))
