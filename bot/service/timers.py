"""Turn timers for any number of tables: one heap of wake-up times and one sleeping task.

A table has at most one wake-up time; scheduling it again replaces the old one
(the old heap entry is skipped when it comes up). When a time comes, the
table's check runs as ordinary background work.
"""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Awaitable, Callable
from typing import Any

from .tasks import BackgroundTasks

STALE_ENTRIES_BEFORE_REBUILD = 1024


class TimerQueue:
    def __init__(self, tasks: BackgroundTasks, clock: Callable[[], float],
                 fire: Callable[[int], Awaitable[None]]) -> None:
        self._tasks = tasks
        self._clock = clock
        self._fire = fire
        self._wake: dict[int, float] = {}
        self._heap: list[tuple[float, int]] = []
        self._sleeper: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()

    def __contains__(self, table_id: int) -> bool:
        return table_id in self._wake

    def table_ids(self) -> set[int]:
        return set(self._wake)

    def sleeping(self) -> set[asyncio.Task[Any]]:
        """The one task waiting for the next wake-up (not work anyone waits for)."""
        return {self._sleeper} if self._sleeper is not None else set()

    def schedule(self, table_id: int, wake: float) -> None:
        """Run the table's check at ``wake`` (clock time), instead of any time set before.
        A check already due starts at once, as work :meth:`sleeping` does not hide."""
        if wake <= self._clock():
            self._wake.pop(table_id, None)
            self._tasks.spawn(self._fire(table_id), f"timer-{table_id}")
            return
        self._wake[table_id] = wake
        heapq.heappush(self._heap, (wake, table_id))
        if len(self._heap) > 2 * len(self._wake) + STALE_ENTRIES_BEFORE_REBUILD:
            self._heap = [(at, key) for key, at in self._wake.items()]
            heapq.heapify(self._heap)
        if self._sleeper is None or self._sleeper.done():
            self._sleeper = self._tasks.spawn(self._run(), "timers")
        elif self._heap[0] == (wake, table_id):
            self._changed.set()

    def cancel(self, table_id: int) -> None:
        self._wake.pop(table_id, None)

    async def _run(self) -> None:
        while True:
            heap = self._heap
            while heap and self._wake.get(heap[0][1]) != heap[0][0]:
                heapq.heappop(heap)
            if not heap:
                self._sleeper = None
                return
            wake, table_id = heap[0]
            delay = wake - self._clock()
            if delay > 0:
                self._changed.clear()
                try:
                    # asyncio.timeout, not wait_for: a cancel that lands as the delay ends must stop
                    # the loop, and wait_for (3.11) can turn it into a TimeoutError caught here.
                    async with asyncio.timeout(delay):
                        await self._changed.wait()
                except TimeoutError:
                    pass
                continue
            heapq.heappop(heap)
            del self._wake[table_id]
            self._tasks.spawn(self._fire(table_id), f"timer-{table_id}")
