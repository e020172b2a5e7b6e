"""Tell the other processes on the database each table version shown (the site run as its own process).

Versions shown while a NOTIFY is on its way are sent together in the next one, each table's newest
only: a burst of moves costs one round trip, and a listener only ever needs the newest version.
"""

from __future__ import annotations

import asyncio
import logging

from .errors import StorageUnavailable
from .storage import Storage

log = logging.getLogger(__name__)


class VersionAnnouncer:
    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._waiting: dict[int, int] = {}
        self._sending: asyncio.Task[None] | None = None

    def shown(self, table_id: int, version: int) -> None:
        """A listener for :meth:`GameService.on_shown`: announce ``version`` soon."""
        self._waiting[table_id] = max(version, self._waiting.get(table_id, -1))
        if self._sending is None:
            self._sending = asyncio.get_running_loop().create_task(self._send(), name="announce-versions")

    async def _send(self) -> None:
        try:
            while self._waiting:
                versions, self._waiting = self._waiting, {}
                try:
                    await self._storage.announce_versions(versions)
                except StorageUnavailable:  # the pages catch up at their next version or reconnection
                    log.warning("could not announce %d table version(s) to other processes", len(versions))
        finally:
            self._sending = None

    async def close(self) -> None:
        if self._sending is not None:
            await self._sending
