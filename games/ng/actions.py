"""NG moves and their compact encoding.

=============================  ==========================  ===================================
action                         ``code()``                  meaning
=============================  ==========================  ===================================
``("draw",)``                  ``draw``                    the deck's top card into your hand
``("pick", card)``             ``pick:7H``                 a card of your resource pile into your hand
``("defend", card, s, i)``     ``defend:7H,1,3``           hand card face up onto seat ``s``'s stack ``i``
``("sacrifice", i)``           ``sacrifice:2``             the top card of your stack ``i`` into your hand
``("attack", card, "stack", s, i)``  ``attack:7H,stack,1,3``  attack the top card of seat ``s``'s stack ``i``
``("attack", card, "hand", s, p)``   ``attack:7H,hand,1,0``   attack the card at position ``p`` of seat ``s``'s hand
``("attack", card, "resource", s)``  ``attack:7H,resource,1`` attack the top card of seat ``s``'s resource pile
=============================  ==========================  ===================================

Seats, stack slots (0–4) and hand positions are 0-based in actions; texts for
players show them 1-based. The longest code, ``attack:10H,resource,3``, is 22
characters. Every action is a prebuilt constant, so listing legal moves only
builds the list.
"""

from __future__ import annotations

from enum import StrEnum

from ..base import Action
from ..cards import CODE, card_id_reader, shown_card
from ..errors import MalformedAction
from ..i18n import Text, say
from ..phrases import either
from .options import NAME

card_id = card_id_reader(NAME)
"""The id of a card or code; a joker is refused with a NG message ("{NAME} is played without jokers")."""

MAX_SEATS = 4
SLOTS = 5
MAX_HAND = 52
"""Hand positions are below this (a hand can never hold the whole deck, but the table is simple)."""
STALL_LIMIT = 40
"""The game ends when this many turns in a row put no card on the discard pile."""



class Kind(StrEnum):
    """NG's moves, named as in action codes."""

    DRAW = "draw"
    PICK = "pick"
    DEFEND = "defend"
    SACRIFICE = "sacrifice"
    ATTACK = "attack"


def _n(arg: object) -> str:
    """A 0-based index shown 1-based (or as it is, when it is not an int)."""
    return str(arg + 1) if type(arg) is int else str(arg)


class NGAction(Action):
    """An :class:`Action` worded for players, e.g. ``attack seat 2's stack 3 with 7♥``."""

    __slots__ = ()

    def words(self) -> Text:
        kind, args = self.kind, self.args
        if kind == "draw" and not args:
            return say("draw")
        if kind == "pick" and len(args) == 1:
            return say("pick {card} from your resource pile", card=shown_card(args[0]))
        if kind == "defend" and len(args) == 3:
            return say("defend seat {seat}'s stack {stack} with {card}", seat=_n(args[1]), stack=_n(args[2]),
                       card=shown_card(args[0]))
        if kind == "sacrifice" and len(args) == 1:
            return say("sacrifice the top of your stack {stack}", stack=_n(args[0]))
        if kind == "attack" and len(args) in (3, 4):
            card, where = shown_card(args[0]), args[1]
            if where == "stack" and len(args) == 4:
                return say("attack seat {seat}'s stack {stack} with {card}", seat=_n(args[2]), stack=_n(args[3]),
                           card=card)
            if where == "hand" and len(args) == 4:
                return say("attack card {position} of seat {seat}'s hand with {card}", position=_n(args[3]),
                           seat=_n(args[2]), card=card)
            if where == "resource" and len(args) == 3:
                return say("attack seat {seat}'s resource pile with {card}", seat=_n(args[2]), card=card)
        return super().words()


DRAW = NGAction("draw")
PICK: tuple[NGAction, ...] = tuple(NGAction("pick", (code,)) for code in CODE)
"""``PICK[c]`` picks card id ``c``."""
SACRIFICE: tuple[NGAction, ...] = tuple(NGAction("sacrifice", (i,)) for i in range(SLOTS))

# Target ids, shared by the attack and defend tables: a stack target is
# ``seat * SLOTS + slot``; a resource target ``RES0 + seat``; a hand target
# ``HAND0 + seat * MAX_HAND + position``.
RES0 = MAX_SEATS * SLOTS
HAND0 = RES0 + MAX_SEATS
N_TARGETS = HAND0 + MAX_SEATS * MAX_HAND


def _attack(code: str, target: int) -> NGAction:
    if target < RES0:
        return NGAction("attack", (code, "stack", target // SLOTS, target % SLOTS))
    if target < HAND0:
        return NGAction("attack", (code, "resource", target - RES0))
    t = target - HAND0
    return NGAction("attack", (code, "hand", t // MAX_HAND, t % MAX_HAND))


ATTACK: tuple[tuple[NGAction, ...], ...] = tuple(tuple(_attack(code, t) for t in range(N_TARGETS)) for code in CODE)
"""``ATTACK[c][target]``: attack ``target`` (a target id) with card id ``c``."""
DEFEND: tuple[tuple[NGAction, ...], ...] = tuple(
    tuple(NGAction("defend", (code, t // SLOTS, t % SLOTS)) for t in range(RES0)) for code in CODE
)
"""``DEFEND[c][target]``: put card id ``c`` on a stack target."""
MOVES_OF: tuple[tuple[NGAction, ...], ...] = tuple(ATTACK[c] + DEFEND[c] for c in range(len(CODE)))
"""``MOVES_OF[c]``: every attack of card id ``c`` (index: target id), then its defends
(index: ``N_TARGETS`` + stack target id), so one lookup lists a hand card's moves."""
HAND_TARGETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(HAND0 + s * MAX_HAND, HAND0 + (s + 1) * MAX_HAND)) for s in range(MAX_SEATS)
)
"""``HAND_TARGETS[s][p]``: the target id of position ``p`` of seat ``s``'s hand."""


A_SEAT, A_STACK, A_POSITION = say("A seat"), say("A stack number"), say("A hand position")
"""What an argument names, for the refusal of one that is not a whole number (:func:`index_arg`)."""
AN_NG_MOVE = say("an NG move")


def card_arg(arg: object) -> int:
    """A card id from an action argument (a code, case-insensitive)."""
    if not isinstance(arg, str):
        raise MalformedAction(say("{arg} is not a card code (expected e.g. QS, 10H)", arg=repr(arg)))
    return card_id(arg)


def index_arg(arg: object, what: Text) -> int:
    """``arg`` when it is a whole number; else :class:`MalformedAction` saying ``what`` must be one."""
    if type(arg) is not int:
        raise MalformedAction(say("{what} must be a whole number, not {arg}", what=what, arg=repr(arg)))
    return arg


def arity(kind: str, args: tuple, count: int | tuple[int, ...], example: str) -> None:
    """Nothing when a ``kind`` move has ``count`` arguments (or one of the counts); else
    :class:`MalformedAction` showing ``example``."""
    counts = (count,) if isinstance(count, int) else count
    if len(args) not in counts:
        raise MalformedAction(say("{kind} takes {counts} arguments, e.g. {example} (got {count})", kind=kind,
                                  counts=either(counts), example=example, count=len(args)))
