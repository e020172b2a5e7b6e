"""What the hard AI (:mod:`games.search`) needs to know about QUASH.

Hidden: the pile, the set-aside cards, every other hand (a partner's too), the
other side's tiebreak leftovers and face-down tiebreak card.

Hard places cards with its own policy (:mod:`games.quash.plan`: ``normal``'s spot
values plus each side's chance of sweeping a section), its ``base_policy``; tiebreak cards start from
``normal``'s choice. The search is kept for where playouts can judge: the
tiebreaks, and the last :data:`SEARCH_PLACEMENTS` placements of a round, comparing
the policy's :data:`CANDIDATES` best-valued placements by playing the round out
with ``normal`` (a round's early placements are the policy's alone: a playout to the end would
cost too much, and random playouts misjudge runs). A position is worth
the distance each side still has to the finish (the track already holds the
points scored so far), against a scale that shrinks as the race nears its end.
"""

from __future__ import annotations

from typing import Any

from ..base import Action, SearchHooks, Slot
from ..evaluation import margin_value
from ..rng import Rng
from .ai import choose
from .plan import plan_action, plan_scores
from .rules import SPOT_SIZE
from .state import QuashState

BUDGET = 300
MARGIN = 0.03
ROLLOUT_MOVES = 60
"""The shared search's playout length; :func:`rollout_moves` sets each playout's instead."""
SEARCH_PLACEMENTS = 14
"""Placements left in the round (both sides) from which the search plays the round out."""
CANDIDATES = 6
"""How many of the policy's best placements the search compares."""
TIEBREAK_MOVES = 40
"""Moves a playout may spend on tiebreaks after the last placement (it stops at the round's end)."""
ROUND_PLACEMENTS = 2 * sum(SPOT_SIZE)


def hidden_slots(snap: dict[str, Any], seat: int | None) -> list[Slot]:
    slots: list[Slot] = [(snap[name], i) for name in ("pile", "aside") for i in range(len(snap[name]))]
    for s, hand in enumerate(snap["hands"]):
        if s != seat:
            slots += [(hand, i) for i in range(len(hand))]
    for other in (0, 1):
        if seat is not None and other == seat % 2:
            continue
        slots += [(snap["leftovers"][other], i) for i in range(len(snap["leftovers"][other]))]
        if snap["pending"][other] is not None:
            slots.append((snap["pending"], other))
    return slots


def placements_left(state: QuashState) -> int:
    return ROUND_PLACEMENTS - sum(len(spot) for spots in state.board for spot in spots)


def rollout_policy(state: QuashState, seat: int, rng: Rng) -> Action:
    """Playouts follow ``normal`` for every seat: a little cheaper than the hard policy,
    and it measured at least as good a judge (see docs/decisions.md)."""
    return choose(state, seat, rng)


def base_policy(state: QuashState, seat: int, rng: Rng) -> Action:
    """Placements: :func:`games.quash.plan.plan_action`; tiebreak cards: ``normal``'s."""
    if state.phase == "play":
        return plan_action(state, seat, state.legal_actions(seat))
    return choose(state, seat, rng)


def candidates(state: QuashState, seat: int, legal: list[Action], first: Action) -> list[Action]:
    """Every tiebreak card; late in a round the policy's best placements; else only ``first``."""
    if state.phase == "tiebreak":
        return [first, *(a for a in legal if a != first)]
    if placements_left(state) > SEARCH_PLACEMENTS:
        return [first]
    ranked = sorted(plan_scores(state, seat, legal), key=lambda item: -item[0])
    return [first, *[a for _, a in ranked if a != first][: CANDIDATES - 1]]


def rollout_moves(state: QuashState) -> int:
    return placements_left(state) + TIEBREAK_MOVES


def stage(state: QuashState) -> int:
    """Playouts end with the round's scoring (or the finish), not in the next round."""
    return state.round_no


def evaluate(state: QuashState, seat: int) -> float:
    side = seat % 2
    need = [state.finish - state.track[s] for s in (0, 1)]
    return margin_value(-need[side], [-need[1 - side]], max(1.5, (need[0] + need[1]) / 8))


SEARCH = SearchHooks(hidden_slots=hidden_slots, evaluate=evaluate, budget=BUDGET, rollout_moves=ROLLOUT_MOVES,
                     margin=MARGIN, playout_length=rollout_moves, stage=stage, candidates=candidates,
                     base_policy=base_policy, rollout_policy=rollout_policy)
