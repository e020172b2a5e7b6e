"""Dealing a War game and choosing who moves first (RULINGS §3).

Decks are lists of card ids with the top card last. A seat's deck is the pile
its dealt cards formed, so the first card dealt to it is at the bottom.
"""

from __future__ import annotations

from ..cards import DECK, VALUE, deal
from ..i18n import Seat, Text, plural, say
from ..phrases import listed, sentences, together
from ..rng import Rng

FIELD_SIZE = 5


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


def _turned(depth: int, seats: Text | Seat, shown: Text) -> Text:
    """The sentence saying the tied ``seats`` compare their turned cards at ``depth``."""
    if depth == 0:
        return say("First turned cards: {shown}.", shown=shown)
    return (say("{players} tie, so their second turned cards decide: {shown}.", players=seats, shown=shown),
            say("{players} tie, so their third turned cards decide: {shown}.", players=seats, shown=shown),
            say("{players} tie, so their fourth turned cards decide: {shown}.", players=seats, shown=shown),
            say("{players} tie, so their fifth turned cards decide: {shown}.", players=seats, shown=shown))[depth - 1]


def _moves_first(depth: int, seat: int) -> Text:
    """The sentence saying ``seat`` moves first with the highest turned card at ``depth``."""
    player = Seat(seat)
    return (say("{player} moves first with the highest first turned card.", player=player),
            say("{player} moves first with the highest second turned card.", player=player),
            say("{player} moves first with the highest third turned card.", player=player),
            say("{player} moves first with the highest fourth turned card.", player=player),
            say("{player} moves first with the highest fifth turned card.", player=player))[depth]


def choose_first(fields: list[list[int]], deck_sizes: list[int], rng: Rng) -> tuple[int, Text]:
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
        return tied[0], plural("{player} was dealt the extra card ({count} card), so {player} moves first.",
                               "{player} was dealt the extra card ({count} cards), so {player} moves first.", most,
                               player=Seat(tied[0]))
    parts: list[Text] = []
    for depth in range(FIELD_SIZE):
        if any(len(fields[s]) <= depth for s in tied):
            break
        shown = listed([say("{player} {card}", player=Seat(s), card=DECK[fields[s][depth]]) for s in tied])
        parts.append(_turned(depth, together([Seat(s) for s in tied]), shown))
        best = max(VALUE[fields[s][depth]] for s in tied)
        tied = [s for s in tied if VALUE[fields[s][depth]] == best]
        if len(tied) == 1:
            parts.append(_moves_first(depth, tied[0]))
            return tied[0], sentences(parts)
    starter = tied[rng.below(len(tied))]
    parts.append(say("{players} still tie after all five cards, so a coin toss picks {player} to move first.",
                     players=together([Seat(s) for s in tied]), player=Seat(starter)))
    return starter, sentences(parts)
