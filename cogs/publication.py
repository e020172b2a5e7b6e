"""What each table's message shows and who was pinged, stored in the background: showing never waits for the database.

The columns (``tables.shown``, ``pinged``, ``pinging``, ``ping_message_id``; see
:meth:`bot.service.GameService.set_publication`) tell start-up which tables may be behind and
whom not to ping twice. One write at a time per table, the newest values winning; a database
fault is logged by the storage and, at worst, start-up shows a table once more.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.errors import StorageUnavailable
from bot.service import GameService

SAVE_SECONDS = 2.0
"""How long closing waits for what was shown and pinged to be stored."""


class Publication:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self._unsaved: dict[int, dict[str, Any]] = {}
        """Per table, columns not yet stored."""
        self._saving: dict[int, asyncio.Task[None]] = {}

    def note(self, table_id: int, **columns: Any) -> None:
        """Store ``columns`` of the table, in the background."""
        self._unsaved.setdefault(table_id, {}).update(columns)
        if table_id not in self._saving:
            self._saving[table_id] = asyncio.get_running_loop().create_task(
                self._save(table_id), name=f"publication-{table_id}")

    async def stored(self, table_id: int, **columns: Any) -> None:
        """:meth:`note`, then wait until everything noted for the table so far is stored."""
        self.note(table_id, **columns)
        saving = self._saving.get(table_id)
        if saving is not None:
            await asyncio.shield(saving)

    async def close(self) -> None:
        """Wait a little (:data:`SAVE_SECONDS` at most) for what is being stored, then stop."""
        if self._saving:
            await asyncio.wait(list(self._saving.values()), timeout=SAVE_SECONDS)
        for task in self._saving.values():
            task.cancel()

    async def _save(self, table_id: int) -> None:
        try:
            while table_id in self._unsaved:
                columns = self._unsaved.pop(table_id)
                try:
                    await self.service.set_publication(table_id, **columns)
                except StorageUnavailable:
                    pass  # logged by the storage; at worst start-up shows the table once more
        finally:
            del self._saving[table_id]
