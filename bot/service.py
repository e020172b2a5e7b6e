"""The game service: lobbies, moves, AI seats and turn timers, on top of storage.

Data flows one way (DESIGN.md): a cog parses and authorises an interaction,
calls the service, and renders what it returns. The service loads the table,
applies the move through the engine, commits it (one transaction, version
guarded), and only then lets anyone see the result. Work that follows a move
without an interaction (AI turns, timers, editing the public table message) runs
in tasks the service tracks; it reaches Discord through a :class:`Publisher`
that the tables cog provides, so this module never imports discord.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol

import games
from games.ai import choose_action
from games.base import Action, Event, GameState, count_text
from games.errors import GameError
from games.rng import Rng

from .errors import StaleControl, UserError
from .results import Results
from .storage import ChannelBusy, MoveRecord, SeatRow, Storage, TableRow, TableUpdate

log = logging.getLogger(__name__)

DEFAULT_TIMER_MINUTES = 10
MAX_TIMER_MINUTES = 24 * 60
MISSED_TURNS_BEFORE_AI = 3
MAX_TURN_STEPS = 50  # a bound only: no game's turn has anywhere near this many steps
RECENT_EVENT_LINES = 20


@dataclass(frozen=True)
class Player:
    """A Discord user as the service knows them."""

    user_id: int
    name: str


@dataclass
class TableSnapshot:
    """A table as the public sees it: the stored row and the engine's public view."""

    row: TableRow
    view: dict[str, Any] | None

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.row.seats]


@dataclass
class HandSnapshot:
    """What one seat may see and do now: rendered into an ephemeral message."""

    table: TableSnapshot
    seat: int
    view: dict[str, Any]
    actions: list[Action]
    notes: list[str] = field(default_factory=list)

    @property
    def version(self) -> int:
        return self.table.row.version


class Publisher(Protocol):
    """How the service shows changes in Discord (implemented by the tables cog)."""

    async def lobby_changed(self, table: TableSnapshot) -> None: ...

    async def table_changed(self, table: TableSnapshot) -> None: ...

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None: ...


class _Live:
    """A running table held in memory: the stored row plus the engine state.

    The row and state always match what is committed; a failed commit drops the
    entry so the next access reloads from the database.
    """

    __slots__ = ("row", "state")

    def __init__(self, row: TableRow, state: GameState | None) -> None:
        self.row = row
        self.state = state


class GameService:
    def __init__(
        self,
        storage: Storage,
        *,
        ai_delay: float = 1.0,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], int] = lambda: random.SystemRandom().getrandbits(63),
    ) -> None:
        self.storage = storage
        self.results = Results(storage)
        self.ai_delay = ai_delay
        self.clock = clock
        self.new_seed = new_seed
        self.publisher: Publisher | None = None
        self._live: dict[int, _Live] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._publish_locks: dict[int, asyncio.Lock] = {}
        self._published: dict[int, int] = {}
        self._closing = False

    # -- plumbing ----------------------------------------------------------------

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _load(self, table_id: int) -> _Live:
        live = self._live.get(table_id)
        if live is not None:
            return live
        row = await self.storage.get_table(table_id)
        if row is None:
            raise UserError("That table doesn't exist any more.")
        state = games.get_game(row.game_id).from_json(row.state) if row.state else None
        live = _Live(row, state)
        if row.status in ("lobby", "running"):
            self._live[table_id] = live
        return live

    def _forget(self, table_id: int) -> None:
        self._live.pop(table_id, None)

    def _spawn(self, coro: Awaitable[Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    async def wait_idle(self, timeout: float = 10.0) -> None:
        """Wait until no AI turn, publish or other follow-up work is pending."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            busy = [t for t in self._tasks if not t.done() and t not in self._timers.values()]
            if not busy:
                return
            remaining = end - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"service still busy: {[t.get_name() for t in busy]}")
            await asyncio.wait(busy, timeout=remaining)

    async def close(self) -> None:
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)

    def snapshot(self, live: _Live) -> TableSnapshot:
        """A copy of the table as it is now; later moves don't change it."""
        row = live.row.copy()
        view = live.state.view(None) if live.state is not None else None
        return TableSnapshot(row, view)

    # -- lobby -------------------------------------------------------------------

    async def timer_for(self, guild_id: int, requested: int | None) -> int:
        if requested is None:
            _, default = await self.storage.guild_settings(guild_id)
            requested = DEFAULT_TIMER_MINUTES if default is None else default
        if not 0 <= requested <= MAX_TIMER_MINUTES:
            raise UserError(f"The turn timer must be 0 (off) to {MAX_TIMER_MINUTES} minutes.")
        return requested

    async def open_lobby(
        self, *, guild_id: int, channel_id: int, game_id: str, options: dict[str, Any], host: Player,
        timer_minutes: int | None = None,
    ) -> TableSnapshot:
        """Open a lobby with the host seated. Options are validated here, before anyone joins."""
        game = games.get_game(game_id)
        try:
            options = game.normalize_options(options)
        except GameError as exc:
            raise UserError(str(exc)) from None
        timer = await self.timer_for(guild_id, timer_minutes)
        try:
            table_id = await self.storage.create_table(
                guild_id=guild_id, channel_id=channel_id, game_id=game_id, options=options,
                host_id=host.user_id, host_name=host.name, seed=self.new_seed(), timer_minutes=timer,
                now=self.clock(),
            )
        except ChannelBusy:
            raise UserError(
                "A table is already open in this channel. Finish it, or ask the host to end it "
                "with `/table end`, before starting another."
            ) from None
        return self.snapshot(await self._load(table_id))

    async def set_messages(self, table_id: int, **message_ids: int | None) -> None:
        """Remember the ids of a table's lobby, table and ping messages."""
        await self.storage.set_messages(table_id, **message_ids)
        live = self._live.get(table_id)
        if live is not None:
            for column, value in message_ids.items():
                setattr(live.row, column, value)

    async def ping_message(self, table_id: int) -> int | None:
        live = self._live.get(table_id)
        row = live.row if live is not None else await self.storage.get_table(table_id)
        return row.ping_message_id if row is not None else None

    async def channel_table(self, channel_id: int) -> int | None:
        return await self.storage.open_table_in(channel_id)

    async def table(self, table_id: int) -> TableSnapshot:
        return self.snapshot(await self._load(table_id))

    async def _lobby_change(self, table_id: int, change: Callable[[_Live], list[SeatRow]]) -> TableSnapshot:
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_lobby(live.row)
            seats = change(live)
            await self.storage.set_seats(table_id, seats)
            live.row.seats = seats
            snap = self.snapshot(live)
        await self._publish_lobby(snap)
        return snap

    @staticmethod
    def _require_lobby(row: TableRow) -> None:
        if row.status == "running":
            raise UserError("This game has already started.")
        if row.status != "lobby":
            raise UserError("This table is closed.")

    async def join(self, table_id: int, player: Player) -> TableSnapshot:
        def add(live: _Live) -> list[SeatRow]:
            row = live.row
            if row.seat_of(player.user_id):
                raise UserError("You're already at this table.")
            game = games.get_game(row.game_id)
            if len(row.seats) >= game.max_players:
                raise UserError(f"This table is full ({game.max_players} players).")
            return [*row.seats, SeatRow(len(row.seats), player.user_id, player.name, False)]

        return await self._lobby_change(table_id, add)

    async def leave_lobby(self, table_id: int, player: Player) -> TableSnapshot:
        def remove(live: _Live) -> list[SeatRow]:
            row = live.row
            if row.seat_of(player.user_id) is None:
                raise UserError("You're not at this table.")
            if player.user_id == row.host_id:
                raise UserError("You're the host: use Cancel to close the table instead.")
            return _renumber([s for s in row.seats if s.user_id != player.user_id])

        return await self._lobby_change(table_id, remove)

    async def add_ai(self, table_id: int, by: Player) -> TableSnapshot:
        def add(live: _Live) -> list[SeatRow]:
            row = live.row
            if by.user_id != row.host_id:
                raise UserError("Only the host can add AI players.")
            game = games.get_game(row.game_id)
            if len(row.seats) >= game.max_players:
                raise UserError(f"This table is full ({game.max_players} players).")
            number = sum(1 for s in row.seats if s.is_ai) + 1
            return [*row.seats, SeatRow(len(row.seats), None, f"AI {number}", True)]

        return await self._lobby_change(table_id, add)

    async def remove_ai(self, table_id: int, by: Player) -> TableSnapshot:
        def remove(live: _Live) -> list[SeatRow]:
            row = live.row
            if by.user_id != row.host_id:
                raise UserError("Only the host can remove AI players.")
            ai = [s for s in row.seats if s.is_ai]
            if not ai:
                raise UserError("There is no AI player to remove.")
            return _renumber([s for s in row.seats if s is not ai[-1]])

        return await self._lobby_change(table_id, remove)

    async def switch_side(self, table_id: int, player: Player) -> TableSnapshot:
        """Swap seats with the player opposite, for games played in two sides by seat
        parity (QUASH: seats 0 and 2 against 1 and 3)."""

        def swap(live: _Live) -> list[SeatRow]:
            row = live.row
            seat = row.seat_of(player.user_id)
            if seat is None:
                raise UserError("You're not at this table.")
            other = seat.seat ^ 1
            if other >= len(row.seats):
                raise UserError("Nobody sits opposite you yet: wait for another player or add an AI first.")
            seats = list(row.seats)
            seats[seat.seat], seats[other] = seats[other], seats[seat.seat]
            return _renumber(seats)

        return await self._lobby_change(table_id, swap)

    async def cancel(self, table_id: int, by: Player, *, is_admin: bool = False) -> TableSnapshot:
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_lobby(live.row)
            if by.user_id != live.row.host_id and not is_admin:
                raise UserError("Only the host (or someone with Manage Server) can cancel this table.")
            await self.storage.update_table(table_id, status="cancelled", finished_at=self.clock())
            live.row.status = "cancelled"
            self._forget(table_id)
            snap = self.snapshot(live)
        await self._publish_lobby(snap)
        return snap

    async def start(self, table_id: int, by: Player) -> TableSnapshot:
        async with self._lock(table_id):
            live = await self._load(table_id)
            row = live.row
            self._require_lobby(row)
            if by.user_id != row.host_id:
                raise UserError("Only the host can start the game.")
            game = games.get_game(row.game_id)
            counts = game.allowed_player_counts()
            if len(row.seats) not in counts:
                raise UserError(
                    f"{game.name} needs {count_text(counts)} players; this table has {len(row.seats)}. "
                    "Invite more people or add an AI player."
                )
            try:
                state = game.new_game(len(row.seats), row.options, row.seed)
            except GameError as exc:
                raise UserError(str(exc)) from None
            names = [s.name for s in row.seats]
            lines = [f"The game begins: {', '.join(names)}."]
            lines += _render_events(state.opening_events(), row.seats, None)[0]
            now = self.clock()
            update = self._update_after(row, state, lines, now)
            if not await self.storage.start_table(
                table_id, expected_version=row.version, seats=row.seats, update=update, now=now
            ):
                self._forget(table_id)
                raise StaleControl("This table changed meanwhile; please try again.")
            self._apply_update(live, state, update, row.version + 1)
            row.started_at = now
            snap = self.snapshot(live)
        await self._after_commit(table_id, snap)
        return snap

    # -- play --------------------------------------------------------------------

    async def hand(self, table_id: int, user_id: int) -> HandSnapshot:
        live = await self._load(table_id)
        seat = self._seat_for(live.row, user_id)
        return self._hand(live, seat.seat)

    def _hand(self, live: _Live, seat: int, notes: list[str] | None = None) -> HandSnapshot:
        state = live.state
        assert state is not None
        actions = state.legal_actions(seat) if seat in state.to_act() else []
        return HandSnapshot(self.snapshot(live), seat, state.view(seat), actions, notes or [])

    def _seat_for(self, row: TableRow, user_id: int) -> SeatRow:
        if row.status == "lobby":
            raise UserError("The game hasn't started yet.")
        if row.status != "running":
            raise UserError("This game has ended.")
        seat = row.seat_of(user_id)
        if seat is None:
            if any(s.user_id == user_id for s in row.seats):
                raise UserError("You left this game; an AI plays your seat now.")
            raise UserError("You're not playing at this table.")
        return seat

    async def move(self, table_id: int, user_id: int, version: int, action: Action) -> HandSnapshot:
        """Play ``action`` for the user's seat, if ``version`` is still current.

        Returns the seat's fresh hand after the commit. Everything the table
        sees (the table message, AI replies) follows in background work.
        """
        async with self._lock(table_id):
            live = await self._load(table_id)
            row = live.row
            seat = self._seat_for(row, user_id)
            if version != row.version:
                raise StaleControl("Those controls are from an earlier turn; here is your hand as it is now.")
            now = self.clock()
            events = self._apply(live, seat.seat, action)
            lines, private = _render_events(events, row.seats, seat.seat)
            missed = {seat.seat: 0} if seat.missed_turns else {}
            update = self._update_after(row, live.state, lines, now, missed_turns=missed)
            record = MoveRecord(seat.seat, action.to_json(), False, now)
            await self._commit(live, [record], update)
            hand = self._hand(live, seat.seat, private)
            snap = hand.table
        await self._after_commit(table_id, snap)
        return hand

    def _apply(self, live: _Live, seat: int, action: Action) -> list[Event]:
        try:
            return live.state.apply(seat, action)
        except GameError as exc:
            raise UserError(str(exc)) from None
        except Exception:
            # An engine bug may have left the state half-changed: reload it next time.
            self._forget(live.row.id)
            raise

    async def _commit(self, live: _Live, moves: list[MoveRecord], update: TableUpdate) -> None:
        row = live.row
        try:
            committed = await self.storage.commit_moves(
                row.id, expected_version=row.version, moves=moves, update=update
            )
        except BaseException:
            # The state in memory already holds the move; whether the database
            # does is unknown until it is read again.
            self._forget(row.id)
            raise
        if not committed:
            self._forget(row.id)
            raise StaleControl("Someone moved at the same moment; here is the game as it is now.")
        self._apply_update(live, live.state, update, row.version + len(moves))
        if row.status == "finished":
            await self._record(row)

    async def _record(self, row: TableRow) -> None:
        """Record an ended game's result; on failure start-up records it later."""
        try:
            await self.results.record(row.copy())
        except Exception:
            log.exception("could not record the result of table %s; it will be retried at start-up", row.id)

    def _update_after(
        self, row: TableRow, state: GameState, lines: list[str], now: float, *,
        missed_turns: dict[int, int] | None = None, ai_seats: tuple[int, ...] = (),
    ) -> TableUpdate:
        """The columns to write once ``state`` is reached (deadline, status, outcome…)."""
        recent = (row.recent_events + lines)[-RECENT_EVENT_LINES:]
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
        return TableUpdate(
            state=state.to_json(), status="running", deadline=deadline, reminded=False, recent_events=recent,
            missed_turns=missed_turns or {}, ai_seats=ai_seats,
        )

    def _apply_update(self, live: _Live, state: GameState, update: TableUpdate, version: int) -> None:
        row = live.row
        live.state = state
        row.version = version
        row.state = update.state
        row.status = update.status
        row.deadline = update.deadline
        row.reminded = update.reminded
        row.recent_events = update.recent_events
        row.outcome = update.outcome
        row.finished_at = update.finished_at
        for seat in row.seats:
            if seat.seat in update.missed_turns:
                seat.missed_turns = update.missed_turns[seat.seat]
            if seat.seat in update.ai_seats:
                seat.is_ai = True
        if row.status != "running":
            self._forget(row.id)

    async def _after_commit(self, table_id: int, snap: TableSnapshot) -> None:
        """Show the change, then let AI seats and timers take it from here."""
        self._spawn(self._publish_table(snap), f"publish-{table_id}")
        self._schedule_timer(snap.row)
        self._kick_ai(snap.row)

    # -- leaving and ending -------------------------------------------------------

    async def leave_game(self, table_id: int, player: Player) -> TableSnapshot:
        """Hand the user's seat to an AI; the game goes on. The last human leaving abandons it."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            row = live.row
            if row.status == "lobby":
                raise UserError("The game hasn't started: use the lobby's Leave button.")
            seat = self._seat_for(row, player.user_id)
            line = f"{seat.name} left the table; an AI plays their seat now."
            humans_left = [s for s in row.seats if not s.is_ai and s.seat != seat.seat]
            now = self.clock()
            if not humans_left:
                return await self._end_locked(live, f"{seat.name} left; no players remain, so the game is over.", now)
            await self.storage.set_seat(table_id, seat.seat, is_ai=True)
            seat.is_ai = True
            update = self._update_after(row, live.state, [line], now)
            await self.storage.update_table(
                table_id, expected_version=row.version, deadline=update.deadline, reminded=0,
                recent_events=update.recent_events,
            )
            row.deadline, row.reminded, row.recent_events = update.deadline, False, update.recent_events
            snap = self.snapshot(live)
        await self._after_commit(table_id, snap)
        return snap

    async def end(self, table_id: int, by: Player, *, is_admin: bool) -> TableSnapshot:
        async with self._lock(table_id):
            live = await self._load(table_id)
            row = live.row
            if row.status == "lobby":
                raise UserError("This table hasn't started: use the lobby's Cancel button.")
            if row.status != "running":
                raise UserError("This game has already ended.")
            if by.user_id != row.host_id and not is_admin:
                raise UserError("Only the host or someone with Manage Server can end this game.")
            return await self._end_locked(live, f"{by.name} ended the game.", self.clock())

    async def abandon(self, table_id: int, reason: str) -> None:
        """End an open table nobody can reach any more (its channel is gone)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live.row.status == "running":
                await self._end_locked(live, reason, self.clock())
            elif live.row.status == "lobby":
                await self.storage.update_table(table_id, status="cancelled", finished_at=self.clock())
                self._forget(table_id)

    async def _end_locked(self, live: _Live, line: str, now: float) -> TableSnapshot:
        row = live.row
        recent = (row.recent_events + [line])[-RECENT_EVENT_LINES:]
        await self.storage.update_table(
            row.id, status="abandoned", deadline=None, finished_at=now, recent_events=recent,
        )
        row.status, row.deadline, row.finished_at, row.recent_events = "abandoned", None, now, recent
        self._forget(row.id)
        await self._record(row)
        self._cancel_timer(row.id)
        snap = self.snapshot(live)
        self._spawn(self._publish_table(snap), f"publish-{row.id}")
        return snap

    # -- AI seats ----------------------------------------------------------------

    def _kick_ai(self, row: TableRow) -> None:
        if row.status != "running" or self._closing:
            return
        running = self._drivers.get(row.id)
        if running is not None and not running.done():
            return
        self._drivers[row.id] = self._spawn(self._drive_ai(row.id), f"ai-{row.id}")

    async def _drive_ai(self, table_id: int) -> None:
        """Play AI turns until a human must act or the game ends."""
        while True:
            async with self._lock(table_id):
                live = await self._load(table_id)
                row = live.row
                if row.status != "running":
                    return
                ai_seats = [s for s in live.state.to_act() if row.seats[s].is_ai]
                if not ai_seats:
                    return
                snap = await self._play_for(live, ai_seats[0], timed_out=False)
            await self._publish_table(snap)
            self._schedule_timer(snap.row)
            if self.ai_delay:
                await asyncio.sleep(self.ai_delay)

    async def _play_for(self, live: _Live, seat: int, *, timed_out: bool) -> TableSnapshot:
        """Let the AI choose and play one action for ``seat`` (caller holds the lock)."""
        row = live.row
        state = live.state
        game = games.get_game(row.game_id)
        if timed_out and game.on_timeout is not None:
            action = game.on_timeout(state, seat)
        else:
            action = choose_action(state, seat, Rng(row.seed ^ (row.version * 0x9E3779B97F4A7C15) ^ seat))
        events = self._apply(live, seat, action)
        lines, _ = _render_events(events, row.seats, None)
        missed: dict[int, int] = {}
        handed: tuple[int, ...] = ()
        if timed_out:
            seat_row = row.seats[seat]
            count = seat_row.missed_turns + 1
            missed[seat] = count
            lines.insert(0, f"⏰ {seat_row.name} ran out of time; the AI played for them.")
            if count >= MISSED_TURNS_BEFORE_AI:
                handed = (seat,)
                lines.append(f"{seat_row.name} missed {count} turns in a row; an AI plays their seat now.")
        now = self.clock()
        update = self._update_after(row, state, lines, now, missed_turns=missed, ai_seats=handed)
        await self._commit(live, [MoveRecord(seat, action.to_json(), True, now)], update)
        return self.snapshot(live)

    # -- turn timers ---------------------------------------------------------------

    def _cancel_timer(self, table_id: int) -> None:
        task = self._timers.pop(table_id, None)
        if task is not None:
            task.cancel()

    def _schedule_timer(self, row: TableRow) -> None:
        self._cancel_timer(row.id)
        if row.status != "running" or row.deadline is None or self._closing:
            return
        half = row.timer_minutes * 30
        wake = row.deadline if row.reminded else row.deadline - half
        self._timers[row.id] = self._spawn(self._sleep_then_check(row.id, wake), f"timer-{row.id}")

    async def _sleep_then_check(self, table_id: int, wake: float) -> None:
        await asyncio.sleep(max(0.0, wake - self.clock()))
        self._timers.pop(table_id, None)
        await self.check_timer(table_id)

    async def check_timer(self, table_id: int, now: float | None = None) -> None:
        """Send the half-time reminder or, past the deadline, let the AI play the turn."""
        reminder: tuple[TableSnapshot, list[SeatRow], float] | None = None
        async with self._lock(table_id):
            live = await self._load(table_id)
            row = live.row
            now = self.clock() if now is None else now
            if row.status != "running" or row.deadline is None:
                return
            if now < row.deadline:
                if not row.reminded and now >= row.deadline - row.timer_minutes * 30:
                    await self.storage.update_table(table_id, expected_version=row.version, reminded=1)
                    row.reminded = True
                    late = [row.seats[s] for s in live.state.to_act() if not row.seats[s].is_ai]
                    reminder = (self.snapshot(live), late, row.deadline - now)
                self._schedule_timer(row)
            else:
                late_seats = [s for s in live.state.to_act() if not row.seats[s].is_ai]
                snap = None
                for seat in late_seats:
                    # The AI plays the rest of the turn (a turn may have several steps, as
                    # take, lay, discard); it counts as one missed turn.
                    for step in range(MAX_TURN_STEPS):
                        if live.row.status != "running" or seat not in live.state.to_act():
                            break
                        snap = await self._play_for(live, seat, timed_out=step == 0)
                if snap is not None:
                    self._spawn(self._publish_table(snap), f"publish-{table_id}")
                self._schedule_timer(row)
                self._kick_ai(row)
        if reminder is not None and self.publisher is not None:
            await self.publisher.remind(*reminder)

    # -- start-up ------------------------------------------------------------------

    async def restore(self) -> int:
        """Reload every open table after a restart: timers rescheduled, AI turns resumed."""
        for table_id in await self.storage.unrecorded_table_ids():
            await self._record(await self.storage.get_table(table_id))
        ids = await self.storage.open_table_ids()
        for table_id in ids:
            live = await self._load(table_id)
            if live.row.status == "running":
                self._schedule_timer(live.row)
                self._kick_ai(live.row)
        return len(ids)

    # -- publishing ----------------------------------------------------------------

    async def _publish_lobby(self, snap: TableSnapshot) -> None:
        if self.publisher is not None:
            self._spawn(self.publisher.lobby_changed(snap), f"lobby-{snap.row.id}")

    async def _publish_table(self, snap: TableSnapshot) -> None:
        """Show ``snap`` unless a newer state of that table was shown already."""
        if self.publisher is None:
            return
        table_id = snap.row.id
        lock = self._publish_locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            if self._published.get(table_id, -1) > snap.row.version:
                return
            self._published[table_id] = snap.row.version
            await self.publisher.table_changed(snap)


def _renumber(seats: list[SeatRow]) -> list[SeatRow]:
    return [SeatRow(i, s.user_id, s.name, s.is_ai, s.missed_turns) for i, s in enumerate(seats)]


def _render_events(events: list[Event], seats: list[SeatRow], viewer: int | None) -> tuple[list[str], list[str]]:
    """Public lines for the table, and the lines only ``viewer`` may see."""
    names = [s.name for s in seats]
    public = [e.render(names) for e in events if e.private_to is None]
    private = [e.render(names) for e in events if e.private_to is not None and e.private_to == viewer]
    return public, private
