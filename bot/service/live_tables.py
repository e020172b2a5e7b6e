"""Tables in play, held in memory, and the one way a new state of a table is committed.

Callers hold the table's lock (:meth:`LiveTables.lock`) while they load, change
and commit it; readers may load without it. What is in memory always matches what
is committed, and only ever moves forward: a table is read from the database by one
load at a time (every caller wanting it meanwhile shares that read, so a read that
began before a move committed can never put the older table back), and a table whose
lock is held is never dropped from memory. Whenever what is in memory is in doubt (a
failed commit, an engine bug), the entry is dropped and the next access reads the
table again. Only the tables touched most recently stay in memory
(:data:`CACHED_TABLES`); the others are read again when next touched. A table in
memory keeps its engine state, not the stored snapshot.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from functools import partial

import games
from games.base import Action, Event, GameState
from games.errors import GameError
from games.i18n import say

from ..errors import NotHere, StaleControl, UserError
from ..records import EventLine
from ..results import Results
from ..storage import MoveRecord, SessionFn, Storage, TableRow, TableUpdate
from .snapshots import TableSnapshot

log = logging.getLogger(__name__)

RECENT_EVENT_LINES = 20
CACHED_TABLES = 2000
"""Open tables kept in memory, least recently touched dropped first (re-read when touched)."""


class LiveTable:
    """A table held in memory: the stored row plus the engine state (``None`` in a lobby)."""

    __slots__ = ("row", "state", "_public")

    def __init__(self, row: TableRow, state: GameState | None) -> None:
        self.row = row
        self.state = state
        self._public: tuple[int, GameState, dict] | None = None
        """(version, state, its public view): a view is built once per version, not per snapshot."""

    def snapshot(self) -> TableSnapshot:
        """A copy of the table as it is now; later moves don't change it (they build new views)."""
        state = self.state
        if state is None:
            return TableSnapshot(self.row.copy(), None)
        version = self.row.version
        public = self._public
        if public is None or public[0] != version or public[1] is not state:
            public = self._public = (version, state, state.view(None))
        return TableSnapshot(self.row.copy(), public[2])

    @property
    def game_state(self) -> GameState:
        """The engine state of a started game (running or ended). Only a lobby has none, and
        callers check the table's status first: asking a lobby for its state is a bug."""
        state = self.state
        if state is None:
            raise RuntimeError(f"table {self.row.id} is a lobby: it has no game state")
        return state


class _KeyLock:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0
        """Tasks holding or awaiting the lock."""


class KeyedLocks:
    """One lock per key, kept only while someone holds or awaits it: keys that were
    never real (a forged table id) or are done with (an ended table) leave nothing behind."""

    def __init__(self) -> None:
        self._locks: dict[int, _KeyLock] = {}

    def __len__(self) -> int:
        return len(self._locks)

    def users(self, key: int) -> int:
        """How many tasks hold or await ``key``'s lock."""
        entry = self._locks.get(key)
        return entry.users if entry is not None else 0

    def hold(self, key: int) -> AbstractAsyncContextManager[None]:
        """Hold ``key``'s lock (``async with``)."""
        return _Holding(self._locks, key)


class _Holding:
    """``async with`` on one key of :class:`KeyedLocks` (a plain class: it is entered on
    every move, and a generator-based context manager costs several times more)."""

    __slots__ = ("_locks", "_key", "_entry")

    def __init__(self, locks: dict[int, _KeyLock], key: int) -> None:
        self._locks = locks
        self._key = key

    async def __aenter__(self) -> None:
        entry = self._entry = self._locks.setdefault(self._key, _KeyLock())
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:
            self._done(entry)
            raise

    async def __aexit__(self, *exc_info: object) -> None:
        entry = self._entry
        entry.lock.release()
        self._done(entry)

    def _done(self, entry: _KeyLock) -> None:
        entry.users -= 1
        if not entry.users:
            del self._locks[self._key]


class LiveTables:
    def __init__(self, storage: Storage, results: Results, capacity: int = CACHED_TABLES) -> None:
        self.storage = storage
        self.results = results
        self._capacity = capacity
        self._live: OrderedDict[int, LiveTable] = OrderedDict()
        self._reads: dict[int, asyncio.Future[LiveTable]] = {}
        """Per table being read from the database: the one read every caller shares."""
        self._locks = KeyedLocks()
        self.on_read: Callable[[LiveTable], None] = lambda live: None
        """Called with every open table read from the database (not from memory), before
        anyone gets it: the AI seats and turn timer wake up whichever path read it."""
        self.recorded: list[Callable[[TableRow], None]] = []
        """Told of every ended table once its result is recorded (a tournament's round may be over)."""

    def lock(self, table_id: int) -> AbstractAsyncContextManager[None]:
        """Hold while loading, changing and committing the table (``async with``)."""
        return self._locks.hold(table_id)

    def held_entries(self) -> int:
        """How many tables have in-memory bookkeeping (cached state, a read or a lock in use)."""
        return len(self._live) + len(self._reads) + len(self._locks)

    async def load(self, table_id: int) -> LiveTable:
        """The table from memory, or from the database (kept in memory while it is open)."""
        live = self._live.get(table_id)
        if live is not None:
            self._live.move_to_end(table_id)
            return live
        read = self._reads.get(table_id)
        if read is None:
            read = self._reads[table_id] = asyncio.ensure_future(self._read(table_id))
            read.add_done_callback(partial(self._read_done, table_id))
        # Shielded: a caller that gives up (its interaction cancelled) leaves the read to the others.
        return await asyncio.shield(read)

    async def _read(self, table_id: int) -> LiveTable:
        row = await self.storage.get_table(table_id)
        if row is None:
            raise NotHere()
        state = games.get_game(row.game_id).from_json(row.state) if row.state else None
        live = LiveTable(row, state)
        # Kept only while the table is open, and only if no change since made this read
        # out of date (:meth:`forget` drops the read too).
        if row.status in ("lobby", "running") and self._reads.get(table_id) is asyncio.current_task():
            row.state = None  # the engine state holds it; results read it only once the game ended
            self._live[table_id] = live
            self._evict()
            self.on_read(live)
        return live

    def _read_done(self, table_id: int, read: asyncio.Future[LiveTable]) -> None:
        if self._reads.get(table_id) is read:
            del self._reads[table_id]
        if not read.cancelled():
            read.exception()  # every caller that wanted it was given it: nothing left to report

    def _evict(self) -> None:
        """Drop the tables touched longest ago beyond :attr:`_capacity`, except those whose lock
        is held: a writer's table stays in memory until it has committed, so no read can
        meanwhile take an older copy from the database."""
        excess = len(self._live) - self._capacity
        if excess <= 0:
            return
        victims: list[int] = []
        for table_id in self._live:
            if len(victims) == excess:
                break
            if not self._locks.users(table_id):
                victims.append(table_id)
        for table_id in victims:
            del self._live[table_id]

    def cached(self, table_id: int) -> LiveTable | None:
        return self._live.get(table_id)

    def forget(self, table_id: int) -> None:
        """Drop the table from memory (and any read of it under way): the next access reads it again."""
        self._live.pop(table_id, None)
        self._reads.pop(table_id, None)

    def apply(self, live: LiveTable, seat: int, action: Action) -> list[Event]:
        """Play ``action`` on the state in memory; the engine's refusal becomes a :class:`UserError`."""
        try:
            return live.game_state.apply(seat, action)
        except GameError as exc:
            raise UserError(exc.text) from None
        except Exception:
            # An engine bug may have left the state half-changed: reload it next time.
            self.forget(live.row.id)
            raise

    async def commit(self, live: LiveTable, moves: list[MoveRecord], update: TableUpdate,
                     then: SessionFn[None] | None = None) -> None:
        """Write the moves already applied in memory (with ``then``'s writes, in the same
        transaction); a finished game's result is recorded too."""
        row = live.row
        try:
            committed = await self.storage.commit_moves(
                row.id, expected_version=row.version, moves=moves, update=update, then=then
            )
        except BaseException:
            # The state in memory already holds the move; whether the database
            # does is unknown until it is read again.
            self.forget(row.id)
            raise
        if not committed:
            self.forget(row.id)
            raise StaleControl(say("Someone moved at the same moment; here is the game as it is now."))
        self.apply_update(live, live.game_state, update, row.version + len(moves))
        if row.status == "finished":
            await self.record(row)

    async def record(self, row: TableRow) -> None:
        """Record an ended game's result; on failure start-up records it later."""
        try:
            await self.results.record(row.copy())
        except Exception:
            log.exception("could not record the result of table %s; it will be retried at start-up", row.id)
            return
        for listener in self.recorded:
            listener(row)

    def apply_update(self, live: LiveTable, state: GameState, update: TableUpdate, version: int) -> None:
        """Bring the row in memory to what ``update`` committed."""
        row = live.row
        live.state = state
        row.version = version
        row.status = update.status
        row.state = None if row.status == "running" else update.state
        row.deadline = update.deadline
        row.reminded = update.reminded
        row.recent_events = update.recent_events
        row.outcome = update.outcome
        row.finished_at = update.finished_at
        for seat in row.seats:
            if seat.seat in update.missed_turns:
                seat.missed_turns = update.missed_turns[seat.seat]
            if seat.seat in update.ai_seats:
                seat.is_ai, seat.ai_level = True, update.ai_level
        if row.status != "running":
            self.forget(row.id)


def update_after(
    row: TableRow, state: GameState, lines: list[EventLine], now: float, *,
    missed_turns: dict[int, int] | None = None, ai_seats: tuple[int, ...] = (),
) -> TableUpdate:
    """The columns to write once ``state`` is reached (deadline, status, outcome…)."""
    recent = with_recent(row, lines)
    if state.is_over():
        outcome = state.outcome()
        return TableUpdate(
            state=state.to_json(), status="finished", deadline=None, reminded=False, recent_events=recent,
            outcome=outcome.to_json() if outcome else None, finished_at=now,
            missed_turns=missed_turns or {}, ai_seats=ai_seats,
        )
    ai = {s.seat for s in row.seats if s.is_ai} | set(ai_seats)
    humans_to_act = [s for s in state.to_act() if s not in ai]
    deadline = now + row.timer_minutes * 60 if row.timer_minutes and humans_to_act else None
    return TableUpdate(  # the snapshot is written by the commit right after, before the state moves on
        state=state.to_json(shared=True), status="running", deadline=deadline, reminded=False, recent_events=recent,
        missed_turns=missed_turns or {}, ai_seats=ai_seats,
    )


def with_recent(row: TableRow, lines: list[EventLine]) -> list[EventLine]:
    """The table's recent event lines with ``lines`` added, oldest dropped."""
    return (row.recent_events + lines)[-RECENT_EVENT_LINES:]


def event_lines(events: list[Event], viewer: int | None) -> tuple[list[EventLine], list[EventLine]]:
    """Public lines for the table, and the lines only ``viewer`` may see: the events' words as
    data, read later in the reader's language (:func:`bot.records.event_words`)."""
    public: list[EventLine] = [e.text.to_json() for e in events if e.private_to is None]
    private: list[EventLine] = [e.text.to_json() for e in events if e.private_to is not None and e.private_to == viewer]
    return public, private
