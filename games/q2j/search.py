"""What the hard AI (:mod:`games.search`) needs to know about Q2J.

Hidden: the stock and, unless hands are face up, every other hand; the guesses
keep out of each hand what the table's moves rule out (:func:`excluded`). Games are
short, so rollouts mostly reach the end; a cut-short position is worth having
fewer cards to shed (countdown hands still to come count) than the closest rival,
with a seat owing the Joe duty a card worse off.

``hard`` plays Q2J through the ``search_action`` hook: the own-move tree search of
:mod:`games.q2j.tree` (``TREE_BUDGET``), which reads the hooks below like the flat
search does (``BUDGET`` and ``MARGIN`` are only the flat search's, still callable as
:func:`games.search.search_values`).
"""

from __future__ import annotations

from typing import Any

from ..base import Action, Policy, SearchHooks, Slot
from ..cards import CODE
from ..evaluation import margin_value
from ..rng import Rng
from .ai import choose as rollout_policy  # the normal policy, without the generic wrapper's look-ups
from .inference import excluded_codes
from .state import Q2JState
from .tree import tree_action

BUDGET = 2500
"""Half the first budget: with the inference, 2,500 and 10,000 simulated moves scored
alike against ``normal`` (400 games each), and think time halves."""
ROLLOUT_MOVES = 200
MARGIN = 0.0
"""Playouts reach the end and follow the heuristic exactly, so with this budget the
averages are steady enough to trust as they are (0.02 lost 5 points against ``normal``)."""

TREE_BUDGET = 30000
"""Simulated moves per decision of the own-move tree search (:mod:`games.q2j.tree`), which
``hard`` uses instead of the flat search; ``BUDGET`` and ``MARGIN`` are the flat search's."""


def search_action(state: Q2JState, seat: int, rng: Rng, budget: int | None,
                  policy: Policy[Q2JState]) -> Action | None:
    """The hook :func:`games.search.search_action` calls: the own-move tree search's choice,
    or ``None`` when there is nothing to search (a single legal move)."""
    return tree_action(state, seat, rng, TREE_BUDGET if budget is None else budget, policy, SEARCH)


def hidden_slots(snap: dict[str, Any], seat: int | None) -> list[Slot]:
    slots: list[Slot] = [(snap["stock"], i) for i in range(len(snap["stock"]))]
    if snap["options"].get("variant") != "faceup":
        known = snap["known"] or [[]] * len(snap["hands"])
        for s, hand in enumerate(snap["hands"]):
            if s != seat:
                slots += [(hand, i) for i, code in enumerate(hand) if code not in known[s]]
    return slots


def excluded(snap: dict[str, Any], seat: int | None, slots: list[Slot]) -> list[frozenset[str] | None]:
    """Per hidden slot, the cards the table's moves rule out there (:mod:`games.q2j.inference`):
    nothing in the stock, the notes of each other hand."""
    stock: list[frozenset[str] | None] = [None] * len(snap["stock"])
    if snap["options"].get("variant") == "faceup":
        return stock
    return stock + excluded_codes(snap, [s for s in range(len(snap["hands"])) if s != seat])


def tidy(snap: dict[str, Any]) -> None:
    """Hands are kept sorted by card id (suit, then rank), as the engine keeps them."""
    for hand in snap["hands"]:
        hand.sort(key=CODE.index)


def to_shed(state: Q2JState, seat: int) -> float:
    """Cards ``seat`` still has to get rid of (countdown: the hands still to come too)."""
    left = len(state.hands[seat])
    if state.countdown:
        left += sum(range(1, max(1, state.levels[seat])))
    return left + (1 if state.duty == seat else 0)


def evaluate(state: Q2JState, seat: int) -> float:
    if not state.playing[seat]:
        return 0.0 if seat in state.eliminated else 1.0
    rivals = [-to_shed(state, s) for s in range(state.players) if s != seat and state.playing[s]]
    return margin_value(-to_shed(state, seat), rivals, 2)


SEARCH = SearchHooks(hidden_slots=hidden_slots, evaluate=evaluate, budget=BUDGET, rollout_moves=ROLLOUT_MOVES,
                     excluded=excluded, tidy=tidy, rollout_policy=rollout_policy, margin=MARGIN,
                     search_action=search_action)
