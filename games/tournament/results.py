"""What a tournament keeps of its tables: who sat at each, how they finished, and the points that earns.

A :class:`Result` is one table of one round (or one bye), as stored; standings, pairings
and brackets are computed from results every time, never kept as running totals.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

Entrant: TypeAlias = int
"""Who takes part: a person's id, or for a game played in teams (QUASH 2 v 2) a team's id,
which the tournament layer maps to its people. Pairing and standings see only entrants."""


@dataclass(frozen=True, slots=True)
class Finish:
    """One seat's finish at a table: ``place`` 1 is first, tied seats share the best of their
    places (1, 2, 2, 4); ``margin`` is the game's own measure, higher better (points, or cards
    left counted negative), summed into a tiebreak. ``entrant`` ``None`` is an AI seat."""

    entrant: Entrant | None
    place: int
    margin: int = 0


@dataclass(frozen=True, slots=True)
class Result:
    """How one table of round ``round`` (1, 2, …) finished: every seat's :class:`Finish`, AI seats
    included, so ties and places are known. A result with a single finish is a bye."""

    round: int
    finishes: tuple[Finish, ...]

    def __post_init__(self) -> None:
        if self.round < 1:
            raise ValueError(f"a result's round is 1 or more, not {self.round}")
        if not self.finishes:
            raise ValueError(f"round {self.round}: a result needs at least one finish")
        people = self.entrants
        if not people:
            raise ValueError(f"round {self.round}: a result without an entrant, only AI seats")
        if len(set(people)) != len(people):
            raise ValueError(f"round {self.round}: an entrant appears twice at one table: {people}")
        places = sorted(f.place for f in self.finishes)
        for finish in self.finishes:
            if finish.place != 1 + sum(p < finish.place for p in places):
                raise ValueError(f"round {self.round}: places {places} are not a ranking "
                                 "(1 is first, tied seats share the best of their places: 1, 2, 2, 4)")

    @classmethod
    def bye(cls, round: int, entrant: Entrant) -> Result:
        """The bye ``entrant`` had in ``round``: no table, the points of a win."""
        return cls(round, (Finish(entrant, 1),))

    @property
    def is_bye(self) -> bool:
        return len(self.finishes) == 1

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """The people (or teams) at the table, AI seats left out, in the finishes' order."""
        return tuple(f.entrant for f in self.finishes if f.entrant is not None)

    def finish(self, entrant: Entrant) -> Finish:
        for f in self.finishes:
            if f.entrant == entrant:
                return f
        raise ValueError(f"entrant {entrant} is not in this round {self.round} result")

    def points(self, entrant: Entrant) -> Fraction:
        """The match points ``entrant`` earns here: a bye 1; at a table of ``n`` seats (AI seats
        counted), place ``p`` earns ``(n - p) / (n - 1)``, seats tied at a place sharing the
        mean of the places they cover. Two seats: win 1, draw ½, loss 0. It is also the mean,
        over the other seats, of :meth:`score_against` them."""
        if self.is_bye:
            return Fraction(1)
        n = len(self.finishes)
        place = self.finish(entrant).place
        tied = sum(f.place == place for f in self.finishes)
        return Fraction(2 * n - 2 * place - tied + 1, 2 * (n - 1))

    def score_against(self, entrant: Entrant, other: Entrant) -> Fraction:
        """1 if ``entrant`` finished ahead of ``other`` here, ½ if level, 0 if behind."""
        mine, theirs = self.finish(entrant).place, self.finish(other).place
        return Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else Fraction(0)

    def opponents(self, entrant: Entrant) -> tuple[Entrant, ...]:
        """The other people at ``entrant``'s table: an AI seat is nobody's opponent."""
        return tuple(e for e in self.entrants if e != entrant)
