"""Standings: match points and tiebreaks, recomputed from the stored results every time.

Order, best first: match points (:meth:`Result.points`), then

1. **Buchholz cut 1**: each round gives a value, the mean match points of the people met at
   the table (a two-seat table: the opponent's points); a bye, a round missed by a late
   joiner, or a table of only AI opponents gives 0. The lowest value is cut.
2. **Sonneborn–Berger**: each round, the mean over the people met of
   :meth:`Result.score_against` them times their match points (two seats: a beaten opponent's
   points, half a drawn one's); a bye or a missed round gives 0.
3. **Margin**: the sum of the game's own margins (:attr:`Finish.margin`).
4. **Rating**: as the caller passes it (0 if none).
5. **Lot**: drawn from the tournament's seed, the same for an entrant however the field
   changes (:func:`lot`), so two standings are never level.

An AI seat is nobody's opponent; it only takes a place. A dropped entrant keeps their
results (their opponents' tiebreaks count them) and stays in the standings, flagged. A
late joiner has the points of a loss (0) for each round before they joined.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ..rng import Rng
from .results import Entrant, Result


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's line in the standings. ``rank`` is 1 for the leader; ``opponents`` lists
    the people met, one per table and round (a rematch appears twice), in round order."""

    entrant: Entrant
    rank: int
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    margin: int
    rating: float
    lot: int
    played: int
    byes: int
    opponents: tuple[Entrant, ...]
    dropped: bool


def lot(seed: int, entrant: Entrant) -> int:
    """The entrant's drawn lot, lower first: a hash of the tournament's seed and the entrant
    alone, so a late join or a drop never reorders the others."""
    return Rng(seed ^ Rng(entrant).next64()).next64()


def standings(entrants: Sequence[Entrant], results: Iterable[Result], *, seed: int,
              dropped: Collection[Entrant] = frozenset(), late_joins: Mapping[Entrant, int] | None = None,
              ratings: Mapping[Entrant, float] | None = None) -> list[Standing]:
    """Every entrant's :class:`Standing`, best first, from ``results`` alone.

    ``late_joins`` maps a late joiner to the first round they could play. Raises
    ``ValueError`` if the results name someone who is not an entrant, seat someone twice in
    a round (a re-paired round's old tables must be gone), or place a late joiner in a round
    before they joined.
    """
    late_joins = late_joins or {}
    ratings = ratings or {}
    known = set(entrants)
    if len(known) != len(entrants):
        raise ValueError(f"an entrant is listed twice: {list(entrants)}")
    strangers = (set(dropped) | set(late_joins)) - known
    if strangers:
        raise ValueError(f"dropped or late entrants who are not entrants: {sorted(strangers)}")
    tables: dict[Entrant, list[Result]] = defaultdict(list)
    for result in sorted(results, key=lambda r: r.round):
        for entrant in result.entrants:
            if entrant not in known:
                raise ValueError(f"round {result.round}: {entrant} is not an entrant")
            if tables[entrant] and tables[entrant][-1].round == result.round:
                raise ValueError(f"round {result.round}: {entrant} is seated twice")
            if result.round < late_joins.get(entrant, 1):
                raise ValueError(f"round {result.round}: {entrant} joined in round {late_joins[entrant]}")
            tables[entrant].append(result)
    points = {e: sum((r.points(e) for r in tables[e]), Fraction(0)) for e in entrants}

    lines = []
    for entrant in entrants:
        mine = tables[entrant]
        missed = [Fraction(0)] * (late_joins.get(entrant, 1) - 1)
        rounds = missed + [_mean([points[o] for o in r.opponents(entrant)]) for r in mine]
        buchholz = sum(rounds, Fraction(0)) - min(rounds, default=Fraction(0))
        sonneborn_berger = sum((_mean([r.score_against(entrant, o) * points[o] for o in r.opponents(entrant)])
                                for r in mine), Fraction(0))
        lines.append(Standing(
            entrant=entrant, rank=0, points=points[entrant], buchholz=buchholz,
            sonneborn_berger=sonneborn_berger, margin=sum(r.finish(entrant).margin for r in mine),
            rating=ratings.get(entrant, 0.0), lot=lot(seed, entrant),
            played=sum(not r.is_bye for r in mine), byes=sum(r.is_bye for r in mine),
            opponents=tuple(o for r in mine for o in r.opponents(entrant)), dropped=entrant in dropped,
        ))
    lines.sort(key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger, -s.margin, -s.rating, s.lot))
    return [replace(s, rank=rank) for rank, s in enumerate(lines, 1)]


def _mean(values: list[Fraction]) -> Fraction:
    """The mean of ``values``; 0 for none (a bye, or a table of only AI opponents)."""
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)
