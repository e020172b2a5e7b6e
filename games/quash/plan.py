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

from typing import TYPE_CHECKING

from ..base import Action
from .ai import placement_scores
from .rules import SECTIONS, SPOTS

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


def plan_scores(state: QuashState, seat: int, legal: list[Action]) -> list[tuple[float, Action]]:
    """Every placement of ``legal`` (a ``takeback`` is never scored) with the value the
    policy gives the seat's side after it, in ``legal``'s order."""
    return placement_scores(state, seat, legal, side_value)


def plan_action(state: QuashState, seat: int, legal: list[Action]) -> Action:
    """The placement :func:`plan_scores` values most (the first of equals)."""
    scored = plan_scores(state, seat, legal)
    return max(scored, key=lambda item: item[0])[1]
