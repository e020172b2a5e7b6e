"""The ``hard`` AI: determinized Monte Carlo search over what a seat cannot see.

For a seat to move, :func:`search_action` repeats, until its budget of simulated
moves is spent: deal one guess of the hidden cards (:mod:`games.determinize`),
then for every candidate action play it in a copy of that guess and play the
game on with the game's rollout policy (by default the ``normal`` heuristic for
every seat: the search improves on ``normal`` one move at a time, against
opponents modelled as playing it) — at most the game's ``ROLLOUT_MOVES``
moves — and score the result for the seat (:mod:`games.evaluation`: the outcome
when the game finished, else the game's own ``evaluate``). Every candidate is
played out in the same guess with the same rollout seed, so they are compared on
equal terms. The candidate with the best average wins, but the ``normal`` choice
keeps its place unless another beats it by :data:`MARGIN`.

The budget counts simulated moves, not seconds, so a seed gives the same
choice on any machine. Everything the search reads goes through the seat's
view: the guesses depend only on which cards are unseen, and the snapshot's
seed and rng are replaced (see :mod:`games.determinize`).

A game says what the search needs in its ``Game.search``, a
:class:`~games.base.SearchHooks`: where the hidden cards lie, what an unfinished
position is worth, the budget and the playout length, and optionally its own
candidates, policies, stages or a search of its own (Q2J's own-move tree search,
:mod:`games.q2j.tree`). A game without it plays ``normal``.
"""

from __future__ import annotations

from typing import Any

from . import get_game
from .base import Action, GameState, Policy, SearchHooks
from .determinize import determinized_snapshot, game_hooks
from .evaluation import outcome_value
from .rng import Rng

MAX_CANDIDATES = 8
"""With more legal actions than this, the search compares the ``normal`` choice and
a seeded sample of the others: spreading the budget thinner helps no move."""
MARGIN = 0.02
"""How much better (in average playout value) a move must look than the ``normal``
choice to replace it: with few playouts per move, the best-looking of many is
often just the luckiest."""


def search_action(state: GameState, seat: int, rng: Rng, budget: int | None = None,
                  fallback: Policy[Any] | None = None) -> Action:
    """The hard choice for ``seat`` (who must be able to act): one of ``state.legal_actions(seat)``.

    ``budget`` is the number of simulated moves to spend (default: the game's
    ``BUDGET``); ``fallback`` is the ``normal`` policy, the first candidate and
    what a game without search hooks plays. Another candidate replaces the
    ``normal`` choice only when its average beats it by :data:`MARGIN`. A game's
    ``search_action`` hook, when it has one, chooses instead.
    """
    policy = _base_policy(state, fallback)
    hooks = game_hooks(state)
    if hooks is not None and hooks.search_action is not None:
        action = hooks.search_action(state, seat, rng, budget, policy)
        return action if action is not None else policy(state, seat, rng)
    values = search_values(state, seat, rng, budget, policy)
    if not values:
        return policy(state, seat, rng)
    assert hooks is not None  # values come only from a game with hooks
    margin = hooks.margin if hooks.margin is not None else MARGIN
    best, value = max(values, key=lambda item: item[1])
    return best if value > values[0][1] + margin else values[0][0]


def search_values(state: GameState, seat: int, rng: Rng, budget: int | None = None,
                  policy: Policy[Any] | None = None) -> list[tuple[Action, float]]:
    """Every candidate with its average playout value for ``seat`` (0..1), the
    ``normal`` choice first; ``[]`` when there is nothing to search (a game without
    search hooks, or a single legal action)."""
    legal = state.legal_actions(seat)
    hooks = game_hooks(state)
    if hooks is None or len(legal) == 1:
        return []
    policy = policy or _base_policy(state, None)
    candidates = _candidates(state, seat, rng, legal, policy, hooks)
    if len(candidates) == 1:
        return []
    rollout = hooks.rollout_policy or policy
    moves_left = hooks.playout_length(state) if hooks.playout_length is not None else hooks.rollout_moves
    start = hooks.stage(state) if hooks.stage is not None else None
    totals = [0.0] * len(candidates)
    spent = rounds = 0
    limit = budget if budget is not None else hooks.budget
    while spent < limit:
        snap = determinized_snapshot(state, seat, rng, hooks)
        rollout_seed = rng.next64()
        for i, action in enumerate(candidates):
            guess = type(state).from_json(snap)
            guess.apply(seat, action)
            value, moves = playout(guess, seat, Rng(rollout_seed), hooks, rollout, moves_left, start)
            totals[i] += value
            spent += moves + 1
        rounds += 1
    return [(action, total / rounds) for action, total in zip(candidates, totals, strict=True)]


def _candidates(state: GameState, seat: int, rng: Rng, legal: list[Action], policy: Policy[Any],
                hooks: SearchHooks[Any]) -> list[Action]:
    """The ``normal`` choice first, then the game's ``candidates`` hook's choice, or the
    other legal actions (a seeded sample when there are many)."""
    first = policy(state, seat, Rng(rng.next64()))
    if hooks.candidates is not None:
        return hooks.candidates(state, seat, legal, first)
    others = [a for a in legal if a != first]
    if len(others) >= MAX_CANDIDATES:
        rng.shuffle(others)
        others = others[: MAX_CANDIDATES - 1]
    return [first, *others]


def playout(state: GameState, seat: int, rng: Rng, hooks: SearchHooks[Any], policy: Policy[Any],
            limit: int, start: object) -> tuple[float, int]:
    """Play on for at most ``limit`` moves, or until the game's ``stage`` leaves ``start``
    (the stage of the position searched; ``None``: no such hook); the seat's value and
    the moves played."""
    moves = 0
    while moves < limit:
        acting = state.to_act()
        if not acting or (hooks.stage is not None and hooks.stage(state) != start):
            break
        mover = acting[0]
        state.apply(mover, policy(state, mover, rng))
        moves += 1
    outcome = state.outcome()
    if outcome is not None:
        return outcome_value(outcome, seat), moves
    return hooks.evaluate(state, seat), moves


def _base_policy(state: GameState, fallback: Policy[Any] | None) -> Policy[Any]:
    """The game's ``base_policy`` hook, else ``fallback``, else the game's ``normal`` policy."""
    hooks = game_hooks(state)
    own = hooks.base_policy if hooks is not None else None
    return own or fallback or get_game(state.game_id).ai or _random_policy


def _random_policy(state: GameState, seat: int, rng: Rng) -> Action:
    return rng.choice(state.legal_actions(seat))
