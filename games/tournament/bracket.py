"""Knockout brackets: standard seeding, byes to the top seeds, tables of two seats or more.

A bracket plays tables of ``table_size`` seats whose best ``advance`` go on (two seats: the
winner), so each round has ``table_size / advance`` times fewer tables, down to one final
table. Its capacity is the smallest ``table_size × (table_size / advance) ** (rounds - 1)``
that holds the field; the seeds past the field are empty seats.

Seeding is the classic recursive order, written for any table: start from the final,
whose seats are seeds 1 to ``table_size``; each round further out, a table's seeds are
dealt in a snake to the tables feeding it, ``advance`` each (1 and 4 to one, 2 and 3 to
the other), and the new seeds are dealt weakest first to the table of the strongest seed,
pass after pass. Two seats give 1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14,
6 v 11: if the better seed always wins, round ``r``'s tables hold seeds ``s`` and
``field + 1 - s``. The empty seats are the highest seeds, so they fall to the top seeds'
tables first: a top seed's table of ``advance`` people or fewer is a bye (all go on), a
table with more plays with AI seats in the empty places. Byes happen in round 1 only.

Who goes on from a table: the best places among its people (an AI seat takes a place but
never goes on); a tie across the line is broken by the game's margin, then by the better
seed. So the final crowns one champion. Placings: the final table's order, then everyone
knocked out in the last round before it, sharing a place, and so on back to round 1.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .pairing import Pairing, Table
from .results import Entrant, Result
from .standings import Standing, lot


@dataclass(frozen=True, slots=True)
class BracketTable:
    """One table of the bracket as far as the results go. ``entrants`` are those known so
    far, best seed first; ``waiting`` counts the tables feeding it still undecided (0: the
    table is complete); ``bye``: complete with ``advance`` people or fewer, who all go on
    without playing (never the final); ``going_on`` is ``None`` until the table is decided,
    then who goes on, best first (the final: its whole order)."""

    round: int
    entrants: tuple[Entrant, ...]
    waiting: int
    bye: bool
    going_on: tuple[Entrant, ...] | None


@dataclass(frozen=True, slots=True)
class Bracket:
    """A knockout of ``seeds`` (seed 1 first) whose round 1 is the tournament's round
    ``first_round`` (after Swiss rounds, the one that follows them)."""

    seeds: tuple[Entrant, ...]
    table_size: int = 2
    advance: int = 1
    first_round: int = 1

    def __post_init__(self) -> None:
        if len(self.seeds) < 2 or len(set(self.seeds)) != len(self.seeds):
            raise ValueError(f"a bracket needs two distinct seeds or more, not {self.seeds}")
        if not 1 <= self.advance < self.table_size or self.table_size % self.advance:
            raise ValueError(f"{self.advance} going on from tables of {self.table_size}: "
                             "the number going on must divide the table's seats, and be fewer")
        if self.first_round < 1:
            raise ValueError(f"a bracket's first round is 1 or more, not {self.first_round}")

    @property
    def rounds(self) -> int:
        """How many rounds the bracket plays: the fewest whose capacity holds the field."""
        rounds, capacity = 1, self.table_size
        while capacity < len(self.seeds):
            rounds, capacity = rounds + 1, capacity * (self.table_size // self.advance)
        return rounds

    def layout(self) -> tuple[tuple[int, ...], ...]:
        """Round 1's tables as seed numbers (1 is the top seed), in bracket order, empty
        seats included: the tables feeding one later table are consecutive."""
        size, ahead = self.table_size, self.table_size // self.advance
        tables = [list(range(1, size + 1))]
        for _ in range(self.rounds - 1):
            feeders = []
            for table in tables:
                groups: list[list[int]] = [[] for _ in range(ahead)]
                for k, seed in enumerate(sorted(table)):
                    turn = k % (2 * ahead)
                    groups[turn if turn < ahead else 2 * ahead - 1 - turn].append(seed)
                feeders += groups
            new = iter(range(len(tables) * size * ahead, len(tables) * size, -1))
            strongest_first = sorted(feeders, key=min)
            for _ in range(size - self.advance):
                for feeder in strongest_first:
                    feeder.append(next(new))
            tables = feeders
        return tuple(tuple(sorted(t)) for t in tables)

    def tables(self, results: Iterable[Result]) -> tuple[tuple[BracketTable, ...], ...]:
        """Every round's tables, round 1 first, as far as ``results`` decide them. Byes and
        results of rounds outside the bracket are ignored; raises ``ValueError`` for a result in the
        bracket's rounds that matches none of its tables."""
        seed_of = {e: k for k, e in enumerate(self.seeds, 1)}
        by_round: dict[int, list[Result]] = {}
        for result in results:
            if self.first_round <= result.round < self.first_round + self.rounds and not result.is_bye:
                by_round.setdefault(result.round, []).append(result)
        ahead = self.table_size // self.advance
        rounds: list[tuple[BracketTable, ...]] = []
        seats: list[tuple[list[Entrant], int]] = [
            ([self.seeds[s - 1] for s in t if s <= len(self.seeds)], 0) for t in self.layout()]
        for k in range(self.rounds):
            number = self.first_round + k
            final = k == self.rounds - 1
            played = {frozenset(r.entrants): r for r in by_round.pop(number, [])}
            row = []
            for people, waiting in seats:
                people.sort(key=seed_of.__getitem__)
                bye = waiting == 0 and not final and len(people) <= self.advance
                going_on: tuple[Entrant, ...] | None = tuple(people) if bye else None
                finished = None if waiting or bye else played.pop(frozenset(people), None)
                if finished is not None:
                    order = sorted(people, key=lambda e: (finished.finish(e).place, -finished.finish(e).margin,
                                                          seed_of[e]))
                    going_on = tuple(order if final else order[: self.advance])
                row.append(BracketTable(number, tuple(people), waiting, bye, going_on))
            if played:
                raise ValueError(f"round {number}: results for {[sorted(p) for p in played]} "
                                 "match no table of the bracket")
            rounds.append(tuple(row))
            seats = [([e for t in row[j:j + ahead] if t.going_on for e in t.going_on],
                      sum(t.going_on is None for t in row[j:j + ahead])) for j in range(0, len(row), ahead)]
        return tuple(rounds)

    def pairing(self, round: int, results: Iterable[Result]) -> Pairing:
        """The tables to play in the tournament's round ``round`` (AI seats filling empty
        places) and its byes, best seed first. Raises ``ValueError`` until every table of
        the round before is decided."""
        k = round - self.first_round
        if not 0 <= k < self.rounds:
            raise ValueError(f"round {round} is not one of the bracket's")
        row = self.tables(results)[k]
        if any(t.waiting for t in row):
            raise ValueError(f"round {round} waits for tables of round {round - 1}")
        byes = sorted((e for t in row if t.bye for e in t.entrants), key=self.seeds.index)
        return Pairing(tables=tuple(Table(t.entrants, self.table_size - len(t.entrants)) for t in row if not t.bye),
                       byes=tuple(byes))

    def placings(self, results: Iterable[Result]) -> tuple[tuple[Entrant, ...], ...] | None:
        """Places, best first, each a group sharing it (best seed first); ``None`` until the
        final is decided."""
        rounds = self.tables(results)
        final = rounds[-1][0].going_on
        if final is None:
            return None
        placings: list[tuple[Entrant, ...]] = [(e,) for e in final]
        for row in reversed(rounds[:-1]):
            out = sorted((e for t in row if t.going_on is not None for e in t.entrants if e not in t.going_on),
                         key=self.seeds.index)
            if out:
                placings.append(tuple(out))
        return tuple(placings)


def top_cut(standings: Sequence[Standing], size: int) -> tuple[Entrant, ...]:
    """The seeds of a knockout after Swiss rounds: the best ``size`` not dropped, in order."""
    return tuple(s.entrant for s in standings if not s.dropped)[:size]


def seed_by_rating(entrants: Collection[Entrant], ratings: Mapping[Entrant, float], *,
                   seed: int) -> tuple[Entrant, ...]:
    """Seeds by rating, highest first (0 if none), equal ratings by the drawn lot."""
    return tuple(sorted(entrants, key=lambda e: (-ratings.get(e, 0.0), lot(seed, e))))


def seed_at_random(entrants: Collection[Entrant], *, seed: int) -> tuple[Entrant, ...]:
    """Seeds drawn by lot from the tournament's seed."""
    return seed_by_rating(entrants, {}, seed=seed)
