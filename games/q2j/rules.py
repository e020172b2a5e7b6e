"""Q Squared Joe's card tables: what may be played on what, queens and jacks, and
:func:`compare`, the public form of the Q2J concept (:mod:`games.concept`).

Q2J works with the card ids of :data:`games.cards.DECK`; every table below is
indexed by id and built once at import.
"""

from __future__ import annotations

from ..cards import DECK, RANKS, SUITS, VALUE, CardLike, card_id_reader
from ..concept import CMP
from ..i18n import Text, say
from .options import NAME

JACK, QUEEN = RANKS.index("J"), RANKS.index("Q")
JACKS: frozenset[int] = frozenset(s * 13 + JACK for s in range(len(SUITS)))
QUEENS: tuple[int, ...] = tuple(s * 13 + QUEEN for s in range(len(SUITS)))
IS_JACK: tuple[bool, ...] = tuple(i in JACKS for i in range(52))
IS_QUEEN: tuple[bool, ...] = tuple(i in QUEENS for i in range(52))

PLAYABLE_ON: tuple[bytes, ...] = tuple(bytes(1 if CMP[c][top] >= 0 else 0 for c in range(52)) for top in range(52))
"""``PLAYABLE_ON[top][c]`` is 1 when ``c`` may be played on ``top`` (stronger, or equal with a penalty)."""

BEATERS: tuple[int, ...] = tuple(sum(1 for c in range(52) if c != t and CMP[c][t] >= 0) for t in range(52))
"""How many other cards of the deck can be played on ``t``: how easy ``t`` is to cover."""


card_id = card_id_reader(NAME)
"""The id of a card or code; jokers (not in a Q2J deck) raise :class:`MalformedAction`."""


def compare(a: CardLike, b: CardLike) -> int:
    """+1 when ``a`` is stronger than ``b``, -1 when weaker, 0 when equal (RULINGS §1).

    Accepts cards or codes. The checks, in order: same rank → 0; an ace against
    a face card → the ace is stronger; same suit → the lower rank is stronger;
    otherwise the higher rank is stronger. Always ``compare(a, b) == -compare(b, a)``.
    """
    return CMP[card_id(a)][card_id(b)]


def why_not(card: int, top: int) -> Text:
    """Why ``card`` can't be played on ``top`` (for a refused move; ``card`` is weaker)."""
    c, t = DECK[card], DECK[top]
    if VALUE[top] == 1 and VALUE[card] >= 11:
        return say("You can't play {card} on {top}: an ace is stronger than any face card", card=c, top=t)
    if card // 13 == top // 13:
        return say("You can't play {card} on {top}: same suit, so the lower card is stronger", card=c, top=t)
    return say("You can't play {card} on {top}: different suits, so the higher card is stronger", card=c, top=t)
