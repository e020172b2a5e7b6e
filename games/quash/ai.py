"""QUASH's ``normal`` player, and why it plays a move (hints); ``hard`` is :mod:`games.quash.search`.

``normal`` (:func:`choose`) is a heuristic that clearly beats uniform random play.

Placements (plain, or a swap step, valued as if the displaced card then landed
on its best open slot) are scored by what the seat's side is worth
afterwards, one spot at a time, in expected points against the opposite spot
(net: ours minus theirs):

- a full run against a known opposite spot: +1 if it wins, −1 if it loses,
  0 for a tie (a tiebreaker); +2 against a failed sequence; a failed sequence
  costs 2 against a run and nothing against another failure. Against a spot
  still open, the opponent is assumed to complete a run half of the time;
- a spot still open is valued by its best *plan*: a window of consecutive
  ranks containing its cards, completed with probability the product of each
  missing rank's availability (0.95 if in hand; otherwise a chance of drawing
  it, or of the partner holding it, from the unseen copies); a plan whose missing
  cards of the same suit are all in hand counts as same-suit;
- a single is worth its rank against the opposite card (or ``(rank − 8) / 6``
  while that is open); an empty single a little.

Each candidate is valued with the hand it leaves, so using a card another
spot's plan needs costs that plan. Ties go to the lower card (high cards are
worth keeping for tiebreakers), then to the seeded rng.

Tiebreaks: when the other side's leftover cards are known (every unseen card
must be theirs), play the lowest card that beats their highest, or the lowest
card when none does; when they are not known (advanced 2-player play sets 6
cards aside), play the highest card if the spot decides a QUASH or the match,
else the lowest. The AI never hands the tiebreak choice over.

It reads only what its seat may see: its hand (or its side's leftovers), both
boards, the revealed tiebreak cards and the counts in the view.
"""

from __future__ import annotations

from collections.abc import Callable

from ..base import Action
from ..cards import CODE, DECK
from ..i18n import Text, say
from ..rng import Rng
from .actions import PARSED, Kind
from .rules import RANK, SECTIONS, SPOT_SIZE, SPOTS, SUIT, card_arg, fits, run_ids, suited
from .state import QuashState

OPP_RUN = 0.5
"""Chance the opponent completes a run in a spot still open."""
EMPTY_SINGLE = 0.2
HAND_SURE = 0.95
"""A planned card still in hand counts a little less than a placed one (another plan may
need it), so the AI commits cards to their runs rather than waiting for nothing."""

_RANGE = range(SPOTS)


def choose(state: QuashState, seat: int, rng: Rng) -> Action:
    """A legal action for ``seat`` (which must be able to act)."""
    legal = state.legal_actions(seat)
    if state.phase == "tiebreak":
        return _tiebreak(state, seat, legal)
    return _placement(state, seat, legal, rng)


# ----------------------------------------------------------------- tiebreaks


def _tiebreak(state: QuashState, seat: int, legal: list[Action]) -> Action:
    side = seat % 2
    cards = {a.args[0]: a for a in legal if a.kind == "tiebreak"}
    mine = sorted(state.leftovers[side], key=RANK.__getitem__)
    by_rank = [c for c in mine if CODE[c] in cards]
    seen = set(mine) | set(state.used)
    if state.pending[side] >= 0:
        seen.add(state.pending[side])
    for spots in state.board:
        for spot in spots:
            seen.update(spot)
    unseen = [c for c in range(52) if c not in seen]
    theirs = len(state.leftovers[1 - side]) + (state.pending[1 - side] >= 0)
    lowest = by_rank[0]
    if len(unseen) == theirs:  # every unseen card is in the other side's pool
        best_theirs = max(RANK[c] for c in unseen) if unseen else 0
        winners = [c for c in by_rank if RANK[c] > best_theirs]
        pick = winners[0] if winners else lowest
    else:
        pick = by_rank[-1] if _critical(state, side) else lowest
    return cards[CODE[pick]]


def _critical(state: QuashState, side: int) -> bool:
    """Whether winning the spot being scored reaches the finish, or decides a QUASH."""
    if state.track[side] + 1 >= state.finish or state.track[1 - side] + 1 >= state.finish:
        return True
    s = state.spot
    for section in SECTIONS:
        if s in section:
            earlier = [state.results[i]["winner"] for i in section if i < s]
            return len(set(earlier)) == 1 and earlier[0] >= 0
    return False




# ----------------------------------------------------------------- placements


def _placement(state: QuashState, seat: int, legal: list[Action], rng: Rng) -> Action:
    scored = placement_scores(state, seat, legal)
    best_score = max(score for score, _ in scored)
    best = [action for score, action in scored if score > best_score - 1e-9]
    return best[0] if len(best) == 1 else best[rng.below(len(best))]


def placement_scores(state: QuashState, seat: int, legal: list[Action],
                     side_value: Callable[[list[float]], float] | None = None) -> list[tuple[float, Action]]:
    """Every placement of ``legal`` (a ``takeback`` is never scored) with the value the
    heuristic gives the seat's side after it, in ``legal``'s order: the sum of its spots'
    values, or ``side_value`` of them (the hard AI's plan, :mod:`games.quash.plan`)."""
    side = seat % 2
    mine = state.board[side]
    theirs = state.board[1 - side]
    hand_count, hand_suits, outside = availability(state, seat)

    cache: dict[tuple, float] = {}

    def value(s: int, cards: tuple[int, ...], used: int) -> float:
        key = (s, cards, used)
        found = cache.get(key)
        if found is None:
            found = cache[key] = _spot_value(s, list(cards), theirs[s], hand_count, hand_suits, outside, used)
        return found

    base: dict[int, list[float]] = {}  # hand card played (or -1: the card in the air) -> value of every spot unchanged
    spot_tuples = [tuple(spot) for spot in mine]
    flying = state.flying()
    scored: list[tuple[float, Action]] = []
    for action in legal:
        move = PARSED[action]
        if move.kind == Kind.TAKEBACK:
            continue
        card, t = move.card, move.spot
        h = -1 if flying is not None else card
        total = base.get(h)
        if total is None:
            total = base[h] = [value(s, spot_tuples[s], h) for s in _RANGE]
        if side_value is None:
            score = max(sum(total) + sum(value(s, content, h) - total[s] for s, content in changed.items())
                        for changed in _outcomes(mine, action, card, t))
        else:
            score = max(side_value([value(s, changed[s], h) if s in changed else total[s] for s in _RANGE])
                        for changed in _outcomes(mine, action, card, t))
        score -= RANK[card] * 0.001  # keep high cards for tiebreakers when nothing else differs
        scored.append((score, action))
    return scored


def availability(state: QuashState, seat: int) -> tuple[list[int], set[tuple[int, int]], list[float]]:
    """What the seat can count on for its plans: its hand's cards per rank, its hand's
    (rank, suit) pairs, and per rank the chance a card of it still reaches the side
    from outside the hand (own draws, or the partner's hand)."""
    hand = state.hands[seat]
    seen = set(hand) | set(state.used)
    for spots in state.board:
        for spot in spots:
            seen.update(spot)
    unseen = [c for c in range(52) if c not in seen]
    unseen_count = [0] * 15
    for c in unseen:
        unseen_count[RANK[c]] += 1
    # Cards that may still reach this side from outside the hand: own draws, or the partner's hand.
    extra = (len(state.pile) + 1) // 2 if state.pile else 0
    if state.players == 4:
        extra += len(state.hands[(seat + 2) % 4]) // 2
    share = min(1.0, extra / len(unseen)) if unseen else 0.0
    outside = [1.0 - (1.0 - share) ** unseen_count[r] for r in range(15)]

    hand_count = [0] * 15
    hand_suits: set[tuple[int, int]] = set()
    for c in hand:
        hand_count[RANK[c]] += 1
        hand_suits.add((RANK[c], SUIT[c]))
    return hand_count, hand_suits, outside


def _outcomes(mine: list[list[int]], action: Action, card: int, t: int) -> list[dict[int, tuple[int, ...]]]:
    """The spots a step would change, for each way it can end at once: a placement; a
    swap step with the displaced card landing on each open slot that takes it (or, when
    none does, the swap alone: the chain goes on)."""
    if action.kind == "place":
        return [{t: (*mine[t], card)}]
    displaced = PARSED[action].displaced
    swapped = tuple(card if c == displaced else c for c in mine[t])
    after = [swapped if s == t else tuple(mine[s]) for s in _RANGE]
    landings = [{t: swapped, s: (*after[s], displaced)} if s != t else {t: (*swapped, displaced)}
                for s in _RANGE if len(after[s]) < SPOT_SIZE[s] and fits([*after[s], displaced], SPOT_SIZE[s])]
    return landings or [{t: swapped}]


def _vs_run(top: int, is_suited: bool, opp: list[int], size: int) -> float:
    """Net points of a run (top rank ``top``) against the opposite spot ``opp``."""
    if len(opp) == size:
        if not run_ids(opp):
            return 2.0
        opp_top = max(RANK[c] for c in opp)
        if top != opp_top:
            return 1.0 if top > opp_top else -1.0
        opp_suited = suited(opp)
        if is_suited != opp_suited:
            return 1.0 if is_suited else -1.0
        return 0.0
    if not fits(opp, size):
        return 2.0
    win = min(1.0, max(0.0, (top - 4) / 10 + (0.1 if is_suited else 0.0)))
    return OPP_RUN * (2 * win - 1) + (1 - OPP_RUN) * 2.0


def _vs_failed(opp: list[int], size: int) -> float:
    if len(opp) == size:
        return 0.0 if not run_ids(opp) else -2.0
    if not fits(opp, size):
        return 0.0
    return -2.0 * OPP_RUN


def _spot_value(s: int, cards: list[int], opp: list[int], hand_count: list[int],
                hand_suits: set[tuple[int, int]], outside: list[float], used: int) -> float:
    """Expected net points of one spot of ours; ``used`` is the hand card being played
    (not available for any plan any more)."""
    size = SPOT_SIZE[s]
    if size == 1:
        if not cards:
            return EMPTY_SINGLE
        r = RANK[cards[0]]
        if opp:
            o = RANK[opp[0]]
            return 1.0 if r > o else -1.0 if r < o else 0.0
        return (r - 8) / 6
    if not fits(cards, size):
        return _vs_failed(opp, size)
    if len(cards) == size:
        return _vs_run(max(RANK[c] for c in cards), suited(cards), opp, size)
    ru = RANK[used] if used >= 0 else 0  # -1: the card played is not from the hand
    present = [RANK[c] for c in cards]
    failed = _vs_failed(opp, size)
    one_suit = SUIT[cards[0]] if cards and suited(cards) else -1
    lo_min = max(2, (max(present) if present else 2) - size + 1)
    lo_max = min(15 - size, min(present) if present else 15 - size)
    best = failed
    for lo in range(lo_min, lo_max + 1):
        p = 1.0
        all_suited = one_suit >= 0
        for r in range(lo, lo + size):
            if r in present:
                continue
            in_hand = hand_count[r] - (1 if r == ru else 0)
            if in_hand > 0:
                p *= HAND_SURE
                if all_suited and ((r, one_suit) not in hand_suits or (r == ru and SUIT[used] == one_suit)):
                    all_suited = False
            else:
                p *= outside[r]
                all_suited = False
                if p == 0.0:
                    break
        if p == 0.0:
            continue
        v = p * _vs_run(lo + size - 1, all_suited, opp, size) + (1 - p) * failed
        if v > best:
            best = v
    return best


def reason(state: QuashState, seat: int, action: Action) -> Text:
    """Why :func:`choose` plays ``action``, in one line (see :mod:`games.hints`)."""
    kind, args = action.kind, action.args
    if kind == Kind.TIEBREAK:
        return say("the lowest card that does the job: high cards are worth more for later tiebreaks, unless this "
                   "spot decides a QUASH or the match")
    if kind == Kind.CHOOSER:
        return say("your partner holds the better cards for this tiebreak")
    if kind == Kind.TAKEBACK:
        return say("this chain of swaps leaves your side worse off than when the turn began: take it back")
    card, spot = DECK[card_arg(args[0])], args[1]
    if kind == Kind.SWAP:
        return say("{card} is worth more on spot {spot} than {displaced}, which then goes where it helps most",
                   card=card, spot=spot, displaced=DECK[card_arg(args[2])])
    return say("{card} on spot {spot} adds the most to your side's expected points against the spots opposite, "
               "counting the runs your hand can still complete", card=card, spot=spot)
