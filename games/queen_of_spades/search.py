"""What the hard AI (:mod:`games.search`) needs to know about Queen of Spades.

Hidden: the draw pile, the set-aside cards and, while a round is played, every
other hand but the cards the table saw it take from the discard pile (``known``).
The guesses read the other hands as a player at the table would (:func:`excluded`):
someone who plays sensibly lays what they can and discards what they don't
collect, so between their turns they hold no card of a rank they have laid, no 2
while one of their sets lacks a wild, and none of a rank they let go. A position is worth the match total plus, mid-round, what the seat
has laid minus what it still holds (so the Q♠ counts +100 laid, −100 held),
against the best other seat.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..evaluation import margin_value
from ..determinize import Slot
from .points import CODE, ID_BY_CODE, IDS_OF_RANK, POINTS, RANK_NAME, RANK_OF, TWO
from .state import QoSState

BUDGET = 1500
ROLLOUT_MOVES = 60
MARGIN = 0.15
"""Most QoS moves the heuristic already plays well: the search must clearly beat it."""
HELD_WEIGHT = 0.5
"""What a held card costs in an unfinished round, as a share of its points: it may still be laid."""
SCALE = 120
"""Points of margin that make a position clearly better (about a Q♠ laid against one held)."""


def hidden_slots(snap: dict[str, Any], seat: int | None) -> list[Slot]:
    slots: list[Slot] = [(snap["draw"], i) for i in range(len(snap["draw"]))]
    slots += [(snap["aside"], i) for i in range(len(snap["aside"]))]
    if snap["phase"] in ("take", "play"):
        for s, hand in enumerate(snap["hands"]):
            if s != seat:
                known = Counter(snap["known"][s])
                for i, code in enumerate(hand):
                    if known[code]:
                        known[code] -= 1
                    else:
                        slots.append((hand, i))
    return slots


def excluded(snap: dict[str, Any], seat: int | None, slots: list[Slot]) -> list[frozenset[str] | None]:
    """For each slot, the cards it can't hold: in another seat's hand, the ranks
    :func:`ruled_out` of it; nothing in the draw pile or the set-aside cards."""
    by_hand = {id(hand): frozenset(CODE[c] for r in ruled_out(snap, s) for c in IDS_OF_RANK[r])
               for s, hand in enumerate(snap["hands"]) if s != seat}
    return [by_hand.get(id(container)) for container, _ in slots]


def ruled_out(snap: dict[str, Any], seat: int) -> set[int]:
    """The ranks the table expects ``seat`` (between its turns) to hold none of, beyond its
    known cards, read from the public part of the snapshot: the ranks of its sets (it would
    have added them), 2s while a set of another rank has no wild (it would have added one)
    and the ranks it let go (discarded and not taken back)."""
    ranks = {RANK_NAME.index(name) for name in snap["let_go"][seat]}
    for naturals, wild in snap["sets"][seat]:
        rank = RANK_OF[ID_BY_CODE[naturals[0]]]
        ranks.add(rank)
        if wild is None and rank != TWO:
            ranks.add(TWO)
    return ranks


def standing(state: QoSState, seat: int) -> float:
    """The seat's match total, plus laid minus held while a round is played."""
    total = state.scores[seat]
    if state.phase in ("take", "play"):
        total += state.laid_points(seat) - HELD_WEIGHT * sum(POINTS[c] for c in state.hand_ids(seat))
    return total


def evaluate(state: QoSState, seat: int) -> float:
    others = [standing(state, s) for s in range(state.players) if s != seat]
    return margin_value(standing(state, seat), others, SCALE)
