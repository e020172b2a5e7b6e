"""The cut for the first deal, and dealing a QUASH round (RULINGS §6).

Decks and piles are lists of card ids with the top card last.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import DECK, deal
from ..i18n import Seat, Text, say
from ..phrases import listed, sentences, together
from ..rng import Rng
from .rules import RANK, RANK_WORDS, SORT_KEY

HAND_SIZE = 13
ADVANCED_ASIDE = 6
"""Advanced 2-player play: cards set aside unseen before the deal (23 each are dealt)."""


def cut_for_deal(players: int, rng: Rng) -> tuple[int, Text]:
    """Every seat cuts a card from a shuffled deck; the highest rank (aces high)
    deals first. Seats tied for the highest rank cut again (the cut cards go
    back and the deck is shuffled again) until one is highest. Returns the
    dealer and the sentence the table is told."""
    cutting = list(range(players))
    parts: list[Text] = []
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        cuts = {s: deck.pop() for s in cutting}
        shown = listed([say("{player} {card}", player=Seat(s), card=DECK[cuts[s]]) for s in cutting])
        best = max(RANK[c] for c in cuts.values())
        top = [s for s in cutting if RANK[cuts[s]] == best]
        if not parts:
            parts.append(say("Cut for the deal: {cuts}.", cuts=shown))
        else:
            parts.append(say("They cut again: {cuts}.", cuts=shown))
        if len(top) == 1:
            parts.append(say("{player} cut the highest card and deals first.", player=Seat(top[0])))
            return top[0], sentences(parts)
        parts.append(say("{players} tie with {ranks}.", players=together([Seat(s) for s in top]),
                         ranks=RANK_WORDS[best]))
        cutting = top


class Round(NamedTuple):
    hands: list[list[int]]
    pile: list[int]
    aside: list[int]


def deal_round(players: int, dealer: int, advanced: bool, rng: Rng) -> Round:
    """Shuffle all 52 cards and deal one at a time from the dealer's left.

    2 players: 13 each and 26 in the draw pile; advanced: 6 set aside unseen,
    then 23 each, no pile. 4 players: 13 each, no pile (advanced the same).
    Hands come back sorted by rank (their order is never secret information).
    """
    deck = list(range(52))
    rng.shuffle(deck)
    aside: list[int] = []
    if players == 2 and advanced:
        aside = [deck.pop() for _ in range(ADVANCED_ASIDE)]
    count = len(deck) // players if players == 4 or advanced else HAND_SIZE
    dealt = deal(deck, players, count)
    hands: list[list[int]] = [[] for _ in range(players)]
    for i, hand in enumerate(dealt):
        hands[(dealer + 1 + i) % players] = sorted(hand, key=SORT_KEY.__getitem__)
    return Round(hands, deck, aside)
