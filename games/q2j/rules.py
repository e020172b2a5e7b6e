"""The Q Squared Joe concept (RULINGS.md §1): which card is stronger.

Engines work with *card ids*: ``i`` is the index of a card in
:func:`games.cards.standard_deck` order (suit-major: spades A..K, hearts,
diamonds, clubs), and ``DECK[i]`` is the interned :class:`Card`. Ids keep
the hot paths (legal moves, random play) free of dataclass hashing; every
table below is indexed by id and built once at import.
"""

from __future__ import annotations

from ..cards import RANKS, SUITS, Card, CardLike, parse_card, standard_deck
from ..errors import MalformedAction

DECK: tuple[Card, ...] = tuple(standard_deck())
CARD_ID: dict[Card, int] = {card: i for i, card in enumerate(DECK)}
CODE: tuple[str, ...] = tuple(c.code for c in DECK)
PRETTY: tuple[str, ...] = tuple(c.pretty for c in DECK)
ID_BY_CODE: dict[str, int] = {code: i for i, code in enumerate(CODE)}
VALUE: tuple[int, ...] = tuple(c.value for c in DECK)
"""Rank value, A=1 … K=13 (the first-player rule compares these)."""

JACK, QUEEN = RANKS.index("J"), RANKS.index("Q")
JACKS: frozenset[int] = frozenset(s * 13 + JACK for s in range(len(SUITS)))
QUEENS: tuple[int, ...] = tuple(s * 13 + QUEEN for s in range(len(SUITS)))
IS_JACK: tuple[bool, ...] = tuple(i in JACKS for i in range(52))
IS_QUEEN: tuple[bool, ...] = tuple(i in QUEENS for i in range(52))


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
"""``CMP[a][b]`` is ``compare(a, b)`` for card ids."""

PLAYABLE_ON: tuple[bytes, ...] = tuple(bytes(1 if CMP[c][top] >= 0 else 0 for c in range(52)) for top in range(52))
"""``PLAYABLE_ON[top][c]`` is 1 when ``c`` may be played on ``top`` (stronger, or equal with a penalty)."""

BEATERS: tuple[int, ...] = tuple(sum(1 for c in range(52) if c != t and CMP[c][t] >= 0) for t in range(52))
"""How many other cards of the deck can be played on ``t``: how easy ``t`` is to cover."""


def card_id(card: CardLike) -> int:
    """The id of a card or code; jokers (not in a Q2J deck) raise :class:`MalformedAction`."""
    if isinstance(card, str):
        found = ID_BY_CODE.get(card)
        if found is not None:
            return found
    parsed = parse_card(card)
    if parsed.is_joker:
        raise MalformedAction("Q Squared Joe is played without jokers")
    return CARD_ID[parsed]


def compare(a: CardLike, b: CardLike) -> int:
    """+1 when ``a`` is stronger than ``b``, -1 when weaker, 0 when equal (RULINGS §1).

    Accepts cards or codes. The checks, in order: same rank → 0; an ace against
    a face card → the ace is stronger; same suit → the lower rank is stronger;
    otherwise the higher rank is stronger. Always ``compare(a, b) == -compare(b, a)``.
    """
    return CMP[card_id(a)][card_id(b)]


def why_not(card: int, top: int) -> str:
    """Why ``card`` can't be played on ``top`` (for a refused move; ``card`` is weaker)."""
    c, t = PRETTY[card], PRETTY[top]
    if VALUE[top] == 1 and VALUE[card] >= 11:
        reason = "an ace is stronger than any face card"
    elif card // 13 == top // 13:
        reason = "same suit, so the lower card is stronger"
    else:
        reason = "different suits, so the higher card is stronger"
    return f"You can't play {c} on {t}: {reason}"


def relation(card: int, top: int) -> str:
    """A short phrase for why ``card`` may go on ``top`` (for event texts)."""
    result = CMP[card][top]
    if result == 0:
        return "same rank, equal strength"
    if VALUE[card] == 1 and VALUE[top] >= 11:
        return "an ace beats a face card"
    if card // 13 == top // 13:
        return "same suit, lower is stronger"
    return "different suits, higher is stronger"
