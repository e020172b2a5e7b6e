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

from collections.abc import Iterable, Sequence

from ..cards import JOKER, RANKS, SUITS, Card, CardLike, parse_card
from ..errors import MalformedAction

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
PLURAL: tuple[str, ...] = (
    "aces", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings", "jokers",
)
SINGULAR: tuple[str, ...] = (
    "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "joker",
)


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
        raise MalformedAction("round_score takes a list of sets (lists of cards) and a list of hand cards")
    return sum(POINTS[card_id(c)] for s in laid for c in s) - sum(POINTS[card_id(c)] for c in hand)


def full_deck(decks: int) -> list[int]:
    """The ids of ``decks`` packs with their two jokers each, in a fixed order (shuffle it)."""
    return (list(range(52)) + [JOKER_ID, JOKER_ID]) * decks


def pretty(ids: Iterable[int]) -> str:
    return " ".join(PRETTY[i] for i in ids)
