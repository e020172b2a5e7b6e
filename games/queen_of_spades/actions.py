"""Queen of Spades moves and their compact encoding.

=========================  =====================  ==================================================
``code()``                 when                   meaning
=========================  =====================  ==================================================
``cut:40``                 dealer, round start    aim to cut 40 cards (1 … deck size); lands ±4
``deal``                   dealer, round start    deal without a cut (no cut bonus)
``take:draw``              take phase             the draw pile's top card
``take:discard``           take phase             the lone discard (the pile holds exactly one card)
``take:pile,2``            take phase             the pile's top laid at once with 2 natural cards of
                                                  its rank from your hand; the rest of the pile to hand
``lay:Q,3``                lay phase              a new set: three natural queens
``lay:Q,2,w``              lay phase              a new set: two natural queens and a wild 2
``extend:Q,1``             lay phase              one more natural queen onto your set of queens
``extend:Q,0,w``           lay phase              a wild 2 onto your set of queens
``discard:QS``             lay phase              discard Q♠ (ends the turn)
``next``                   between rounds         ready for the next round (every seat, any order)
=========================  =====================  ==================================================

Ranks are named ``A``, ``2`` … ``10``, ``J``, ``Q``, ``K`` and ``joker``. In
``args`` the ranks 2–10 are whole numbers (``("lay", (10, 3))``), because that
is what :meth:`~games.base.Action.from_code` makes of ``lay:10,3``; ``apply``
also takes them as strings, ranks case-insensitively, and ``JK`` for ``joker``.
Counts are whole numbers; each trailing ``w`` adds one wild 2 (at most one is
ever legal). A set is named by its rank because a player has at most one set
per rank. Same-rank cards differ only by suit, and suits only matter for Q♠,
so lays and extensions use your cards of the rank in suit order ♠ ♥ ♦ ♣: Q♠
always goes first (laid it scores 100, held it costs 100). Discards name the
exact card. The longest code is ``extend:joker,12,w`` (17 characters).

Every action is a prebuilt constant, and :data:`PARSED` maps each to its
parsed form, so listing and applying moves costs one lookup each.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

from ..base import Action, action_parts, prebuilt
from ..errors import MalformedAction
from ..i18n import Text, plural, say
from ..phrases import either
from .points import CODE, DECK, JOKER_RANK, KINDS, RANK_COUNT, RANK_WORDS, card_id, rank_count

MAX_DECK = 162
"""Three decks with their jokers: the biggest deck a table uses (7–8 players)."""
MAX_COUNT = 12
"""The most natural cards of one rank in play (three decks × four suits)."""
STALL_LIMIT = 10
"""After this many turns in a row without a draw from the draw pile, the lone
discard can't be taken: the next player must draw (the anti-stall ruling)."""



class Kind(Enum):
    """Queen of Spades' moves (``take`` is three: from the draw pile, the lone discard, the pile)."""

    CUT = "cut"
    DEAL = "deal"
    DRAW = "take:draw"
    TAKE_ONE = "take:discard"
    PILE = "take:pile"
    LAY = "lay"
    EXTEND = "extend"
    DISCARD = "discard"
    NEXT = "next"


class Move(NamedTuple):
    """A parsed move: its kind; ``item``, the rank index (lay, extend) or card id (discard);
    ``number``, the cards to cut (cut), or the natural cards laid (take:pile, lay, extend);
    ``wilds``, the wild 2s added (``w`` arguments)."""

    kind: Kind
    item: int = 0
    number: int = 0
    wilds: int = 0

RANK_ARG: tuple[str | int, ...] = ("A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "joker")
"""How actions name each rank index (2–10 as whole numbers, see the module docs)."""
_RANK_BY_TEXT: dict[str, int] = {str(a).upper(): r for r, a in enumerate(RANK_ARG)}
_RANK_BY_TEXT["JK"] = JOKER_RANK


class QoSAction(Action):
    """An :class:`Action` worded for players: ``lay 3 queens + a wild 2``."""

    __slots__ = ()

    def words(self) -> Text:
        try:
            parsed = parse(self)
        except MalformedAction:
            return super().words()
        kind, a, b, c = parsed
        if kind == Kind.CUT:
            # English says "cards" even for one, as it always has.
            return plural("cut {count} cards", "cut {count} cards", b)
        if kind == Kind.DEAL:
            return say("deal without cutting")
        if kind == Kind.DRAW:
            return say("draw from the draw pile")
        if kind == Kind.TAKE_ONE:
            return say("take the lone discard")
        if kind == Kind.PILE:
            return say("take the pile: its top card and {count} from your hand as a new set", count=b)
        if kind in (Kind.LAY, Kind.EXTEND):
            cards = rank_count(b, a) if b or not c else None
            if c:
                wilds = say("a wild 2") if c == 1 else plural("{count} wild 2", "{count} wild 2s", c)
                cards = say("{cards} + {wilds}", cards=cards, wilds=wilds) if cards is not None else wilds
            if kind == Kind.LAY:
                return say("lay {cards}", cards=cards)
            return say("add {cards} to your {ranks}", cards=cards, ranks=RANK_WORDS[a])
        if kind == Kind.DISCARD:
            return say("discard {card}", card=DECK[a])
        return say("ready for the next round")


DEAL_ACTION = QoSAction("deal")
NEXT_ACTION = QoSAction("next")
TAKE_DRAW = QoSAction("take", ("draw",))
TAKE_DISCARD = QoSAction("take", ("discard",))
CUT_ACTION: tuple[QoSAction, ...] = tuple(QoSAction("cut", (n,)) for n in range(MAX_DECK + 1))
"""``CUT_ACTION[n]`` aims to cut ``n`` cards (index 0 is never legal)."""
TAKE_PILE: tuple[QoSAction, ...] = tuple(QoSAction("take", ("pile", n)) for n in range(MAX_COUNT + 1))
"""``TAKE_PILE[n]``: the pile's top with ``n`` natural cards from hand (legal from 2)."""


def _set_action(kind: str, r: int, n: int, wild: int) -> QoSAction:
    return QoSAction(kind, (RANK_ARG[r], n) + ("w",) * wild)


LAY_ACTION: tuple[tuple[tuple[QoSAction, QoSAction], ...], ...] = tuple(
    tuple((_set_action("lay", r, n, 0), _set_action("lay", r, n, 1)) for n in range(MAX_COUNT + 1))
    for r in range(RANK_COUNT)
)
"""``LAY_ACTION[rank][n][wild]``: a new set of ``n`` naturals of ``rank`` plus ``wild`` (0/1) wild 2s."""
EXTEND_ACTION: tuple[tuple[tuple[QoSAction, QoSAction], ...], ...] = tuple(
    tuple((_set_action("extend", r, n, 0), _set_action("extend", r, n, 1)) for n in range(MAX_COUNT + 1))
    for r in range(RANK_COUNT)
)
"""``EXTEND_ACTION[rank][n][wild]``: ``n`` naturals plus ``wild`` wild 2s onto your set of ``rank``."""
LAYS: tuple[tuple[tuple[QoSAction, ...], ...], ...] = tuple(
    tuple(tuple(LAY_ACTION[r][n][w] for n in range(MAX_COUNT + 1)) for w in (0, 1)) for r in range(RANK_COUNT)
)
"""``LAYS[rank][wild]``: :data:`LAY_ACTION` by count, so a run of counts is one slice."""
EXTENDS: tuple[tuple[tuple[QoSAction, ...], ...], ...] = tuple(
    tuple(tuple(EXTEND_ACTION[r][n][w] for n in range(MAX_COUNT + 1)) for w in (0, 1)) for r in range(RANK_COUNT)
)
"""``EXTENDS[rank][wild]``: :data:`EXTEND_ACTION` by count, so a run of counts is one slice."""
DISCARD_ACTION: tuple[QoSAction, ...] = tuple(QoSAction("discard", (code,)) for code in CODE)
"""``DISCARD_ACTION[i]`` discards card id ``i``."""

PARSED: dict[Action, Move] = {DEAL_ACTION: Move(Kind.DEAL), NEXT_ACTION: Move(Kind.NEXT),
                              TAKE_DRAW: Move(Kind.DRAW), TAKE_DISCARD: Move(Kind.TAKE_ONE)}
"""Every prebuilt action (and any action equal to one) → its :class:`Move`."""
PARSED.update({CUT_ACTION[n]: Move(Kind.CUT, number=n) for n in range(1, MAX_DECK + 1)})
PARSED.update({TAKE_PILE[n]: Move(Kind.PILE, number=n) for n in range(MAX_COUNT + 1)})
for _r in range(RANK_COUNT):
    for _n in range(MAX_COUNT + 1):
        for _w in (0, 1):
            PARSED[LAY_ACTION[_r][_n][_w]] = Move(Kind.LAY, _r, _n, _w)
            PARSED[EXTEND_ACTION[_r][_n][_w]] = Move(Kind.EXTEND, _r, _n, _w)
PARSED.update({DISCARD_ACTION[i]: Move(Kind.DISCARD, i) for i in range(KINDS)})


def rank_arg(arg: object) -> int:
    """The rank index named by an action argument (``Q``, ``10`` or 10, ``joker``/``JK``)."""
    if type(arg) is int:
        if 2 <= arg <= 10:
            return arg - 1
    elif isinstance(arg, str):
        found = _RANK_BY_TEXT.get(arg.strip().upper())
        if found is not None:
            return found
    raise MalformedAction(say("{arg} is not a rank: use A, 2–10, J, Q, K or joker", arg=repr(arg)))


def _count(arg: object, what: Text) -> int:
    if type(arg) is int and 0 <= arg <= 999:
        return arg
    if isinstance(arg, str) and arg.strip().isdigit() and len(arg.strip()) <= 3:
        return int(arg)
    raise MalformedAction(say("{what} must be a whole number, not {arg}", what=what, arg=repr(arg)))


def _wilds(args: tuple[Any, ...], example: Any) -> int:
    for a in args:
        if not (isinstance(a, str) and a.strip().lower() == "w"):
            raise MalformedAction(say("After the count only w (one wild 2) may follow, e.g. {example}; got {arg}",
                                      example=example, arg=repr(a)))
    return len(args)


def parse(action: Any) -> Move:
    """The move ``action`` names; only the form is checked here, legality is the state's
    business. Raises :class:`MalformedAction`."""
    found = prebuilt(PARSED, action)
    if found is not None:
        return found
    kind, args = action_parts(action, say("a Queen of Spades move"))
    kind = kind.strip().lower()
    if kind in ("deal", "next"):
        if args:
            raise MalformedAction(say("{kind} takes no arguments", kind=kind))
        return Move(Kind.DEAL if kind == "deal" else Kind.NEXT)
    if kind == "cut":
        if len(args) != 1:
            raise MalformedAction(say("cut takes one number, how many cards to cut, e.g. cut:40 (got {count} "
                                      "arguments)", count=len(args)))
        return Move(Kind.CUT, number=_count(args[0], say("The number of cards to cut")))
    if kind == "take":
        what = args[0].strip().lower() if args and isinstance(args[0], str) else None
        if what in ("draw", "discard") and len(args) == 1:
            return Move(Kind.DRAW if what == "draw" else Kind.TAKE_ONE)
        if what == "pile" and len(args) >= 2:
            return Move(Kind.PILE, number=_count(args[1], say("The number of matching cards from your hand")),
                        wilds=_wilds(args[2:], "take:pile,2"))
        raise MalformedAction(say("take is take:draw, take:discard or take:pile,<matching cards from your hand>, "
                                  "e.g. take:pile,2 (got {action})", action=repr(action)))
    if kind in ("lay", "extend"):
        example = either(["lay:Q,3", "lay:Q,2,w"] if kind == "lay" else ["extend:Q,1", "extend:Q,0,w"])
        if len(args) < 2:
            raise MalformedAction(say("{kind} takes a rank and a count of natural cards, e.g. {example}", kind=kind,
                                      example=example))
        return Move(Kind.LAY if kind == "lay" else Kind.EXTEND, rank_arg(args[0]),
                    _count(args[1], say("The number of cards")), _wilds(args[2:], example))
    if kind == "discard":
        if len(args) != 1:
            raise MalformedAction(say("discard takes exactly one card, e.g. discard:7C (got {count} arguments)",
                                      count=len(args)))
        if not isinstance(args[0], str):
            raise MalformedAction(say("{arg} is not a card code (expected e.g. QS, 10H, JK)", arg=repr(args[0])))
        return Move(Kind.DISCARD, card_id(args[0]))
    raise MalformedAction(say("Unknown move {kind}; Queen of Spades moves are cut, deal, take, lay, extend, discard "
                              "and next", kind=repr(kind)))


__all__ = [
    "Kind", "Move", "QoSAction", "parse", "rank_arg", "PARSED", "RANK_ARG", "CUT_ACTION", "DEAL_ACTION", "NEXT_ACTION",
    "TAKE_DRAW", "TAKE_DISCARD", "TAKE_PILE", "LAY_ACTION", "EXTEND_ACTION", "LAYS", "EXTENDS", "DISCARD_ACTION",
    "MAX_DECK", "MAX_COUNT",
]
