"""What the service hands the Discord layer: a tournament as shown, and the publisher it is shown through."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from games.tournament import Bracket, BracketTable, Standing

from .records import EntrantRow, RoundTableRow, TableResult, TournamentRow


@dataclass(frozen=True)
class TournamentView:
    """A tournament as its message shows it: the row, who entered, the current round's tables
    with their results, and the standings (empty before the start)."""

    row: TournamentRow
    entrants: list[EntrantRow]
    tables: list[RoundTableRow]
    """The current round's tables and byes."""
    results: dict[int, TableResult]
    """The current round's recorded results, by table id."""
    standings: list[Standing]
    """The Swiss standings (empty before the start, and for a knockout)."""
    bracket: Bracket | None = None
    """The knockout, once it began."""
    bracket_tables: tuple[tuple[BracketTable, ...], ...] = ()
    """The knockout's rounds as far as the results decide them."""
    placings: tuple[tuple[int, ...], ...] = ()
    """Once the tournament is over: its places, best first, each the entrants sharing it."""

    def entrant(self, number: int) -> EntrantRow:
        return next(e for e in self.entrants if e.entrant == number)

    @property
    def rounds_left(self) -> int | None:
        """The knockout rounds left, the current one included (1: the final); None outside the knockout."""
        if self.bracket is None or self.row.stage != "knockout":
            return None
        return self.bracket.rounds - (self.row.round - self.bracket.first_round)

    @property
    def shown_key(self) -> str:
        return f"{self.row.status}@{self.row.version}"


class TournamentPublisher(Protocol):
    """How the service shows tournaments in Discord (:class:`cogs.tournaments.publisher.Publisher`)."""

    async def show(self, view: TournamentView, *, again: bool = False) -> None:
        """Post or refresh the tournament's message, unless a newer state is known (``again``:
        start-up looking at one that may be behind)."""

    async def open_thread(self, tournament: TournamentRow, table: RoundTableRow, names: list[str]) -> int | None:
        """A new public thread of the tournament's channel for ``table`` (its players' ``names``);
        None if Discord did not make it (the round is opened again later)."""

    async def remove_thread(self, tournament: TournamentRow, thread_id: int) -> None:
        """Delete a thread whose table was cancelled (where Deckhand may)."""
