"""How the service's parts show changes in Discord, from background work, through the installed publisher.

The :class:`Publisher` is what the Discord layer installs; showing runs in background work,
so no answer to a player waits for Discord. The publisher keeps only each table's newest
state (:mod:`cogs.publisher`)."""

from __future__ import annotations

from ..storage import SeatRow
from .snapshots import Publisher, TableSnapshot
from .tasks import BackgroundTasks


class Publishing:
    def __init__(self, tasks: BackgroundTasks) -> None:
        self.publisher: Publisher | None = None
        self._tasks = tasks

    def show(self, snap: TableSnapshot, *, again: bool = False) -> None:
        """Show ``snap`` (a lobby or a game) in the background, unless a newer state of its table
        comes first (``again``: start-up looking at a table whose message may be behind)."""
        if self.publisher is not None:
            self._tasks.spawn(self.publisher.show(snap, again=again), f"show-{snap.row.id}")

    async def close(self) -> None:
        if self.publisher is not None:
            await self.publisher.close()

    def tables_held(self) -> int:
        return self.publisher.tables_held() if self.publisher is not None else 0

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None:
        """Remind ``seats`` that time is running out, unless the table moved on meanwhile."""
        if self.publisher is not None:
            await self.publisher.remind(table, seats, seconds_left)
