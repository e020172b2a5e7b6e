"""The ``hard`` AI's own placement policy: ``normal``'s spot values, plus the sections.

``normal`` (:mod:`games.quash.ai`) adds up the expected net points of the nine
spots. That ignores the QUASH bonus: a side that wins all three spots of a section
scores 2 more, and a swept section (5 points or more) is what usually decides a
match. Here each spot's value gives a chance of winning it; a section's chance of a
sweep, for either side, is the product of its spots' chances, worth
:data:`SWEEP_WEIGHT` points.

Placements are valued with the hand each leaves, like ``normal``'s; ties go to the
lower card, then to the first in ``legal``'s order (the policy draws on no rng).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..base import Action
from ..cards import ID_BY_CODE
from .ai import _outcomes, _spot_value, availability
from .rules import RANK, SECTIONS, SPOTS

if TYPE_CHECKING:
    from .state import QuashState

SWEEP_WEIGHT = 9.0
"""What a section's sweep chance is worth, in points: far more than the bonus's 2,
because a swept section (5 points or more) is what decides matches. Measured against
``normal`` (200 games a cell): the policy alone, 2 → 59 %, 6 → 66–70 %, 8 → 69 %,
12 → 67 % heads-up; with the search, 6 → 63.5 % / 59 % (teams), 9 → 65.5 % / 64 %,
12 → 60 % (teams)."""

_RANGE = range(SPOTS)


def win_chance(value: float) -> float:
    """A spot's chance of being won from its expected net points (+1 won, −1 lost)."""
    return min(1.0, max(0.0, 0.5 + value / 2))


def side_value(values: list[float]) -> float:
    """A side's expected net points, with both sides' chances of sweeping a section."""
    total = sum(values)
    for section in SECTIONS:
        ours = theirs = 1.0
        for s in section:
            p = win_chance(values[s])
            ours *= p
            theirs *= 1.0 - p
        total += SWEEP_WEIGHT * (ours - theirs)
    return total


def plan_scores(state: "QuashState", seat: int, legal: list[Action]) -> list[tuple[float, Action]]:
    """Every placement of ``legal`` (a ``takeback`` is never scored) with the value the
    policy gives the seat's side after it, in ``legal``'s order."""
    side = seat % 2
    mine = state.board[side]
    theirs = state.board[1 - side]
    hand_count, hand_suits, outside = availability(state, seat)
    flying = state.flying()
    cache: dict[tuple, float] = {}

    def value(s: int, cards: tuple[int, ...], used: int) -> float:
        key = (s, cards, used)
        found = cache.get(key)
        if found is None:
            found = cache[key] = _spot_value(s, list(cards), theirs[s], hand_count, hand_suits, outside, used)
        return found

    base: dict[int, list[float]] = {}  # hand card played (-1: the card in the air) -> spots unchanged
    spot_tuples = [tuple(spot) for spot in mine]
    scored: list[tuple[float, Action]] = []
    for action in legal:
        if action.kind == "takeback":
            continue
        card = ID_BY_CODE[action.args[0]]
        h = -1 if flying is not None else card
        unchanged = base.get(h)
        if unchanged is None:
            unchanged = base[h] = [value(s, spot_tuples[s], h) for s in _RANGE]
        best = -math.inf
        for changed in _outcomes(mine, action, card, action.args[1] - 1):
            values = unchanged.copy()
            for s, content in changed.items():
                values[s] = value(s, content, h)
            best = max(best, side_value(values))
        scored.append((best - RANK[card] * 0.001, action))
    return scored


def plan_action(state: "QuashState", seat: int, legal: list[Action]) -> Action:
    """The placement :func:`plan_scores` values most (the first of equals)."""
    scored = plan_scores(state, seat, legal)
    return max(scored, key=lambda item: item[0])[1]
