"""Queen of Spades card ids, ranks and points (RULINGS.md §5).

Engines work with *card ids*: ``i`` in ``range(53)``; ids ``0..51`` are
``rank * 4 + suit`` in :data:`games.cards.RANKS` × :data:`games.cards.SUITS`
order (A♠ A♥ A♦ A♣ 2♠ … K♣), ``52`` is the joker. Several decks hold equal
cards, so an id names a kind of card, not a physical copy; hands are counts
per id. Rank indexes run ``0`` (aces) … ``12`` (kings) and ``13`` for jokers,
which form their own sets. Every table below is indexed by id or rank index
and built once at import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..cards import JOKER, RANKS, SUITS, Card, CardLike, parse_card
from ..errors import MalformedAction
from ..i18n import Text, plural, say

KINDS = 53
JOKER_ID = 52
RANK_COUNT = 14
"""Thirteen ranks and the jokers."""
JOKER_RANK = 13
TWO = RANKS.index("2")

DECK: tuple[Card, ...] = tuple(parse_card(r + s) for r in RANKS for s in SUITS) + (JOKER,)
CODE: tuple[str, ...] = tuple(c.code for c in DECK)
PRETTY: tuple[str, ...] = tuple(c.pretty for c in DECK)
ID_BY_CODE: dict[str, int] = {code: i for i, code in enumerate(CODE)}
RANK_OF: tuple[int, ...] = tuple(i // 4 for i in range(52)) + (JOKER_RANK,)
IDS_OF_RANK: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(r * 4, r * 4 + 4)) for r in range(13)
) + ((JOKER_ID,),)
"""The ids of each rank, in suit order (♠ first, so Q♠ is the first queen)."""

RANK_NAME: tuple[str, ...] = RANKS + ("joker",)
"""How views name a set's rank (``joker`` rather than ``JK``, which is a card code)."""
RANK_WORDS: tuple[Text, ...] = (
    say("aces"), say("2s"), say("3s"), say("4s"), say("5s"), say("6s"), say("7s"), say("8s"), say("9s"),
    say("10s"), say("jacks"), say("queens"), say("kings"), say("jokers"),
)
"""Each rank index as players name its cards together (``your {ranks}``: your queens)."""
SET_OF: tuple[Text, ...] = (
    say("set of aces"), say("set of 2s"), say("set of 3s"), say("set of 4s"), say("set of 5s"), say("set of 6s"),
    say("set of 7s"), say("set of 8s"), say("set of 9s"), say("set of 10s"), say("set of jacks"),
    say("set of queens"), say("set of kings"), say("set of jokers"),
)
"""Each rank index's set (``a {set}``: a set of queens)."""
_COUNTED: tuple[Callable[[int], Text], ...] = (
    lambda n: plural("{count} ace", "{count} aces", n), lambda n: plural("{count} 2", "{count} 2s", n),
    lambda n: plural("{count} 3", "{count} 3s", n), lambda n: plural("{count} 4", "{count} 4s", n),
    lambda n: plural("{count} 5", "{count} 5s", n), lambda n: plural("{count} 6", "{count} 6s", n),
    lambda n: plural("{count} 7", "{count} 7s", n), lambda n: plural("{count} 8", "{count} 8s", n),
    lambda n: plural("{count} 9", "{count} 9s", n), lambda n: plural("{count} 10", "{count} 10s", n),
    lambda n: plural("{count} jack", "{count} jacks", n), lambda n: plural("{count} queen", "{count} queens", n),
    lambda n: plural("{count} king", "{count} kings", n), lambda n: plural("{count} joker", "{count} jokers", n),
)


def rank_count(count: int, rank: int) -> Text:
    """``count`` cards of rank index ``rank`` (``1 queen``, ``3 queens``)."""
    return _COUNTED[rank](count)



def _points(card: Card) -> int:
    if card.is_joker:
        return 50
    if card.code == "QS":
        return 100
    if card.rank == "2":
        return 20
    if card.rank == "A":
        return 15
    if card.rank in ("10", "J", "Q", "K"):
        return 10
    return 5


POINTS: tuple[int, ...] = tuple(_points(c) for c in DECK)
"""``POINTS[i]``: Q♠ 100, joker 50, 2 20, ace 15, 10 J Q K 10, 3–9 5."""


def card_id(card: CardLike) -> int:
    """The id of a card or code (case-insensitive); anything else raises :class:`MalformedAction`."""
    if isinstance(card, str):
        found = ID_BY_CODE.get(card)
        if found is not None:
            return found
    return ID_BY_CODE[parse_card(card).code]


def card_points(card: CardLike) -> int:
    """What ``card`` (a code or a :class:`Card`) is worth laid, or costs left in hand:
    Q♠ 100, joker 50, any 2 20, ace 15, 10 J Q K 10, 3–9 5 (RULINGS §5)."""
    return POINTS[card_id(card)]


def round_score(laid: Sequence[Iterable[CardLike]], hand: Iterable[CardLike]) -> int:
    """Value of the laid sets minus value of the cards left in hand, without bonuses
    (it may be negative). ``laid`` is a list of sets, each a list of codes or cards;
    wild 2s count 20 like any 2. Nothing checks that the sets are valid."""
    if isinstance(hand, (str, Card)) or any(isinstance(s, (str, Card)) for s in laid):
        raise MalformedAction(say("round_score takes a list of sets (lists of cards) and a list of hand cards"))
    return sum(POINTS[card_id(c)] for s in laid for c in s) - sum(POINTS[card_id(c)] for c in hand)


def full_deck(decks: int) -> list[int]:
    """The ids of ``decks`` packs with their two jokers each, in a fixed order (shuffle it)."""
    return (list(range(52)) + [JOKER_ID, JOKER_ID]) * decks


def cards_of(ids: Iterable[int]) -> tuple[Card, ...]:
    """The cards of ids, as a value words show (``Q♠ Q♠ 2♥``)."""
    return tuple(DECK[i] for i in ids)


def rank_of(code: str) -> str:
    """A card code's rank as the table groups cards (``"10"``, ``"K"``, ``"joker"``)."""
    card = parse_card(code)
    return "joker" if card.is_joker else card.rank
