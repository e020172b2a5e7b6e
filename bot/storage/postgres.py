"""The PostgreSQL backend (asyncpg): for a bot that runs as several processes on one database.

Each call takes a connection from an asyncpg pool; the server's own concurrency does the
rest (no group commit: PostgreSQL already groups the commits of concurrent
transactions). A move is one call of the server-side function ``deckhand_commit_moves``
(migration 1): one round trip, its own transaction, which takes a transaction-level
advisory lock on the table id (``pg_advisory_xact_lock``) before its version-guarded
update, so two processes never interleave one table's move; the version guard then
stops the one holding a stale copy.

Migrations are numbered like SQLite's (same numbers, :data:`bot.migrations.POSTGRES_MIGRATIONS`)
and recorded in a ``schema_version`` table, applied under an advisory lock so processes
starting together migrate once.

When the server is lost (connection refused or dropped, shut down, out of connections)
callers get :class:`bot.errors.StorageUnavailable`, logged once per failed call; the pool
opens fresh connections on later calls, so service resumes by itself when the server is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type information (no stubs, no py.typed)

from ..errors import DatabaseUnreachable, StorageUnavailable
from ..migrations import POSTGRES_MIGRATIONS
from .base import MoveWrite, SessionFn, Storage
from .session import Conflict, Row, numbered_placeholders

T = TypeVar("T")

log = logging.getLogger("bot.storage")

POOL_SIZE = 20
VERSIONS_CHANNEL = "deckhand_versions"
"""The NOTIFY channel of table versions (:meth:`PostgresStorage.announce_versions`)."""
"""Connections per process: enough concurrent commits for the server to share each WAL flush
(on this machine 10 gave ~1,450 moves/s of bare commits, 20 ~2,450, 40 no more)."""
MIGRATION_LOCK = (0x4465636B, 1)
"""The advisory lock key (two int4: "Deck", 1) held while migrating; table locks use one bigint
(a key space of its own)."""
CLAIM_WHOLE = (0x4465636B, 2)
"""The advisory lock key ("Deck", 2) :meth:`Storage.try_claim` holds for the whole database."""


CLAIM_KEEPALIVES = {"tcp_keepalives_idle": "10", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3"}
"""The claim's connection asks the server to probe it after 10 s of silence: a process whose machine
died (no connection closed) then loses its claim in about 25 s, not the system's two hours, so its
replacement elsewhere can start."""


def claim_shard_key(count: int, shard: int) -> tuple[int, int]:
    """The advisory lock key of shard ``shard`` of ``count``: ("DH" and the count, the shard)."""
    return 0x44480000 | count - 1, shard  # count ≤ MAX_SHARDS: sixteen bits


_UNAVAILABLE_CLASSES = {"08", "40", "53", "57", "58"}
"""SQLSTATE classes that mean the server, not the query, is at fault: connection lost,
transaction rolled back by the server (deadlock, serialization), out of resources,
operator intervention (shutdown, terminated backend), system error."""


class PostgresSession:
    """A :class:`~bot.storage.session.Session` on one pooled asyncpg connection."""

    dialect = "postgresql"

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        status = await self._call(self.connection.execute, sql, params)
        count = status.rsplit(" ", 1)[-1]
        return int(count) if count.isdigit() else 0

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self.connection.executemany(numbered_placeholders(sql), rows)
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._call(self.connection.fetch, sql, params)

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._call(self.connection.fetchrow, sql, params)

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._call(self.connection.fetchval, sql, params)

    @staticmethod
    async def _call(method: Callable[..., Awaitable[T]], sql: str, params: Sequence[Any]) -> T:
        try:
            return await method(numbered_placeholders(sql), *params)
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc


def is_server_fault(exc: BaseException) -> bool:
    """True when ``exc`` means the server is unreachable or failing, not that the query is wrong."""
    if isinstance(exc, asyncpg.PostgresError):
        return (getattr(exc, "sqlstate", None) or "")[:2] in _UNAVAILABLE_CLASSES
    return isinstance(exc, (OSError, asyncio.TimeoutError)) or (
        isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc))


def _unavailable(exc: BaseException, what: str) -> StorageUnavailable:
    log.error("database %s failed (%s: %s); nothing was saved", what, type(exc).__name__, exc)
    error = StorageUnavailable()
    error.__cause__ = exc
    return error


def redacted(url: str) -> str:
    """``url`` without its password, for messages (a URL that can't be parsed is not quoted)."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return "<not a valid URL>"
    if password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    return parts._replace(netloc=f"{parts.username}:***@{host}").geturl()


class PostgresStorage(Storage):
    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool, busy_timeout: float, url: str) -> None:
        super().__init__()
        self._pool = pool
        self._busy_timeout = busy_timeout
        self._url = url
        self._claim_connection: asyncpg.Connection | None = None
        """The connection whose session holds :meth:`try_claim`'s advisory locks."""

    @classmethod
    async def _open(cls, target: Path | str, *, synchronous: str, busy_timeout: float) -> PostgresStorage:
        url = str(target)
        try:  # one connection first: an unreachable server is reported here, once, and migrations run on it
            connection = await asyncpg.connect(url, timeout=busy_timeout * 5)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise DatabaseUnreachable(f"cannot reach the PostgreSQL database {redacted(url)} ({reason})") from exc
        try:
            await _migrate(connection)
        finally:
            await connection.close()
        # min_size=0: the pool connects on demand, so a lost server costs nothing until the next call.
        pool = await asyncpg.create_pool(url, min_size=0, max_size=POOL_SIZE, timeout=busy_timeout * 5,
                                         reset=_end_transaction)
        return cls(pool, busy_timeout, url)

    async def close(self) -> None:
        await self._pool.close()
        if self._claim_connection is not None:
            await self._claim_connection.close()

    async def _claim(self, *, whole_exclusively: bool, shards: list[tuple[int, int]]) -> bool:
        """Session advisory locks on a connection of their own (the server drops them when the
        connection ends, with the process): the whole database shared or exclusive, each shard
        exclusive (:data:`CLAIM_WHOLE`, :func:`claim_shard_key`)."""
        connection = await asyncpg.connect(self._url, timeout=self._busy_timeout * 5,
                                           server_settings=CLAIM_KEEPALIVES)
        wanted = [(CLAIM_WHOLE, not whole_exclusively)]
        wanted += [(claim_shard_key(count, shard), False) for count, shard in shards]
        try:
            for key, shared in wanted:
                taken = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
                if not await connection.fetchval(f"SELECT {taken}($1, $2)", *key):
                    await connection.close()  # and with it the locks taken so far
                    return False
        except BaseException:
            await connection.close()
            raise
        self._claim_connection = connection
        return True

    async def _with_connection(self, what: str, fn: Callable[[asyncpg.Connection], Awaitable[T]], *,
                               idempotent: bool = False) -> T:
        """``fn(connection)`` on a pooled connection; server faults become StorageUnavailable.

        A connection the server dropped is only found out when used, and can fail in asyncpg's
        own state machine (InternalClientError) before it knows it is closed: it is terminated
        (unless the pool already let it go), so the pool opens a fresh one, and an ``idempotent``
        call (a read) tries once more.
        """
        try:
            connection = await self._pool.acquire(timeout=self._busy_timeout)
        except Exception as exc:  # refused, timed out, server not accepting connections: all unavailable
            raise _unavailable(exc, "connection") from exc
        try:
            return await fn(connection)
        except Exception as exc:
            if not (is_server_fault(exc) or isinstance(exc, asyncpg.InternalClientError)):
                raise
            with contextlib.suppress(asyncpg.InterfaceError):  # already dropped and detached by the pool
                connection.terminate()
            if not idempotent:
                raise _unavailable(exc, what) from exc
        finally:
            await self._pool.release(connection)
        return await self._with_connection(what, fn)  # once more, on a fresh connection

    async def run_read(self, fn: SessionFn[T]) -> T:
        async def read(connection: asyncpg.Connection) -> T:
            return await _awaited(fn(PostgresSession(connection)))

        return await self._with_connection("read", read, idempotent=True)

    async def run_write(self, fn: SessionFn[T]) -> T:
        async def write(connection: asyncpg.Connection) -> T:
            async with connection.transaction():
                return await _awaited(fn(PostgresSession(connection)))

        return await self._with_connection("write", write)

    async def announce_versions(self, versions: dict[int, int]) -> None:
        """One NOTIFY a table on :data:`VERSIONS_CHANNEL`, ``"<table>:<version>"``: ids only, the
        state is read from the tables."""
        payloads = [f"{table}:{version}" for table, version in versions.items()]
        await self.run_read(lambda db: db.execute(
            "SELECT pg_notify(?, payload) FROM unnest(?::text[]) AS payload", (VERSIONS_CHANNEL, payloads)))

    async def listen_versions(self, heard: Callable[[int, int], None]) -> Callable[[], Awaitable[None]]:
        connection = await asyncpg.connect(self._url, timeout=self._busy_timeout * 5)

        def on_notice(_connection: Any, _pid: int, _channel: str, payload: str) -> None:
            table, _, version = payload.partition(":")
            if table.isdigit() and version.isdigit():
                heard(int(table), int(version))

        await connection.add_listener(VERSIONS_CHANNEL, on_notice)

        async def stop() -> None:
            with contextlib.suppress(asyncpg.InterfaceError, OSError):
                await connection.close()

        return stop

    async def _commit_move(self, move: MoveWrite) -> bool:
        seats, actions, by_ai, at = (list(column) for column in zip(*move.moves)) if move.moves else ([],) * 4

        async def commit(connection: asyncpg.Connection) -> bool:
            return bool(await connection.fetchval(
                "SELECT deckhand_commit_moves($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,"
                " $16, $17, $18)",
                move.table_id, move.expected_version, move.new_version, move.state, move.status, move.deadline,
                move.reminded, move.recent_events, move.outcome, move.finished_at, seats, actions, by_ai, at,
                [seat for seat, _ in move.missed_turns], [missed for _, missed in move.missed_turns], move.ai_seats,
                move.ai_level))

        then = move.then
        if then is None:
            return await self._with_connection("move", commit)

        async def commit_then(connection: asyncpg.Connection) -> bool:
            async with connection.transaction():
                if not await commit(connection):
                    return False
                await then(PostgresSession(connection))
                return True

        return await self._with_connection("move", commit_then)

    async def compact(self) -> None:
        """VACUUM, so the space of deleted and overwritten rows is reclaimed (the server's
        write-ahead log and backups are the operator's to rotate)."""
        await self._with_connection("vacuum", lambda connection: connection.execute("VACUUM", timeout=3600))

    async def schema_version(self) -> int:
        return await self.run_read(lambda db: db.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def _end_transaction(connection: asyncpg.Connection) -> None:
    """What a connection needs before going back to the pool. Deckhand sets no session state
    (no SET, LISTEN, cursors or session-level locks), so asyncpg's full reset, one more round
    trip per call, is only needed as far as a transaction left open by a cancelled call."""
    if connection.is_in_transaction():
        await connection.execute("ROLLBACK")


async def _migrate(connection: asyncpg.Connection) -> None:
    """Apply the migrations this database has not had, under an advisory lock (one process at a time)."""
    async with connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock($1, $2)", *MIGRATION_LOCK)
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        current = await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        for number, script in enumerate(POSTGRES_MIGRATIONS[current:], start=current + 1):
            await connection.execute(script)
            await connection.execute("INSERT INTO schema_version (version) VALUES ($1)", number)


async def _awaited(value: Awaitable[T]) -> T:
    if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
        return await value
    return cast(T, value)  # a plain value: the function returned its result itself
