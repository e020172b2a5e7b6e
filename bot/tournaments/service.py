"""Tournaments: sign-up, check-in, host controls and the round machine, on top of the game service.

A tournament's round tables are ordinary tables (same engine, publisher, timers, AI
takeover); this service only opens and seats them and listens for their results. Every
transition is one transaction guarded by the tournament's version (:func:`store.bump`), taken
under a per-tournament lock, and idempotent, so a restart (or the next process owning the
server) resumes exactly:

1. **create**: sign-up, with the next timed transition stored as ``deadline`` (check-in
   opening, then the start).
2. **join / leave / check in / add / remove**: entrant rows; a refusal changes nothing.
3. **start** (the host, or at the start time): round 1 paired (its tables stored without a
   table yet, its byes too), ratings captured, who did not check in left out.
4. **open the round** (:meth:`Tournaments._open_round`, resumable): per table, a thread (its
   id stored first), then one transaction creating the table already started and linking it
   to its place in the round. Run after 3 and 5 and at start-up.
5. **a table's result recorded**: once every table of the round has one, the next round is
   paired in one transaction (or the tournament finishes).
6. **timeouts**: each turn a timer plays for a person counts once (per table version); at
   ``drop_after`` the entrant is dropped and the AI finishes their game.
7. **round limit** (``round_minutes``): at the stored deadline the AI plays every seat still in
   play to the end, without waiting between moves.
8. **re-pair** (host): while nobody moved at any table of the round, its tables are cancelled
   and it is paired again with a new seed, in one transaction.
9. **cancel** (host): tables in play end early (unrated).

Standings are computed from the stored results whenever shown (:mod:`.scoring`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol

import games
from games.i18n import Seat, SlashOption, Text, plural, say
from games.rng import Rng
from games.tournament import Pairing, Standing, default_rounds

from ..errors import StorageUnavailable, UserError
from ..markdown import literal
from ..service import GameService, Player, checked_options
from ..service.autoplay import STORAGE_RETRY_SECONDS
from ..service.live_tables import KeyedLocks
from ..service.lobby import DEFAULT_TIMER_MINUTES, MAX_TIMER_MINUTES
from ..service.timers import TimerQueue
from ..storage import ChannelBusy, Conflict, SeatRow, Session, TableRow
from . import store
from .records import EntrantRow, RoundTableRow, TableResult, TournamentRow
from .scoring import current_standings, in_play, next_pairing

log = logging.getLogger(__name__)

DEFAULT_CHECK_IN_MINUTES = 15
DEFAULT_DROP_AFTER = 3
MAX_ROUNDS = 20
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


@dataclass(frozen=True)
class TournamentView:
    """A tournament as its message shows it: the row, who entered, the current round's tables
    with their results, and the standings (empty before the start)."""

    row: TournamentRow
    entrants: list[EntrantRow]
    tables: list[RoundTableRow]
    """The current round's tables and byes."""
    results: dict[int, TableResult]
    """The current round's recorded results, by table id."""
    standings: list[Standing]

    def entrant(self, number: int) -> EntrantRow:
        return next(e for e in self.entrants if e.entrant == number)

    @property
    def shown_key(self) -> str:
        return f"{self.row.status}@{self.row.version}"


class TournamentPublisher(Protocol):
    """How the service shows tournaments in Discord (:class:`cogs.tournaments.publisher.Publisher`)."""

    async def show(self, view: TournamentView, *, again: bool = False) -> None:
        """Post or refresh the tournament's message, unless a newer state is known (``again``:
        start-up looking at one that may be behind)."""

    async def open_thread(self, tournament: TournamentRow, table: RoundTableRow, names: list[str]) -> int | None:
        """A new public thread of the tournament's channel for ``table`` (its players' ``names``);
        None if Discord did not make it (the round is opened again later)."""

    async def remove_thread(self, tournament: TournamentRow, thread_id: int) -> None:
        """Delete a thread whose table was cancelled (where Deckhand may)."""


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
        games_service.on_recorded(self._table_recorded)
        games_service.on_timed_out(self._timed_out)

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
        lines = await asyncio.to_thread(current_standings, row, entrants, tables, recorded) if row.round else []
        current = [t for t in tables if t.round == row.round]
        ids = {t.table_id for t in current}
        return TournamentView(row, entrants, current, {r.table_id: r for r in recorded if r.table_id in ids}, lines)

    async def set_shown(self, tournament_id: int, *, message_id: int | None, shown: str) -> None:
        """Remember the tournament message (``message_id``, once posted) and what it shows (``shown``)."""
        await self.storage.run_write(lambda db: store.set_publication(db, tournament_id, message_id=message_id,
                                                                      shown=shown))

    async def banner(self, table_id: int) -> tuple[TournamentRow, RoundTableRow, list[EntrantRow]] | None:
        """The tournament round a table was opened for, with the people at it (seat order), if any."""
        async def read(db: Session) -> tuple[TournamentRow, RoundTableRow, list[EntrantRow]] | None:
            link = await store.tournament_of_table(db, table_id)
            row = await store.tournament(db, link.tournament_id) if link is not None else None
            if link is None or row is None:
                return None
            people = {e.entrant: e for e in await store.entrants(db, row.id)}
            return row, link, [people[e] for e in link.entrants if e is not None]

        return await self.storage.run_read(read)

    # -- creating and signing up --------------------------------------------------------------------

    async def create(self, *, guild_id: int, channel_id: int, host: Player, game_id: str, options: dict[str, Any],
                     name: str | None = None, rounds: int | None = None, starts_at: float | None = None,
                     check_in_minutes: int | None = None, max_players: int | None = None,
                     timer_minutes: int | None = None, round_minutes: int | None = None,
                     drop_after: int | None = None) -> TournamentView:
        """A Swiss tournament of ``game_id`` at two-seat tables, in sign-up; every option checked
        first (a :class:`UserError` names the one refused). Hints are off unless ``options``
        turns them on."""
        game = games.get_game(game_id)
        if 2 not in game.allowed_player_counts():
            raise UserError(say("{game} isn't played at two-seat tables, which tournaments use for now.",
                                game=game.name))
        checked = checked_options(game_id, {"hints": False, **options})
        now = self._clock()
        if starts_at is not None and starts_at <= now:
            raise UserError(say("The start time has passed already: choose a time to come."))
        if starts_at is not None and starts_at > now + MAX_AHEAD_DAYS * 86400:
            raise UserError(plural("A tournament starts within {count} day.",
                                   "A tournament starts within {count} days.", MAX_AHEAD_DAYS))
        check_in = _within(check_in_minutes, DEFAULT_CHECK_IN_MINUTES, 0, MAX_MINUTES, "check_in")
        values = dict(
            guild_id=guild_id, channel_id=channel_id, host_id=host.user_id, name=(name or "").strip()[:NAME_LENGTH],
            game_id=game_id, options=checked, timer_minutes=await self._timer(guild_id, timer_minutes),
            format="swiss", top=0, rounds=_within(rounds, None, 1, MAX_ROUNDS, "rounds"), table_size=2, advance=1,
            seeding="standings", drop_after=_within(drop_after, DEFAULT_DROP_AFTER, 1, 100, "drop_after"),
            round_minutes=_within(round_minutes, None, 1, MAX_MINUTES, "round_minutes"),
            max_players=_within(max_players, None, 2, MAX_ENTRANTS, "max_players"), check_in_minutes=check_in,
            starts_at=starts_at, status="signup", seed=self.games.new_seed(), created_at=now,
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
        return await self.games.timer_for(guild_id, requested) or DEFAULT_TIMER_MINUTES

    async def join(self, tournament_id: int, player: Player) -> TournamentView:
        """Enter ``player``; refused once it started, when full, or if they entered already."""
        async def change(t: TournamentRow, entrants: list[EntrantRow], db: Session) -> None:
            if t.status != "signup":
                raise UserError(JOIN_CLOSED if t.is_open else CLOSED)
            if _entry(entrants, player.user_id) is not None:
                raise UserError(say("You've entered this tournament already."))
            _require_room(t, entrants)
            await store.add_entrant(db, t.id, user_id=player.user_id, name=player.name, joined_round=0,
                                    checked_in=t.checking_in(self._clock()))

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
        await self._hand_over_dropped(view.row, [_entry(view.entrants, player.user_id)], LEFT_LINE)
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

    async def add_player(self, tournament_id: int, by: Player, who: Player, *, is_admin: bool) -> TournamentView:
        """The host enters ``who``: before the start as if they joined (checked in); once it runs as
        a late joiner, paired from the next round, with a loss for each round before."""
        async def change(t: TournamentRow, entrants: list[EntrantRow], db: Session) -> None:
            _require_host(t, by, is_admin)
            if not t.is_open:
                raise UserError(CLOSED)
            if _entry(entrants, who.user_id) is not None:
                raise UserError(say("{player} is in this tournament already.", player=literal(who.name)))
            _require_room(t, entrants)
            rating = None
            if t.status == "running":
                rating = (await store.ratings(db, t.guild_id, t.game_id, [who.user_id])).get(who.user_id)
            await store.add_entrant(db, t.id, user_id=who.user_id, name=who.name,
                                    joined_round=t.round + 1 if t.status == "running" else 0, checked_in=True,
                                    rating=rating)

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
        await self._hand_over_dropped(view.row, [_entry(view.entrants, user_id)], REMOVED_LINE)
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
            await store.bump(db, t, paused=paused)

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
            await self._start_locked(t, by_host=True)
        return await self._after_change(tournament_id, step=True)

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
        for table in tables:
            if table.table_id is not None:
                await self.games.abandon(table.table_id, say("The tournament was cancelled."), show=True)
        return await self._show(tournament_id)

    async def repair(self, tournament_id: int, by: Player, *, is_admin: bool) -> TournamentView:
        """Pair the current round again (with a new seed, and anyone the host added since it was
        paired), while nobody has moved at any of its tables; its tables are cancelled."""
        async with self._locks.hold(tournament_id):
            t = await self._own(tournament_id, by)
            _require_host(t, by, is_admin)
            if t.status != "running":
                raise UserError(say("The tournament hasn't started: there is no round to pair again.")
                                if t.status == "signup" else CLOSED)
            entrants, tables, recorded = await self._read_round_data(t)
            current = [x for x in tables if x.round == t.round]
            opened = [x.table_id for x in current if x.table_id is not None]
            moved = any(r.round == t.round for r in recorded) or not await self.storage.run_read(
                lambda db: store.unplayed(db, opened))
            if moved:
                raise UserError(MOVED_IN_ROUND)
            late = [e for e in entrants if e.joined_round == t.round + 1]
            entrants = [replace(e, joined_round=t.round) if e in late else e for e in entrants]
            new_seed = self.games.new_seed()
            reseeded = replace(t, seed=new_seed)
            earlier = [x for x in tables if x.round < t.round]
            if in_play(entrants, t.round) < 2:
                raise UserError(TOO_FEW)
            pairing = await asyncio.to_thread(next_pairing, reseeded, entrants, earlier, recorded, t.round)

            async def then(db: Session) -> None:
                await store.bump(db, t, seed=new_seed)
                await db.execute("UPDATE tournament_entrants SET joined_round = ? WHERE tournament_id = ?"
                                 " AND joined_round = ?", (t.round, t.id, t.round + 1))
                await store.delete_round(db, t.id, t.round)
                await store.add_round(db, t.id, t.round, _round_rows(pairing))

            try:
                done = await self.games.cancel_unplayed(opened, then)
            except store.Moved:
                done = False
            if not done:
                raise UserError(MOVED_IN_ROUND)
        if self.publisher is not None:
            for thread_id in {x.thread_id for x in current if x.thread_id is not None}:
                await self.publisher.remove_thread(t, thread_id)
        return await self._after_change(tournament_id, step=True)

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
                await self._start_locked(t, by_host=False)
            elif t.status == "signup" and t.deadline is not None and now >= t.deadline:
                await self.storage.run_write(lambda db: store.bump(db, t, deadline=t.starts_at))  # check-in opened
            elif t.status == "running" and t.deadline is not None and now >= t.deadline:
                await self._round_limit(t)
        await self._after_change(tournament_id, step=True)

    async def restore(self) -> int:
        """After a restart: every open tournament of this process's shards has its timer
        scheduled, its round opened and carried on, and its message shown if it may be behind."""
        ids = await self.storage.run_read(lambda db: store.open_ids(db, self.games.shards))
        for tournament_id in ids:
            row = await self.get(tournament_id)
            if row is not None:
                self._schedule(row)
                self.games.tasks.spawn(self._until_saved(partial(self._restored, tournament_id)),
                                       f"tournament-{tournament_id}")
        return len(ids)

    async def _restored(self, tournament_id: int) -> None:
        await self._step(tournament_id)
        await self._show(tournament_id, again=True)

    def timer_scheduled(self, tournament_id: int) -> bool:
        return tournament_id in self._timers

    async def _step(self, tournament_id: int) -> None:
        """Open the current round's tables not open yet, and while its every table has a result,
        pair the next round (or finish)."""
        while True:
            async with self._locks.hold(tournament_id):
                t = await self.get(tournament_id)
                if t is None or t.status != "running":
                    return
                entrants, tables, recorded = await self._read_round_data(t)
                current = [x for x in tables if x.round == t.round]
                if not await self._open_round(t, entrants, current):
                    return
                finished = {r.table_id for r in recorded}
                if t.paused or any(x.table_id not in finished for x in current if not x.bye):
                    return
                if not await self._next_round(t, entrants, tables, recorded):
                    return
            await self._show(tournament_id)

    async def _open_round(self, t: TournamentRow, entrants: list[EntrantRow], tables: list[RoundTableRow]) -> bool:
        """Open every table of the round that has none yet (resumable: a stored thread is used
        again, and a table is linked in the transaction that creates it). False if Discord did
        not make a thread: the round is opened again after :data:`RETRY_SECONDS`."""
        people = {e.entrant: e for e in entrants}
        opened = False
        for table in tables:
            if table.bye or table.table_id is not None:
                continue
            seated = [people[e] for e in table.entrants if e is not None]
            thread_id = table.thread_id
            if thread_id is None:
                made = await self.publisher.open_thread(t, table, [e.name for e in seated]) if self.publisher else None
                if made is None:
                    self._timers.schedule(t.id, self._clock() + RETRY_SECONDS)
                    return False
                thread_id = await self.storage.run_write(partial(store.set_thread, table=table, thread_id=made))
            seats = [SeatRow(seat, e.user_id, e.name, False) for seat, e in enumerate(seated)]
            try:
                snap = await self.games.open_started(
                    guild_id=t.guild_id, channel_id=thread_id, game_id=t.game_id, options=t.options,
                    host_id=t.host_id, seats=seats, timer_minutes=t.timer_minutes, seed=_table_seed(t, table),
                    link=partial(_link, table=table))
            except ChannelBusy:
                log.error("tournament %s round %s table %s: its thread %s holds another table", t.id, table.round,
                          table.grp, thread_id)
                continue
            opened = True
            dropped = [e for e in seated if e.dropped]
            if snap is not None and dropped:
                await self.games.hand_over(snap.row.id, _people(dropped), DROPPED_LINE)
        if opened:
            log.info("tournament %s: round %s open", t.id, t.round)
        return True

    async def _next_round(self, t: TournamentRow, entrants: list[EntrantRow], tables: list[RoundTableRow],
                          recorded: list[TableResult]) -> bool:
        """Pair round ``t.round + 1``, or finish the tournament after its last round (or with fewer
        than two left to pair); False if another writer moved it first."""
        following = t.round + 1
        try:
            if following > (t.rounds or 0) or in_play(entrants, following) < 2:
                await self.storage.run_write(lambda db: store.bump(db, t, status="finished", deadline=None,
                                                                   finished_at=self._clock()))
                self._timers.cancel(t.id)
                return False
            pairing = await asyncio.to_thread(next_pairing, t, entrants, tables, recorded, following)

            async def pair(db: Session) -> None:
                await store.bump(db, t, round=following, deadline=self._round_deadline(t))
                await store.add_round(db, t.id, following, _round_rows(pairing))

            await self.storage.run_write(pair)
        except store.Moved:
            return False
        self._schedule(await self.get(t.id))
        return True

    async def _start_locked(self, t: TournamentRow, *, by_host: bool) -> None:
        """Sign-up → round 1 paired, in one transaction (the caller holds the lock)."""
        entrants = await self.storage.run_read(lambda db: store.entrants(db, t.id))
        checking = t.checking_in(self._clock())
        players = [e for e in entrants if e.checked_in or not checking]
        if len(players) < 2:
            if by_host:
                raise UserError(TOO_FEW_CHECKED_IN if checking else TOO_FEW)
            log.info("tournament %s could not start: %s checked in", t.id, len(players))
            await self.storage.run_write(lambda db: store.bump(db, t, status="cancelled", deadline=None,
                                                               finished_at=self._clock()))
            return
        found = await self.storage.run_read(lambda db: store.ratings(db, t.guild_id, t.game_id,
                                                                     _people(players)))
        ratings = {e.entrant: found[e.user_id] for e in players if e.user_id in found}
        players = [replace(e, rating=ratings.get(e.entrant)) for e in players]
        rounds = t.rounds or default_rounds(len(players))
        pairing = await asyncio.to_thread(next_pairing, t, players, [], [], 1)

        async def start(db: Session) -> None:
            await store.bump(db, t, status="running", round=1, rounds=rounds, started_at=self._clock(),
                             deadline=self._round_deadline(t))
            if checking:
                await store.keep_checked_in(db, t.id)
            await store.set_ratings(db, t.id, ratings)
            await store.add_round(db, t.id, 1, _round_rows(pairing))

        await self.storage.run_write(start)
        started = await self.get(t.id)
        assert started is not None
        self._schedule(started)

    async def _round_limit(self, t: TournamentRow) -> None:
        """The round is out of time: the AI plays every seat still in play to the end, at full speed."""
        tables = await self.storage.run_read(lambda db: store.round_tables(db, t.id, t.round))
        entrants = {e.entrant: e for e in await self.storage.run_read(lambda db: store.entrants(db, t.id))}
        for table in tables:
            if table.table_id is not None:
                people = _people(entrants[e] for e in table.entrants if e is not None)
                await self.games.hand_over(table.table_id, people, TIME_UP_LINE, hurry=True)

    def _round_deadline(self, t: TournamentRow) -> float | None:
        return self._clock() + t.round_minutes * 60 if t.round_minutes else None

    # -- listening to tables -------------------------------------------------------------------------

    def _table_recorded(self, row: TableRow) -> None:
        self.games.tasks.spawn(self._until_saved(partial(self._table_ended, row.id)), f"tournament-table-{row.id}")

    async def _table_ended(self, table_id: int) -> None:
        link = await self.storage.run_read(lambda db: store.tournament_of_table(db, table_id))
        if link is not None:
            await self._step(link.tournament_id)
            await self._show(link.tournament_id)

    def _timed_out(self, row: TableRow, seat: int) -> None:
        user_id = row.seats[seat].user_id
        if user_id is not None:
            self.games.tasks.spawn(self._until_saved(partial(self._count_timeout, row.id, row.version, user_id)),
                                   f"tournament-timeout-{row.id}")

    async def _count_timeout(self, table_id: int, version: int, user_id: int) -> None:
        """A timer played a turn for ``user_id`` at ``table_id``: counted once; at the tournament's
        ``drop_after`` they are dropped and the AI finishes their game."""
        link = await self.storage.run_read(lambda db: store.tournament_of_table(db, table_id))
        if link is None:
            return
        async with self._locks.hold(link.tournament_id):
            t = await self.get(link.tournament_id)
            if t is None or t.status != "running":
                return
            entry = _entry(await self.storage.run_read(lambda db: store.entrants(db, t.id)), user_id)
            if entry is None or entry.dropped:
                return

            async def count(db: Session) -> bool:
                if not await store.add_timeout(db, t.id, entry.entrant, table_id, version):
                    return False
                if await store.timeouts(db, t.id, entry.entrant) < t.drop_after:
                    return False
                await store.bump(db, t)
                return await store.drop(db, t.id, entry.entrant, t.round)

            try:
                dropped = await self.storage.run_write(count)
            except store.Moved:
                dropped = False  # the next timeout counts it again
        if dropped:
            log.info("tournament %s: entrant %s dropped after %s timeouts", t.id, entry.entrant, t.drop_after)
            await self.games.hand_over(table_id, [user_id], DROPPED_LINE)
            await self._show(t.id)

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

    async def _hand_over_dropped(self, t: TournamentRow, entries: Sequence[EntrantRow | None],
                                 line: Callable[[int], Text]) -> None:
        """The AI takes the seats of dropped ``entries`` at the current round's open tables."""
        if t.status != "running":
            return
        dropped = [e for e in entries if e is not None and e.dropped]
        tables = await self.storage.run_read(lambda db: store.round_tables(db, t.id, t.round))
        for table in tables:
            if table.table_id is not None and {e.entrant for e in dropped} & set(table.entrants):
                await self.games.hand_over(table.table_id, _people(dropped), line)

    async def _read_round_data(self, t: TournamentRow) -> tuple[list[EntrantRow], list[RoundTableRow],
                                                                 list[TableResult]]:
        async def read(db: Session) -> tuple[list[EntrantRow], list[RoundTableRow], list[TableResult]]:
            return (await store.entrants(db, t.id), await store.round_tables(db, t.id),
                    await store.results(db, t.id))

        return await self.storage.run_read(read)

    async def _after_change(self, tournament_id: int, *, step: bool) -> TournamentView:
        if step:
            await self._step(tournament_id)
        return await self._show(tournament_id)

    async def _show(self, tournament_id: int, *, again: bool = False) -> TournamentView:
        view = await self.view(tournament_id)
        if self.publisher is not None:
            self.games.tasks.spawn(self.publisher.show(view, again=again), f"show-tournament-{tournament_id}")
        return view

    def _schedule(self, t: TournamentRow | None) -> None:
        if t is None or not t.is_open or t.deadline is None or self.games.tasks.closing:
            if t is not None:
                self._timers.cancel(t.id)
            return
        self._timers.schedule(t.id, t.deadline)


NO_SUCH_TOURNAMENT = say("There's no such tournament in this server.")
CLOSED = say("This tournament is over.")
JOIN_CLOSED = say("The tournament has started: entries are closed. The host can still add you.")
CHECK_IN_CLOSED = say("The tournament has started: check-in is closed.")
TOO_FEW = say("A tournament needs at least two players.")
TOO_FEW_CHECKED_IN = say("A tournament needs at least two players checked in.")
MOVED_IN_ROUND = say("Someone has moved at a table of this round already, so it can't be paired again.")


def LEFT_LINE(seat: int) -> Text:  # noqa: N802 (a line, as the constants beside it)
    return say("{player} left the tournament; an AI finishes their game.", player=Seat(seat))


def REMOVED_LINE(seat: int) -> Text:  # noqa: N802
    return say("The host took {player} out of the tournament; an AI finishes their game.", player=Seat(seat))


def DROPPED_LINE(seat: int) -> Text:  # noqa: N802
    return say("{player} ran out of time too often and is out of the tournament; an AI finishes their game.",
               player=Seat(seat))


def TIME_UP_LINE(seat: int) -> Text:  # noqa: N802
    return say("⏱ The round's time is up: an AI plays {player}'s seat to the end.", player=Seat(seat))


def _people(entrants: Iterable[EntrantRow]) -> list[int]:
    """The people's ids (an entry forgotten by ``/privacy forget`` has none)."""
    return [e.user_id for e in entrants if e.user_id is not None]


def _within(value: int | None, default: int | None, low: int, high: int, option: str) -> Any:
    """``value`` (or ``default`` when not given) if within ``low``–``high``; else a refusal naming ``option``."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise UserError(say("`{option}` must be a whole number from {low} to {high}.", option=SlashOption(option),
                            low=low, high=high))
    return value


def _signup_deadline(starts_at: float | None, check_in: int, now: float) -> float | None:
    """The first timed transition: check-in opening if it is to come, else the start."""
    if starts_at is None:
        return None
    opens = starts_at - check_in * 60
    return opens if check_in and opens > now else starts_at


def _entry(entrants: Sequence[EntrantRow], user_id: int) -> EntrantRow | None:
    return next((e for e in entrants if user_id in (e.user_id, e.partner_id)), None)


def _require_room(t: TournamentRow, entrants: Sequence[EntrantRow]) -> None:
    if t.max_players is not None and len(entrants) >= t.max_players:
        raise UserError(plural("The tournament is full ({count} player).", "The tournament is full ({count} players).",
                               t.max_players))


def _require_host(t: TournamentRow, by: Player, is_admin: bool) -> None:
    if by.user_id != t.host_id and not is_admin:
        raise UserError(say("Only the tournament's host (or someone with Manage Server) can do that."))




def _round_rows(pairing: Pairing) -> list[tuple[tuple[int | None, ...], bool]]:
    """The rows of a round: its tables (an AI seat ``None``), then its byes."""
    rows: list[tuple[tuple[int | None, ...], bool]] = [
        ((*table.entrants, *(None,) * table.ai_seats), False) for table in pairing.tables]
    return rows + [((entrant,), True) for entrant in pairing.byes]


def _table_seed(t: TournamentRow, table: RoundTableRow) -> int:
    """A round table's deal: drawn from the tournament's seed, its round and its number."""
    return Rng(t.seed ^ (table.round << 32) ^ table.grp).next64() >> 1


async def _link(db: Session, table_id: int, *, table: RoundTableRow) -> bool:
    return await store.link_table(db, table, table_id)
