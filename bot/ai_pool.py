"""A small pool of worker processes where ``hard`` AI players think, off the event loop.

A search takes up to a few hundred milliseconds of pure-Python CPU; run on the event
loop it would hold up every click on every table. Each worker is a spawned process
serving one move at a time over a pipe; the event loop only waits for the pipe to
become readable (``loop.add_reader``), so no thread is tied up either.

A worker that dies, or takes longer than ``timeout`` (stuck), is killed and replaced,
and the move raises :class:`WorkerLost`; the caller then plays ``normal`` for that
move (see :mod:`bot.service.autoplay`). Workers start on the first move they are asked
for, so a bot whose tables have no hard AI never starts a process.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
from multiprocessing.connection import Connection
from typing import Any

import games
from games.ai import choose_action
from games.base import Action, GameState
from games.rng import Rng

log = logging.getLogger(__name__)

MAX_WORKERS = 2
HARD_TIMEOUT = 5.0
"""Seconds a worker may think about one move (``hard`` takes ≤ 0.3 s at p95) before it
counts as stuck."""
STARTUP_SECONDS = 20.0
"""Added to a new worker's first move: a fresh interpreter imports the engines first."""


def pool_size() -> int:
    """Workers for this machine: one per core, at most :data:`MAX_WORKERS` (the bot shares its cores)."""
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


class WorkerLost(Exception):
    """The worker died or got stuck on this move; it has been replaced."""


def _worker_main(conn: Connection) -> None:
    """A worker process. Ctrl+C in a terminal reaches the whole process group: the worker
    ignores it and leaves stopping to the bot, which kills its workers as it closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _serve(conn)


def _serve(conn: Connection) -> None:
    """A worker's loop: ``(game id, state json, seat, seed, level, budget)`` in, action json out.

    It ends quietly when the bot is gone (its end of the pipe closed, e.g. the bot was
    killed mid-move).
    """
    while True:
        try:
            game_id, state_json, seat, seed, level, budget = conn.recv()
        except (EOFError, OSError):
            return
        reply: tuple[str, dict[str, Any] | str]  # ("ok", the action's json) or ("error", what went wrong)
        try:
            state = games.get_game(game_id).from_json(state_json)
            reply = ("ok", choose_action(state, seat, Rng(seed), level, budget).to_json())
        except Exception as exc:  # reported to the caller, which falls back and logs it
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except OSError:  # BrokenPipeError: nobody is waiting for the answer any more
            return


class _Worker:
    def __init__(self, context: Any) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child,), daemon=True, name="deckhand-ai")
        self.process.start()
        child.close()
        self.answered = 0
        """Moves this worker has answered (its first also waits for its start-up)."""

    def stop(self) -> None:
        """End the process (a stopped or busy one too); its pipe stays open until :meth:`kill`."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(1.0)

    def kill(self) -> None:
        self.stop()
        if not self.conn.closed:
            self.conn.close()


class AiPool:
    """Computes AI moves in worker processes; :meth:`close` stops them."""

    def __init__(self, workers: int | None = None, *, timeout: float = HARD_TIMEOUT) -> None:
        self.size = workers or pool_size()
        self.timeout = timeout
        self.moves = 0
        """Moves computed in a worker (a structural fact tests and benchmarks read)."""
        self.replaced = 0
        """Workers killed and replaced because they died or got stuck."""
        self.thinking = 0
        """Moves being computed in a worker right now (the test harness waits for them to settle)."""
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._idle: asyncio.Queue[_Worker] | None = None
        self._closed = False

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers (none before the first move)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def _start(self) -> asyncio.Queue[_Worker]:
        """The idle workers, after starting any missing (the first time, or after a cancelled move)."""
        if self._idle is None:
            self._idle = asyncio.Queue()
        while len(self._workers) < self.size:
            self._add_worker()
        return self._idle

    def _add_worker(self) -> None:
        worker = _Worker(self._context)
        self._workers.append(worker)
        assert self._idle is not None
        self._idle.put_nowait(worker)

    def _drop(self, worker: _Worker) -> None:
        if worker in self._workers:
            self._workers.remove(worker)
        worker.kill()

    def _replace(self, worker: _Worker, why: str) -> None:
        log.warning("AI worker %s %s; replacing it", worker.process.pid, why)
        self.replaced += 1
        self._drop(worker)
        if not self._closed:
            self._add_worker()

    async def choose(self, state: GameState, seat: int, seed: int, level: str, budget: int | None = None) -> Action:
        """``games.ai.choose_action(state, seat, Rng(seed), level, budget)`` computed in a worker.

        Raises :class:`WorkerLost` if the worker died or took longer than ``timeout``
        (it is replaced), and :class:`RuntimeError` if the engine failed in the worker.
        """
        self.thinking += 1
        try:
            return await self._choose(state, seat, seed, level, budget)
        finally:
            self.thinking -= 1

    async def _choose(self, state: GameState, seat: int, seed: int, level: str, budget: int | None) -> Action:
        if self._closed:
            raise WorkerLost("the AI pool is closed")
        idle = self._start()
        worker = await idle.get()
        try:
            reply = await self._ask(worker, (state.game_id, state.to_json(), seat, seed, level, budget))
        except WorkerLost as exc:
            self._replace(worker, str(exc))
            raise
        except BaseException:
            # Cancelled mid-move (the service is closing): the worker may still answer
            # later, so it can't serve another move; a new one starts when one is needed.
            self._drop(worker)
            raise
        worker.answered += 1
        idle.put_nowait(worker)
        status, payload = reply
        if status != "ok":
            raise RuntimeError(f"{state.game_id} AI failed in a worker: {payload}")
        self.moves += 1
        return games.get_game(state.game_id).action_from_json(payload)

    async def _ask(self, worker: _Worker, job: tuple) -> tuple[str, Any]:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[tuple[str, Any]] = loop.create_future()
        conn = worker.conn
        fd = conn.fileno()

        def readable() -> None:
            if answer.done():
                return
            try:
                answer.set_result(conn.recv())
            except (EOFError, OSError):
                answer.set_exception(WorkerLost("died"))

        try:
            conn.send(job)
        except (BrokenPipeError, OSError):
            raise WorkerLost("died") from None
        loop.add_reader(fd, readable)
        timeout = self.timeout if worker.answered else self.timeout + STARTUP_SECONDS
        try:
            return await asyncio.wait_for(answer, timeout)
        except TimeoutError:
            raise WorkerLost(f"took longer than {timeout} s") from None
        finally:
            loop.remove_reader(fd)

    async def close(self) -> None:
        """Stop every worker (a move still being computed is abandoned)."""
        self._closed = True
        idle = []
        while self._idle is not None and not self._idle.empty():
            idle.append(self._idle.get_nowait())
        for worker in self._workers:
            if worker in idle:
                worker.kill()
            else:  # its pipe is closed by the move waiting on it, when that sees the end
                worker.stop()
        self._workers.clear()
