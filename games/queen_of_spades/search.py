"""What the hard AI (:mod:`games.search`) needs to know about Queen of Spades.

Hidden: the draw pile, the set-aside cards and, while a round is played, every
other hand but the cards the table saw it take from the discard pile (``known``).
The guesses read the other hands as a player at the table would (:func:`excluded`):
someone who plays sensibly lays what they can and discards what they don't
collect, so between their turns they hold no card of a rank they have laid, no 2
while one of their sets lacks a wild, none of a rank they let go, and at most one
of a rank they passed. Hard starts from the sharp heuristic (:mod:`.sharp`), models
every seat as ``normal`` in its playouts, and cuts them short after
:data:`ROLLOUT_MOVES` (or when the round is scored, :func:`stage`): a position is
worth the match total plus :func:`round_forecast`, against the best other seat. The
search compares takes and discards of lone cards; the cut and the lays are the sharp
heuristic's (:func:`candidates`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..base import Action, SearchHooks, Slot
from ..evaluation import margin_value
from . import ai, sharp
from .actions import Kind, parse
from .points import CODE, ID_BY_CODE, IDS_OF_RANK, POINTS, RANK_NAME, RANK_OF, TWO
from .state import QoSState

BUDGET = 4000
ROLLOUT_MOVES = 30
"""About five turns each: a playout is cut short and valued by :func:`round_forecast`, so
that many more guesses fit the budget (a playout to the round's end costs about 50 moves)."""
MARGIN = 0.02
"""How much better than the sharp move (:data:`base_policy`) another must look to replace it."""
PER_CARD = -22.0
"""Points a card still held costs, whatever it is worth (:func:`round_forecast`): it slows going out."""
HELD_POINTS = 0.1
"""Per point of the cards held (:func:`round_forecast`)."""
PER_PAIR = 35.0
"""Per pair of a rank without a set yet (:func:`round_forecast`)."""
PER_TWO = 45.0
"""Per 2 held (:func:`round_forecast`): a wild for a pair."""
PER_SET = 10.0
"""Per set laid (:func:`round_forecast`)."""
SCALE = 120
"""Points of margin that make a position clearly better (about a Q♠ laid against one held)."""
MAX_DISCARDS = 8
"""Discards compared at most (the sharp move's and lone cards): more would spread the playouts thin."""

base_policy = sharp.choose
"""Hard's own move before the search weighs others: ``normal`` corrected (:mod:`.sharp`)."""
rollout_policy = ai.choose
"""Playouts model every seat as ``normal``: the opponent ``hard`` is measured against."""


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
    """For each slot, the cards it can't hold: nothing is ruled out of the draw pile or the
    set-aside cards; another seat's hand gets :func:`hand_exclusions`, slot by slot."""
    plans = {}
    for s, hand in enumerate(snap["hands"]):
        if s != seat:
            plans[id(hand)] = iter(hand_exclusions(snap, s, sum(1 for holder, _ in slots if holder is hand)))
    return [next(plans[id(holder)]) if id(holder) in plans else None for holder, _ in slots]


def hand_exclusions(snap: dict[str, Any], seat: int, count: int) -> list[frozenset[str]]:
    """What each of the ``count`` unknown cards of ``seat``'s hand can't be: a rank
    :func:`ruled_out`, and a rank it passed (holding two, it would have taken it: at most
    one is left) anywhere but in one slot of its own, or anywhere if one is known."""
    ruled = ruled_out(snap, seat)
    known = Counter(RANK_OF[ID_BY_CODE[code]] for code in snap["known"][seat])
    single = []
    for name in snap["passed"][seat]:
        rank = RANK_NAME.index(name)
        if rank in ruled:
            continue
        if known[rank]:
            ruled.add(rank)
        else:
            single.append(rank)
    base = {CODE[c] for r in ruled for c in IDS_OF_RANK[r]}
    return [frozenset(base.union(*(_codes(r) for j, r in enumerate(single) if j % count != i)))
            for i in range(count)]


def _codes(rank: int) -> set[str]:
    return {CODE[c] for c in IDS_OF_RANK[rank]}


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
    """The seat's match total, plus, while a round is played, :func:`round_forecast`."""
    total: float = state.scores[seat]
    if state.phase in ("take", "play"):
        total += round_forecast(state, seat)
    return total


def round_forecast(state: QoSState, seat: int) -> float:
    """What the seat's round is likely to end at, in points: a linear fit (least squares,
    the ``normal`` player's 2-player rounds, seeds 1000–1999) of the round's final points
    against the other seat's. Nearly every round ends with someone going out, so what
    counts is the race: each card still held costs about :data:`PER_CARD`, while 2s and
    pairs (sets to come) and sets laid (cards to add) are worth keeping; the points held
    barely matter (a Q♠ held is usually laid later)."""
    rc = state.rc[seat]
    where = state.where[seat]
    held = state.hand_ids(seat)
    pairs = sum(1 for r, n in enumerate(rc) if n >= 2 and r != TWO and where[r] < 0)
    return (state.laid_points(seat) + HELD_POINTS * sum(POINTS[c] for c in held) + PER_CARD * len(held)
            + PER_PAIR * pairs + PER_TWO * rc[TWO] + PER_SET * len(state.sets[seat]))


def evaluate(state: QoSState, seat: int) -> float:
    others = [standing(state, s) for s in range(state.players) if s != seat]
    return margin_value(standing(state, seat), others, SCALE)


def stage(state: QoSState) -> tuple[int, bool]:
    """Playouts stop when the round is scored: the next deal is a new guess, not a consequence."""
    return state.round_no, state.phase in ("take", "play")


def candidates(state: QoSState, seat: int, legal: list[Action], first: Action) -> list[Action]:
    """The moves worth a playout, the sharp move (``first``) first. The cut and the lays
    are the sharp heuristic's (where a cut lands is chance; a set laid scores and frees the hand);
    a take is compared with every other take; a discard with the other discards of a
    lone card (a pair or a 2 is worth keeping), up to :data:`MAX_DISCARDS`."""
    op = parse(first)[0]
    if state.phase == "cut" or op in (Kind.LAY, Kind.EXTEND):
        return [first]
    if state.phase == "take":
        return legal
    rc = state.rc[seat]
    lone = [a for a in legal if a != first and parse(a)[0] == Kind.DISCARD and rc[RANK_OF[parse(a)[1]]] == 1
            and RANK_OF[parse(a)[1]] != TWO]
    return [first, *lone[:MAX_DISCARDS - 1]]


SEARCH = SearchHooks(hidden_slots=hidden_slots, evaluate=evaluate, budget=BUDGET, rollout_moves=ROLLOUT_MOVES,
                     excluded=excluded, margin=MARGIN, stage=stage, candidates=candidates,
                     base_policy=base_policy, rollout_policy=rollout_policy)
