"""How good a position is for one seat, as a number from 0 (lost) to 1 (won).

The hard AI (:mod:`games.search`) scores every playout with :func:`outcome_value`
when the game finished, else with the game's own ``evaluate(state, seat)`` hook,
which usually measures a margin in the game's terms with :func:`margin_value`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .base import Outcome

RANK_WEIGHT = 0.9
"""A finished game is worth its place mostly; the rest is the score margin, so the
search still prefers winning big (or losing small) where the game counts points."""


def margin_value(mine: float, others: Sequence[float], scale: float) -> float:
    """``mine`` against the best of ``others`` through a logistic: 0.5 when level,
    about 0.73 when ahead by ``scale``, 0.27 when behind by it."""
    best = max(others) if others else 0.0
    return 1.0 / (1.0 + math.exp(-(mine - best) / scale))


def outcome_value(outcome: Outcome, seat: int) -> float:
    """``seat``'s result: 1 for the first group of the ranking (shared places split it),
    0 for the last, linear between, blended with the score margin."""
    groups = outcome.ranking or (outcome.winners,)
    place = next((i for i, g in enumerate(groups) if seat in g), len(groups) - 1)
    if place == 0:
        rank = 1.0 / max(1, _winning_sides(outcome))
    else:
        rank = 0.0 if len(groups) == 1 else 1.0 - place / (len(groups) - 1)
    scores = outcome.scores
    if not scores or seat >= len(scores):
        return rank
    mates = next((t for t in outcome.teams if seat in t), (seat,))
    others = [scores[s] for s in range(len(scores)) if s not in mates]
    spread = max(1, max(abs(v) for v in scores))
    return RANK_WEIGHT * rank + (1 - RANK_WEIGHT) * margin_value(scores[seat], others, spread / 2)


def _winning_sides(outcome: Outcome) -> int:
    """How many sides share the win (seats of one team count once)."""
    if not outcome.teams:
        return len(outcome.winners)
    return len({t for t in outcome.teams for s in outcome.winners if s in t})
