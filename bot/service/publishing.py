"""Showing lobbies and tables in Discord through the :class:`Publisher` the tables cog installs."""

from __future__ import annotations

import asyncio

from ..storage import SeatRow
from .snapshots import Publisher, TableSnapshot
from .tasks import BackgroundTasks


class Publishing:
    def __init__(self, tasks: BackgroundTasks) -> None:
        self.publisher: Publisher | None = None
        self._tasks = tasks
        self._locks: dict[int, asyncio.Lock] = {}
        self._published: dict[int, int] = {}

    def show_lobby(self, snap: TableSnapshot) -> None:
        """Show a lobby's change in the background."""
        if self.publisher is not None:
            self._tasks.spawn(self.publisher.lobby_changed(snap), f"lobby-{snap.row.id}")

    def show_table_later(self, snap: TableSnapshot) -> None:
        """Show a table's change in the background."""
        self._tasks.spawn(self.show_table(snap), f"publish-{snap.row.id}")

    async def show_table(self, snap: TableSnapshot) -> None:
        """Show ``snap`` unless a newer state of that table was shown already."""
        if self.publisher is None:
            return
        table_id = snap.row.id
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            if self._published.get(table_id, -1) > snap.row.version:
                return
            self._published[table_id] = snap.row.version
            await self.publisher.table_changed(snap)

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None:
        if self.publisher is not None:
            await self.publisher.remind(table, seats, seconds_left)
