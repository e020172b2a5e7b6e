"""GameService: the service's parts, made and wired once, and what needs more than one of them.

Callers reach each part directly (``service.lobbies.join(…)``, ``service.play.move(…)``): a part
is the code that does the work. The service itself keeps only what joins parts or adds to them:
a table as the public sees it, where a table lives, what a table's message shows, start-up and
stopping.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Collection
from typing import Any

from ..ai_pool import AiPool
from ..results import Results
from ..shards import ALL_SHARDS, Shards
from ..storage import Storage, TablePlace, TableRow
from .autoplay import AutoPlay, TimeoutRecord
from .live_tables import CACHED_TABLES, LiveTables
from .lobby import Lobbies
from .play import Play
from .publishing import Publishing
from .replay import Replays
from .seasons import Seasons
from .seated import Seated
from .snapshots import Publisher, TableSnapshot
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
        self.results = Results(storage, clock)
        self._tasks = BackgroundTasks()
        self.tables = LiveTables(storage, self.results, cached_tables)
        """Tables in play, in memory, and committing their new states."""
        self._publishing = Publishing(self._tasks, self.results.unlocks)
        self.seasons = Seasons(storage, self._tasks, clock, shards)
        """Seasons: their timed ends and reminders."""
        self.ai_pool = ai_pool or AiPool()
        self._clock = clock
        self.autoplay = AutoPlay(self.tables, self._tasks, self._publishing, ai_delay=ai_delay, clock=clock,
                                 pool=self.ai_pool)
        """AI seats' turns and turn timers."""
        self.lobbies = Lobbies(self.tables, self._publishing, self.autoplay, clock, new_seed)
        """Opening, filling, cancelling and starting lobbies; a server's default timer and AI level."""
        self.play = Play(self.tables, self._publishing, self.autoplay, clock)
        """A seat's hand, moves and hints, and the ways a running game ends early."""
        self.replays = Replays(self.tables, self.lobbies)
        """Play again."""
        self.seated = Seated(self.tables, self._publishing, self.autoplay, clock)
        """Tables opened already started, with their seats (a tournament's round)."""
        self._sleepers: list[Callable[[], Collection[asyncio.Task[Any]]]] = [self.autoplay.sleeping,
                                                                             self.seasons.sleeping]

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
        self.tables.recorded.append(listener)

    def on_shown(self, listener: Callable[[int, int], None]) -> None:
        """Call ``listener(table_id, version)`` each time a table's new state (lobby or game) is
        shown, before Discord shows it (it must not wait): how the site's live pages hear of moves."""
        self._publishing.listeners.append(listener)

    def off_shown(self, listener: Callable[[int, int], None]) -> None:
        """Stop calling ``listener`` (given to :meth:`on_shown`)."""
        self._publishing.listeners.remove(listener)

    def on_timed_out(self, record: TimeoutRecord, listener: Callable[[TableRow, int], None]) -> None:
        """Each time a turn timer plays for a person: ``record(db, table_id, seat, version)`` writes
        what must be kept of it in the move's own transaction (no crash can keep the move and lose
        it), then ``listener`` is called with the table and the seat (it must not wait)."""
        self.autoplay.timeout_records.append(record)
        self.autoplay.timed_out.append(listener)

    @property
    def publisher(self) -> Publisher | None:
        """How changes are shown in Discord; the Discord layer installs its publisher here."""
        return self._publishing.publisher

    @publisher.setter
    def publisher(self, publisher: Publisher | None) -> None:
        self._publishing.publisher = publisher

    # -- tables --------------------------------------------------------------------

    async def table(self, table_id: int) -> TableSnapshot:
        """The table as the public sees it now (from memory, or read and loaded)."""
        return (await self.tables.load(table_id)).snapshot()

    async def table_place(self, table_id: int) -> TablePlace | None:
        """Where ``table_id`` lives (None if no such table): every control naming a table is checked against it."""
        live = self.tables.cached(table_id)
        if live is not None:
            row = live.row
            return TablePlace(row.guild_id, row.channel_id, row.status not in ("lobby", "running"))
        return await self.storage.table_place(table_id)

    async def set_publication(self, table_id: int, **columns: Any) -> None:
        """Remember how a table is shown (see :meth:`Storage.set_publication`), in memory too."""
        await self.storage.set_publication(table_id, **columns)
        live = self.tables.cached(table_id)
        if live is not None:
            for column, value in columns.items():
                if column == "pinged":
                    value = {int(seat): turn for seat, turn in value.items()}
                setattr(live.row, column, value)

    def tables_in_memory(self) -> int:
        """Per-table entries held in memory (cached tables, locks, publishing, AI turns and
        timers): only open tables, and tables with work under way, should count."""
        return self.tables.held_entries() + self._publishing.tables_held() + self.autoplay.tables_held()

    # -- start-up, background work and stopping -------------------------------------

    async def restore(self) -> int:
        """Pick up every open table of the servers on this process's shards after a restart
        (or after taking those shards over), returning how many there are: timers are
        rescheduled (those already due fire at once), ended games' missing results are
        recorded and, in the background, AI seats that are to act play; seasons' ends and
        reminders are timed again (an end a stop cut short is posted). Tables themselves are
        loaded only when first touched. Other processes do the same for their own shards, so
        no timer or AI turn runs in two processes."""
        for table_id in await self.storage.unrecorded_table_ids(self.shards):
            row = await self.storage.get_table(table_id)
            if row is not None:  # else gone since it was listed: nothing to record
                await self.tables.record(row)
        await self.seasons.restore()
        await self.results.unlocks.restore(self.shards)
        tables = await self.storage.open_tables(self.shards)
        for table in tables:
            self.autoplay.schedule_timer(table)
        self.autoplay.resume_ai_later([t.id for t in tables if t.status == "running" and t.has_ai])
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
