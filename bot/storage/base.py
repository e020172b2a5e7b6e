"""The storage interface both backends share, and everything about it that is dialect-free.

A backend (:mod:`bot.storage.sqlite`, :mod:`bot.storage.postgres`) supplies a way to run
a function on a connection (:meth:`Storage.run_read`, :meth:`Storage.run_write`), the move
transaction (:meth:`Storage._commit_move`: group commit on SQLite, one server-side call
holding an advisory lock on the table id on PostgreSQL), migrations and compaction. The
table, seat, move-log, meta and settings queries are written once here against a
:class:`~bot.storage.session.Session`.

Moves are version-guarded: ``UPDATE … WHERE id = ? AND version = ?`` so a double click
or a race (another process holding a stale copy of the table) can never apply a move twice.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import orjson

from ..records import (
    ChannelBusy,
    EventLine,
    GuildSettings,
    MoveRecord,
    OpenTable,
    SeatRow,
    TablePlace,
    TableRow,
    TableUpdate,
)
from ..shards import ALL_SHARDS, Shards
from .session import Conflict, Row, Session

T = TypeVar("T")
SessionFn = Callable[[Session], Awaitable[T]]
"""A storage function: ``async def fn(db: Session) -> T``, or a lambda returning one session call.
(Both backends also run a function that returns its result itself, as tests reaching SQLite's
connection do; that is outside the typed interface.)"""

BUSY_TIMEOUT = 2.0
"""Seconds a write waits for a lock (or a pooled connection) before giving up: well inside
Discord's 3 s to answer a click; the cogs defer first anyway when a move is slow."""

_dumps = json.JSONEncoder(separators=(",", ":")).encode


def _dumps_data(value: Any) -> str:
    """What every move writes (a state snapshot, an action, the recent event lines) as JSON
    text: by orjson, about ten times faster than the standard encoder; what orjson refuses
    (an integer over 64 bits) by the standard one. orjson writes other alphabets as they
    are, not as ``\\u`` escapes: privacy forgetting searches event lines in both forms.
    Reading stays with the standard decoder: orjson would read an integer over 64 bits as
    a float, and a table is read once, not on every move."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return _dumps(value)


def _table_from_row(row: Row) -> TableRow:
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
        shown=row["shown"], pinged={int(seat): turn for seat, turn in json.loads(row["pinged"]).items()},
        pinging=json.loads(row["pinging"]) if row["pinging"] else None,
    )


def _seat_from_row(row: Row) -> SeatRow:
    return SeatRow(row["seat"], row["user_id"], row["name"], bool(row["is_ai"]), row["missed_turns"], row["ai_level"])


def is_postgres_url(target: Path | str) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL, False for a SQLite file path."""
    return str(target).startswith(("postgresql://", "postgres://"))


class Storage(ABC):
    """The bot's database. ``await Storage.open(target)``; close with :meth:`close`.

    ``target`` is a SQLite file path (or ``:memory:``) or a ``postgresql://`` URL.
    """

    dialect: ClassVar[str]
    _backends: ClassVar[dict[str, type[Storage]]] = {}

    def __init__(self) -> None:
        self._settings: dict[int, GuildSettings] = {}
        """Servers' settings as last read. Every table and hand message reads them; only this
        process changes them, since a server's commands reach the process of its shard."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Storage._backends[cls.dialect] = cls

    @classmethod
    async def open(cls, target: Path | str, synchronous: str = "FULL",
                   busy_timeout: float = BUSY_TIMEOUT) -> Storage:
        """Open (creating and migrating as needed) the database at ``target``.

        ``synchronous`` is SQLite's durability setting (PostgreSQL follows the server's
        ``synchronous_commit``). Raises :class:`bot.errors.DatabaseUnreachable` when the
        database cannot be opened.
        """
        backend = cls._backends["postgresql" if is_postgres_url(target) else "sqlite"]
        return await backend._open(target, synchronous=synchronous, busy_timeout=busy_timeout)

    @classmethod
    @abstractmethod
    async def _open(cls, target: Path | str, *, synchronous: str, busy_timeout: float) -> Storage: ...

    @abstractmethod
    async def close(self) -> None:
        """Close the database (and give up any :meth:`try_claim`)."""

    async def try_claim(self, shards: Shards) -> bool:
        """Hold this database for ``shards`` against other Deckhand processes until closed; False
        (holding nothing) if another process holds (some of) it. Started twice by mistake,
        Deckhand would answer every click twice (Discord sends each event to both). A process
        running every shard holds the whole database; one running some shards shares the whole
        with others like it and holds each of its own. The locks end with the process however
        it ends, so a restart after a crash is never held back for long."""
        chosen = shards.chosen
        own = [] if chosen is None else [(chosen[1], i) for i in chosen[0]]
        return await self._claim(whole_exclusively=chosen is None, shards=own)

    @abstractmethod
    async def _claim(self, *, whole_exclusively: bool, shards: list[tuple[int, int]]) -> bool:
        """Take the locks :meth:`try_claim` describes (each of ``shards``, as (count, id), exclusively);
        False, holding none, if another process holds one."""

    @abstractmethod
    async def run_read(self, fn: SessionFn[T]) -> T:
        """Run ``fn(session)`` outside any transaction and return its result.

        For queries other modules own (results, leaderboards): ``fn`` only reads. Use
        :meth:`run_write` to change anything.
        """

    @abstractmethod
    async def run_write(self, fn: SessionFn[T]) -> T:
        """Run ``fn(session)`` as one transaction: all its writes commit, or none if it raises."""

    @abstractmethod
    async def _commit_move(self, move: MoveWrite) -> bool:
        """Write ``move`` in a transaction of its own (or a savepoint of a shared one); True once
        committed, False (nothing written) if the table's version was not the expected one."""

    @abstractmethod
    async def compact(self) -> None:
        """Leave no copy of deleted or overwritten rows in the database's free space
        (after forgetting someone)."""

    @abstractmethod
    async def schema_version(self) -> int:
        """How many numbered migrations this database has had."""

    # -- tables ------------------------------------------------------------------

    async def create_table(
        self, *, guild_id: int, channel_id: int, game_id: str, options: dict[str, Any], host_id: int,
        host_name: str, seed: int, timer_minutes: int, now: float,
    ) -> int:
        """Open a lobby with the host in seat 0. Raises :class:`ChannelBusy`."""

        async def create(db: Session) -> int:
            try:
                table_id = await db.fetchval(
                    "INSERT INTO tables (guild_id, channel_id, game_id, options, host_id, status, seed,"
                    " timer_minutes, created_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?) RETURNING id",
                    (guild_id, channel_id, game_id, _dumps(options), host_id, seed, timer_minutes, now),
                )
            except Conflict:
                raise ChannelBusy(channel_id) from None
            await db.execute(
                "INSERT INTO seats (table_id, seat, user_id, name, is_ai) VALUES (?, 0, ?, ?, 0)",
                (table_id, host_id, host_name),
            )
            return table_id

        return await self.run_write(create)

    async def create_started_table(self, draft: TableRow, update: TableUpdate,
                                   link: Callable[[Session, int], Awaitable[bool]]) -> int | None:
        """A table already running (no lobby: a tournament's round opens it), with ``draft``'s
        place, game, seats and first-turn pings and ``update``'s first snapshot, in one
        transaction with ``link(db, table_id)``, which ties it to what opened it. If ``link``
        returns False (that place has its table already) nothing is written and this returns
        None. Raises :class:`ChannelBusy` if the channel holds an open table."""

        async def create(db: Session) -> int:
            try:
                table_id = await db.fetchval(
                    "INSERT INTO tables (guild_id, channel_id, game_id, options, host_id, status, seed, version, state,"
                    " timer_minutes, deadline, reminded, recent_events, created_at, started_at, pinged)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, 0, ?, ?, ?, ?) RETURNING id",
                    (draft.guild_id, draft.channel_id, draft.game_id, _dumps(draft.options), draft.host_id,
                     update.status, draft.seed, _dumps_data(update.state), draft.timer_minutes, update.deadline,
                     _dumps_data(update.recent_events), draft.created_at, draft.started_at,
                     _dumps({str(seat): turn for seat, turn in draft.pinged.items()})),
                )
            except Conflict:
                raise ChannelBusy(draft.channel_id) from None
            await db.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, is_ai, ai_level) VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, s.name, int(s.is_ai), s.ai_level) for s in draft.seats],
            )
            if not await link(db, table_id):
                raise _Unlinked()
            return table_id

        try:
            return await self.run_write(create)
        except _Unlinked:
            return None

    async def get_table(self, table_id: int) -> TableRow | None:
        tables = await self.get_tables([table_id])
        return tables[0] if tables else None

    async def get_tables(self, table_ids: list[int]) -> list[TableRow]:
        """The tables that exist among ``table_ids``, seats included, in one read."""
        if not table_ids:
            return []
        marks = ",".join("?" * len(table_ids))

        async def load(db: Session) -> list[TableRow]:
            tables = {
                r["id"]: _table_from_row(r)
                for r in await db.fetch(f"SELECT * FROM tables WHERE id IN ({marks}) ORDER BY id", table_ids)
            }
            for r in await db.fetch(f"SELECT * FROM seats WHERE table_id IN ({marks}) ORDER BY table_id, seat",
                                    table_ids):
                tables[r["table_id"]].seats.append(_seat_from_row(r))
            return list(tables.values())

        return await self.run_read(load)

    async def table_place(self, table_id: int) -> TablePlace | None:
        """Where ``table_id`` lives, or None if there is no such table."""
        row = await self.run_read(lambda db: db.fetchrow(
            "SELECT guild_id, channel_id, status FROM tables WHERE id = ?", (table_id,)))
        if row is None:
            return None
        return TablePlace(row[0], row[1], row[2] not in ("lobby", "running"))

    async def open_tables(self, shards: Shards = ALL_SHARDS) -> list[OpenTable]:
        """Every open table's timer and AI facts (of servers on ``shards``), in one read (start-up)."""
        rows = await self.run_read(lambda db: db.fetch(
            "SELECT id, status, deadline, reminded, timer_minutes,"
            " EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.is_ai = 1)"
            " FROM tables t WHERE status IN ('lobby', 'running')" + shards.sql_condition() + " ORDER BY id"))
        return [OpenTable(r[0], r[1], r[2], bool(r[3]), r[4], bool(r[5])) for r in rows]

    async def to_show_again(self, since: float, shards: Shards = ALL_SHARDS) -> list[int]:
        """Tables (of servers on ``shards``) whose message or ping may not show what is stored:
        every open lobby (a lobby's seat changes keep its version), every table whose stored
        state, ended ones included, is not the one last shown, every table whose ping was cut
        short, and every game moved (or started) since ``since``, whose turn's ping may not
        have gone."""
        rows = await self.run_read(lambda db: db.fetch(
            "SELECT id FROM tables t WHERE (status = 'lobby' OR shown IS NULL OR shown <> status || '@' || version"
            " OR pinging IS NOT NULL OR (status = 'running' AND (started_at >= ? OR EXISTS ("
            "SELECT 1 FROM moves m WHERE m.table_id = t.id AND m.version = t.version AND m.at >= ?))))"
            + shards.sql_condition() + " ORDER BY id", (since, since)))
        return [r[0] for r in rows]

    async def last_move_by_others(self, table_id: int, seat: int) -> int | None:
        """The version of the last move made at ``table_id`` by a seat other than ``seat``."""
        return await self.run_read(lambda db: db.fetchval(
            "SELECT MAX(version) FROM moves WHERE table_id = ? AND seat <> ?", (table_id, seat)))

    async def open_table_in(self, channel_id: int) -> int | None:
        return await self.run_read(lambda db: db.fetchval(
            "SELECT id FROM tables WHERE channel_id = ? AND status IN ('lobby', 'running')", (channel_id,)))

    async def open_tables_of_guild(self, guild_id: int) -> list[int]:
        """The ids of ``guild_id``'s lobbies and running tables."""
        rows = await self.run_read(lambda db: db.fetch(
            "SELECT id FROM tables WHERE guild_id = ? AND status IN ('lobby', 'running') ORDER BY id", (guild_id,)))
        return [r[0] for r in rows]

    async def hosted_lobby(self, guild_id: int, host_id: int) -> int | None:
        """The open lobby ``host_id`` hosts in ``guild_id``, if any (the oldest, had an older version
        let them open several)."""
        return await self.run_read(lambda db: db.fetchval(
            "SELECT id FROM tables WHERE status = 'lobby' AND guild_id = ? AND host_id = ? ORDER BY id LIMIT 1",
            (guild_id, host_id)))

    async def unrecorded_table_ids(self, shards: Shards = ALL_SHARDS) -> list[int]:
        """Ended tables (of servers on ``shards``) whose result is not recorded yet."""
        rows = await self.run_read(lambda db: db.fetch(
            "SELECT id FROM tables t WHERE status IN ('finished', 'abandoned')"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.table_id = t.id)" + shards.sql_condition()
            + " ORDER BY id"))
        return [r[0] for r in rows]

    async def set_seats(self, table_id: int, seats: list[SeatRow]) -> None:
        """Replace a lobby's seats (join, leave, add AI)."""

        async def write(db: Session) -> None:
            await db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await db.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, is_ai, missed_turns, ai_level)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, s.name, int(s.is_ai), s.missed_turns, s.ai_level) for s in seats],
            )

        await self.run_write(write)

    async def set_publication(self, table_id: int, **columns: Any) -> None:
        """Record how the table is shown in Discord: ``lobby_message_id``, ``table_message_id``,
        ``ping_message_id``, ``shown`` (``"<status>@<version>"``), ``pinged`` (seat → turn), ``pinging``."""
        allowed = {"lobby_message_id", "table_message_id", "ping_message_id", "shown", "pinged", "pinging"}
        if not columns or set(columns) - allowed:
            raise ValueError(f"unknown publication columns: {sorted(set(columns) - allowed)}")
        values = [_dumps(value) if name in ("pinged", "pinging") and value is not None else value
                  for name, value in columns.items()]
        assignments = ", ".join(f"{name} = ?" for name in columns)
        await self.run_write(lambda db: db.execute(
            f"UPDATE tables SET {assignments} WHERE id = ?", (*values, table_id)))

    async def start_table(
        self, table_id: int, *, expected_version: int, seats: list[SeatRow], update: TableUpdate, now: float
    ) -> bool:
        """Lobby → running with the first snapshot. False if the table changed meanwhile."""

        async def start(db: Session) -> bool:
            changed = await db.execute(
                "UPDATE tables SET status = ?, version = version + 1, state = ?, deadline = ?, reminded = ?,"
                " recent_events = ?, outcome = ?, started_at = ?, finished_at = ?"
                " WHERE id = ? AND version = ? AND status = 'lobby'",
                (update.status, _dumps_data(update.state), update.deadline, int(update.reminded),
                 _dumps_data(update.recent_events), _dumps(update.outcome) if update.outcome else None,
                 now, update.finished_at, table_id, expected_version),
            )
            if changed != 1:
                return False
            await db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await db.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, is_ai, ai_level) VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, s.name, int(s.is_ai), s.ai_level) for s in seats],
            )
            return True

        return await self.run_write(start)

    async def commit_moves(
        self, table_id: int, *, expected_version: int, moves: list[MoveRecord], update: TableUpdate,
        then: SessionFn[None] | None = None,
    ) -> bool:
        """Append ``moves`` to the log and write the snapshot, in one transaction (with
        ``then(db)``'s writes, once the moves are written: what must never be stored without them).

        Returns False (and writes nothing) when the stored version is not
        ``expected_version``: someone else moved first.
        """
        return await self._commit_move(MoveWrite.of(table_id, expected_version, moves, update, then))

    async def update_table(self, table_id: int, *, expected_version: int | None = None, **columns: Any) -> bool:
        """Set plain columns (status, deadline, reminded, outcome…) outside a move.

        With ``expected_version`` the write happens only if no move came between.
        """
        allowed = {"status", "deadline", "reminded", "outcome", "finished_at", "recent_events", "timer_minutes",
                   "hinted"}
        if not columns or set(columns) - allowed:
            raise ValueError(f"unknown columns: {sorted(set(columns) - allowed)}")
        values = [
            _dumps(v) if k in ("outcome", "recent_events") and v is not None else int(v) if isinstance(v, bool) else v
            for k, v in columns.items()
        ]
        sql = "UPDATE tables SET " + ", ".join(f"{k} = ?" for k in columns) + " WHERE id = ?"
        params: list[Any] = [*values, table_id]
        if expected_version is not None:
            sql += " AND version = ?"
            params.append(expected_version)
        return await self.run_write(lambda db: _changed_one(db.execute(sql, params)))

    async def hand_seat_to_ai(self, table_id: int, seats: Collection[int], *, expected_version: int,
                              deadline: float | None, recent_events: list[EventLine], ai_level: str | None = None
                              ) -> bool:
        """Players left a running game: their ``seats`` become an AI's (playing at ``ai_level``) and
        the lines are added, in one transaction. False (nothing written) if a move came between."""

        async def write(db: Session) -> bool:
            changed = await db.execute(
                "UPDATE tables SET deadline = ?, reminded = 0, recent_events = ? WHERE id = ? AND version = ?",
                (deadline, _dumps_data(recent_events), table_id, expected_version))
            if changed != 1:
                return False
            await db.executemany("UPDATE seats SET is_ai = 1, ai_level = ? WHERE table_id = ? AND seat = ?",
                                 [(ai_level, table_id, seat) for seat in seats])
            return True

        return await self.run_write(write)

    async def cancel_unplayed(self, table_ids: Collection[int], now: float,
                              then: Callable[[Session], Awaitable[None]]) -> bool:
        """Cancel running tables at which nobody moved yet (each still at version 1), in one
        transaction with ``then(db)``; False (nothing written) if one of them moved meanwhile."""
        ids = list(table_ids)
        marks = ",".join("?" * len(ids))

        async def write(db: Session) -> None:
            if ids:
                changed = await db.execute(
                    f"UPDATE tables SET status = 'cancelled', deadline = NULL, finished_at = ? WHERE id IN ({marks})"
                    " AND status = 'running' AND version = 1", (now, *ids))
                if changed != len(ids):
                    raise _Unlinked()
            await then(db)

        try:
            await self.run_write(write)
        except _Unlinked:
            return False
        return True

    async def move_log(self, table_id: int) -> list[tuple[int, dict[str, Any], bool]]:
        """``(seat, action json, by_ai)`` for every move of a table, in order."""
        rows = await self.run_read(lambda db: db.fetch(
            "SELECT seat, action, by_ai FROM moves WHERE table_id = ? ORDER BY version", (table_id,)))
        return [(r[0], json.loads(r[1]), bool(r[2])) for r in rows]

    # -- deployment facts --------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        """A stored fact about this deployment (``None`` when never set)."""
        return await self.run_read(lambda db: db.fetchval("SELECT value FROM meta WHERE key = ?", (key,)))

    async def set_meta(self, key: str, value: str) -> None:
        await self.run_write(lambda db: db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value)))

    # -- settings ----------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults for a server that never changed any)."""
        settings = self._settings.get(guild_id)
        if settings is None:
            row = await self.run_read(lambda db: db.fetchrow(
                "SELECT use_threads, timer_minutes, pictures, ai_level, language, season_min_games, active_days,"
                " season_rollover, web_token FROM guild_settings WHERE guild_id = ?",
                (guild_id,)))
            settings = (GuildSettings(bool(row[0]), row[1], bool(row[2]), row[3], row[4], row[5], row[6], row[7],
                                      row[8]) if row else GuildSettings())
            self._settings[guild_id] = settings
        return settings

    # -- table versions, between processes --------------------------------------------

    async def announce_versions(self, versions: dict[int, int]) -> None:
        """Tell other processes listening (:meth:`listen_versions`) that these tables (id → version)
        changed. A single process (SQLite) has no one to tell."""

    async def listen_versions(self, heard: Callable[[int, int], None]) -> Callable[[], Awaitable[None]]:
        """Call ``heard(table_id, version)`` for each version another process announces, until the
        returned function is awaited; only where several processes share the database (PostgreSQL)."""
        raise NotImplementedError(f"{self.dialect} has one process: there is nothing to listen to")

    async def guild_of_web_token(self, token: str) -> int | None:
        """The server whose site's links hold ``token`` (None: no server's, or its site is off)."""
        return await self.run_read(lambda db: db.fetchval(
            "SELECT guild_id FROM guild_settings WHERE web_token = ?", (token,)))

    async def set_guild_settings(self, guild_id: int, **changes: Any) -> None:
        """Change the named :class:`GuildSettings` fields (the others stay);
        raises :class:`StorageUnavailable` if not saved."""
        unknown = set(changes) - set(GuildSettings.__dataclass_fields__)
        if not changes or unknown:
            raise ValueError(f"unknown settings: {sorted(unknown)}")
        assignments = ", ".join(f"{name} = ?" for name in changes)
        values = [int(v) if isinstance(v, bool) else v for v in changes.values()]

        async def write(db: Session) -> None:
            await db.execute("INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT (guild_id) DO NOTHING",
                             (guild_id,))
            await db.execute(f"UPDATE guild_settings SET {assignments} WHERE guild_id = ?", (*values, guild_id))

        try:
            await self.run_write(write)
        finally:  # saved or not, the next read asks the database
            self._settings.pop(guild_id, None)


@dataclass(frozen=True)
class MoveWrite:
    """One :meth:`Storage.commit_moves`, encoded for the database: the table's new columns,
    the move-log rows and the seats it changes."""

    table_id: int
    expected_version: int
    new_version: int
    state: str
    status: str
    deadline: float | None
    reminded: int
    recent_events: str
    outcome: str | None
    finished_at: float | None
    moves: list[tuple[int, str, int, float]]
    """``(seat, action json, by_ai, at)`` per move, in order (versions follow ``expected_version``)."""
    missed_turns: list[tuple[int, int]]
    """``(seat, missed turns)``."""
    ai_seats: list[int]
    ai_level: str | None
    """The level the AIs taking over ``ai_seats`` play at."""
    then: SessionFn[None] | None = None
    """Further writes in the same transaction, once the move is written."""

    @classmethod
    def of(cls, table_id: int, expected_version: int, moves: list[MoveRecord], update: TableUpdate,
           then: SessionFn[None] | None = None) -> MoveWrite:
        return cls(
            table_id, expected_version, expected_version + len(moves), _dumps_data(update.state), update.status,
            update.deadline, int(update.reminded), _dumps_data(update.recent_events),
            _dumps(update.outcome) if update.outcome else None, update.finished_at,
            [(m.seat, _dumps_data(m.action), int(m.by_ai), m.at) for m in moves],
            list(update.missed_turns.items()), list(update.ai_seats), update.ai_level, then,
        )

    async def apply(self, db: Session) -> bool:
        """The move as plain SQL statements on ``db`` (inside the caller's transaction)."""
        changed = await db.execute(
            "UPDATE tables SET version = ?, state = ?, status = ?, deadline = ?, reminded = ?,"
            " recent_events = ?, outcome = ?, finished_at = ? WHERE id = ? AND version = ?",
            (self.new_version, self.state, self.status, self.deadline, self.reminded, self.recent_events,
             self.outcome, self.finished_at, self.table_id, self.expected_version),
        )
        if changed != 1:
            return False
        await db.executemany(
            "INSERT INTO moves (table_id, version, seat, action, by_ai, at) VALUES (?, ?, ?, ?, ?, ?)",
            [(self.table_id, self.expected_version + i, *move) for i, move in enumerate(self.moves, start=1)],
        )
        if self.missed_turns:
            await db.executemany("UPDATE seats SET missed_turns = ? WHERE table_id = ? AND seat = ?",
                                 [(missed, self.table_id, seat) for seat, missed in self.missed_turns])
        if self.ai_seats:
            await db.executemany("UPDATE seats SET is_ai = 1, ai_level = ? WHERE table_id = ? AND seat = ?",
                                 [(self.ai_level, self.table_id, seat) for seat in self.ai_seats])
        if self.then is not None:
            await self.then(db)
        return True


class _Unlinked(Exception):
    """A started table's ``link`` found its place taken, or a table to cancel had moved: the
    transaction is rolled back."""


async def _changed_one(changed: Awaitable[int]) -> bool:
    return await changed == 1
