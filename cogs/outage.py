"""Table messages that did not reach Discord, shown again once it answers.

Discord was out of reach, or kept failing: the tables it missed are shown on reconnecting,
and every :data:`RETRY_SECONDS` until then.

Players cannot click while Discord is away, but AI seats and turn timers play on; without
this, a table whose last edits were lost kept showing an old turn (and its ping never came)
until the next move, which a game without a turn timer might never get."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import aiohttp
import discord

from bot.errors import StorageUnavailable

log = logging.getLogger(__name__)

UNREACHABLE = (aiohttp.ClientError, discord.DiscordServerError)
"""What discord.py raises, after its own retries, when Discord cannot be reached (aiohttp's
connection errors, passed on as they are) or keeps failing (5xx)."""
RETRY_SECONDS = 30.0


class ShowAgain:
    """The tables to show again, and the one task that retries them."""

    def __init__(self, show: Callable[[int], Awaitable[None]]) -> None:
        self._show = show
        self._tables: set[int] = set()
        self._retry: asyncio.Task[None] | None = None
        self._away = False

    def missed(self, table_id: int, exc: BaseException) -> None:
        """Remember that ``table_id``'s message (or ping) did not reach Discord; warns once an outage."""
        if not self._away:
            self._away = True
            log.warning("Discord is out of reach (%s: %s); table messages are shown again once it answers",
                        type(exc).__name__, exc)
        self._keep(table_id)

    def _keep(self, table_id: int) -> None:
        self._tables.add(table_id)
        if self._retry is None:
            self._retry = asyncio.get_running_loop().create_task(self._retry_later(), name="show-again")

    async def _retry_later(self) -> None:
        await asyncio.sleep(RETRY_SECONDS)
        self._retry = None
        await self.now()

    async def now(self) -> None:
        """Show every table missed so far again (each as it is now)."""
        tables, self._tables = self._tables, set()
        for table_id in sorted(tables):
            try:
                await self._show(table_id)
            except StorageUnavailable:
                self._keep(table_id)  # the database is away too: next time
        if tables and not self._tables and self._away:
            self._away = False
            log.info("Discord answers again; %d table message(s) shown again", len(tables))

    def close(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
