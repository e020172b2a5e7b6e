"""The Q2J concept (RULINGS.md §1): which of two cards is stronger.

Q Squared Joe, War and NG all decide with it, on the card ids of
:data:`games.cards.DECK`; ``games.q2j.compare`` is its public form for cards
and codes. :data:`CMP` is built once at import.
"""

from __future__ import annotations

from .cards import DECK, VALUE, Card
from .i18n import Text, say


def _compare_cards(a: Card, b: Card) -> int:
    """RULINGS §1, the four checks in their order."""
    if a.rank == b.rank:
        return 0
    va, vb = a.value, b.value
    if va == 1 and vb >= 11:
        return 1
    if vb == 1 and va >= 11:
        return -1
    if a.suit == b.suit:
        return 1 if va < vb else -1
    return 1 if va > vb else -1


CMP: tuple[tuple[int, ...], ...] = tuple(tuple(_compare_cards(a, b) for b in DECK) for a in DECK)
"""``CMP[a][b]``: +1 when card id ``a`` is stronger than ``b``, -1 when weaker, 0 when equal."""


_SAME_RANK, _ACE, _SAME_SUIT, _OTHER_SUITS = (
    say("same rank, equal strength"), say("an ace beats a face card"), say("same suit, lower is stronger"),
    say("different suits, higher is stronger"))


def relation(card: int, top: int) -> Text:
    """A short phrase for why ``card`` may go on (or beat, or tie with) ``top``, for event texts."""
    if CMP[card][top] == 0:
        return _SAME_RANK
    if VALUE[card] == 1 and VALUE[top] >= 11:
        return _ACE
    if card // 13 == top // 13:
        return _SAME_SUIT
    return _OTHER_SUITS
