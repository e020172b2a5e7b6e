"""The deck, the cut and the deal of a Queen of Spades round (RULINGS §5)."""

from __future__ import annotations

from typing import NamedTuple

from ..cards import deal as deal_cards
from ..rng import Rng
from .points import full_deck

HAND_SIZE = 13
JOKERS_PER_DECK = 2
CUT_SPREAD = 4
"""A real cut lands up to this many cards either side of the aim."""


def decks_for(players: int) -> int:
    """Two decks with jokers for up to 6 players, three for 7–8."""
    return 2 if players <= 6 else 3


def deck_size(players: int) -> int:
    return decks_for(players) * (52 + JOKERS_PER_DECK)


def perfect_cuts(players: int) -> tuple[int, int]:
    """The cuts worth the 100-point bonus: exactly the deal, or the deal and the face-up card."""
    return HAND_SIZE * players, HAND_SIZE * players + 1


def shuffled(players: int, rng: Rng) -> list[int]:
    """A freshly shuffled deck (card ids; the top card is the last element)."""
    deck = full_deck(decks_for(players))
    rng.shuffle(deck)
    return deck


def land_cut(aim: int, size: int, rng: Rng) -> int:
    """Where a cut aimed at ``aim`` cards really lands: seeded, uniform over the
    numbers within ±4 of ``aim`` that are a possible cut (``1 … size``), so an aim
    near either end of the deck lands on each possible count equally often."""
    low, high = max(aim - CUT_SPREAD, 1), min(aim + CUT_SPREAD, size)
    return low + rng.below(high - low + 1)


class Dealt(NamedTuple):
    hands: list[list[int]]
    """Per seat, in the order dealt."""
    face_up: int
    """The card that starts the discard pile."""


def deal_round(stock: list[int], players: int, dealer: int) -> Dealt:
    """Deal 13 cards each, one at a time from the top of ``stock`` (its last element),
    starting with the seat after the dealer, then turn the next card face up.

    With a cut, the dealer deals from the cut packet (the top part of the deck)
    and tops up from the rest, which is the same card order, so the cut never
    changes the cards: it only decides the bonus. ``stock`` keeps the draw pile.
    """
    order = [(dealer + 1 + i) % players for i in range(players)]
    dealt = deal_cards(stock, players, HAND_SIZE)
    hands: list[list[int]] = [[] for _ in range(players)]
    for i, seat in enumerate(order):
        hands[seat] = dealt[i]
    return Dealt(hands, stock.pop())
