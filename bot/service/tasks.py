"""The service's background work (publishing, AI turns, turn timers), tracked so it can be awaited or stopped."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import Any

log = logging.getLogger(__name__)


class BackgroundTasks:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        """Set by :meth:`close`: no new AI turns or timers start after it."""

    def spawn(self, coro: Awaitable[Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    async def wait_idle(self, timeout: float, sleeping: Callable[[], Collection[asyncio.Task[Any]]]) -> None:
        """Wait until every task is done except those ``sleeping()`` names (timers waiting for a deadline)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            asleep = set(sleeping())
            busy = [t for t in self._tasks if not t.done() and t not in asleep]
            if not busy:
                return
            remaining = end - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"service still busy: {[t.get_name() for t in busy]}")
            await asyncio.wait(busy, timeout=remaining)

    async def close(self) -> None:
        self.closing = True
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            _, pending = await asyncio.wait(list(self._tasks), timeout=5)
            if pending:
                log.warning("background tasks still running after close: %s", sorted(t.get_name() for t in pending))
