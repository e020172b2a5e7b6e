"""Tournaments: sign-up, check-in, host controls and the round machine, on top of the game service.

A tournament's round tables are ordinary tables (same engine, publisher, timers, AI
takeover); this service only opens and seats them and listens for their results. Every
transition is one transaction guarded by the tournament's version (:func:`store.bump`), taken
under a per-tournament lock, and idempotent, so a restart (or the next process owning the
server) resumes exactly:

1. **create**: sign-up, with the next timed transition stored as ``deadline`` (check-in
   opening, then the start); its format checked by :mod:`.formats`.
2. **join / leave / check in / add / remove**: entrant rows (a team of two is one row, entered
   by either of them, who chooses the other; either leaving takes the team out); a refusal
   changes nothing.
3. **start** (the host, or at the start time): round 1 paired (its tables stored without a
   table yet, its byes too), ratings captured, who did not check in left out.
4. **open the round** (:meth:`.rounds.Rounds.open`, resumable): per table, a thread (its
   id stored first), then one transaction creating the table already started and linking it
   to its place in the round. Run after 3 and 5 and at start-up.
5. **a table's result recorded**: once every table of the round has one, the next round is
   paired in one transaction, Swiss or knockout (or the tournament finishes).
6. **timeouts**: each turn a timer plays for a person counts once (per table version); at
   ``drop_after`` the entrant is dropped and the AI finishes their game.
7. **round limit** (``round_minutes``): at the stored deadline the AI plays every seat still in
   play to the end, without waiting between moves.
8. **re-pair** (host): while nobody moved at any table of the round, its tables are cancelled
   and it is paired again with a new seed, in one transaction.
9. **cancel** (host): tables in play end early (unrated).

This module holds the locks, the timers and the messages; :mod:`.rounds` the round machine's
steps. Standings are computed from the stored results whenever shown (:mod:`.scoring`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any

import games
from games.i18n import plural, say

from ..errors import StorageUnavailable, UserError
from ..markdown import literal
from ..service import GameService, Player, checked_options
from ..service.autoplay import STORAGE_RETRY_SECONDS
from ..service.live_tables import KeyedLocks
from ..service.lobby import DEFAULT_TIMER_MINUTES, MAX_TIMER_MINUTES
from ..service.timers import TimerQueue
from ..storage import Conflict, Session, TableRow
from . import store
from .formats import checked_format, within
from .publishing import TournamentPublisher, TournamentView
from .records import EntrantRow, RoundTableRow, TableResult, TournamentRow
from .rounds import DROPPED_LINE, LEFT_LINE, OUT_LINE, REMOVED_LINE, Rounds
from .scoring import scores

log = logging.getLogger(__name__)

DEFAULT_CHECK_IN_MINUTES = 15
DEFAULT_DROP_AFTER = 3
MAX_MINUTES = 24 * 60
"""The longest check-in window and round limit."""
MAX_ENTRANTS = 1024
MAX_AHEAD_DAYS = 90
"""How far ahead a tournament may start."""
NAME_LENGTH = 80
RETRY_SECONDS = 30.0
"""How soon a round whose thread Discord did not make is opened again."""
LISTED = 25
"""Tournaments ``/tournament list`` shows (and autocomplete offers)."""


class Tournaments:
    def __init__(self, games_service: GameService) -> None:
        self.games = games_service
        self.storage = games_service.storage
        self.publisher: TournamentPublisher | None = None
        self._clock = games_service.clock
        self._locks = KeyedLocks()
        self._timers = TimerQueue(games_service.tasks, self._clock,
                                  lambda tournament_id: self._until_saved(partial(self.check, tournament_id)))
        games_service.add_sleeper(self._timers.sleeping)
        self._rounds = Rounds(games_service, lambda: self.publisher)
        games_service.on_recorded(self._table_recorded)
        games_service.on_timed_out(store.record_timeout, self._timed_out)

    # -- reading ---------------------------------------------------------------------------------

    async def get(self, tournament_id: int) -> TournamentRow | None:
        return await self.storage.run_read(lambda db: store.tournament(db, tournament_id))

    async def of_guild(self, guild_id: int) -> list[TournamentRow]:
        """The server's tournaments, open ones first, then the newest (at most :data:`LISTED`)."""
        return await self.storage.run_read(lambda db: store.of_guild(db, guild_id, LISTED))

    async def view(self, tournament_id: int, guild_id: int | None = None) -> TournamentView:
        """The tournament as shown now; :class:`UserError` if there is none (in ``guild_id``)."""
        async def read(db: Session) -> tuple[TournamentRow | None, list[EntrantRow], list[RoundTableRow],
                                             list[TableResult]]:
            row = await store.tournament(db, tournament_id)
            if row is None:
                return None, [], [], []
            return row, await store.entrants(db, tournament_id), await store.round_tables(db, tournament_id), \
                await store.results(db, tournament_id)

        row, entrants, tables, recorded = await self.storage.run_read(read)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise UserError(NO_SUCH_TOURNAMENT)
        now = await asyncio.to_thread(scores, row, entrants, tables, recorded)
        current = [t for t in tables if t.round == row.round]
        ids = {t.table_id for t in current}
        return TournamentView(row, entrants, current, {r.table_id: r for r in recorded if r.table_id in ids},
                              now.standings, now.bracket, now.bracket_tables, now.placings)

    async def set_shown(self, tournament_id: int, *, message_id: int | None, shown: str) -> None:
        """Remember the tournament message (``message_id``, once posted) and what it shows (``shown``)."""
        await self.storage.run_write(lambda db: store.set_publication(db, tournament_id, message_id=message_id,
                                                                      shown=shown))

    async def banner(self, table_id: int) -> tuple[TournamentRow, RoundTableRow, list[EntrantRow]] | None:
        """The tournament round a table was opened for, with the entrants at it (seat order), if any."""
        async def read(db: Session) -> tuple[TournamentRow, RoundTableRow, list[EntrantRow]] | None:
            link = await store.tournament_of_table(db, table_id)
            row = await store.tournament(db, link.tournament_id) if link is not None else None
            if link is None or row is None:
                return None
            people = {e.entrant: e for e in await store.entrants(db, row.id)}
            return row, link, [people[e] for e in link.playing]

        return await self.storage.run_read(read)

    # -- creating and signing up --------------------------------------------------------------------

    async def create(self, *, guild_id: int, channel_id: int, host: Player, game_id: str, options: dict[str, Any],
                     name: str | None = None, rounds: int | None = None, starts_at: float | None = None,
                     check_in_minutes: int | None = None, max_players: int | None = None,
                     timer_minutes: int | None = None, round_minutes: int | None = None,
                     drop_after: int | None = None, format: str | None = None, top: int | None = None,
                     table_size: int | None = None, advance: int | None = None,
                     seeding: str | None = None) -> TournamentView:
        """A tournament of ``game_id`` in sign-up (Swiss unless ``format`` says knockout; see
        :func:`.formats.checked_format`); every option checked first (a :class:`UserError`
        names the one refused). Hints are off unless ``options`` turns them on."""
        shape = checked_format(games.get_game(game_id), options, format=format, top=top, rounds=rounds,
                               table_size=table_size, advance=advance, seeding=seeding)
        checked = checked_options(game_id, {"hints": False, **options}, shape.table_size)
        now = self._clock()
        if starts_at is not None and starts_at <= now:
            raise UserError(say("The start time has passed already: choose a time to come."))
        if starts_at is not None and starts_at > now + MAX_AHEAD_DAYS * 86400:
            raise UserError(plural("A tournament starts within {count} day.",
                                   "A tournament starts within {count} days.", MAX_AHEAD_DAYS))
        check_in = within(check_in_minutes, DEFAULT_CHECK_IN_MINUTES, 0, MAX_MINUTES, "check_in")
        values = dict(
            guild_id=guild_id, channel_id=channel_id, host_id=host.user_id, name=(name or "").strip()[:NAME_LENGTH],
            game_id=game_id, options=checked, timer_minutes=await self._timer(guild_id, timer_minutes),
            format=shape.format, top=shape.top, rounds=shape.rounds, table_size=shape.table_size,
            advance=shape.advance, seeding=shape.seeding, stage=shape.stage,
            drop_after=within(drop_after, DEFAULT_DROP_AFTER, 1, 100, "drop_after"),
            round_minutes=within(round_minutes, None, 1, MAX_MINUTES, "round_minutes"),
            max_players=within(max_players, None, 2, MAX_ENTRANTS, "max_players"), check_in_minutes=check_in,
            starts_at=starts_at, status="signup", seed=self.games.lobbies.new_seed(), created_at=now,
            deadline=_signup_deadline(starts_at, check_in, now),
        )

        async def create(db: Session) -> int:
            busy = await db.fetchval(
                "SELECT id FROM tournaments WHERE channel_id = ? AND status IN ('signup', 'running')", (channel_id,))
            if busy is not None:
                raise UserError(say("A tournament is already under way in this channel: run another one in another "
                                    "channel, or cancel this one first."))
            return await store.create(db, **values)

        tournament_id = await self.storage.run_write(create)
        row = await self.get(tournament_id)
        assert row is not None
        self._schedule(row)
        return await self._show(tournament_id)

    async def _timer(self, guild_id: int, requested: int | None) -> int:
        """The tournament's turn timer: always on (refusing 0); by default the server's, or
        :data:`DEFAULT_TIMER_MINUTES` where the server turned timers off."""
        if requested == 0:
            raise UserError(plural("Turn timers are always on in a tournament: `timer` is 1 to {count} minute.",
                                   "Turn timers are always on in a tournament: `timer` is 1 to {count} minutes.",
                                   MAX_TIMER_MINUTES))
        return await self.games.lobbies.timer_for(guild_id, requested) or DEFAULT_TIMER_MINUTES

    async def joinable(self, tournament_id: int, player: Player) -> TournamentRow:
        """The tournament, if ``player`` may join it now (a team tournament then asks for their
        partner); the refusal :meth:`join` would give otherwise."""
        t = await self._own(tournament_id, player)
        _require_joinable(t, await self.storage.run_read(lambda db: store.entrants(db, tournament_id)), player)
        return t

    async def join(self, tournament_id: int, player: Player, partner: Player | None = None) -> TournamentView:
        """Enter ``player`` (with ``partner``: a team, in a game played in teams); refused once it
        started, when full, or if either entered already."""
        async def change(t: TournamentRow, entrants: list[EntrantRow], db: Session) -> None:
            _require_joinable(t, entrants, player)
            _require_partner(t, entrants, player, partner)
            await store.add_entrant(db, t.id, user_id=player.user_id, name=player.name, joined_round=0,
                                    checked_in=t.checking_in(self._clock()), **_partnered(partner))

        return await self._change(tournament_id, player, change)

    async def leave(self, tournament_id: int, player: Player) -> TournamentView:
        """Take ``player`` out: before the start their entry goes; once it runs they are dropped
        (the AI finishes their game; their results stay in the standings)."""
        async def change(t: TournamentRow, entrants: list[EntrantRow], db: Session) -> None:
            entry = _entry(entrants, player.user_id)
            if entry is None or entry.dropped:
                raise UserError(say("You're not in this tournament."))
            await self._withdraw(t, entry, db)

        view = await self._change(tournament_id, player, change)
        await self._rounds.hand_over_dropped(view.row, [_entry(view.entrants, player.user_id)], LEFT_LINE)
        return view

    async def check_in(self, tournament_id: int, player: Player) -> TournamentView:
        async def change(t: TournamentRow, entrants: list[EntrantRow], db: Session) -> None:
            if t.status != "signup":
                raise UserError(CHECK_IN_CLOSED if t.is_open else CLOSED)
            opens = t.check_in_opens
            if opens is None:
                raise UserError(say("This tournament has no check-in: being entered is enough."))
            if self._clock() < opens:
                raise UserError(plural("Check-in opens <t:{when}:R>, {count} minute before the start.",
                                       "Check-in opens <t:{when}:R>, {count} minutes before the start.",
                                       t.check_in_minutes, when=str(int(opens))))
            entry = _entry(entrants, player.user_id)
            if entry is None:
                raise UserError(say("Join the tournament first, then check in."))
            if entry.checked_in:
                raise UserError(say("You've checked in already."))
            await store.check_in(db, t.id, entry.entrant)

        return await self._change(tournament_id, player, change)

    # -- host controls ------------------------------------------------------------------------------

    async def hosted(self, tournament_id: int, by: Player, *, is_admin: bool) -> TournamentRow:
        """The tournament, if ``by`` may use its host controls (its host, or ``is_admin``: Manage
        Server) and it is open; a :class:`UserError` otherwise."""
        t = await self._own(tournament_id, by)
        _require_host(t, by, is_admin)
        if not t.is_open:
            raise UserError(CLOSED)
        return t

    async def add_player(self, tournament_id: int, by: Player, who: Player, *, is_admin: bool,
                         partner: Player | None = None) -> TournamentView:
        """The host enters ``who`` (with ``partner``: a team): before the start as if they joined
        (checked in); once it runs as a late joiner, paired from the next Swiss round, with a loss
        for each round before (refused when no Swiss round is left: a knockout's bracket is drawn)."""
        async def change(t: TournamentRow, entrants: list[EntrantRow], db: Session) -> None:
            _require_host(t, by, is_admin)
            if not t.is_open:
                raise UserError(CLOSED)
            if _entry(entrants, who.user_id) is not None:
                raise UserError(say("{player} is in this tournament already.", player=literal(who.name)))
            _require_partner(t, entrants, who, partner)
            _require_room(t, entrants)
            rating = None
            if t.status == "running":
                if t.stage == "knockout" or t.round >= (t.rounds or 0):
                    raise UserError(say("No round is left to play for someone joining now."))
                found = await store.ratings(db, t.guild_id, t.game_id, [p.user_id for p in (who, partner) if p])
                rating = sum(found.values()) / len(found) if found else None
            await store.add_entrant(db, t.id, user_id=who.user_id, name=who.name,
                                    joined_round=t.round + 1 if t.status == "running" else 0, checked_in=True,
                                    rating=rating, **_partnered(partner))

        return await self._change(tournament_id, by, change)

    async def remove_player(self, tournament_id: int, by: Player, user_id: int, *, is_admin: bool) -> TournamentView:
        """The host takes someone out, as if they left (dropped once it runs)."""
        async def change(t: TournamentRow, entrants: list[EntrantRow], db: Session) -> None:
            _require_host(t, by, is_admin)
            entry = _entry(entrants, user_id)
            if entry is None or entry.dropped:
                raise UserError(say("They're not in this tournament."))
            await self._withdraw(t, entry, db)

        view = await self._change(tournament_id, by, change)
        await self._rounds.hand_over_dropped(view.row, [_entry(view.entrants, user_id)], REMOVED_LINE)
        return view

    async def set_paused(self, tournament_id: int, by: Player, paused: bool, *, is_admin: bool) -> TournamentView:
        """Pause: no automatic start and no next round until resumed (tables in play go on)."""
        async def change(t: TournamentRow, entrants: list[EntrantRow], db: Session) -> None:
            _require_host(t, by, is_admin)
            if not t.is_open:
                raise UserError(CLOSED)
            if t.paused == paused:
                raise UserError(say("The tournament is paused already.") if paused else
                                say("The tournament isn't paused."))
            await store.set_paused(db, t.id, paused)

        view = await self._change(tournament_id, by, change)
        if not paused:
            self.games.tasks.spawn(self.check(tournament_id), f"tournament-{tournament_id}")
        return view

    async def start_now(self, tournament_id: int, by: Player, *, is_admin: bool) -> TournamentView:
        """The host starts at once (check-in, if open, closes: who did not check in is left out)."""
        async with self._locks.hold(tournament_id):
            t = await self._own(tournament_id, by)
            _require_host(t, by, is_admin)
            if t.status != "signup":
                raise UserError(say("The tournament has started already.") if t.is_open else CLOSED)
            await self._rounds.start(t, by_host=True)
            self._schedule(await self.get(tournament_id))
        return await self._carry_on_later(tournament_id)

    async def cancel(self, tournament_id: int, by: Player, *, is_admin: bool) -> TournamentView:
        """Cancel: tables in play end early (unrated); nothing more is paired."""
        async with self._locks.hold(tournament_id):
            t = await self._own(tournament_id, by)
            _require_host(t, by, is_admin)
            if not t.is_open:
                raise UserError(CLOSED)
            await self.storage.run_write(lambda db: store.bump(db, t, status="cancelled", deadline=None,
                                                               finished_at=self._clock()))
            tables = await self.storage.run_read(lambda db: store.round_tables(db, tournament_id, t.round))
        self._timers.cancel(tournament_id)
        await self._end_cancelled([table.table_id for table in tables if table.table_id is not None])
        return await self._show(tournament_id)

    async def _end_cancelled(self, table_ids: list[int]) -> None:
        """End the tables in play of a cancelled tournament (unrated)."""
        for table_id in table_ids:
            await self.games.play.abandon(table_id, say("The tournament was cancelled."), show=True)

    async def repair(self, tournament_id: int, by: Player, *, is_admin: bool) -> TournamentView:
        """Pair the current round again (with a new seed, and anyone the host added since it was
        paired), while nobody has moved at any of its tables; its tables are cancelled."""
        async with self._locks.hold(tournament_id):
            t = await self._own(tournament_id, by)
            _require_host(t, by, is_admin)
            if t.status != "running":
                raise UserError(say("The tournament hasn't started: there is no round to pair again.")
                                if t.status == "signup" else CLOSED)
            old = await self._rounds.pair_again(t)
        if self.publisher is not None:
            for thread_id in {x.thread_id for x in old if x.thread_id is not None}:
                await self.publisher.remove_thread(t, thread_id)
        return await self._carry_on_later(tournament_id)

    # -- timed transitions, the round machine, start-up ----------------------------------------------

    async def check(self, tournament_id: int, now: float | None = None) -> None:
        """Fire what is due (check-in opening, the start, the round limit), then carry the
        round machine on (:meth:`_step`). Run by the tournament's timer, and safe to run any time."""
        async with self._locks.hold(tournament_id):
            t = await self.get(tournament_id)
            if t is None or not t.is_open:
                return
            now = self._clock() if now is None else now
            if t.status == "signup" and not t.paused and t.starts_at is not None and now >= t.starts_at:
                await self._rounds.start(t, by_host=False)
            elif t.status == "signup" and t.deadline is not None and t.deadline != t.starts_at and now >= t.deadline:
                await self.storage.run_write(lambda db: store.bump(db, t, deadline=t.starts_at))  # check-in opened
            elif t.status == "running" and t.deadline is not None and now >= t.deadline:
                await self._rounds.time_up(t)
            self._schedule(await self.get(tournament_id))
        await self._carry_on_later(tournament_id)

    async def restore(self) -> int:
        """After a restart: every open tournament of this process's shards has its timer
        scheduled, its round opened and carried on (whatever a crash cut short: see
        :meth:`_step`'s ``sweep``), and its message shown if it may be behind; tables a
        cancellation did not get to end are ended."""
        shards = self.games.shards
        ids = await self.storage.run_read(lambda db: store.open_ids(db, shards))
        for tournament_id in ids:
            row = await self.get(tournament_id)
            if row is not None:
                self._schedule(row, due_now=True)
                self.games.tasks.spawn(self._until_saved(partial(self._restored, tournament_id)),
                                       f"tournament-{tournament_id}")
        cancelled = await self.storage.run_read(lambda db: store.cancelled_tables_in_play(db, shards))
        if cancelled:
            self.games.tasks.spawn(self._until_saved(partial(self._end_cancelled, cancelled)), "tournaments-cancelled")
        return len(ids)

    async def _restored(self, tournament_id: int) -> None:
        await self._step(tournament_id, sweep=True)
        await self._show(tournament_id, again=True)

    def timer_scheduled(self, tournament_id: int) -> bool:
        return tournament_id in self._timers

    async def _step(self, tournament_id: int, *, sweep: bool = False) -> None:
        """Drop who ran out of time too often, open the current round's tables not open yet, and
        while its every table has a result, pair the next round (or finish). ``sweep`` (start-up):
        also hand over every dropped entrant's seat still played by a person (a crash came between
        a drop and its hand-over)."""
        while True:
            async with self._locks.hold(tournament_id):
                t = await self.get(tournament_id)
                if t is None or t.status != "running":
                    return
                entrants, tables, recorded = await self._read_round_data(t)
                dropped = await self._rounds.drop_timed_out(t, entrants)
                if dropped:
                    t = await self.get(tournament_id)
                    assert t is not None
                    entrants, tables, recorded = await self._read_round_data(t)
                current = [x for x in tables if x.round == t.round]
                if not await self._rounds.open(t, entrants, current):
                    self._timers.schedule(t.id, self._clock() + RETRY_SECONDS)
                    return
                await self._rounds.hand_over_dropped(t, dropped, DROPPED_LINE)
                if sweep:
                    await self._rounds.hand_over_dropped(t, entrants, OUT_LINE)
                    sweep = False
                finished = {r.table_id for r in recorded}
                if t.paused or any(x.table_id not in finished for x in current if not x.bye):
                    return
                paired = await self._rounds.advance(t, entrants, tables, recorded)
                self._schedule(await self.get(tournament_id))
                if not paired:
                    return
            await self._show(tournament_id)

    # -- listening to tables -------------------------------------------------------------------------

    def _table_recorded(self, row: TableRow) -> None:
        self.games.tasks.spawn(self._until_saved(partial(self._carry_on, row.id)), f"tournament-table-{row.id}")

    def _timed_out(self, row: TableRow, seat: int) -> None:
        """A timer played for a person (counted with that move): at the tournament's ``drop_after``
        they are dropped, by the next step."""
        self.games.tasks.spawn(self._until_saved(partial(self._carry_on, row.id)), f"tournament-timeout-{row.id}")

    async def _carry_on(self, table_id: int) -> None:
        """Carry on the tournament ``table_id`` plays a round of, if any (:meth:`_step`), and show it."""
        link = await self.storage.run_read(lambda db: store.tournament_of_table(db, table_id))
        if link is not None:
            await self._step_and_show(link.tournament_id)

    # -- shared steps ------------------------------------------------------------------------------------

    async def _until_saved(self, work: Callable[[], Awaitable[Any]]) -> None:
        """Run background ``work`` (every step is idempotent), again every
        :data:`~bot.service.autoplay.STORAGE_RETRY_SECONDS` while the database can't be written
        (logged by the storage), so no round waits for a restart."""
        while not self.games.tasks.closing:
            try:
                await work()
                return
            except StorageUnavailable:
                await asyncio.sleep(STORAGE_RETRY_SECONDS)

    async def _own(self, tournament_id: int, player: Player) -> TournamentRow:
        """The tournament, if it is ``player``'s server's; the same refusal whether it is elsewhere or missing."""
        t = await self.get(tournament_id)
        if t is None or t.guild_id != player.guild_id:
            raise UserError(NO_SUCH_TOURNAMENT)
        return t

    async def _change(self, tournament_id: int, player: Player,
                      change: Callable[[TournamentRow, list[EntrantRow], Session], Awaitable[None]]) -> TournamentView:
        """Run ``change(t, entrants, db)`` in one transaction with the version bump, under the lock, then show."""
        async with self._locks.hold(tournament_id):
            t = await self._own(tournament_id, player)
            entrants = await self.storage.run_read(lambda db: store.entrants(db, tournament_id))

            async def write(db: Session) -> None:
                await store.bump(db, t)
                await change(t, entrants, db)

            try:
                await self.storage.run_write(write)
            except store.Moved:
                raise UserError(say("The tournament changed at the same moment; please try again.")) from None
            except Conflict:
                raise UserError(say("You've entered this tournament already.")) from None
        return await self._show(tournament_id)

    async def _withdraw(self, t: TournamentRow, entry: EntrantRow, db: Session) -> None:
        if t.status == "signup":
            await store.remove_entrant(db, t.id, entry.entrant)
        elif t.status == "running":
            await store.drop(db, t.id, entry.entrant, t.round)
        else:
            raise UserError(CLOSED)

    async def _read_round_data(self, t: TournamentRow) -> tuple[list[EntrantRow], list[RoundTableRow],
                                                                 list[TableResult]]:
        async def read(db: Session) -> tuple[list[EntrantRow], list[RoundTableRow], list[TableResult]]:
            return (await store.entrants(db, t.id), await store.round_tables(db, t.id),
                    await store.results(db, t.id))

        return await self.storage.run_read(read)

    async def _carry_on_later(self, tournament_id: int) -> TournamentView:
        """The tournament as shown now, its round machine carried on in the background (opening a
        round's tables takes as long as Discord takes to make their threads: no click waits for it)."""
        self.games.tasks.spawn(self._until_saved(partial(self._step_and_show, tournament_id)),
                               f"tournament-{tournament_id}")
        return await self._show(tournament_id)

    async def _step_and_show(self, tournament_id: int) -> None:
        await self._step(tournament_id)
        await self._show(tournament_id)

    async def _show(self, tournament_id: int, *, again: bool = False) -> TournamentView:
        view = await self.view(tournament_id)
        if self.publisher is not None:
            self.games.tasks.spawn(self.publisher.show(view, again=again), f"show-tournament-{tournament_id}")
        return view

    def _schedule(self, t: TournamentRow | None, *, due_now: bool = False) -> None:
        """Check the tournament at its deadline. A deadline passed fires only with ``due_now``
        (start-up): once fired, a round's limit stays stored until the round ends, and must
        not fire again and again meanwhile."""
        if t is None:
            return
        if not t.is_open or t.deadline is None or self.games.tasks.closing or (
                t.deadline <= self._clock() and not due_now):
            self._timers.cancel(t.id)
            return
        self._timers.schedule(t.id, t.deadline)


NO_SUCH_TOURNAMENT = say("There's no such tournament in this server.")
CLOSED = say("This tournament is over.")
JOIN_CLOSED = say("The tournament has started: entries are closed. The host can still add you.")
CHECK_IN_CLOSED = say("The tournament has started: check-in is closed.")


def _signup_deadline(starts_at: float | None, check_in: int, now: float) -> float | None:
    """The first timed transition: check-in opening if it is to come, else the start."""
    if starts_at is None:
        return None
    opens = starts_at - check_in * 60
    return opens if check_in and opens > now else starts_at


def _entry(entrants: Sequence[EntrantRow], user_id: int) -> EntrantRow | None:
    return next((e for e in entrants if user_id in (e.user_id, e.partner_id)), None)


def _require_joinable(t: TournamentRow, entrants: Sequence[EntrantRow], player: Player) -> None:
    if t.status != "signup":
        raise UserError(JOIN_CLOSED if t.is_open else CLOSED)
    if _entry(entrants, player.user_id) is not None:
        raise UserError(say("You've entered this tournament already."))
    _require_room(t, entrants)


def _require_room(t: TournamentRow, entrants: Sequence[EntrantRow]) -> None:
    """Room for one more entrant: ``max_players`` counts people (a team's two)."""
    entering = len(t.sides[0])
    if t.max_players is not None and len(entrants) * entering + entering > t.max_players:
        raise UserError(plural("The tournament is full ({count} player).", "The tournament is full ({count} players).",
                               t.max_players))


def _require_partner(t: TournamentRow, entrants: Sequence[EntrantRow], player: Player, partner: Player | None) -> None:
    """A team tournament's entry names a partner not entered yet; another's names none."""
    if not t.in_teams:
        if partner is not None:
            raise UserError(say("This tournament isn't played in teams: enter alone."))
        return
    if partner is None:
        raise UserError(say("This tournament is played in teams of two: choose your partner as you join."))
    if partner.user_id == player.user_id:
        raise UserError(say("Choose someone else as your partner."))
    if _entry(entrants, partner.user_id) is not None:
        raise UserError(say("{player} is in this tournament already.", player=literal(partner.name)))


def _partnered(partner: Player | None) -> dict[str, Any]:
    return {"partner_id": partner.user_id, "partner_name": partner.name} if partner is not None else {}


def _require_host(t: TournamentRow, by: Player, is_admin: bool) -> None:
    if by.user_id != t.host_id and not is_admin:
        raise UserError(say("Only the tournament's host (or someone with Manage Server) can do that."))
