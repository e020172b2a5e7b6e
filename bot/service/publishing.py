"""How the service's parts show changes in Discord, from background work, through the installed publisher.

The :class:`Publisher` is what the Discord layer installs; showing runs in background work,
so no answer to a player waits for Discord. The publisher keeps only each table's newest
state (:mod:`cogs.publisher`)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..errors import StorageUnavailable
from ..storage import SeatRow
from ..unlocks import Unlocks
from .snapshots import Publisher, TableSnapshot
from .tasks import BackgroundTasks

log = logging.getLogger(__name__)


class Publishing:
    def __init__(self, tasks: BackgroundTasks, unlocks: Unlocks) -> None:
        self.publisher: Publisher | None = None
        self.listeners: list[Callable[[int, int], None]] = []
        """Told "table N is at version V" for every state shown (the site's live pages): they must not wait."""
        self._tasks = tasks
        self._unlocks = unlocks

    def show(self, snap: TableSnapshot, *, again: bool = False) -> None:
        """Show ``snap`` (a lobby or a game) in the background, unless a newer state of its table
        comes first (``again``: start-up looking at a table whose message may be behind); a
        finished game with what it unlocked. Every listener hears of it first."""
        for listener in self.listeners:
            try:
                listener(snap.row.id, snap.row.version)
            except Exception:  # a listener's failure never stops a table being shown
                log.exception("a listener failed on table %s", snap.row.id)
        if self.publisher is not None:
            self._tasks.spawn(self._show(self.publisher, snap, again), f"show-{snap.row.id}")

    async def _show(self, publisher: Publisher, snap: TableSnapshot, again: bool) -> None:
        if snap.row.status == "finished" and not snap.unlocks:
            try:
                snap.unlocks = await self._unlocks.of_table(snap.row.id)
            except StorageUnavailable:
                log.warning("table %s is shown without what it unlocked: the database is unavailable", snap.row.id)
        await publisher.show(snap, again=again)

    async def close(self) -> None:
        if self.publisher is not None:
            await self.publisher.close()

    def tables_held(self) -> int:
        return self.publisher.tables_held() if self.publisher is not None else 0

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None:
        """Remind ``seats`` that time is running out, unless the table moved on meanwhile."""
        if self.publisher is not None:
            await self.publisher.remind(table, seats, seconds_left)
