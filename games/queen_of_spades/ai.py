"""Queen of Spades' ``normal`` player, and why it plays a move (hints); ``hard`` is
:mod:`games.queen_of_spades.search`.

``normal`` (:func:`choose`) is a heuristic that clearly beats uniform random play.

It only reads what its seat can see (its hand, the public piles and sets, counts):

- cut: aims at 13 × players, the middle of the two bonus cuts' reach;
- take: the discard pile when its top makes a natural set with two or more
  cards of the hand (unless the rest of the pile would cost more than the set
  gains with the round nearly over); the lone discard when it makes a set, fits
  one of its own sets, or is a 2 it can use as a wild; otherwise the draw pile;
- lay: every natural set, every natural card onto its own sets, then pairs
  with a wild 2, then wilds onto sets without one, then a set of 2s (or more
  2s onto it), keeping one card to discard (so it goes out whenever it can);
- discard: a card it can't use, low-value ones while the round is young and the
  most expensive ones (Q♠, jokers) late, so it never sits on Q♠ when the draw
  pile runs low; pairs and 2s are kept longest;
- between rounds: ``next`` at once.
"""

from __future__ import annotations

from ..base import Action
from ..i18n import Text, plural, say
from ..rng import Rng
from .actions import (
    CUT_ACTION,
    DISCARD_ACTION,
    EXTEND_ACTION,
    LAY_ACTION,
    NEXT_ACTION,
    STALL_LIMIT,
    TAKE_DISCARD,
    TAKE_DRAW,
    TAKE_PILE,
    parse,
)
from .deal import perfect_cuts
from .points import DECK, IDS_OF_RANK, KINDS, POINTS, RANK_COUNT, RANK_OF, TWO
from .state import QoSState

LATE_TURNS = 4
"""The round counts as nearly over when each player has about this many draws left."""

RANKS_BY_POINTS = sorted(range(RANK_COUNT), key=lambda r: -max(POINTS[c] for c in IDS_OF_RANK[r]))


def turns_left(state: QoSState) -> float:
    return len(state.draw) / state.players


def _natural_points(state: QoSState, seat: int, rank: int, n: int) -> int:
    """Points of the ``n`` cards of ``rank`` a lay would take from the hand (suit order)."""
    cnt = state.cnt[seat]
    total = taken = 0
    for c in IDS_OF_RANK[rank]:
        k = min(cnt[c], n - taken)
        total += k * POINTS[c]
        taken += k
    return total


def choose(state: QoSState, seat: int, rng: Rng) -> Action:
    """A legal action for ``seat`` (which must be among ``state.to_act()``)."""
    phase = state.phase
    if phase == "round_over":
        return NEXT_ACTION
    if phase == "cut":
        return CUT_ACTION[min(perfect_cuts(state.players)[0], len(state.draw))]
    if phase == "take":
        return _take(state, seat)
    return play_phase_choice(state, seat)


def _take(state: QoSState, seat: int) -> Action:
    pile = state.discard
    rc = state.rc[seat]
    where = state.where[seat]
    late = turns_left(state) <= LATE_TURNS
    if len(pile) >= 2:
        top = pile[-1]
        rank = RANK_OF[top]
        have = rc[rank]
        if have >= 2:
            gain = POINTS[top] + 2 * _natural_points(state, seat, rank, have)
            cost = sum(POINTS[c] for c in pile[:-1])
            if not late or cost <= gain:
                return TAKE_PILE[have]
    elif len(pile) == 1 and state.stall < STALL_LIMIT:
        rank = RANK_OF[pile[0]]
        if rank == TWO:
            wanted = any(rc[r] >= 2 and where[r] < 0 for r in range(RANK_COUNT) if r != TWO) or any(
                st[2] < 0 and st[0] != TWO for st in state.sets[seat]) or rc[TWO] >= 2
            if wanted:
                return TAKE_DISCARD
        elif rc[rank] >= 2 or where[rank] >= 0:
            return TAKE_DISCARD
    return TAKE_DRAW


def play_phase_choice(state: QoSState, seat: int) -> Action:
    rc = state.rc[seat]
    where = state.where[seat]
    sets = state.sets[seat]
    room = state.size[seat] - 1
    twos = rc[TWO]
    # Natural sets, highest-scoring ranks first.
    for r in RANKS_BY_POINTS:
        if r != TWO and where[r] < 0 and rc[r] >= 3 and room >= 3:
            return LAY_ACTION[r][min(rc[r], room)][0]
    # Natural cards onto own sets (2s are kept for wilds first).
    for r in RANKS_BY_POINTS:
        if r != TWO and where[r] >= 0 and rc[r] and room >= 1:
            return EXTEND_ACTION[r][min(rc[r], room)][0]
    if twos:
        # A pair and a wild make a set.
        for r in RANKS_BY_POINTS:
            if r != TWO and where[r] < 0 and rc[r] >= 2 and room >= 3:
                return LAY_ACTION[r][min(rc[r], room - 1)][1]
        # A wild onto a set without one.
        if room >= 1:
            for st in sets:
                if st[2] < 0 and st[0] != TWO:
                    return EXTEND_ACTION[st[0]][0][1]
        if where[TWO] < 0 and twos >= 3 and room >= 3:
            return LAY_ACTION[TWO][min(twos, room)][0]
        if where[TWO] >= 0 and room >= 1:
            return EXTEND_ACTION[TWO][min(twos, room)][0]
    return DISCARD_ACTION[_worst_card(state, seat)]


def _worst_card(state: QoSState, seat: int) -> int:
    """The hand card the seat needs least (lowest keep score; ties to the lower id)."""
    cnt = state.cnt[seat]
    rc = state.rc[seat]
    where = state.where[seat]
    late = turns_left(state) <= LATE_TURNS
    best, best_score = -1, 0.0
    for c in range(KINDS):
        if not cnt[c]:
            continue
        keep = keep_score(RANK_OF[c], where, rc) + (-0.1 * POINTS[c] if late else 0.02 * POINTS[c])
        if best < 0 or keep < best_score:
            best, best_score = c, keep
    return best


def keep_score(rank: int, where: list[int], rc: list[int]) -> float:
    """How long a seat keeps a card of ``rank`` before its points count (``where``: the
    seat's set of each rank, or -1; ``rc``: its cards of each rank): wild 2s and cards of
    its sets longest, then pairs, lone cards first."""
    if rank == TWO:
        return 8.0
    if where[rank] >= 0:
        return 10.0
    held = rc[rank]
    return 6.0 + held if held >= 2 else 1.0


def reason(state: QoSState, seat: int, action: Action) -> Text:
    """Why :func:`choose` plays ``action``, in one line (see :mod:`games.hints`)."""
    kind, args = action.kind, action.args
    if kind == "next":
        return say("nothing to decide between rounds: say you're ready")
    if kind == "deal":
        return say("dealing without a cut")
    if kind == "cut":
        return say("a cut near the middle of the bonus cuts' reach has the best chance of a bonus")
    if kind == "take":
        if args[0] == "pile":
            return say("the pile's top {card} makes a set with cards in your hand, worth more than the rest of the "
                       "pile costs", card=DECK[state.discard[-1]])
        if args[0] == "discard":
            return say("{card} makes or adds to a set of yours", card=DECK[state.discard[-1]])
        return say("the discard doesn't help any set of yours: take from the draw pile")
    if kind in ("lay", "extend"):
        return say("laid cards score for you, cards still in hand count against you when the round ends")
    card = parse(action).item
    if DECK[card].code == "QS":
        return plural("{card} costs {count} point while you hold it: let it go",
                      "{card} costs {count} points while you hold it: let it go", POINTS[card], card=DECK[card])
    if RANK_OF[card] != TWO and state.rc[seat][RANK_OF[card]] < 2 and state.where[seat][RANK_OF[card]] < 0:
        return say("{card} fits no set of yours, so it is the card you need least", card=DECK[card])
    return say("{card} is the card you need least; your pairs, sets and 2s are worth keeping", card=DECK[card])
