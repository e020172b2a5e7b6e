"""What the in-process harness watches while the bot works: the asyncio tasks created
while it is active (to *settle*: wait until every one is done or idle) and ERROR log
records (the exceptions discord.py only logs), both turned into test failures."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import traceback
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import discord

from .messages import RecordedRequest

_ASYNCIO_DIR = os.path.dirname(asyncio.__file__) + os.sep
_DISCORD_DIR = os.path.dirname(discord.__file__) + os.sep


class ExpectedErrors:
    """Returned by :meth:`DiscordHarness.expect_logged_error`; ``records`` it claimed."""

    def __init__(self, pattern: str | None, *, at_least: int = 1) -> None:
        self.pattern = re.compile(pattern, re.S) if pattern else None
        self.at_least = at_least
        self.records: list[logging.LogRecord] = []

    def matches(self, record: logging.LogRecord, text: str) -> bool:
        return self.pattern is None or bool(self.pattern.search(text))


def _record_text(record: logging.LogRecord) -> str:
    text = f"{record.name}: {record.getMessage()}"
    if record.exc_info:
        text += "\n" + logging.Formatter().formatException(record.exc_info)
    elif record.exc_text:
        text += "\n" + record.exc_text
    return text


class _ErrorCollector(logging.Handler):
    def __init__(self, harness: BotWatch) -> None:
        super().__init__(level=logging.ERROR)
        self.harness = harness
        self._last: logging.LogRecord | None = None

    def emit(self, record: logging.LogRecord) -> None:
        # Attached to "discord" and to the root logger: a discord record propagates
        # to both handlers right after each other, so remembering the last one dedupes.
        if record is self._last:
            return
        self._last = record
        self.harness._on_error_record(record)


class BotWatch:
    """Task tracking and log collection; mixed into ``inprocess.DiscordHarness``."""

    settle_timeout: float
    long_sleep: float

    def _init_watch(self) -> None:
        self._errors: list[logging.LogRecord] = []
        self._expectations: list[ExpectedErrors] = []
        self._allowed: list[re.Pattern[str]] = []
        self._task_ignores: list[Callable[[asyncio.Task[Any]], bool]] = []
        self._tasks: list[asyncio.Task[Any]] = []  # tracked tasks not yet finished+checked
        self._settling: set[asyncio.Task[Any]] = set()  # tasks running a harness settle
        self._watched_loop: asyncio.AbstractEventLoop | None = None
        self._prev_factory: Any = None
        self._collector: _ErrorCollector | None = None
        self._saved_levels: list[tuple[logging.Logger, int]] = []

    def _start_watching(self, loop: asyncio.AbstractEventLoop) -> None:
        """Track every task created on ``loop`` from now on, and collect ERROR records."""
        self._watched_loop = loop
        self._prev_factory = loop.get_task_factory()
        prev = self._prev_factory

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
            task = prev(loop, coro, **kwargs) if prev is not None else asyncio.Task(coro, loop=loop, **kwargs)
            self._tasks.append(task)
            return task

        loop.set_task_factory(factory)
        self._collector = _ErrorCollector(self)
        for name in ("discord", ""):
            lg = logging.getLogger(name)
            lg.addHandler(self._collector)
            if lg.getEffectiveLevel() > logging.ERROR:
                self._saved_levels.append((lg, lg.level))
                lg.setLevel(logging.ERROR)

    def _stop_watching(self) -> None:
        """Undo :meth:`_start_watching` (idempotent)."""
        loop, self._watched_loop = self._watched_loop, None
        if loop is not None and not loop.is_closed():
            loop.set_task_factory(self._prev_factory)
        if self._collector is not None:
            for name in ("discord", ""):
                logging.getLogger(name).removeHandler(self._collector)
        for lg, level in self._saved_levels:
            lg.setLevel(level)
        self._saved_levels.clear()

    async def _cancel_leftover_tasks(self) -> None:
        """Tasks the bot spawned (timers, ...) must not outlive the test."""
        current = asyncio.current_task()
        leftovers = [t for t in self._tasks if not t.done() and t is not current]
        for t in leftovers:
            t.cancel()
        if leftovers:
            await asyncio.wait(leftovers, timeout=1.0)
        self._check_task_exceptions()

    def _on_error_record(self, record: logging.LogRecord) -> None:
        text = _record_text(record)
        for exp in reversed(self._expectations):
            if exp.matches(record, text):
                exp.records.append(record)
                return
        if any(p.search(text) for p in self._allowed):
            return
        self._errors.append(record)

    @contextlib.contextmanager
    def expect_logged_error(self, pattern: str | None = None, *, at_least: int = 1) -> Iterator[ExpectedErrors]:
        """Within the block, ERROR records matching ``pattern`` (a regex searched in
        "logger: message + traceback") are expected, not failures; at exit, fewer
        than ``at_least`` of them is an AssertionError."""
        exp = ExpectedErrors(pattern, at_least=at_least)
        self._expectations.append(exp)
        try:
            yield exp
        finally:
            self._expectations.remove(exp)
        if len(exp.records) < at_least:
            raise AssertionError(f"expected at least {at_least} logged error(s) matching {pattern!r}, "
                                 f"got {len(exp.records)}")

    def allow_logged_errors(self, pattern: str | None = None) -> None:
        """From now on, ERROR records matching ``pattern`` (all if None) are tolerated."""
        self._allowed.append(re.compile(pattern or ".*", re.S))

    @property
    def logged_errors(self) -> list[logging.LogRecord]:
        """Unexpected ERROR records not yet reported."""
        return list(self._errors)

    def clear_logged_errors(self) -> list[logging.LogRecord]:
        out, self._errors = self._errors, []
        return out

    def assert_no_errors(self) -> None:
        """Fail if there are pending failures or unexpected logged errors (and clear them)."""
        self._raise_pending("the test", [])

    def _raise_pending(self, context: str, requests: Sequence[RecordedRequest]) -> None:
        if not self._failures and not self._errors:
            return
        parts = []
        for f in self._failures:
            parts.append(f"* {f}")
        for rec in self._errors:
            parts.append("* logged error: " + _record_text(rec))
        self._failures, self._errors = [], []
        if requests:
            parts.append("requests made:\n    " + "\n    ".join(str(r) for r in requests))
        raise AssertionError(f"Discord harness: problems while handling {context}:\n" + "\n".join(parts))

    # ================================================================= settling
    def ignore_tasks(self, what: str | Callable[[asyncio.Task[Any]], bool]) -> None:
        """Never wait for tasks whose name starts with ``what`` (or matching a predicate)."""
        if isinstance(what, str):
            prefix = what
            self._task_ignores.append(lambda t: t.get_name().startswith(prefix))
        else:
            self._task_ignores.append(what)

    def _ignored(self, task: asyncio.Task[Any]) -> bool:
        coro = task.get_coro()
        qual = getattr(coro, "__qualname__", "")
        if qual.endswith("__timeout_task_impl") or qual == "Loop._loop":
            return True
        return any(pred(task) for pred in self._task_ignores)

    def _is_idle(self, task: asyncio.Task[Any], depth: int = 0) -> bool:
        """True when ``task`` can only be woken by time or by more test input."""
        if depth > 20 or task.done():
            return task.done()
        coro: Any = task.get_coro()
        while True:  # innermost coroutine of the await chain
            aw = getattr(coro, "cr_await", None)
            if aw is None:
                aw = getattr(coro, "gi_yieldfrom", None)
            if aw is not None and (hasattr(aw, "cr_frame") or hasattr(aw, "gi_frame")):
                coro = aw
                continue
            break
        # the future the task is blocked on (C futures hide it behind a FutureIter)
        leaf: Any = getattr(task, "_fut_waiter", None)
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            return False
        if isinstance(leaf, asyncio.Future) and leaf.done():
            return False  # about to resume
        if isinstance(leaf, asyncio.Task) or hasattr(leaf, "_children"):  # awaiting a task / gather
            return self._future_idle(leaf, depth)
        code = frame.f_code
        filename = code.co_filename
        if filename.startswith(_ASYNCIO_DIR):
            if code.co_name == "sleep":
                return float(frame.f_locals.get("delay") or 0) >= self.long_sleep
            if filename.endswith(("locks.py", "queues.py")):
                return True  # Event/Lock/Condition/Semaphore/Queue: woken by another task
            if code.co_name in ("wait_for", "_wait", "wait"):
                timeout = frame.f_locals.get("timeout")
                if timeout is not None and timeout < self.long_sleep:
                    return False
                inner = frame.f_locals.get("fut") if code.co_name == "wait_for" else frame.f_locals.get("fs")
                futs = list(inner) if isinstance(inner, (set, list, tuple)) else [inner]
                futs = [f for f in futs if isinstance(f, asyncio.Future)]
                return bool(futs) and all(f.done() or self._future_idle(f, depth) for f in futs) \
                    and not all(f.done() for f in futs)
        if filename.startswith(_DISCORD_DIR) and isinstance(leaf, asyncio.Future):
            return True  # View.wait(), Client.wait_for(), ... wait for more gateway input
        return False

    def _future_idle(self, fut: asyncio.Future[Any], depth: int) -> bool:
        """Is a future another task waits on blocked only on idle work?"""
        if fut.done():
            return False
        if isinstance(fut, asyncio.Task):
            return fut in self._settling or self._ignored(fut) or self._is_idle(fut, depth + 1)
        children = getattr(fut, "_children", None)  # asyncio.gather
        if children is not None:
            return all(c.done() or self._future_idle(c, depth + 1) for c in children)
        if not fut.get_loop().is_running():  # pragma: no cover
            return False
        return True  # a bare future nobody in this process is computing right now (e.g. wait_for's)

    def _ai_thinking(self) -> bool:
        """Whether a bot's AI worker pool is computing a move: the waiting task looks idle (it
        waits on a pipe from another process), but its move is still to come."""
        return any(getattr(getattr(getattr(bot, "service", None), "ai_pool", None), "thinking", 0)
                   for bot in getattr(self, "bots", ()))

    def _busy(self) -> list[asyncio.Task[Any]]:
        return [t for t in self._tasks
                if not t.done() and t not in self._settling and not self._ignored(t) and not self._is_idle(t)]

    async def _settle(self, what: str, timeout: float | None = None) -> None:
        """Wait until the system is quiescent: every task created while the harness
        is active is done, idle (see :meth:`_is_idle`) or ignored.  Tasks that are
        themselves settling (concurrent drivers) do not count."""
        loop = asyncio.get_running_loop()
        timeout = self.settle_timeout if timeout is None else timeout
        deadline = loop.time() + timeout
        current = asyncio.current_task()
        if current is not None:
            self._settling.add(current)
        try:
            quiet_rounds = 0
            while quiet_rounds < 2:  # quiet twice in a row: a finishing task may wake another
                for _ in range(5):
                    await asyncio.sleep(0)
                busy = self._busy()
                thinking = self._ai_thinking()
                if not busy and not thinking:
                    quiet_rounds += 1
                    continue
                quiet_rounds = 0
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise AssertionError(
                        f"Discord harness: {what} did not settle within {timeout:.1f}s; tasks still running:\n"
                        + "\n".join(self._describe_task(t) for t in busy)
                        + "\n(use harness.ignore_tasks(...) for long-lived background tasks)"
                    )
                if busy:
                    await asyncio.wait(busy, timeout=min(remaining, 0.05), return_when=asyncio.FIRST_COMPLETED)
                else:
                    await asyncio.sleep(min(remaining, 0.01))
        finally:
            self._settling.discard(current)  # type: ignore[arg-type]
        self._check_task_exceptions()

    @staticmethod
    def _describe_task(task: asyncio.Task[Any]) -> str:
        """The task's await chain, outermost first, down to what it is waiting on."""
        lines = []
        coro: Any = task.get_coro()
        while coro is not None:
            frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
            if frame is not None:
                lines.append(f"    {frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}")
            nxt = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
            coro = nxt if nxt is not None and (hasattr(nxt, "cr_frame") or hasattr(nxt, "gi_frame")) else None
        leaf = getattr(task, "_fut_waiter", None)
        if leaf is not None:
            lines.append(f"    waiting on {leaf!r}"[:300])
        coro = task.get_coro()
        return f"- {task.get_name()} ({getattr(coro, '__qualname__', coro)}):\n" + "\n".join(lines)

    def _check_task_exceptions(self) -> None:
        """Record tasks that died with an exception nobody retrieved; forget finished tasks."""
        alive = []
        for t in self._tasks:
            if not t.done():
                alive.append(t)
            elif not t.cancelled() and getattr(t, "_log_traceback", False):  # never retrieved
                exc = t.exception()  # retrieving it also silences asyncio's later log
                tb = "".join(traceback.format_exception(exc))
                self._failures.append(f"task {t.get_name()!r} died with an exception nobody retrieved:\n{tb}")
        self._tasks = alive

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until the bot's work is done (drivers do this themselves); report problems."""
        await self._settle("pending work", timeout)
        self._raise_pending("pending work", [])

    async def wait_until(self, predicate: Callable[[], bool], *, timeout: float | None = None,
                         what: str = "condition") -> None:
        """Poll ``predicate`` (each loop turn / 10 ms) until true or fail after ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.settle_timeout if timeout is None else timeout)
        while not predicate():
            if loop.time() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.01)

