"""Dealing a War game and choosing who moves first (RULINGS §3).

Decks are lists of card ids with the top card last. A seat's deck is the pile
its dealt cards formed, so the first card dealt to it is at the bottom.
"""

from __future__ import annotations

from ..cards import PRETTY, VALUE, deal
from ..rng import Rng

FIELD_SIZE = 5
_NTH = ("first", "second", "third", "fourth", "fifth")


def deal_decks(cards: list[int], players: int, dealer: int) -> list[list[int]]:
    """Split ``cards`` (consumed) as evenly as possible, one at a time from the top,
    starting with the seat after ``dealer``; the seats first in that order get
    the extra cards. Returns the decks indexed by seat (top last)."""
    order = [(dealer + 1 + i) % players for i in range(players)]
    dealt = deal(cards, players, len(cards) // players)
    for hand in dealt:
        if not cards:
            break
        hand.append(cards.pop())
    decks: list[list[int]] = [[] for _ in range(players)]
    for seat, hand in zip(order, dealt):
        decks[seat] = hand
    return decks


def turn_fields(decks: list[list[int]]) -> list[list[int]]:
    """Each seat turns its top :data:`FIELD_SIZE` cards face up, in the order turned."""
    return [[deck.pop() for _ in range(min(FIELD_SIZE, len(deck)))] for deck in decks]


def choose_first(fields: list[list[int]], deck_sizes: list[int], rng: Rng) -> tuple[int, str]:
    """The seat that moves first and the sentence the table is told.

    The seat dealt the most cards moves first when it alone has the most (3
    players). Otherwise the seats tied on deck size compare their first turned
    card by rank value (K high, A low), then the tied seats their second
    turned card, and so on; a seeded coin decides when all five tie.
    """
    seats = list(range(len(fields)))
    most = max(deck_sizes)
    tied = [s for s in seats if deck_sizes[s] == most]
    if len(tied) == 1:
        return tied[0], f"{{p{tied[0]}}} was dealt the extra card ({most} cards), so {{p{tied[0]}}} moves first."
    parts: list[str] = []
    for depth in range(FIELD_SIZE):
        if any(len(fields[s]) <= depth for s in tied):
            break
        shown = ", ".join(f"{{p{s}}} {PRETTY[fields[s][depth]]}" for s in tied)
        if depth == 0:
            parts.append(f"First turned cards: {shown}.")
        else:
            names = " and ".join(f"{{p{s}}}" for s in tied)
            parts.append(f"{names} tie, so their {_NTH[depth]} turned cards decide: {shown}.")
        best = max(VALUE[fields[s][depth]] for s in tied)
        tied = [s for s in tied if VALUE[fields[s][depth]] == best]
        if len(tied) == 1:
            parts.append(f"{{p{tied[0]}}} moves first with the highest {_NTH[depth]} turned card.")
            return tied[0], " ".join(parts)
    starter = tied[rng.below(len(tied))]
    names = " and ".join(f"{{p{s}}}" for s in tied)
    parts.append(f"{names} still tie after all five cards, so a coin toss picks {{p{starter}}} to move first.")
    return starter, " ".join(parts)
