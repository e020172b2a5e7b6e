"""The moves nobody clicks: AI seats play their turns, and turn timers remind, then play for the late.

After every committed change :meth:`AutoPlay.follow` shows the table, then
(re)schedules the table's timer and lets any AI seat that is to act play.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection
from functools import partial
from typing import Any, Protocol

import games
from games.ai import DEFAULT_LEVEL, LEVEL_NAMES, LEVELS, choose_action
from games.base import Action
from games.i18n import Seat, plural, say
from games.rng import Rng

from ..ai_pool import AiPool, WorkerLost
from ..errors import StaleControl, StorageUnavailable
from ..storage import MoveRecord, SeatRow, Session, Storage, TableRow
from .live_tables import LiveTable, LiveTables, event_lines, update_after
from .publishing import Publishing
from .snapshots import TableSnapshot
from .tasks import BackgroundTasks
from .timers import TimerQueue

MISSED_TURNS_BEFORE_AI = 3
MAX_TURN_STEPS = 50  # a bound only: no game's turn has anywhere near this many steps
STORAGE_RETRY_SECONDS = 3.0
"""How soon an AI turn or a timer the database could not save is tried again."""
RESUME_BATCH = 500
"""Tables read per query when start-up looks for AI seats to resume."""
POOLED_LEVELS = ("hard",)
"""Levels computed in the :class:`AiPool`; ``easy`` and ``normal`` (a heuristic, a few
milliseconds at most) are computed on the event loop."""

log = logging.getLogger(__name__)

TimeoutRecord = Callable[[Session, int, int, int], Awaitable[None]]
"""Writes kept of a turn a timer played for a person: ``(db, table id, seat, the move's version)``."""


def seat_level(seat: SeatRow) -> str:
    """The level an AI seat plays at: its own, or normal (AI seats from before levels)."""
    return seat.ai_level if seat.ai_level in LEVELS else DEFAULT_LEVEL


async def server_ai_level(storage: Storage, guild_id: int) -> str:
    """The server's default AI level (``/settings ai-level``); normal if the stored one is unknown."""
    level = (await storage.guild_settings(guild_id)).ai_level
    return level if level in LEVELS else DEFAULT_LEVEL


class TimedTable(Protocol):
    """What scheduling a table's timer reads: a :class:`TableRow` or a storage ``OpenTable``."""

    @property
    def id(self) -> int: ...

    @property
    def status(self) -> str: ...

    @property
    def deadline(self) -> float | None: ...

    @property
    def reminded(self) -> bool: ...

    @property
    def timer_minutes(self) -> int: ...


class AutoPlay:
    def __init__(
        self, tables: LiveTables, tasks: BackgroundTasks, publishing: Publishing, *,
        ai_delay: float, clock: Callable[[], float], pool: AiPool,
    ) -> None:
        self._tables = tables
        self._pool = pool
        self._tasks = tasks
        self._publishing = publishing
        self._ai_delay = ai_delay
        self._clock = clock
        self._timers = TimerQueue(tasks, clock, self._timer_due)
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._hurried: set[int] = set()
        """Tables whose AI seats play without :attr:`_ai_delay` (a tournament round out of time)."""
        self.timeout_records: list[TimeoutRecord] = []
        """Run in the transaction of every turn a timer plays for a person."""
        self.timed_out: list[Callable[[TableRow, int], None]] = []
        """Told of every turn a timer played for a person (the table as committed, the seat)."""
        tables.on_read = self.wake

    def wake(self, live: LiveTable) -> None:
        """A table just read from the database: schedule its turn timer, and let its AI play if
        an AI seat is to act. Whatever read it (a move, a click on My hand, start-up showing it
        again), nothing waits for a restart to wake it."""
        row = live.row
        if row.status != "running" or live.state is None:
            return
        if row.deadline is not None and row.id not in self._timers:
            self.schedule_timer(row)
        if any(row.seats[seat].is_ai for seat in live.state.to_act()):
            self.kick_ai(row)

    def follow(self, snap: TableSnapshot) -> None:
        """Show the change, then let AI seats and timers take it from here."""
        self._publishing.show(snap)
        self.schedule_timer(snap.row)
        self.kick_ai(snap.row)

    # -- AI seats ----------------------------------------------------------------

    def kick_ai(self, row: TableRow) -> None:
        """Start playing the table's AI turns, unless that is under way already. A table
        without AI seats needs none (a seat handed to an AI comes with its own kick)."""
        if row.status != "running" or self._tasks.closing or not any(s.is_ai for s in row.seats):
            return
        running = self._drivers.get(row.id)
        if running is not None and not running.done():
            return
        task = self._drivers[row.id] = self._tasks.spawn(self._drive_ai(row.id), f"ai-{row.id}")
        task.add_done_callback(partial(self._driver_done, row.id))

    def _driver_done(self, table_id: int, task: asyncio.Task[None]) -> None:
        if self._drivers.get(table_id) is task:
            del self._drivers[table_id]

    def hurry(self, table_id: int) -> None:
        """Let the table's AI seats play on without waiting between moves, to its end."""
        self._hurried.add(table_id)

    def tables_held(self) -> int:
        """How many tables have an AI turn or a timer under way."""
        return len(self._drivers.keys() | self._timers.table_ids() | self._hurried)

    async def _drive_ai(self, table_id: int) -> None:
        """Play AI turns until a human must act or the game ends; a turn the database
        could not save (logged by the storage) is tried again shortly."""
        while True:
            try:
                snap = await self._ai_turn(table_id)
            except StorageUnavailable:
                await asyncio.sleep(STORAGE_RETRY_SECONDS)
                continue
            except StaleControl:  # another process moved first; the stale copy was dropped: read it again
                continue
            if snap is None or snap.row.status != "running":
                self._hurried.discard(table_id)
            if snap is None:
                return
            self._publishing.show(snap)
            self.schedule_timer(snap.row)
            if self._ai_delay and table_id not in self._hurried:
                await asyncio.sleep(self._ai_delay)

    async def _ai_turn(self, table_id: int) -> TableSnapshot | None:
        """One AI move, or None when no AI seat is to act."""
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            row = live.row
            if row.status != "running":
                return None
            ai_seats = [s for s in live.game_state.to_act() if row.seats[s].is_ai]
            if not ai_seats:
                return None
            return await self._play_for(live, ai_seats[0], timed_out=False)

    async def _play_for(self, live: LiveTable, seat: int, *, timed_out: bool) -> TableSnapshot:
        """Let the AI choose and play one action for ``seat`` (caller holds the lock)."""
        row = live.row
        state = live.game_state
        game = games.get_game(row.game_id)
        seat_row = row.seats[seat]
        # A person's seat (timed out) is played at the server's level, which it keeps if handed over.
        level = seat_level(seat_row) if seat_row.is_ai else await server_ai_level(self._tables.storage, row.guild_id)
        if timed_out and game.on_timeout is not None:
            action = game.on_timeout(state, seat)
        else:
            action = await self._choose(live, seat, level)
        events = self._tables.apply(live, seat, action)
        lines, _ = event_lines(events, None)
        missed: dict[int, int] = {}
        handed: tuple[int, ...] = ()
        if timed_out:
            seat_row = row.seats[seat]
            count = seat_row.missed_turns + 1
            missed[seat] = count
            lines.insert(0, say("⏰ {player} ran out of time; the AI played for them.", player=Seat(seat)).to_json())
            if count >= MISSED_TURNS_BEFORE_AI:
                handed = (seat,)
                lines.append(plural("{player} missed {count} turn in a row; an AI ({level}) plays their seat now.",
                                    "{player} missed {count} turns in a row; an AI ({level}) plays their seat now.",
                                    count, player=Seat(seat), level=LEVEL_NAMES[level]).to_json())
        now = self._clock()
        update = update_after(row, state, lines, now, missed_turns=missed, ai_seats=handed)
        update.ai_level = level
        then = partial(self._record_timeout, row.id, seat, row.version + 1) if timed_out else None
        await self._tables.commit(live, [MoveRecord(seat, action.to_json(), True, now)], update, then)
        if timed_out:
            for listener in self.timed_out:
                listener(row, seat)
        return live.snapshot()

    async def _record_timeout(self, table_id: int, seat: int, version: int, db: Session) -> None:
        for record in self.timeout_records:
            await record(db, table_id, seat, version)

    async def _choose(self, live: LiveTable, seat: int, level: str) -> Action:
        """The AI's action at ``level``: ``hard`` in the pool, falling back to ``normal``
        (computed here) when its worker died or got stuck; other levels here."""
        row, state = live.row, live.game_state
        seed = row.seed ^ (row.version * 0x9E3779B97F4A7C15) ^ seat
        if level in POOLED_LEVELS:
            try:
                return await self._pool.choose(state, seat, seed, level)
            except (WorkerLost, RuntimeError) as exc:
                log.warning("table %s seat %s: the %s AI fell back to normal for this move: %s",
                            row.id, seat, level, exc)
                level = DEFAULT_LEVEL
        return choose_action(state, seat, Rng(seed), level)

    # -- turn timers ---------------------------------------------------------------

    def sleeping(self) -> Collection[asyncio.Task[Any]]:
        """The timers still waiting for their moment (not work :meth:`GameService.wait_idle` waits for)."""
        return self._timers.sleeping()

    def timer_scheduled(self, table_id: int) -> bool:
        return table_id in self._timers

    def cancel_timer(self, table_id: int) -> None:
        self._timers.cancel(table_id)

    def schedule_timer(self, table: TimedTable) -> None:
        """Wake at half time (for the reminder) or at the deadline, whichever comes next."""
        self.cancel_timer(table.id)
        if table.status != "running" or table.deadline is None or self._tasks.closing:
            return
        half = table.timer_minutes * 30
        self._timers.schedule(table.id, table.deadline if table.reminded else table.deadline - half)

    async def _timer_due(self, table_id: int) -> None:
        try:
            await self.check_timer(table_id)
        except StaleControl:  # another process moved first; the stale copy was dropped: check it as stored
            self._timers.schedule(table_id, self._clock())
        except StorageUnavailable:  # logged by the storage; check again shortly
            if table_id not in self._timers and not self._tasks.closing:
                self._timers.schedule(table_id, self._clock() + STORAGE_RETRY_SECONDS)

    def resume_ai_later(self, table_ids: list[int]) -> None:
        """After a restart: in the background, let the AI play wherever an AI seat is to act."""
        if table_ids:
            self._tasks.spawn(self._resume_ai(self._tables.storage, table_ids), "resume-ai")

    async def _resume_ai(self, storage: Storage, table_ids: list[int]) -> None:
        for start in range(0, len(table_ids), RESUME_BATCH):
            for row in await storage.get_tables(table_ids[start:start + RESUME_BATCH]):
                if row.status != "running" or not row.state:
                    continue
                state = games.get_game(row.game_id).from_json(row.state)
                if any(row.seats[s].is_ai for s in state.to_act()):
                    self.kick_ai(row)

    async def check_timer(self, table_id: int, now: float | None = None) -> None:
        """Send the half-time reminder or, past the deadline, let the AI play the turn."""
        reminder: tuple[TableSnapshot, list[SeatRow], float] | None = None
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            row = live.row
            now = self._clock() if now is None else now
            if row.status != "running" or row.deadline is None:
                return
            if now < row.deadline:
                if not row.reminded and now >= row.deadline - row.timer_minutes * 30:
                    if not await self._tables.storage.update_table(table_id, expected_version=row.version, reminded=1):
                        self._tables.forget(table_id)
                        raise StaleControl(say("The table moved on in another process."))
                    row.reminded = True
                    late = [row.seats[s] for s in live.game_state.to_act() if not row.seats[s].is_ai]
                    reminder = (live.snapshot(), late, row.deadline - now)
                self.schedule_timer(row)
            else:
                late_seats = [s for s in live.game_state.to_act() if not row.seats[s].is_ai]
                snap = None
                for seat in late_seats:
                    # The AI plays the rest of the turn (a turn may have several steps, as
                    # take, lay, discard); it counts as one missed turn.
                    for step in range(MAX_TURN_STEPS):
                        if live.row.status != "running" or seat not in live.game_state.to_act():
                            break
                        snap = await self._play_for(live, seat, timed_out=step == 0)
                if snap is not None:
                    self._publishing.show(snap)
                self.schedule_timer(row)
                self.kick_ai(row)
        if reminder is not None:
            await self._publishing.remind(*reminder)
