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

A game's ``games/<pkg>/search.py`` provides ``hidden_slots(snapshot, seat)``,
``evaluate(state, seat)`` (0..1), ``ROLLOUT_MOVES``, ``BUDGET`` (moves per
decision) and optionally ``rollout_policy(state, seat, rng)`` (default: the
``base_policy`` below, ``normal`` unless the game gives one), ``rollout_moves(state)`` (a playout length that depends on the
position, instead of ``ROLLOUT_MOVES``), ``stage(state)`` (playouts stop when it
changes, e.g. when a new round is dealt), ``candidates(state, seat, legal, first)``
(the moves worth comparing, ``first`` — the ``normal`` choice — first; only
``first`` means nothing to search), ``MARGIN`` (default :data:`MARGIN`) and
``base_policy(state, seat, rng)`` (the move the search starts from, ``first``, and plays
when there is nothing to search; default: ``normal``). A game may also replace this
search altogether: ``search_action(state, seat, rng, budget, policy)`` (its own choice,
or ``None`` to play ``policy``'s; Q2J's own-move tree search, :mod:`games.q2j.tree`).
A game without that module plays ``normal``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable

from . import get_game
from .base import Action, GameState
from .determinize import determinized_snapshot, game_hooks
from .evaluation import outcome_value
from .rng import Rng

Policy = Callable[[GameState, int, Rng], Action]

MAX_CANDIDATES = 8
"""With more legal actions than this, the search compares the ``normal`` choice and
a seeded sample of the others: spreading the budget thinner helps no move."""
MARGIN = 0.02
"""How much better (in average playout value) a move must look than the ``normal``
choice to replace it: with few playouts per move, the best-looking of many is
often just the luckiest."""


def search_action(state: GameState, seat: int, rng: Rng, budget: int | None = None,
                  fallback: Policy | None = None) -> Action:
    """The hard choice for ``seat`` (who must be able to act): one of ``state.legal_actions(seat)``.

    ``budget`` is the number of simulated moves to spend (default: the game's
    ``BUDGET``); ``fallback`` is the ``normal`` policy, the first candidate and
    what a game without search hooks plays. Another candidate replaces the
    ``normal`` choice only when its average beats it by :data:`MARGIN`. A game's
    ``search_action`` hook, when it has one, chooses instead.
    """
    policy = _base_policy(state, fallback)
    hooks = game_hooks(state)
    own = getattr(hooks, "search_action", None)
    if own is not None:
        action = own(state, seat, rng, budget, policy)
        return action if action is not None else policy(state, seat, rng)
    values = search_values(state, seat, rng, budget, policy)
    if not values:
        return policy(state, seat, rng)
    margin = getattr(game_hooks(state), "MARGIN", MARGIN)
    best, value = max(values, key=lambda item: item[1])
    return best if value > values[0][1] + margin else values[0][0]


def search_values(state: GameState, seat: int, rng: Rng, budget: int | None = None,
                  policy: Policy | None = None) -> list[tuple[Action, float]]:
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
    rollout = getattr(hooks, "rollout_policy", None) or policy
    length = getattr(hooks, "rollout_moves", None)
    moves_left = length(state) if length is not None else hooks.ROLLOUT_MOVES
    stage = getattr(hooks, "stage", None)
    start = stage(state) if stage is not None else None
    totals = [0.0] * len(candidates)
    spent = rounds = 0
    limit = budget if budget is not None else hooks.BUDGET
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
    return [(action, total / rounds) for action, total in zip(candidates, totals)]


def _candidates(state: GameState, seat: int, rng: Rng, legal: list[Action], policy: Policy,
                hooks: ModuleType) -> list[Action]:
    """The ``normal`` choice first, then the game's ``candidates`` hook's choice, or the
    other legal actions (a seeded sample when there are many)."""
    first = policy(state, seat, Rng(rng.next64()))
    choose = getattr(hooks, "candidates", None)
    if choose is not None:
        return choose(state, seat, legal, first)
    others = [a for a in legal if a != first]
    if len(others) >= MAX_CANDIDATES:
        rng.shuffle(others)
        others = others[: MAX_CANDIDATES - 1]
    return [first, *others]


def playout(state: GameState, seat: int, rng: Rng, hooks: ModuleType, policy: Policy,
             limit: int, start: object) -> tuple[float, int]:
    """Play on for at most ``limit`` moves, or until the game's ``stage`` leaves ``start``
    (the stage of the position searched; ``None``: no such hook); the seat's value and
    the moves played."""
    moves = 0
    while moves < limit:
        acting = state.to_act()
        if not acting or (start is not None and hooks.stage(state) != start):
            break
        mover = acting[0]
        state.apply(mover, policy(state, mover, rng))
        moves += 1
    outcome = state.outcome()
    if outcome is not None:
        return outcome_value(outcome, seat), moves
    return hooks.evaluate(state, seat), moves


def _base_policy(state: GameState, fallback: Policy | None) -> Policy:
    """The game's ``base_policy`` hook, else ``fallback``, else the game's ``normal`` policy."""
    own = getattr(game_hooks(state), "base_policy", None)
    return own or fallback or get_game(state.game_id).ai or _random_policy


def _random_policy(state: GameState, seat: int, rng: Rng) -> Action:
    return rng.choice(state.legal_actions(seat))
