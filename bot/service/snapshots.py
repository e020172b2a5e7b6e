"""What the service hands out: players, table and hand snapshots, and the Publisher it shows them through."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

from games.base import Action
from games.i18n import SOURCE

from ..achievements import Unlock
from ..errors import NotHere
from ..markdown import literal
from ..records import EventLine
from ..storage import SeatRow, TableRow


@dataclass(frozen=True)
class Player:
    """A Discord user acting in a server: the service refuses (:class:`~bot.errors.NotHere`)
    whatever they do to a table of another server."""

    user_id: int
    name: str
    guild_id: int | None
    """The server the request comes from; ``None`` from a direct message, where no table lives."""

    def require_at(self, row: TableRow) -> None:
        """Refuse unless this request comes from ``row``'s server."""
        if self.guild_id != row.guild_id:
            raise NotHere()


@dataclass
class TableSnapshot:
    """A table as the public sees it: the stored row and the engine's public view."""

    row: TableRow
    view: dict[str, Any] | None
    language: str = SOURCE
    """The language its seats' names are read in: an AI player's is words ("🤖 IA 1" in French)."""
    unlocks: list[Unlock] = field(default_factory=list)
    """What a finished game unlocked that its ending message tells (read when it is shown)."""

    def speaking(self, language: str) -> TableSnapshot:
        """This table with its seats named in ``language`` (the same row and view)."""
        return self if language == self.language else TableSnapshot(self.row, self.view, language, self.unlocks)

    @cached_property  # a snapshot's row is its own copy: its seats don't change under it
    def names(self) -> list[str]:
        """The seats' names for message text (:func:`bot.markdown.literal`); a label or a
        footer, which shows text as it is, takes :attr:`typed_names`."""
        return [literal(name) for name in self.typed_names]

    @cached_property
    def typed_names(self) -> list[str]:
        """The seats' names as typed, for button and menu labels (shown as they are)."""
        return [s.name_in(self.language) for s in self.row.seats]

    def player(self, seat: int) -> Player:
        """The person who sits in ``seat``, acting from this table's server."""
        sat = self.row.seats[seat]
        if sat.user_id is None:
            raise ValueError(f"seat {seat} of table {self.row.id} is an AI player's")
        return Player(sat.user_id, sat.name, self.row.guild_id)


@dataclass
class HandSnapshot:
    """What one seat may see and do now: rendered into an ephemeral message."""

    table: TableSnapshot
    seat: int
    view: dict[str, Any]
    actions: list[Action]
    notes: list[EventLine] = field(default_factory=list)
    """Events only this seat may see, just now (as stored: :func:`bot.records.event_words` reads them)."""

    @property
    def version(self) -> int:
        return self.table.row.version

    def speaking(self, language: str) -> HandSnapshot:
        """This hand with its table's seats named in ``language``."""
        table = self.table.speaking(language)
        return self if table is self.table else HandSnapshot(table, self.seat, self.view, self.actions, self.notes)


class Publisher(Protocol):
    """How the service shows changes in Discord (:class:`cogs.publisher.TablePublisher`)."""

    async def show(self, table: TableSnapshot, *, again: bool = False) -> None:
        """Show ``table`` (a lobby or a game), unless a newer state of it is known (``again``:
        start-up looking at a table whose message or ping may be behind)."""

    def tables_held(self) -> int:
        """How many tables the publisher keeps something in memory for."""

    async def close(self) -> None:
        """Stop showing tables, storing first what it must remember."""

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None: ...
