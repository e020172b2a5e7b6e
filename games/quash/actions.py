"""QUASH moves and their compact encoding.

==================================  ==========================  =========================================
action                              ``code()``                  meaning
==================================  ==========================  =========================================
``("place", card, spot)``           ``place:9D,4``              a hand card (or the card in the air) onto
                                                                an open slot of spot 4: the turn ends
``("swap", card, spot, d)``         ``swap:9D,4,6C``            advanced: 9♦ into spot 4 in place of 6♣,
                                                                which is then in the air
``("takeback",)``                   ``takeback``                advanced, while a card is in the air: the
                                                                whole chain back, as the turn began
``("tiebreak", card)``              ``tiebreak:9H``             your side's secret tiebreak card
``("chooser", seat)``               ``chooser:2``               4 players: hand your team's tiebreak
                                                                choice to your partner (seat 2, 0-based)
==================================  ==========================  =========================================

Spots are numbered 1–9 as on the board; seats are 0-based like every seat in
actions. A swap chain is played one placement (one action) at a time: see
:mod:`games.quash.chains`.

Older move logs hold whole chains as one action, ``swap:9D,4,6C,7`` (… 6♣
moves to an open slot of spot 7) or ``swap:9D,4,6C,3,QH,8`` (… 6♣ displaces
Q♥ in spot 3, and Q♥ lands on spot 8): an even number of arguments. They are
still accepted, played step by step (:func:`chain_args` reads them).

Placements, swap steps, tiebreak cards and hand-overs are shared constants
(swap steps are made on first use), so listing them allocates nothing but the list,
and :func:`parse` reads one with a single lookup.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from ..base import Action, action_parts, prebuilt
from ..cards import CODE, DECK, ID_BY_CODE, Card
from ..errors import MalformedAction
from ..i18n import Text, say
from .rules import SPOTS, card_arg

MAX_SEATS = 4


class Kind(StrEnum):
    """QUASH's moves, named as in action codes."""

    PLACE = "place"
    SWAP = "swap"
    TAKEBACK = "takeback"
    TIEBREAK = "tiebreak"
    CHOOSER = "chooser"


class Move(NamedTuple):
    """A parsed move: its kind, the card it moves (card ids), the spot (0-based), the card
    it displaces, the seat a ``chooser`` hands over to, and an old whole-chain ``swap``'s
    (cards, spots) (see :func:`chain_args`)."""

    kind: Kind
    card: int = -1
    spot: int = -1
    displaced: int = -1
    seat: int = -1
    chain: tuple[tuple[int, ...], tuple[int, ...]] | None = None


def _card(arg: object) -> Card | str:
    found = ID_BY_CODE.get(arg) if isinstance(arg, str) else None
    return DECK[found] if found is not None else str(arg)


class QuashAction(Action):
    """An :class:`Action` worded for players: ``9♦ to spot 4``, ``9♦ to spot 4 for 6♣``,
    ``take the chain back``, ``tiebreak with 9♥``, ``let seat 3 choose``."""

    __slots__ = ()

    def words(self) -> Text:
        kind, args = self.kind, self.args
        if kind == "place" and len(args) == 2:
            return say("{card} to spot {spot}", card=_card(args[0]), spot=args[1])
        if kind == "swap" and len(args) == 3:
            return say("{card} to spot {spot} for {displaced}", card=_card(args[0]), spot=args[1],
                       displaced=_card(args[2]))
        if kind == "swap" and len(args) >= 4 and len(args) % 2 == 0:
            text = say("{card} to spot {spot}", card=_card(args[0]), spot=args[1])
            for i in range(2, len(args), 2):
                text = say("{chain} for {card} → spot {spot}", chain=text, card=_card(args[i]), spot=args[i + 1])
            return text
        if kind == "takeback" and not args:
            return say("take the chain back")
        if kind == "tiebreak" and len(args) == 1:
            return say("tiebreak with {card}", card=_card(args[0]))
        if kind == "chooser" and len(args) == 1:
            seat = args[0]
            return say("let seat {number} choose the tiebreak card", number=seat + 1 if type(seat) is int else seat)
        return super().words()


PLACE: tuple[tuple[QuashAction, ...], ...] = tuple(
    tuple(QuashAction("place", (code, s + 1)) for s in range(SPOTS)) for code in CODE
)
"""``PLACE[c][s]``: card id ``c`` onto spot index ``s`` (shown as spot ``s + 1``)."""
TIEBREAK: tuple[QuashAction, ...] = tuple(QuashAction("tiebreak", (code,)) for code in CODE)
CHOOSER: tuple[QuashAction, ...] = tuple(QuashAction("chooser", (s,)) for s in range(MAX_SEATS))

TAKEBACK = QuashAction("takeback")

PARSED: dict[Action, Move] = {TAKEBACK: Move(Kind.TAKEBACK)}
"""Every prebuilt action (and any action equal to one) → its :class:`Move`; swap steps
join when :func:`swap_step` makes them."""
PARSED.update({PLACE[c][s]: Move(Kind.PLACE, c, s) for c in range(len(CODE)) for s in range(SPOTS)})
PARSED.update({TIEBREAK[c]: Move(Kind.TIEBREAK, c) for c in range(len(CODE))})
PARSED.update({CHOOSER[s]: Move(Kind.CHOOSER, seat=s) for s in range(MAX_SEATS)})

SWAPS: list[QuashAction | None] = [None] * (len(CODE) * SPOTS * len(CODE))
"""``SWAPS[(card * SPOTS + spot) * 52 + displaced]``: the swap step once :func:`swap_step` has made it."""


def swap_step(card: int, spot: int, displaced: int) -> QuashAction:
    """The swap step ``card`` onto spot index ``spot`` in place of ``displaced`` (made once)."""
    key = (card * SPOTS + spot) * 52 + displaced
    action = SWAPS[key]
    if action is None:
        action = SWAPS[key] = QuashAction("swap", (CODE[card], spot + 1, CODE[displaced]))
        PARSED[action] = Move(Kind.SWAP, card, spot, displaced)
    return action


def spot_arg(arg: object) -> int:
    """A spot number (1–9) from an action argument, as a 0-based index."""
    if type(arg) is not int or not 1 <= arg <= SPOTS:
        raise MalformedAction(say("{arg} is not a spot: spots are numbered 1 to {count}", arg=repr(arg), count=SPOTS))
    return arg - 1


def chain_args(args: tuple[Any, ...]) -> tuple[list[int], list[int]]:
    """(cards, spot indexes) of a ``place`` or an old whole-chain ``swap``: ``cards[0]`` is
    the hand card, ``cards[i]`` the card displaced from ``spots[i - 1]``; ``cards[i]`` goes
    to ``spots[i]``. Only the form is checked here."""
    if len(args) < 2 or len(args) % 2:
        raise MalformedAction(say("A placement is a card then a spot (place:9D,4); a swap step adds the card it "
                                  "displaces (swap:9D,4,6C); got {count} arguments", count=len(args)))
    if len(args) > 4 * SPOTS:
        raise MalformedAction(say("That swap chain is longer than any board allows"))
    cards = [card_arg(args[i]) for i in range(0, len(args), 2)]
    spots = [spot_arg(args[i]) for i in range(1, len(args), 2)]
    return cards, spots


def one_arg(kind: str, args: tuple[Any, ...], example: str) -> object:
    if len(args) != 1:
        raise MalformedAction(say("{kind} takes exactly one argument, e.g. {example} (got {count})", kind=kind,
                                  example=example, count=len(args)))
    return args[0]


def parse(action: Any) -> Move:
    """The move ``action`` names (codes are case-insensitive); only its form is checked,
    legality is the state's. Anything else raises :class:`MalformedAction`."""
    found = prebuilt(PARSED, action)
    if found is not None:
        return found
    kind, args = action_parts(action, say("a QUASH move"))
    if kind == Kind.PLACE:
        cards, spots = chain_args(args)
        if len(cards) != 1:
            raise MalformedAction(say("place takes a card and a spot, e.g. place:9D,4 (a swap step is "
                                      "swap:9D,4,6C)"))
        return Move(Kind.PLACE, cards[0], spots[0])
    if kind == Kind.SWAP:
        if len(args) == 3:
            return Move(Kind.SWAP, card_arg(args[0]), spot_arg(args[1]), card_arg(args[2], say("a card to displace")))
        cards, spots = chain_args(args)
        if len(cards) < 2:
            raise MalformedAction(say("A swap step names the card it displaces, e.g. swap:9D,4,6C"))
        return Move(Kind.SWAP, chain=(tuple(cards), tuple(spots)))
    if kind == Kind.TAKEBACK:
        if args:
            raise MalformedAction(say("takeback takes no arguments"))
        return Move(Kind.TAKEBACK)
    if kind == Kind.TIEBREAK:
        return Move(Kind.TIEBREAK, card_arg(one_arg(kind, args, "tiebreak:9H"), say("your tiebreak card")))
    if kind == Kind.CHOOSER:
        target = one_arg(kind, args, "chooser:2")
        if type(target) is not int:
            raise MalformedAction(say("chooser takes a seat number, not {target}", target=repr(target)))
        return Move(Kind.CHOOSER, seat=target)
    raise MalformedAction(say("Unknown move {kind}; QUASH moves are place, swap, takeback, tiebreak and chooser",
                              kind=repr(kind)))
