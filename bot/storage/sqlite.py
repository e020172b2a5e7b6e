"""The SQLite backend (aiosqlite): one file, nothing to install; the default.

Every transaction runs as one function in aiosqlite's worker thread (one thread hop per
transaction instead of one per statement): storage functions get a :class:`SqliteSession`
that never suspends, so :func:`~bot.storage.session.settle` runs them to the end there.
Writes use group commit: moves, lobby changes, results and settings of different tables
that arrive while a commit is in flight are written together in the next transaction,
so many tables share one fsync (DESIGN.md, "Storage"). Every caller still gets its
answer only after the commit that holds its write; a write that fails alone (a
constraint, a refused value) is rolled back alone, the others are written again, each
in its own savepoint.

A transaction can never be left open: a failed statement or a failed COMMIT rolls it
back. When the database itself is the problem (locked past a short wait, an I/O error,
a full disk, a failed commit) callers get :class:`bot.errors.StorageUnavailable`,
logged once per transaction (:mod:`bot.transactions`).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

if sys.platform == "win32":  # no file locks; one process per database is then up to the admin
    fcntl = None
else:
    import fcntl

from ..errors import DatabaseUnreachable
from ..migrations import MIGRATIONS
from ..transactions import CommitFailed, failure_for_caller, transaction
from .base import MoveWrite, SessionFn, Storage
from .session import Conflict, Row, settle

T = TypeVar("T")


class SqliteSession:
    """A :class:`~bot.storage.session.Session` on the connection itself, in its worker thread.

    ``connection`` is the :class:`sqlite3.Connection`, for what only SQLite has (pragmas).
    """

    dialect = "sqlite"

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return self.connection.execute(sql, params).rowcount
        except sqlite3.IntegrityError as exc:
            raise _conflict_or(exc) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            self.connection.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise _conflict_or(exc) from exc

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self.connection.execute(sql, params).fetchall()

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        try:
            return self.connection.execute(sql, params).fetchone()
        except sqlite3.IntegrityError as exc:  # INSERT … RETURNING
            raise _conflict_or(exc) from exc

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self.fetchrow(sql, params)
        return row[0] if row is not None else None


def _probe(path: str) -> None:
    """Open ``path`` and read its header, so a folder, a file that is not a database or one
    that can't be opened is refused before aiosqlite starts its thread (its failed
    connections report to the event loop after it may have closed)."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA schema_version").fetchone()
    finally:
        connection.close()


def _conflict_or(exc: sqlite3.IntegrityError) -> Exception:
    return Conflict(str(exc)) if "UNIQUE constraint failed" in str(exc) else exc


class SqliteStorage(Storage):
    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection, target: str) -> None:
        super().__init__()
        self._db = db
        self._target = target
        self._queued: list[tuple[SessionFn[Any], asyncio.Future[Any]]] = []
        self._committer: asyncio.Task[None] | None = None
        self._claims: list[int] = []
        """Open descriptors of the lock files :meth:`try_claim` holds."""

    @classmethod
    async def _open(cls, target: Path | str, *, synchronous: str, busy_timeout: float) -> SqliteStorage:
        try:
            if str(target) != ":memory:":
                Path(target).parent.mkdir(parents=True, exist_ok=True)
                await asyncio.to_thread(_probe, str(target))
            db = await aiosqlite.connect(str(target), isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise DatabaseUnreachable(f"cannot open the SQLite database {target} ({exc})") from exc
        db.row_factory = sqlite3.Row
        try:
            await db.execute("PRAGMA journal_mode=WAL")  # fails where the folder takes no -wal file
            await db.execute(f"PRAGMA synchronous={synchronous}")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA secure_delete=ON")  # deleted text is zeroed, not left in free space
            await db.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
            storage = cls(db, str(target))
            await storage._migrate()
        except BaseException as exc:
            await db.close()  # its thread would keep the process from exiting
            if isinstance(exc, sqlite3.Error):
                raise DatabaseUnreachable(f"cannot use the SQLite database {target} ({exc})") from exc
            raise
        return storage

    async def close(self) -> None:
        if self._committer is not None:
            await asyncio.gather(self._committer, return_exceptions=True)
        await self._db.close()
        self._unclaim()

    async def _claim(self, *, whole_exclusively: bool, shards: list[tuple[int, int]]) -> bool:
        """Locks on files beside the database (``<file>.lock`` for the whole, ``<file>.lock-<count>-<id>``
        per shard); the kernel drops them when the process ends. A database in memory is no one else's."""
        if self._target == ":memory:" or fcntl is None:
            return True
        wanted = [("", fcntl.LOCK_EX if whole_exclusively else fcntl.LOCK_SH)]
        wanted += [(f"-{count}-{shard}", fcntl.LOCK_EX) for count, shard in shards]
        for suffix, mode in wanted:
            fd = os.open(f"{self._target}.lock{suffix}", os.O_RDWR | os.O_CREAT, 0o644)
            self._claims.append(fd)
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
            except BlockingIOError:
                self._unclaim()
                return False
        return True

    def _unclaim(self) -> None:
        for fd in self._claims:
            os.close(fd)  # closing the only descriptor of a lock file drops its lock
        self._claims.clear()

    async def _in_thread(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        # aiosqlite runs ``fn`` in its own worker thread with the real connection:
        # one hop for a whole transaction. ``_execute``/``_conn`` are aiosqlite's
        # internals, stable across the pinned range (pyproject) and covered by tests.
        # Database faults become StorageUnavailable here, once, for every caller.
        try:
            return await self._db._execute(fn, self._db._conn)
        except Exception as exc:
            error = failure_for_caller(exc)
            if error is exc:
                raise
            raise error from exc

    async def run_read(self, fn: SessionFn[T]) -> T:
        return await self._in_thread(lambda conn: settle(fn(SqliteSession(conn))))

    async def run_write(self, fn: SessionFn[T]) -> T:
        return await self._commit(fn)

    async def compact(self) -> None:
        """Rebuild the file without free pages and empty the write-ahead log."""

        def run(conn: sqlite3.Connection) -> None:
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

        await self._in_thread(run)

    async def _commit_move(self, move: MoveWrite) -> bool:
        return await self._commit(move.apply)

    async def _commit(self, fn: SessionFn[T]) -> T:
        """Run ``fn`` in the next shared transaction (group commit); answer once committed.
        ``fn`` may run twice (again in a savepoint when another write of its batch failed),
        so it must change nothing but the database."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queued.append((fn, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.ensure_future(self._commit_queued())
        return await future

    async def _commit_queued(self) -> None:
        while self._queued:
            batch, self._queued = self._queued, []

            def items(conn: sqlite3.Connection) -> list[tuple[bool, Any]]:
                try:  # every item at once: they very rarely fail
                    return transaction(conn, lambda c: _apply_all(c, batch))
                except Exception as exc:
                    if len(batch) == 1 or not _one_item_failed(exc):  # alone, or a database fault
                        raise
                # Again, each item in a savepoint, so the failing one fails alone.
                return transaction(conn, lambda c: _apply_each(c, batch))

            try:
                results = await self._in_thread(items)
            except Exception as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            for (ok, value), (_, future) in zip(results, batch):
                if future.done():
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(failure_for_caller(value))

    async def _migrate(self) -> None:
        def migrate(conn: sqlite3.Connection) -> None:
            # PRAGMA user_version decides what runs (files from before the schema_version table
            # have only it); schema_version records each migration, as on PostgreSQL.
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            conn.executescript(
                "BEGIN;\nCREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at REAL);\n"
                + "".join(f"INSERT OR IGNORE INTO schema_version (version) VALUES ({n});\n"
                          for n in range(1, current + 1))
                + "COMMIT;")
            for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
                # executescript commits on its own, so the version bump rides in the script.
                conn.executescript(
                    f"BEGIN;\n{script}\nPRAGMA user_version = {number};\n"
                    f"INSERT INTO schema_version (version, applied_at)"
                    f" VALUES ({number}, (julianday('now') - 2440587.5) * 86400.0);\nCOMMIT;")

        await self._in_thread(migrate)

    async def schema_version(self) -> int:
        return await self._in_thread(lambda conn: conn.execute("PRAGMA user_version").fetchone()[0])


def _one_item_failed(exc: Exception) -> bool:
    """Whether ``exc`` came from one write's statements (a constraint, a bad value) rather
    than from the database itself (I/O, a full disk, a failed COMMIT), which fails them all."""
    return isinstance(exc, (sqlite3.IntegrityError, Conflict)) or not isinstance(exc, (sqlite3.Error, CommitFailed))


def _apply_all(conn: sqlite3.Connection, batch: list[tuple[SessionFn[Any], Any]]) -> list[tuple[bool, Any]]:
    session = SqliteSession(conn)
    return [(True, settle(fn(session))) for fn, _ in batch]


def _apply_each(conn: sqlite3.Connection, batch: list[tuple[SessionFn[Any], Any]]) -> list[tuple[bool, Any]]:
    """Each write in its own savepoint: a failing one is rolled back and reported alone."""
    session = SqliteSession(conn)
    results: list[tuple[bool, Any]] = []
    for fn, _ in batch:
        conn.execute("SAVEPOINT item")
        try:
            results.append((True, settle(fn(session))))
        except Exception as exc:
            conn.execute("ROLLBACK TO item")
            results.append((False, exc))
        conn.execute("RELEASE item")
    return results
