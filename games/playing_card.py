"""A playing card as a value: its rank and suit, its code and display form, one object per
code (RULINGS.md, "Cards and notation"). It depends on nothing: the words
(:mod:`games.i18n`) show cards, and :mod:`games.cards` parses, deals and numbers them.

A card code is rank then suit (``QS``, ``10H``, ``AC``) or ``JK`` for a joker.
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKER_CODE = "JK"

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``rank`` is one of :data:`RANKS` (``""`` for a joker)."""

    rank: str
    suit: str

    @property
    def code(self) -> str:
        return JOKER_CODE if self.is_joker else self.rank + self.suit

    @property
    def is_joker(self) -> bool:
        return self.suit == ""

    @property
    def value(self) -> int:
        """Rank value with A=1 … K=13 (0 for a joker)."""
        return 0 if self.is_joker else RANKS.index(self.rank) + 1

    @property
    def pretty(self) -> str:
        """Display form with a suit symbol, e.g. ``Q♥``; ``🃏`` for a joker."""
        return "🃏" if self.is_joker else self.rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


BY_CODE: dict[str, Card] = {r + s: Card(r, s) for s in SUITS for r in RANKS}
"""Every card by its exact code (upper case), the joker under ``JK``: one object per code."""
JOKER = Card("", "")
BY_CODE[JOKER_CODE] = JOKER
