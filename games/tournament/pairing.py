"""A round's pairing as data, and what every pairing method shares."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .results import Entrant
from .standings import Standing


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: its people (or teams) by standing or seed, best first, and how
    many AI seats fill it up to the tournament's table size."""

    entrants: tuple[Entrant, ...]
    ai_seats: int = 0

    @property
    def seats(self) -> int:
        return len(self.entrants) + self.ai_seats


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round: the tables to open, best first, and who goes through without playing (a
    Swiss bye, which scores a win and is stored as :meth:`Result.bye`; a knockout bye)."""

    tables: tuple[Table, ...]
    byes: tuple[Entrant, ...] = ()

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """Everyone the round names, at a table or with a bye."""
        return tuple(e for t in self.tables for e in t.entrants) + self.byes


def default_rounds(players: int, table_size: int = 2) -> int:
    """Swiss rounds enough to find a winner: ``ceil(log(players) / log(table_size))``, at least 1
    (8 players at two seats: 3 rounds; 10 at tables of 4: 2)."""
    if players < 2 or table_size < 2:
        raise ValueError(f"rounds need at least 2 players and 2 seats a table, not {players} and {table_size}")
    rounds, field = 0, 1
    while field < players:
        rounds, field = rounds + 1, field * table_size
    return max(rounds, 1)


def in_play(standings: Iterable[Standing]) -> list[Standing]:
    """The standings of those to pair, best first: everyone not dropped. (Who did not check in
    is not an entrant at all.) Raises ``ValueError`` for fewer than two."""
    players = sorted((s for s in standings if not s.dropped), key=lambda s: s.rank)
    if len(players) < 2:
        raise ValueError(f"a round needs at least two entrants in play, not {len(players)}")
    return players


def meetings(standings: Iterable[Standing]) -> Counter[frozenset[Entrant]]:
    """How many times each pair of entrants has met at a table, from their standings."""
    met: Counter[frozenset[Entrant]] = Counter()
    for line in standings:
        for other in line.opponents:
            if line.entrant < other:
                met[frozenset((line.entrant, other))] += 1
    return met

