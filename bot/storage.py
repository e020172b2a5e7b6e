"""SQLite persistence (aiosqlite): tables, seats, the move log and settings.

Every multi-statement write runs as one function in aiosqlite's worker thread
(one thread hop per transaction instead of one per statement), and moves use
group commit: moves of different tables that arrive while a commit is in
flight are written together in the next transaction, each inside its own
savepoint, so many tables share one fsync (DESIGN.md, "Storage"). Every
caller still gets its answer only after the commit that holds its move.
Moves are version-guarded: ``UPDATE … WHERE id = ? AND version = ?`` so a
double click or a race can never apply a move twice.

Modules that own other tables (``bot.results``: results and ratings) run their
queries through :meth:`Storage.run_read` and :meth:`Storage.run_write`.

A transaction can never be left open: a failed statement or a failed COMMIT
rolls it back. When the database itself is the problem (locked past a short
wait, an I/O error, a full disk, a failed commit) callers get
:class:`bot.errors.StorageUnavailable`, logged here once per transaction.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any, Callable, TypeVar

import aiosqlite

from .migrations import MIGRATIONS
from .shards import ALL_SHARDS, Shards
from .records import (  # noqa: F401  (re-exported: callers import the rows from here)
    ChannelBusy, GuildSettings, MoveRecord, OpenTable, SeatRow, TableRow, TableUpdate,
)
from .transactions import failure_for_caller, transaction

T = TypeVar("T")

OPEN_STATUSES = ("lobby", "running")
BUSY_TIMEOUT = 2.0
"""Seconds a write waits for another connection's lock before giving up (well inside
Discord's 3 s to answer a click; the cogs defer first anyway when a move is slow)."""


def _table_from_row(row: sqlite3.Row) -> TableRow:
    return TableRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], game_id=row["game_id"],
        options=json.loads(row["options"]), host_id=row["host_id"], status=row["status"],
        seed=row["seed"], version=row["version"],
        state=json.loads(row["state"]) if row["state"] else None,
        timer_minutes=row["timer_minutes"], deadline=row["deadline"], reminded=bool(row["reminded"]),
        recent_events=json.loads(row["recent_events"]),
        outcome=json.loads(row["outcome"]) if row["outcome"] else None,
        lobby_message_id=row["lobby_message_id"], table_message_id=row["table_message_id"],
        ping_message_id=row["ping_message_id"], created_at=row["created_at"],
        started_at=row["started_at"], finished_at=row["finished_at"], hinted=bool(row["hinted"]),
    )


def _seat_from_row(row: sqlite3.Row) -> SeatRow:
    return SeatRow(row["seat"], row["user_id"], row["name"], bool(row["is_ai"]), row["missed_turns"], row["ai_level"])


_dumps = json.JSONEncoder(separators=(",", ":")).encode


class Storage:
    """The bot's database. ``await Storage.open(path)``; close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._queued: list[tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any]]] = []
        self._committer: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: Path | str, synchronous: str = "FULL",
                   busy_timeout: float = BUSY_TIMEOUT) -> "Storage":
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute(f"PRAGMA synchronous={synchronous}")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA secure_delete=ON")  # deleted text is zeroed, not left in free space
        await db.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        storage = cls(db)
        await storage._migrate()
        return storage

    async def close(self) -> None:
        if self._committer is not None:
            await asyncio.gather(self._committer, return_exceptions=True)
        await self._db.close()

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

    async def run_read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(connection)`` in the database's thread and return its result.

        For queries other modules own (results, leaderboards): ``fn`` only reads.
        It runs outside any transaction; use :meth:`run_write` to change anything.
        """
        return await self._in_thread(fn)

    async def run_write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(connection)`` as one transaction: all its writes commit, or none if it raises."""

        return await self._in_thread(lambda conn: transaction(conn, fn))

    async def compact(self) -> None:
        """Rebuild the file without free pages and empty the write-ahead log, so nothing
        deleted or overwritten lingers on disk (after forgetting someone)."""

        def run(conn: sqlite3.Connection) -> None:
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

        await self._in_thread(run)

    async def _group_commit(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in the next shared transaction; return its result once committed."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queued.append((fn, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.ensure_future(self._commit_queued())
        return await future

    async def _commit_queued(self) -> None:
        while self._queued:
            batch, self._queued = self._queued, []

            def items(conn: sqlite3.Connection) -> list[tuple[bool, Any]]:
                results: list[tuple[bool, Any]] = []
                for fn, _ in batch:
                    conn.execute("SAVEPOINT item")
                    try:
                        results.append((True, fn(conn)))
                    except Exception as exc:  # this item fails alone; the rest still commit
                        conn.execute("ROLLBACK TO item")
                        results.append((False, exc))
                    conn.execute("RELEASE item")
                return results

            try:
                results = await self._in_thread(lambda conn: transaction(conn, items))
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
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
                # executescript commits on its own, so the version bump rides in the script.
                conn.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")

        await self._in_thread(migrate)

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cur:
            return (await cur.fetchone())[0]

    # -- tables ------------------------------------------------------------------

    async def create_table(
        self, *, guild_id: int, channel_id: int, game_id: str, options: dict[str, Any], host_id: int,
        host_name: str, seed: int, timer_minutes: int, now: float,
    ) -> int:
        """Open a lobby with the host in seat 0. Raises :class:`ChannelBusy`."""

        def create(conn: sqlite3.Connection) -> int:
            try:
                cur = conn.execute(
                    "INSERT INTO tables (guild_id, channel_id, game_id, options, host_id, status, seed,"
                    " timer_minutes, created_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
                    (guild_id, channel_id, game_id, _dumps(options), host_id, seed, timer_minutes, now),
                )
            except sqlite3.IntegrityError:
                raise ChannelBusy(channel_id) from None
            table_id = cur.lastrowid
            conn.execute(
                "INSERT INTO seats (table_id, seat, user_id, name, is_ai) VALUES (?, 0, ?, ?, 0)",
                (table_id, host_id, host_name),
            )
            return table_id

        return await self.run_write(create)

    async def get_table(self, table_id: int) -> TableRow | None:
        tables = await self.get_tables([table_id])
        return tables[0] if tables else None

    async def get_tables(self, table_ids: list[int]) -> list[TableRow]:
        """The tables that exist among ``table_ids``, seats included, in one read."""

        def load(conn: sqlite3.Connection) -> list[TableRow]:
            marks = ",".join("?" * len(table_ids))
            tables = {
                r["id"]: _table_from_row(r)
                for r in conn.execute(f"SELECT * FROM tables WHERE id IN ({marks}) ORDER BY id", table_ids)
            }
            for r in conn.execute(f"SELECT * FROM seats WHERE table_id IN ({marks}) ORDER BY table_id, seat",
                                  table_ids):
                tables[r["table_id"]].seats.append(_seat_from_row(r))
            return list(tables.values())

        return await self.run_read(load)

    async def open_tables(self, shards: Shards = ALL_SHARDS) -> list[OpenTable]:
        """Every open table's timer and AI facts (of servers on ``shards``), in one read (start-up)."""
        rows = await self.run_read(lambda conn: conn.execute(
            "SELECT id, status, deadline, reminded, timer_minutes,"
            " EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.is_ai)"
            " FROM tables t WHERE status IN ('lobby', 'running')" + shards.sql_condition() + " ORDER BY id").fetchall())
        return [OpenTable(r[0], r[1], r[2], bool(r[3]), r[4], bool(r[5])) for r in rows]

    async def open_table_in(self, channel_id: int) -> int | None:
        async with self._db.execute(
            "SELECT id FROM tables WHERE channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return row["id"] if row else None

    async def unrecorded_table_ids(self, shards: Shards = ALL_SHARDS) -> list[int]:
        """Ended tables (of servers on ``shards``) whose result is not recorded yet."""
        async with self._db.execute(
            "SELECT id FROM tables t WHERE status IN ('finished', 'abandoned')"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.table_id = t.id)" + shards.sql_condition()
            + " ORDER BY id"
        ) as cur:
            return [r["id"] for r in await cur.fetchall()]

    async def set_seats(self, table_id: int, seats: list[SeatRow]) -> None:
        """Replace a lobby's seats (join, leave, add AI)."""

        def write(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            conn.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, is_ai, missed_turns, ai_level)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, s.name, int(s.is_ai), s.missed_turns, s.ai_level) for s in seats],
            )

        await self.run_write(write)

    async def set_messages(self, table_id: int, **message_ids: int | None) -> None:
        """Record message ids: ``lobby_message_id``, ``table_message_id``, ``ping_message_id``."""
        allowed = {"lobby_message_id", "table_message_id", "ping_message_id"}
        if not message_ids or set(message_ids) - allowed:
            raise ValueError(f"unknown message columns: {sorted(set(message_ids) - allowed)}")
        assignments = ", ".join(f"{name} = ?" for name in message_ids)
        await self.run_write(lambda conn: conn.execute(
            f"UPDATE tables SET {assignments} WHERE id = ?", (*message_ids.values(), table_id)))

    async def start_table(
        self, table_id: int, *, expected_version: int, seats: list[SeatRow], update: TableUpdate, now: float
    ) -> bool:
        """Lobby → running with the first snapshot. False if the table changed meanwhile."""

        def start(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "UPDATE tables SET status = ?, version = version + 1, state = ?, deadline = ?, reminded = ?,"
                " recent_events = ?, outcome = ?, started_at = ?, finished_at = ?"
                " WHERE id = ? AND version = ? AND status = 'lobby'",
                (update.status, _dumps(update.state), update.deadline, int(update.reminded),
                 _dumps(update.recent_events), _dumps(update.outcome) if update.outcome else None,
                 now, update.finished_at, table_id, expected_version),
            )
            if cur.rowcount != 1:
                return False
            conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            conn.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, is_ai, ai_level) VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, s.name, int(s.is_ai), s.ai_level) for s in seats],
            )
            return True

        return await self.run_write(start)

    async def commit_moves(
        self, table_id: int, *, expected_version: int, moves: list[MoveRecord], update: TableUpdate
    ) -> bool:
        """Append ``moves`` to the log and write the snapshot, in one transaction.

        Returns False (and writes nothing) when the stored version is not
        ``expected_version``: someone else moved first.
        """
        new_version = expected_version + len(moves)
        state_text = _dumps(update.state)
        events_text = _dumps(update.recent_events)
        outcome_text = _dumps(update.outcome) if update.outcome else None
        move_rows = [
            (table_id, expected_version + i + 1, m.seat, _dumps(m.action), int(m.by_ai), m.at)
            for i, m in enumerate(moves)
        ]

        def commit(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "UPDATE tables SET version = ?, state = ?, status = ?, deadline = ?, reminded = ?,"
                " recent_events = ?, outcome = ?, finished_at = ? WHERE id = ? AND version = ?",
                (new_version, state_text, update.status, update.deadline, int(update.reminded), events_text,
                 outcome_text, update.finished_at, table_id, expected_version),
            )
            if cur.rowcount != 1:
                return False
            conn.executemany(
                "INSERT INTO moves (table_id, version, seat, action, by_ai, at) VALUES (?, ?, ?, ?, ?, ?)",
                move_rows,
            )
            for seat, missed in update.missed_turns.items():
                conn.execute(
                    "UPDATE seats SET missed_turns = ? WHERE table_id = ? AND seat = ?", (missed, table_id, seat)
                )
            for seat in update.ai_seats:
                conn.execute("UPDATE seats SET is_ai = 1 WHERE table_id = ? AND seat = ?", (table_id, seat))
            return True

        return await self._group_commit(commit)

    async def update_table(self, table_id: int, *, expected_version: int | None = None, **columns: Any) -> bool:
        """Set plain columns (status, deadline, reminded, outcome…) outside a move.

        With ``expected_version`` the write happens only if no move came between.
        """
        allowed = {"status", "deadline", "reminded", "outcome", "finished_at", "recent_events", "timer_minutes",
                   "hinted"}
        if not columns or set(columns) - allowed:
            raise ValueError(f"unknown columns: {sorted(set(columns) - allowed)}")
        values = [
            _dumps(v) if k in ("outcome", "recent_events") and v is not None else v for k, v in columns.items()
        ]
        sql = "UPDATE tables SET " + ", ".join(f"{k} = ?" for k in columns) + " WHERE id = ?"
        params: list[Any] = [*values, table_id]
        if expected_version is not None:
            sql += " AND version = ?"
            params.append(expected_version)
        return await self.run_write(lambda conn: conn.execute(sql, params).rowcount == 1)

    async def hand_seat_to_ai(self, table_id: int, seat: int, *, expected_version: int, deadline: float | None,
                              recent_events: list[str]) -> bool:
        """A player left a running game: their seat becomes an AI's and the line is added, in one
        transaction. False (nothing written) if a move came between."""

        def write(conn: sqlite3.Connection) -> bool:
            cur = conn.execute(
                "UPDATE tables SET deadline = ?, reminded = 0, recent_events = ? WHERE id = ? AND version = ?",
                (deadline, _dumps(recent_events), table_id, expected_version))
            if cur.rowcount != 1:
                return False
            conn.execute("UPDATE seats SET is_ai = 1 WHERE table_id = ? AND seat = ?", (table_id, seat))
            return True

        return await self.run_write(write)

    async def move_log(self, table_id: int) -> list[tuple[int, dict[str, Any], bool]]:
        """``(seat, action json, by_ai)`` for every move of a table, in order."""
        async with self._db.execute(
            "SELECT seat, action, by_ai FROM moves WHERE table_id = ? ORDER BY version", (table_id,)
        ) as cur:
            return [(r["seat"], json.loads(r["action"]), bool(r["by_ai"])) for r in await cur.fetchall()]

    # -- deployment facts --------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        """A stored fact about this deployment (``None`` when never set)."""
        async with self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cur:
            row = await cur.fetchone()
        return row["value"] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self.run_write(lambda conn: conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value)))

    # -- settings ----------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults for a server that never changed any)."""
        async with self._db.execute(
            "SELECT use_threads, timer_minutes, pictures, ai_level FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return GuildSettings()
        return GuildSettings(bool(row["use_threads"]), row["timer_minutes"], bool(row["pictures"]), row["ai_level"])

    async def set_guild_settings(self, guild_id: int, **changes: Any) -> None:
        """Change the named :class:`GuildSettings` fields (the others stay);
        raises :class:`StorageUnavailable` if not saved."""
        unknown = set(changes) - set(GuildSettings.__dataclass_fields__)
        if not changes or unknown:
            raise ValueError(f"unknown settings: {sorted(unknown)}")
        assignments = ", ".join(f"{name} = ?" for name in changes)
        values = [int(v) if isinstance(v, bool) else v for v in changes.values()]

        def write(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT OR IGNORE INTO guild_settings (guild_id) VALUES (?)", (guild_id,))
            conn.execute(f"UPDATE guild_settings SET {assignments} WHERE guild_id = ?", (*values, guild_id))

        await self.run_write(write)
