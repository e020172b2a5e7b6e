"""Dealing a Q2J game and choosing who starts (RULINGS §2)."""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import DECK, VALUE, deal
from ..i18n import Seat, Text, say
from ..phrases import listed, sentences, together
from ..rng import Rng


def deal_hands(stock: list[int], seats: list[int], short_seat: int | None = None) -> list[list[int]]:
    """Deal 5 cards one at a time to ``seats`` from the top (end) of ``stock``.

    With ``short_seat`` (challenge) that seat gets one card, in the first round.
    Hands come back in the order dealt, one per entry of ``seats``.
    """
    if short_seat is None:
        return deal(stock, len(seats), 5)
    hands = deal(stock, len(seats), 1)
    for seat, hand in zip(seats, hands):
        if seat != short_seat:
            hand.extend(deal(stock, 1, 4)[0])
    return hands


def _rounds(seats: list[int], order: dict[int, list[int]]) -> Iterator[tuple[int, list[int]]]:
    """The rounds of the first-player rule: ``(depth, seats showing their card at that
    depth)``, until one seat has the highest card or a tied seat has no card left to show."""
    tied = list(seats)
    for depth in range(5):
        if depth > 0 and any(len(order[s]) <= depth for s in tied):
            return
        yield depth, tied
        best = max(VALUE[order[s][depth]] for s in tied)
        tied = [s for s in tied if VALUE[order[s][depth]] == best]
        if len(tied) == 1:
            return


def _order(seats: list[int], hands: list[list[int]]) -> dict[int, list[int]]:
    """Each seat's cards in the order the rule shows them: the face-up (last dealt) card first."""
    return {s: [h[-1], *h[:-1]] for s, h in zip(seats, hands)}


def shown_at_deal(seats: list[int], hands: list[list[int]]) -> dict[int, list[int]]:
    """The cards each seat showed the table while the first player was chosen."""
    order = _order(seats, hands)
    shown: dict[int, list[int]] = {s: [] for s in seats}
    for depth, tied in _rounds(seats, order):
        for s in tied:
            shown[s].append(order[s][depth])
    return shown


def _shown(depth: int, seats: Text | Seat, cards: Text) -> Text:
    """The sentence saying what the tied ``seats`` show at ``depth`` (0: the face-up cards)."""
    if depth == 0:
        return say("Face-up cards: {cards}.", cards=cards)
    return (say("{players} tie, so their first cards decide: {cards}.", players=seats, cards=cards),
            say("{players} tie, so their second cards decide: {cards}.", players=seats, cards=cards),
            say("{players} tie, so their third cards decide: {cards}.", players=seats, cards=cards),
            say("{players} tie, so their fourth cards decide: {cards}.", players=seats, cards=cards))[depth - 1]


def _starts(depth: int, seat: int) -> Text:
    """The sentence saying ``seat`` starts with the highest card shown at ``depth``."""
    player = Seat(seat)
    return (say("{player} starts with the highest face-up card.", player=player),
            say("{player} starts with the highest first card.", player=player),
            say("{player} starts with the highest second card.", player=player),
            say("{player} starts with the highest third card.", player=player),
            say("{player} starts with the highest fourth card.", player=player))[depth]


def choose_first(seats: list[int], hands: list[list[int]], rng: Rng) -> tuple[int, Text]:
    """The seat that starts and the sentence the table is told.

    Each hand is compared by rank value (K high, A low): first its face-up
    card (the last dealt), then among tied seats the first dealt card, the
    second, … A seeded coin picks among seats still tied when the cards run
    out (all five tie, or a challenge's one-card hand has nothing more to show).
    """
    order = _order(seats, hands)
    parts: list[Text] = []
    tied = list(seats)
    for depth, tied in _rounds(seats, order):
        cards = listed([say("{player} {card}", player=Seat(s), card=DECK[order[s][depth]]) for s in tied])
        parts.append(_shown(depth, together([Seat(s) for s in tied]), cards))
        best = max(VALUE[order[s][depth]] for s in tied)
        winners = [s for s in tied if VALUE[order[s][depth]] == best]
        if len(winners) == 1:
            parts.append(_starts(depth, winners[0]))
            return winners[0], sentences(parts)
        tied = winners
    starter = tied[rng.below(len(tied))]
    parts.append(say("{players} still tie with no cards left to compare, so a coin toss picks {player} to start.",
                     players=together([Seat(s) for s in tied]), player=Seat(starter)))
    return starter, sentences(parts)
