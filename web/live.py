"""The event streams of live tables, woken when their table's version changes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


class Hub:
    """For each table, the streams following it: each holds an event that a new version sets.

    A stream clears its event *before* reading the table, so a version committed while it reads
    or writes sets it again, and none is missed."""

    def __init__(self) -> None:
        self._following: dict[int, set[asyncio.Event]] = {}
        self.closing = False
        """The site is stopping: every stream ends (its browser reconnects, to this site or the next)."""

    def close(self) -> None:
        """End every stream (at their next wake, which this is)."""
        self.closing = True
        for events in self._following.values():
            for event in events:
                event.set()

    def notify(self, table_id: int, version: int) -> None:
        """Table ``table_id`` is at ``version``: wake every stream following it."""
        for event in self._following.get(table_id, ()):
            event.set()

    @contextlib.contextmanager
    def follow(self, table_id: int) -> Iterator[asyncio.Event]:
        """An event set at each new version of ``table_id``, while the ``with`` block lasts."""
        event = asyncio.Event()
        following = self._following.setdefault(table_id, set())
        following.add(event)
        try:
            yield event
        finally:
            following.discard(event)
            if not following:
                del self._following[table_id]

    def following(self, table_id: int) -> bool:
        """Whether a stream follows ``table_id`` now."""
        return table_id in self._following

    def streams(self) -> int:
        """Streams following a table now."""
        return sum(len(events) for events in self._following.values())
