"""Showing lobbies and tables in Discord through the :class:`Publisher` the tables cog installs."""

from __future__ import annotations

import itertools

from ..storage import SeatRow
from .snapshots import Publisher, TableSnapshot
from .tables import KeyedLocks
from .tasks import BackgroundTasks


class Publishing:
    def __init__(self, tasks: BackgroundTasks) -> None:
        self.publisher: Publisher | None = None
        self._tasks = tasks
        self._locks = KeyedLocks()
        self._published: dict[int, tuple[int, bool]] = {}
        """Per table: the version last shown, and whether the table had ended then."""
        self._changes = itertools.count(1)
        self._latest_lobby_change: dict[int, int] = {}
        """Per lobby with a change waiting to be shown: the number of its latest change."""

    def show_lobby(self, snap: TableSnapshot) -> None:
        """Show a lobby's change in the background. Changes are shown one at a time, in the
        order they were made, under the table's lock, and one that a later change already
        follows is skipped: two edits sent at once could reach Discord in either order, and
        an old seat list, or the lobby over the game just started, would stay on show."""
        if self.publisher is not None:
            change = self._latest_lobby_change[snap.row.id] = next(self._changes)
            self._tasks.spawn(self._show_lobby(snap, change), f"lobby-{snap.row.id}")

    async def _show_lobby(self, snap: TableSnapshot, change: int) -> None:
        table_id = snap.row.id
        async with self._locks.hold(table_id):
            try:
                if (self._latest_lobby_change.get(table_id) == change and table_id not in self._published
                        and self.publisher is not None):
                    await self.publisher.lobby_changed(snap)
            finally:
                if self._latest_lobby_change.get(table_id) == change:
                    del self._latest_lobby_change[table_id]

    def show_table_later(self, snap: TableSnapshot) -> None:
        """Show a table's change in the background."""
        self._tasks.spawn(self.show_table(snap), f"publish-{snap.row.id}")

    async def show_table(self, snap: TableSnapshot) -> None:
        """Show ``snap`` unless a newer state of that table was shown already."""
        if self.publisher is None:
            return
        table_id = snap.row.id
        async with self._locks.hold(table_id):
            try:
                if self._published.get(table_id, (-1, False))[0] > snap.row.version:
                    return
                self._published[table_id] = (snap.row.version, snap.row.status not in ("lobby", "running"))
                await self.publisher.table_changed(snap)
            finally:
                # Nothing newer comes after an ended table's last state: forget it once no one waits.
                if self._published.get(table_id, (-1, False))[1] and self._locks.users(table_id) == 1:
                    del self._published[table_id]

    def tables_held(self) -> int:
        """How many tables have publishing bookkeeping in memory."""
        return len(self._published) + len(self._latest_lobby_change) + len(self._locks)

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None:
        """Remind ``seats`` that time is running out, unless the table moved on meanwhile; under
        the table's lock, so the reminder and a turn's ping never replace the ping message at once."""
        if self.publisher is None:
            return
        async with self._locks.hold(table.row.id):
            if self._published.get(table.row.id, (-1, False))[0] <= table.row.version:
                await self.publisher.remind(table, seats, seconds_left)
