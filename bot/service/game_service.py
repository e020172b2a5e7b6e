"""GameService: the one object cogs talk to; each part of the work lives in its own module."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from games.base import Action
from games.hints import Hint
from games.i18n import Text

from ..ai_pool import AiPool
from ..results import Results
from ..shards import ALL_SHARDS, Shards
from ..storage import SeatRow, Session, Storage, TablePlace, TableRow
from .autoplay import AutoPlay, TimeoutRecord
from .live_tables import CACHED_TABLES, LiveTables
from .lobby import Lobbies
from .play import Play
from .publishing import Publishing
from .replay import Rematch, Replays
from .seated import Seated
from .snapshots import HandSnapshot, Player, Publisher, TableSnapshot
from .tasks import BackgroundTasks

RECENT_SECONDS = 60 * 60
"""Games moved this recently are looked at after a restart: a turn's ping a crash cut short is
sent then (a restart is expected well within the hour)."""


class GameService:
    def __init__(
        self,
        storage: Storage,
        *,
        ai_delay: float = 1.0,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], int] = lambda: random.SystemRandom().getrandbits(63),
        cached_tables: int = CACHED_TABLES,
        ai_pool: AiPool | None = None,
        shards: Shards = ALL_SHARDS,
    ) -> None:
        """``cached_tables``: how many open tables stay in memory between touches (the rest are re-read);
        ``ai_pool``: where hard AI players think (default: a pool sized to the machine, stopped by :meth:`close`);
        ``shards``: the Discord shards this process runs: it restores only their servers' tables."""
        self.storage = storage
        self.shards = shards
        self.results = Results(storage)
        self.new_seed = new_seed
        self._tasks = BackgroundTasks()
        self._tables = LiveTables(storage, self.results, cached_tables)
        self._publishing = Publishing(self._tasks)
        self.ai_pool = ai_pool or AiPool()
        self._clock = clock
        self._autoplay = AutoPlay(self._tables, self._tasks, self._publishing, ai_delay=ai_delay, clock=clock,
                                  pool=self.ai_pool)
        self._lobbies = Lobbies(self._tables, self._publishing, self._autoplay, clock)
        self._play = Play(self._tables, self._publishing, self._autoplay, clock)
        self._replays = Replays(self._tables, self._lobbies)
        self._seated = Seated(self._tables, self._publishing, self._autoplay, clock)
        self._sleepers: list[Callable[[], Collection[asyncio.Task[Any]]]] = [self._autoplay.sleeping]

    @property
    def clock(self) -> Callable[[], float]:
        """The service's clock (seconds, as ``time.time``)."""
        return self._clock

    @property
    def tasks(self) -> BackgroundTasks:
        """The service's background work: what :meth:`wait_idle` waits for and :meth:`close` stops."""
        return self._tasks

    def on_recorded(self, listener: Callable[[TableRow], None]) -> None:
        """Call ``listener`` with every ended table once its result is recorded (from background work: it
        must not wait)."""
        self._tables.recorded.append(listener)

    def on_timed_out(self, record: TimeoutRecord, listener: Callable[[TableRow, int], None]) -> None:
        """Each time a turn timer plays for a person: ``record(db, table_id, seat, version)`` writes
        what must be kept of it in the move's own transaction (no crash can keep the move and lose
        it), then ``listener`` is called with the table and the seat (it must not wait)."""
        self._autoplay.timeout_records.append(record)
        self._autoplay.timed_out.append(listener)

    @property
    def publisher(self) -> Publisher | None:
        """How changes are shown in Discord; the tables cog sets itself here."""
        return self._publishing.publisher

    @publisher.setter
    def publisher(self, publisher: Publisher | None) -> None:
        self._publishing.publisher = publisher

    # -- lobbies (lobby.py) --------------------------------------------------------

    async def open_lobby(
        self, *, guild_id: int, channel_id: int, game_id: str, options: dict[str, Any], host: Player,
        timer_minutes: int | None = None,
    ) -> TableSnapshot:
        """Open a lobby with the host seated. Options are validated here, before anyone joins."""
        return await self._lobbies.open(
            guild_id=guild_id, channel_id=channel_id, game_id=game_id, options=options, host=host,
            timer_minutes=timer_minutes, new_seed=self.new_seed,
        )

    async def may_host(self, guild_id: int, host: Player) -> None:
        """Refuse (:class:`UserError`) a second open lobby by ``host`` in a server; checked again
        when the lobby opens, and first by a start that makes a thread, so a refusal makes none."""
        await self._lobbies.may_host(guild_id, host)

    async def timer_for(self, guild_id: int, requested: int | None) -> int:
        """The turn timer a new table gets: ``requested`` once checked, else the server's default."""
        return await self._lobbies.timer_for(guild_id, requested)

    async def set_default_timer(self, guild_id: int, minutes: int) -> None:
        """The server's default turn timer for new tables; refused unless 0 (off) to the maximum."""
        await self._lobbies.set_default_timer(guild_id, minutes)

    async def join(self, table_id: int, player: Player) -> TableSnapshot:
        return await self._lobbies.join(table_id, player)

    async def leave_lobby(self, table_id: int, player: Player) -> TableSnapshot:
        return await self._lobbies.leave(table_id, player)

    async def ai_level_choice(self, table_id: int, by: Player) -> str:
        """The level to offer first when ``by`` adds an AI player; refused unless they may add one now."""
        return await self._lobbies.ai_level_choice(table_id, by)

    async def set_default_ai_level(self, guild_id: int, level: str) -> None:
        """The server's AI level: AI players' default, and what an AI taking over a seat plays at."""
        await self._lobbies.set_default_ai_level(guild_id, level)

    async def add_ai(self, table_id: int, by: Player, level: str | None = None) -> TableSnapshot:
        """Seat an AI player at ``level`` (easy, normal or hard; default: the server's)."""
        return await self._lobbies.add_ai(table_id, by, level)

    async def remove_ai(self, table_id: int, by: Player) -> TableSnapshot:
        return await self._lobbies.remove_ai(table_id, by)

    async def switch_side(self, table_id: int, player: Player) -> TableSnapshot:
        return await self._lobbies.switch_side(table_id, player)

    async def cancel(self, table_id: int, by: Player, *, is_admin: bool = False) -> TableSnapshot:
        return await self._lobbies.cancel(table_id, by, is_admin=is_admin)

    async def start(self, table_id: int, by: Player) -> TableSnapshot:
        return await self._lobbies.start(table_id, by)

    async def play_again(self, table_id: int, by: Player, *, channel_id: int, is_admin: bool = False) -> Rematch:
        """A new lobby where the ended table was; see :meth:`Replays.play_again`."""
        return await self._replays.play_again(table_id, by, channel_id=channel_id, is_admin=is_admin,
                                              new_seed=self.new_seed)

    # -- tables --------------------------------------------------------------------

    async def table(self, table_id: int) -> TableSnapshot:
        return (await self._tables.load(table_id)).snapshot()

    async def table_place(self, table_id: int) -> TablePlace | None:
        """Where ``table_id`` lives (None if no such table): every control naming a table is checked against it."""
        live = self._tables.cached(table_id)
        if live is not None:
            row = live.row
            return TablePlace(row.guild_id, row.channel_id, row.status not in ("lobby", "running"))
        return await self.storage.table_place(table_id)

    async def channel_table(self, channel_id: int) -> int | None:
        return await self.storage.open_table_in(channel_id)

    async def guild_tables(self, guild_id: int) -> list[int]:
        """The server's lobbies and running tables."""
        return await self.storage.open_tables_of_guild(guild_id)

    async def set_publication(self, table_id: int, **columns: Any) -> None:
        """Remember how a table is shown (see :meth:`Storage.set_publication`), in memory too."""
        await self.storage.set_publication(table_id, **columns)
        live = self._tables.cached(table_id)
        if live is not None:
            for column, value in columns.items():
                if column == "pinged":
                    value = {int(seat): turn for seat, turn in value.items()}
                setattr(live.row, column, value)

    async def ping_message(self, table_id: int) -> int | None:
        live = self._tables.cached(table_id)
        row = live.row if live is not None else await self.storage.get_table(table_id)
        return row.ping_message_id if row is not None else None

    def tables_in_memory(self) -> int:
        """Per-table entries held in memory (cached tables, locks, publishing, AI turns and
        timers): only open tables, and tables with work under way, should count."""
        return self._tables.held_entries() + self._publishing.tables_held() + self._autoplay.tables_held()

    def forget_cached(self, table_id: int) -> None:
        """Drop the table's in-memory copy, so the next access reads the database
        (after something other than the service changed the stored table)."""
        self._tables.forget(table_id)

    # -- play and ending (play.py) --------------------------------------------------

    async def hand(self, table_id: int, player: Player) -> HandSnapshot:
        return await self._play.hand(table_id, player)

    async def seat_hands(self, table_id: int, user_ids: Collection[int]) -> dict[int, HandSnapshot]:
        """The hands of those of ``user_ids`` who play a seat there, as it is now; see :meth:`Play.seat_hands`."""
        return await self._play.seat_hands(table_id, user_ids)

    async def move(self, table_id: int, player: Player, version: int, action: Action) -> HandSnapshot:
        """Play ``action`` for the player's seat if ``version`` is still current; see :meth:`Play.move`."""
        return await self._play.move(table_id, player, version, action)

    async def hint(self, table_id: int, player: Player) -> tuple[HandSnapshot, Hint]:
        """The move ``normal`` would make for the player now, and why; marks the game hinted (unrated)."""
        return await self._play.hint(table_id, player)

    async def leave_game(self, table_id: int, player: Player) -> TableSnapshot:
        return await self._play.leave_game(table_id, player)

    async def end(self, table_id: int, by: Player, *, is_admin: bool) -> TableSnapshot:
        return await self._play.end(table_id, by, is_admin=is_admin)

    async def abandon(self, table_id: int, reason: Text, *, show: bool = False) -> None:
        await self._play.abandon(table_id, reason, show=show)

    async def hand_over(self, table_id: int, user_ids: Collection[int], line: Callable[[int], Text], *,
                        hurry: bool = False) -> TableSnapshot | None:
        """Hand those people's seats to the AI, which plays them to the end; see :meth:`Play.hand_over`."""
        return await self._play.hand_over(table_id, user_ids, line, hurry=hurry)

    # -- tables opened started (seated.py) ---------------------------------------------------

    async def open_started(self, *, guild_id: int, channel_id: int, game_id: str, options: dict[str, Any],
                           host_id: int, seats: list[SeatRow], timer_minutes: int, seed: int,
                           link: Callable[[Session, int], Awaitable[bool]]) -> TableSnapshot | None:
        """A table started at once with ``seats``, linked by ``link`` as it is made; see :meth:`Seated.open`."""
        return await self._seated.open(guild_id=guild_id, channel_id=channel_id, game_id=game_id, options=options,
                                       host_id=host_id, seats=seats, timer_minutes=timer_minutes, seed=seed, link=link)

    async def cancel_unplayed(self, table_ids: Collection[int], then: Callable[[Session], Awaitable[None]]) -> bool:
        """Cancel tables nobody moved at, with ``then`` in the same transaction; see :meth:`Seated.cancel_unplayed`."""
        return await self._seated.cancel_unplayed(table_ids, then)

    # -- timers, background work and start-up (autoplay.py, tasks.py) -----------------

    async def check_timer(self, table_id: int, now: float | None = None) -> None:
        """Send the half-time reminder or, past the deadline, let the AI play the turn."""
        await self._autoplay.check_timer(table_id, now)

    def timer_scheduled(self, table_id: int) -> bool:
        return self._autoplay.timer_scheduled(table_id)

    async def restore(self) -> int:
        """Pick up every open table of the servers on this process's shards after a restart
        (or after taking those shards over), returning how many there are: timers are
        rescheduled (those already due fire at once), ended games' missing results are
        recorded and, in the background, AI seats that are to act play. Tables themselves are
        loaded only when first touched. Other processes do the same for their own shards, so
        no timer or AI turn runs in two processes."""
        for table_id in await self.storage.unrecorded_table_ids(self.shards):
            row = await self.storage.get_table(table_id)
            if row is not None:  # else gone since it was listed: nothing to record
                await self._tables.record(row)
        tables = await self.storage.open_tables(self.shards)
        for table in tables:
            self._autoplay.schedule_timer(table)
        self._autoplay.resume_ai_later([t.id for t in tables if t.status == "running" and t.has_ai])
        self._tasks.spawn(self._show_behind(), "show-behind")
        return len(tables)

    async def show_again(self, table_id: int) -> None:
        """Show a table (or lobby) as it is now: its message may be behind."""
        self._publishing.show(await self.table(table_id))

    async def _show_behind(self) -> None:
        """Show, once each, the tables whose message or ping may not show what is stored: a
        process died between committing a change and showing it (a game's last move
        included), between opening a lobby and posting it, or before a turn's ping went. The
        publisher edits only a message that is behind, and pings only who was not pinged."""
        for table_id in await self.storage.to_show_again(self._clock() - RECENT_SECONDS, self.shards):
            self._publishing.show(await self.table(table_id), again=True)

    def add_sleeper(self, sleeping: Callable[[], Collection[asyncio.Task[Any]]]) -> None:
        """Count the tasks ``sleeping()`` names (a queue of timers waiting for their moment) as idle."""
        self._sleepers.append(sleeping)

    async def wait_idle(self, timeout: float = 10.0) -> None:
        """Wait until no AI turn, publish or other follow-up work is pending."""
        await self._tasks.wait_idle(timeout, lambda: {t for sleeping in self._sleepers for t in sleeping()})

    async def close(self) -> None:
        await self._publishing.close()
        await self._tasks.close()
        await self.ai_pool.close()
