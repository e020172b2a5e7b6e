"""The interactions the bot is answering right now, so that stopping it is clean.

When the bot is stopped (Ctrl+C, ``docker stop``), a click or command already being
handled is finished and answered before the database and the connection to Discord
close; one that arrives meanwhile is told the bot is restarting and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

from games.i18n import say

RESTARTING = say("Deckhand is restarting; please try again in a moment. Nothing was changed.")


class InFlight:
    """A count of the interactions being handled, and whether the bot is closing."""

    def __init__(self) -> None:
        self.count = 0
        self.closing = False
        """Set when the bot starts closing: new interactions get :data:`RESTARTING`."""
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.contextmanager
    def track(self) -> Iterator[None]:
        """Around the handling of one interaction."""
        self.count += 1
        self._idle.clear()
        try:
            yield
        finally:
            self.count -= 1
            if not self.count:
                self._idle.set()

    async def drain(self, timeout: float) -> bool:
        """Stop taking interactions and wait up to ``timeout`` seconds for those being
        handled; whether they all finished."""
        self.closing = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True
