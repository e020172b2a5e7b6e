"""Seasons in time: their starts, ends, reminders and end posts.

Seasons in time: started and ended by command, ended at their stored deadline, reminded the
day before, and their end posted once.

A season's end is a stored deadline (``seasons.ends_at``), timed like turn timers by the
process that owns the server's shard (:mod:`bot.shards`): restored at start-up, fired once
(:class:`TimerQueue`). Ending is one version-guarded transaction (:func:`bot.seasons.end_season`):
if two processes fire it together, one ends the season and the other changes nothing. The one
that ended it posts its end through the :class:`Herald` the Discord layer installs, then marks it
posted; a process that died between the two posts it at its next start, with the same message
nonce, which Discord answers with the first post. In a process, a season's end and its post run
one at a time, so a restore that finds an end still being posted does not post it again. A
reminder is marked before it is posted: at most once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection
from dataclasses import replace
from typing import Any, Protocol

from games.i18n import say

from ..errors import UserError
from ..seasons import (
    NAME_LENGTH,
    REMINDER_SECONDS,
    ROLLOVERS,
    Board,
    Season,
    boards,
    due_seasons,
    end_season,
    free_name,
    mark,
    period,
    running_season,
    season_by_id,
    season_named,
    seasons_of,
    start_season,
)
from ..shards import Shards
from ..storage import Conflict, Session, Storage
from ..unlocks import unlock_titles
from .live_tables import KeyedLocks
from .tasks import BackgroundTasks
from .timers import TimerQueue

log = logging.getLogger(__name__)

RETRY_SECONDS = 30.0
"""How soon an end Discord did not take is posted again."""


class Herald(Protocol):
    """How seasons are told in Discord (:class:`cogs.season_commands.SeasonHerald`)."""

    async def season_ended(self, season: Season, boards: list[Board]) -> None:
        """Post ``season``'s end with its final standings in its channel (raises if Discord refused)."""

    async def season_ends_soon(self, season: Season, boards: list[Board]) -> None:
        """Post in ``season``'s channel that it ends in a day, with the standings so far."""


class Seasons:
    def __init__(self, storage: Storage, tasks: BackgroundTasks, clock: Callable[[], float], shards: Shards) -> None:
        self.storage = storage
        self.herald: Herald | None = None
        self._clock = clock
        self._shards = shards
        self._timers = TimerQueue(tasks, clock, self._due)
        self._locks = KeyedLocks()
        """Per season: its end and its post, one at a time (a restore may find an end still being posted)."""
        self._to_post: set[int] = set()
        """Ended seasons this process must post (it ended them, or found them unposted at start-up)."""

    async def restore(self) -> None:
        """Time the running seasons of this process's servers, and post the ends a stop cut short."""
        for season in await self.storage.run_read(lambda db: due_seasons(db, self._shards.sql_condition())):
            if not season.running:
                self._to_post.add(season.id)
            self._schedule(season)

    def scheduled(self, season_id: int) -> bool:
        return season_id in self._timers

    def sleeping(self) -> Collection[asyncio.Task[Any]]:
        """The timer waiting for the next season's moment (not work :meth:`GameService.wait_idle` waits for)."""
        return self._timers.sleeping()

    # -- commands ----------------------------------------------------------------------------

    async def current(self, guild_id: int) -> Season | None:
        return await self.storage.run_read(lambda db: running_season(db, guild_id))

    async def by_id(self, season_id: int) -> Season | None:
        return await self.storage.run_read(lambda db: season_by_id(db, season_id))

    async def all_of(self, guild_id: int) -> list[Season]:
        """The server's seasons, the running one first, then the latest ended first."""
        return await self.storage.run_read(lambda db: seasons_of(db, guild_id))

    async def named(self, guild_id: int, name: str) -> Season | None:
        return await self.storage.run_read(lambda db: season_named(db, guild_id, name))

    async def start(self, guild_id: int, channel_id: int, name: str, ends_at: float | None) -> Season:
        """Start a season named ``name`` now, ending at ``ends_at`` (None: at the end of the
        server's rollover period, else by command). Refused (:class:`UserError`) with a name
        empty, too long or taken, an end not in the future, or while a season runs."""
        name = " ".join(name.split())
        if not name:
            raise UserError(say("Give the season a name."))
        if len(name) > NAME_LENGTH:
            raise UserError(say("A season's name has at most {count} characters.", count=NAME_LENGTH))
        now = self._clock()
        if ends_at is not None and ends_at <= now:
            raise UserError(say("A season can't end in the past: choose an end after now."))
        settings = await self.storage.guild_settings(guild_id)
        if ends_at is None and settings.season_rollover in ROLLOVERS:
            ends_at = period(settings.season_rollover, now)[1]

        async def write(db: Session) -> Season:
            running = await running_season(db, guild_id)
            if running is not None:
                raise UserError(say("The season “{name}” is running: end it with `/season end` before starting "
                                    "another.", name=running.name))
            if await season_named(db, guild_id, name) is not None:
                raise UserError(say("This server already had a season named “{name}”: choose another name.",
                                    name=name))
            return await start_season(db, guild_id, channel_id, name, now, ends_at)

        try:
            season = await self.storage.run_write(write)
        except Conflict:  # another start got there first
            raise UserError(say("Another season was started at the same moment; see `/season show`.")) from None
        self._schedule(season)
        return season

    async def end_now(self, guild_id: int) -> Season:
        """End the running season now (``/season end``); its end is posted. Returns the ended season."""
        season = await self.current(guild_id)
        if season is None:
            raise UserError(say("No season is running here: start one with `/season start`."))
        async with self._locks.hold(season.id):
            ended = await self._end(season, self._clock())
        if ended is None:
            raise UserError(say("The season had just ended."))
        return ended

    async def roll_over(self, guild_id: int, channel_id: int, rollover: str | None) -> Season | None:
        """Set the server's rollover (``monthly``, ``quarterly`` or None); with one set and no
        season running, the period's season starts now, posted in ``channel_id``. Returns it."""
        await self.storage.set_guild_settings(guild_id, season_rollover=rollover)
        if rollover not in ROLLOVERS or await self.current(guild_id) is not None:
            return None
        now = self._clock()
        name, ends_at = period(rollover, now)

        async def write(db: Session) -> Season | None:
            if await running_season(db, guild_id) is not None:
                return None
            return await start_season(db, guild_id, channel_id, await free_name(db, guild_id, name), now, ends_at)

        season = await self.storage.run_write(write)
        if season is not None:
            self._schedule(season)
        return season

    async def boards(self, season: Season) -> list[Board]:
        """The season's standings: as they are now while it runs, as archived once it ended."""
        settings = await self.storage.guild_settings(season.guild_id)
        return await self.storage.run_read(lambda db: boards(db, season, settings.season_min_games))

    # -- time ----------------------------------------------------------------------------------

    def _schedule(self, season: Season) -> None:
        if not season.running:
            self._timers.schedule(season.id, self._clock())
        elif season.ends_at is not None:  # a reminder due (or past) is sent first, unless the end is past too
            self._timers.schedule(season.id, season.ends_at if season.reminded else season.ends_at - REMINDER_SECONDS)

    async def _due(self, season_id: int) -> None:
        """A season's time came: its reminder, its end, or posting an end not posted yet."""
        async with self._locks.hold(season_id):
            season = await self.by_id(season_id)
            if season is None:
                return
            if not season.running:
                if season.id in self._to_post and not season.announced:
                    await self._post_end(season)
                return
            if season.ends_at is None:
                return
            now = self._clock()
            if now >= season.ends_at:
                await self._end(season, season.ends_at)
                return
            if not season.reminded and now >= season.ends_at - REMINDER_SECONDS:
                await self._remind(season)
                season = replace(season, reminded=True)
            self._schedule(season)

    async def _end(self, season: Season, at: float) -> Season | None:
        """End ``season`` at ``at`` unless someone else did first, then post it; the ended season."""
        settings = await self.storage.guild_settings(season.guild_id)

        async def write(db: Session) -> tuple[Season, Season | None] | None:
            done = await end_season(db, season, at, settings)
            if done is not None:
                await unlock_titles(db, done[0])
            return done

        done = await self.storage.run_write(write)
        if done is None:
            return None
        ended, following = done
        self._timers.cancel(season.id)
        if following is not None:
            self._schedule(following)
        self._to_post.add(ended.id)
        await self._post_end(ended)
        return ended

    async def _post_end(self, season: Season) -> None:
        if self.herald is None:
            return
        try:
            await self.herald.season_ended(season, await self.boards(season))
        except Exception:
            log.exception("could not post the end of season %s; trying again in %s s", season.id, RETRY_SECONDS)
            self._timers.schedule(season.id, self._clock() + RETRY_SECONDS)
            return
        self._to_post.discard(season.id)
        await self.storage.run_write(lambda db: mark(db, season, "announced"))

    async def _remind(self, season: Season) -> None:
        if self.herald is None or not await self.storage.run_write(lambda db: mark(db, season, "reminded")):
            return
        try:
            await self.herald.season_ends_soon(season, await self.boards(season))
        except Exception:
            log.exception("could not post the reminder of season %s", season.id)
