"""Dealing an NG game (RULINGS §4) and choosing who starts."""

from __future__ import annotations

from typing import NamedTuple

from ..cards import deal
from ..rng import Rng
from .actions import SLOTS

HAND_SIZE = 5
RESOURCE_SIZE = 1


class Deal(NamedTuple):
    hands: list[list[int]]
    fields: list[list[list[int]]]
    resources: list[list[int]]
    deck: list[int]
    first: int


def deal_game(players: int, rng: Rng) -> Deal:
    """Shuffle the 52 card ids and deal, one card at a time round the table from the
    top (end) of the deck: 5 hand cards each, then 5 field cards each (one face-down
    stack per card, slot 0 first), then 1 resource card each. The rest is the deck.
    Then a seeded draw picks the first player.

    Hands come back in the order dealt, which is already random (the deck was
    shuffled), so hand positions say nothing about the cards.
    """
    deck = list(range(52))
    rng.shuffle(deck)
    hands = deal(deck, players, HAND_SIZE)
    field_cards = deal(deck, players, SLOTS)
    resources = deal(deck, players, RESOURCE_SIZE)
    fields = [[[c] for c in cards] for cards in field_cards]
    first = rng.below(players)
    return Deal(hands, fields, resources, deck, first)
