"""The round machine's steps: a tournament's rounds stored, opened and moved on.

The round machine's steps, each one transition of a tournament whose lock the caller holds
(:class:`~bot.tournaments.service.Tournaments` holds the locks, the timers and the messages).

Which stage comes next and how it is paired (Swiss at two seats or at bigger tables, a knockout,
a top cut) is :mod:`.scoring`'s; here a round is stored (a team fills its side's seats, AI seats
the places no entrant fills), opened, and moved on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import partial

from games.i18n import Seat, Text, say
from games.rng import Rng
from games.tournament import Pairing, default_rounds

from ..errors import UserError
from ..service import GameService, TableSnapshot
from ..service.autoplay import server_ai_level
from ..storage import ChannelBusy, SeatRow, Session
from . import store
from .podium import finish, podium
from .publishing import TournamentPublisher
from .records import EntrantRow, RoundTableRow, TableResult, TournamentRow
from .scoring import in_play, next_pairing, next_stage

log = logging.getLogger(__name__)

TOO_FEW = say("A tournament needs at least two players.")
TOO_FEW_CHECKED_IN = say("A tournament needs at least two players checked in.")
MOVED_IN_ROUND = say("Someone has moved at a table of this round already, so it can't be paired again.")
KNOCKOUT_FIXED = say("A knockout's tables follow from its bracket, so they can't be paired again.")


def LEFT_LINE(seat: int) -> Text:  # noqa: N802 (a line, as the constants beside it)
    return say("{player} left the tournament; an AI finishes their game.", player=Seat(seat))


def REMOVED_LINE(seat: int) -> Text:  # noqa: N802
    return say("The host took {player} out of the tournament; an AI finishes their game.", player=Seat(seat))


def DROPPED_LINE(seat: int) -> Text:  # noqa: N802
    return say("{player} ran out of time too often and is out of the tournament; an AI finishes their game.",
               player=Seat(seat))


def OUT_LINE(seat: int) -> Text:  # noqa: N802
    return say("{player} is out of the tournament; an AI finishes their game.", player=Seat(seat))


def TIME_UP_LINE(seat: int) -> Text:  # noqa: N802
    return say("⏱ The round's time is up: an AI plays {player}'s seat to the end.", player=Seat(seat))


class Rounds:
    def __init__(self, games_service: GameService, publisher: Callable[[], TournamentPublisher | None]) -> None:
        self.games = games_service
        self.storage = games_service.storage
        self._publisher = publisher
        self._clock = games_service.clock

    async def start(self, t: TournamentRow, *, by_host: bool) -> None:
        """Sign-up → round 1 paired, in one transaction: ratings captured, who did not check in
        (if check-in is open) left out. Too few to start: refused to the host, cancelled at the
        start time."""
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
        found = await self.storage.run_read(lambda db: store.ratings(db, t.guild_id, t.game_id, people(players)))
        ratings = {e.entrant: sum(known) / len(known) for e in players
                   if (known := [found[user] for user in e.people if user in found])}
        players = [replace(e, rating=ratings.get(e.entrant)) for e in players]
        rounds = 0 if t.format == "knockout" else t.rounds or default_rounds(len(players), t.per_table)
        pairing = await asyncio.to_thread(next_pairing, replace(t, rounds=rounds), players, [], [], 1)

        async def start(db: Session) -> None:
            await store.bump(db, t, status="running", round=1, rounds=rounds, started_at=self._clock(),
                             deadline=self._round_deadline(t))
            if checking:
                await store.keep_checked_in(db, t.id)
            await store.set_ratings(db, t.id, ratings)
            await store.add_round(db, t.id, 1, round_rows(t, pairing))

        await self.storage.run_write(start)

    async def open(self, t: TournamentRow, entrants: list[EntrantRow], tables: list[RoundTableRow]) -> bool:
        """Open every table of the round that has none yet, all at once (each as soon as Discord
        made its thread: the request budget paces them). Resumable: a stored thread is used again
        unless it holds another table (then a new one: :meth:`_open_table`), and a table is linked
        in the transaction that creates it. False if Discord did not make a thread (the caller
        opens the round again later)."""
        by_number = {e.entrant: e for e in entrants}
        level = await server_ai_level(self.storage, t.guild_id)
        waiting = [x for x in tables if not x.bye and x.table_id is None]
        done = await asyncio.gather(*(self._open_table(t, x, by_number, level) for x in waiting),
                                    return_exceptions=True)
        failed = next((d for d in done if isinstance(d, BaseException)), None)
        if failed is not None:  # raised once every table's opening ended: none goes on unseen
            raise failed
        if True in done:
            log.info("tournament %s: round %s open", t.id, t.round)
        return all(done)

    async def _open_table(self, t: TournamentRow, table: RoundTableRow, by_number: dict[int, EntrantRow],
                          level: str) -> bool:
        """Open one round table (AI seats at ``level``) in its thread: the stored one, else one made
        now and stored first. If the stored thread holds another table (someone started a game there
        before this one opened, across a restart say), the table opens in a new thread, stored in
        the transaction that links the table; that game and its thread are left alone. True once
        open; False if Discord did not make a thread (the round is opened again later)."""
        seated = [by_number[e] for e in table.playing]
        thread_id = table.thread_id
        if thread_id is None:
            made = await self._new_thread(t, table, seated)
            if made is None:
                return False
            thread_id = await self.storage.run_write(partial(store.set_thread, table=table, thread_id=made))
        try:
            snap = await self._start(t, table, by_number, level, thread_id)
        except ChannelBusy:
            busy, new = thread_id, await self._new_thread(t, table, seated)
            if new is None:
                return False
            try:
                snap = await self._start(t, table, by_number, level, new)
            except ChannelBusy:  # someone was quicker in the new thread too: the next try makes another
                return False
            log.warning("tournament %s round %s table %s: its thread %s holds another table, so it opened in a "
                        "new thread %s", t.id, table.round, table.grp, busy, new)
        dropped = [e for e in seated if e.dropped]
        if snap is not None and dropped:
            await self.games.play.hand_over(snap.row.id, people(dropped), DROPPED_LINE)
        return True

    async def _new_thread(self, t: TournamentRow, table: RoundTableRow, seated: list[EntrantRow]) -> int | None:
        """A thread Discord made for ``table`` now; None if it did not."""
        publisher = self._publisher()
        return await publisher.open_thread(t, table, [e.label for e in seated]) if publisher else None

    async def _start(self, t: TournamentRow, table: RoundTableRow, by_number: dict[int, EntrantRow], level: str,
                     thread_id: int) -> TableSnapshot | None:
        """``table``'s game started in ``thread_id``, linked with that thread stored as its own in the
        transaction that creates it; None if another writer linked one first. Raises
        :class:`ChannelBusy` if the thread holds another table."""
        return await self.games.seated.open(
            guild_id=t.guild_id, channel_id=thread_id, game_id=t.game_id, options=t.options, host_id=t.host_id,
            seats=seat_rows(table, by_number, level), timer_minutes=t.timer_minutes, seed=table_seed(t, table),
            link=partial(_link, table=table, thread_id=thread_id))

    async def advance(self, t: TournamentRow, entrants: list[EntrantRow], tables: list[RoundTableRow],
                      recorded: list[TableResult]) -> bool:
        """Every table of the round has its result: pair round ``t.round + 1`` (the knockout's
        first after the last Swiss round of a top cut), or finish the tournament
        (:func:`.scoring.next_stage`). True if a round was paired; False if it finished or another
        writer moved it first."""
        following = t.round + 1
        try:
            stage = await asyncio.to_thread(next_stage, t, entrants, tables, recorded)
            if stage is None:
                now = self._clock()
                won = await asyncio.to_thread(podium, t, entrants, tables, recorded, now)
                await self.storage.run_write(lambda db: finish(db, t, now, won))
                return False
            pairing = await asyncio.to_thread(next_pairing, replace(t, stage=stage), entrants, tables, recorded,
                                              following)

            async def pair(db: Session) -> None:
                await store.bump(db, t, stage=stage, round=following, deadline=self._round_deadline(t))
                await store.add_round(db, t.id, following, round_rows(t, pairing))

            await self.storage.run_write(pair)
        except store.Moved:
            return False
        return True

    async def pair_again(self, t: TournamentRow) -> list[RoundTableRow]:
        """Pair the current round again (a new seed, and late joiners added since included) while
        nobody has moved at any of its tables, whose tables are cancelled in the same
        transaction; returns the old tables (their threads to remove). :class:`UserError` if
        someone moved, or in a knockout (its tables follow from the bracket)."""
        if t.stage == "knockout":
            raise UserError(KNOCKOUT_FIXED)
        async def read(db: Session) -> tuple[list[EntrantRow], list[RoundTableRow], list[TableResult]]:
            return await store.entrants(db, t.id), await store.round_tables(db, t.id), await store.results(db, t.id)

        entrants, tables, recorded = await self.storage.run_read(read)
        current = [x for x in tables if x.round == t.round]
        opened = [x.table_id for x in current if x.table_id is not None]
        if any(r.round == t.round for r in recorded) or not await self.storage.run_read(
                lambda db: store.unplayed(db, opened)):
            raise UserError(MOVED_IN_ROUND)
        entrants = [replace(e, joined_round=t.round) if e.joined_round == t.round + 1 else e for e in entrants]
        if in_play(entrants, t.round) < 2:
            raise UserError(TOO_FEW)
        new_seed = self.games.lobbies.new_seed()
        earlier = [x for x in tables if x.round < t.round]
        pairing = await asyncio.to_thread(next_pairing, replace(t, seed=new_seed), entrants, earlier, recorded,
                                          t.round)

        async def then(db: Session) -> None:
            await store.bump(db, t, seed=new_seed)
            await db.execute("UPDATE tournament_entrants SET joined_round = ? WHERE tournament_id = ?"
                             " AND joined_round = ?", (t.round, t.id, t.round + 1))
            await store.delete_round(db, t.id, t.round)
            await store.add_round(db, t.id, t.round, round_rows(t, pairing))

        try:
            done = await self.games.seated.cancel_unplayed(opened, then)
        except store.Moved:
            done = False
        if not done:
            raise UserError(MOVED_IN_ROUND)
        return current

    async def time_up(self, t: TournamentRow) -> None:
        """The round is out of time: the AI plays every seat still in play to the end, at full speed."""
        tables = await self.storage.run_read(lambda db: store.round_tables(db, t.id, t.round))
        entrants = {e.entrant: e for e in await self.storage.run_read(lambda db: store.entrants(db, t.id))}
        for table in tables:
            if table.table_id is not None:
                seated = people(entrants[e] for e in table.playing)
                await self.games.play.hand_over(table.table_id, seated, TIME_UP_LINE, hurry=True)

    async def drop_timed_out(self, t: TournamentRow, entrants: Sequence[EntrantRow]) -> list[EntrantRow]:
        """Drop everyone in play whom a timer played for ``drop_after`` times in the tournament (each
        such turn counted with its move: :func:`.store.record_timeout`); who was dropped (the caller
        hands their seats over). Nothing if another writer moved the tournament first."""
        counts = await self.storage.run_read(lambda db: store.timeouts(db, t.id))
        due = [e for e in entrants if not e.dropped and counts.get(e.entrant, 0) >= t.drop_after]
        if not due or t.status != "running":
            return []

        async def drop(db: Session) -> None:
            await store.bump(db, t)
            for entry in due:
                await store.drop(db, t.id, entry.entrant, t.round)

        try:
            await self.storage.run_write(drop)
        except store.Moved:
            return []  # the next step drops them
        for entry in due:
            log.info("tournament %s: entrant %s dropped after %s timeouts", t.id, entry.entrant, t.drop_after)
        return [replace(e, dropped_round=t.round) for e in due]

    async def hand_over_dropped(self, t: TournamentRow, entries: Sequence[EntrantRow | None],
                                line: Callable[[int], Text]) -> None:
        """The AI takes the seats of dropped ``entries`` at the current round's open tables."""
        if t.status != "running":
            return
        dropped = [e for e in entries if e is not None and e.dropped]
        tables = await self.storage.run_read(lambda db: store.round_tables(db, t.id, t.round))
        for table in tables:
            if table.table_id is not None and {e.entrant for e in dropped} & set(table.entrants):
                await self.games.play.hand_over(table.table_id, people(dropped), line)

    def _round_deadline(self, t: TournamentRow) -> float | None:
        return self._clock() + t.round_minutes * 60 if t.round_minutes else None


def people(entrants: Iterable[EntrantRow]) -> list[int]:
    """The people's ids, both of a team's (an entry forgotten by ``/privacy forget`` has none)."""
    return [user for e in entrants for user in e.people]


def round_rows(t: TournamentRow, pairing: Pairing) -> list[tuple[tuple[int | None, ...], bool]]:
    """The rows of a round: its tables, the entrant at each seat (the table's ``k``-th entrant
    on the seats of side ``k``: a team's two; ``None`` where an AI sits), then its byes."""
    rows: list[tuple[tuple[int | None, ...], bool]] = []
    for table in pairing.tables:
        seats: list[int | None] = [None] * t.table_size
        for entrant, side in zip(table.entrants, t.sides):
            for seat in side:
                seats[seat] = entrant
        rows.append((tuple(seats), False))
    return rows + [((entrant,), True) for entrant in pairing.byes]


def seat_rows(table: RoundTableRow, by_number: dict[int, EntrantRow], level: str) -> list[SeatRow]:
    """A round table's seats: a team's first seat its entrant, its second the partner; an AI seat
    ("AI 1", "AI 2", … at the server's level) where no entrant sits."""
    seats, met, ai = [], set(), 0
    for seat, number in enumerate(table.entrants):
        if number is None:
            ai += 1
            seats.append(SeatRow(seat, None, f"AI {ai}", True, ai_level=level))
            continue
        entry = by_number[number]
        if number in met and entry.partner_name is not None:
            seats.append(SeatRow(seat, entry.partner_id, entry.partner_name, False))
        else:
            seats.append(SeatRow(seat, entry.user_id, entry.name, False))
        met.add(number)
    return seats


def table_seed(t: TournamentRow, table: RoundTableRow) -> int:
    """A round table's deal: drawn from the tournament's seed, its round and its number."""
    return Rng(t.seed ^ (table.round << 32) ^ table.grp).next64() >> 1


async def _link(db: Session, table_id: int, *, table: RoundTableRow, thread_id: int) -> bool:
    return await store.link_table(db, table, table_id, thread_id)
