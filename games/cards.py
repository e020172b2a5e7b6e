"""Playing cards: codes, parsing, decks. Written once, used by every game.

A card code is rank then suit (``QS``, ``10H``, ``AC``) or ``JK`` for a joker
(RULINGS.md, "Cards and notation"); the :class:`Card` value is
:mod:`games.playing_card`'s, here with everything else. Parsing is case-insensitive. Cards are
interned: ``parse_card("qs") is parse_card("QS")``, so identity and equality
checks are cheap on hot paths. Two-deck games hold equal cards twice; a code
names a card, not a physical copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from .errors import MalformedAction
from .i18n import say
from .playing_card import BY_CODE, JOKER, RANKS, SUITS, Card
from .playing_card import JOKER_CODE as JOKER_CODE
from .playing_card import SUIT_SYMBOLS as SUIT_SYMBOLS
from .rng import Rng

CardLike = Card | str

_PRETTY_BY_CODE: dict[str, str] = {code: card.pretty for code, card in BY_CODE.items()}


def parse_card(code: CardLike) -> Card:
    """The card for a code (or the card itself). Raises :class:`MalformedAction`."""
    if type(code) is str:
        card = BY_CODE.get(code)  # the usual case: a code exactly as views write it
        if card is not None:
            return card
    elif isinstance(code, Card):
        return code
    if not isinstance(code, str):
        raise MalformedAction(say("{code} is not a card code (expected e.g. QS, 10H, JK)", code=repr(code)))
    card = BY_CODE.get(code.strip().upper())
    if card is None:
        raise MalformedAction(
            say("{code} is not a card: use a rank (A 2-10 J Q K) then a suit (S H D C), or JK", code=repr(code)))
    return card


def parse_cards(codes: Iterable[CardLike]) -> list[Card]:
    return [parse_card(c) for c in codes]


def codes(cards: Iterable[Card]) -> list[str]:
    """Card codes of ``cards``, for views and snapshots."""
    return [c.code for c in cards]


def pretty(cards: Iterable[CardLike]) -> str:
    """``Q♥ Q♣`` — display form of several cards."""
    return " ".join([(type(c) is str and _PRETTY_BY_CODE.get(c)) or parse_card(c).pretty for c in cards])


def shown_arg(arg: object) -> str:
    """An action argument as players read it: a card code in display form (``Q♥``), anything else as it is."""
    shown = shown_card(arg)
    return shown.pretty if isinstance(shown, Card) else str(shown)


def shown_card(arg: object) -> Card | object:
    """An action argument as a value words show: the card a code names, anything else as it is."""
    if isinstance(arg, str):
        try:
            return parse_card(arg)
        except MalformedAction:
            pass
    return arg


def standard_deck(decks: int = 1, jokers_per_deck: int = 0) -> list[Card]:
    """``decks`` 52-card packs plus their jokers, in a fixed order (shuffle it)."""
    one = [BY_CODE[r + s] for s in SUITS for r in RANKS] + [JOKER] * jokers_per_deck
    return one * decks


def shuffled_deck(rng: Rng, decks: int = 1, jokers_per_deck: int = 0) -> list[Card]:
    deck = standard_deck(decks, jokers_per_deck)
    rng.shuffle(deck)
    return deck


T = TypeVar("T")


def deal(stock: list[T], hands: int, count: int) -> list[list[T]]:
    """Deal ``count`` cards to each of ``hands`` hands one at a time, from the top.

    The top of ``stock`` is its last element; dealt cards are removed from it.
    Hand order follows dealing order: a hand's first card is its first dealt.
    """
    if hands * count > len(stock):
        raise ValueError(f"cannot deal {count} cards to {hands} hands from {len(stock)}")
    dealt: list[list[T]] = [[] for _ in range(hands)]
    for _ in range(count):
        for hand in dealt:
            hand.append(stock.pop())
    return dealt


# -- card ids of one 52-card deck -------------------------------------------------------
# Engines played with one deck and no jokers work with *card ids*: ``i`` is the index of
# a card in :func:`standard_deck` order (suit-major: spades A..K, hearts, diamonds,
# clubs), and ``DECK[i]`` is the interned :class:`Card`. Ids keep hot paths (legal
# moves, random play) free of dataclass hashing; the tables below are indexed by id.

DECK: tuple[Card, ...] = tuple(standard_deck())
CARD_ID: dict[Card, int] = {card: i for i, card in enumerate(DECK)}
CODE: tuple[str, ...] = tuple(c.code for c in DECK)
PRETTY: tuple[str, ...] = tuple(c.pretty for c in DECK)
ID_BY_CODE: dict[str, int] = {code: i for i, code in enumerate(CODE)}
VALUE: tuple[int, ...] = tuple(c.value for c in DECK)
"""Rank value by id, A=1 … K=13."""


def card_id_reader(game_name: str) -> Callable[[CardLike], int]:
    """The card-id reader of a game played with :data:`DECK`: it takes a card or a code
    (any case) and refuses a joker with "<game_name> is played without jokers"."""

    def card_id(card: CardLike) -> int:
        if isinstance(card, str):
            found = ID_BY_CODE.get(card)
            if found is not None:
                return found
        parsed = parse_card(card)
        if parsed.is_joker:
            raise MalformedAction(say("{game} is played without jokers", game=game_name))
        return CARD_ID[parsed]

    return card_id


def pretty_ids(ids: Iterable[int]) -> str:
    """``Q♥ 9♠`` — display form of several card ids of :data:`DECK`."""
    return " ".join(PRETTY[i] for i in ids)
