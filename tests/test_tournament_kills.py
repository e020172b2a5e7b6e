"""A tournament killed at any instant it writes, on both backends, resumes exactly.

Each scenario is a small tournament driven from sign-up to its end (check-in and its start
time; timeouts, a player leaving and a late joiner; a round paired again, then cancelled; a
knockout with byes to its final; Swiss rounds, then a top four).
It is run once whole, then once per instant (:data:`EVERY_INSTANT`) the process commits a write (a tournament's
transition, a thread stored, a table opened and linked, a seat handed to the AI, a table's
last move, a result recorded…), the process dying just before that commit or just after it
(on PostgreSQL one or the other, in turn):
from then on the storage and Discord refuse it everything (:class:`Switch`), its tasks are
cancelled, and a new process starts on the same database (start-up restores it) while the
people carry on (each step is asked again until it took). Nothing in the product knows.

What must hold after each: the tournament ended as the whole run did, with the same rounds,
the same people at the same tables, the same results and standings (no table opened twice,
no one seated twice or left out, no round stuck, no result lost), every round table opened
once in a thread of its own, and every table of a cancelled tournament ended.
"""

from __future__ import annotations

import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from bot.errors import UserError
from bot.service import GameService, Player
from bot.storage import Storage
from bot.tournaments import Tournaments
from bot.tournaments import store as tstore
from tests.test_service import Clock, Recorder
from tests.test_tournament_service import HOST, PEOPLE, Threads

GUILD, CHANNEL = 1, 50


class Killed(BaseException):
    """The process died at this instant (a BaseException: nothing in it may carry on)."""


class Switch:
    """Counts the instants a process commits a write and kills it at the ``at``-th one (from
    1): just before it commits (``after`` False: it never does) or just after. Dead, the
    process reads and writes nothing more and Discord hears nothing more from it."""

    def __init__(self, at: int | None = None, *, after: bool = False) -> None:
        self.at, self.after = at, after
        self.count = 0
        self.kinds: list[str] = []
        """What wrote at each instant: the product's frames on the way, and the write's name."""
        self.dead = False

    def alive(self) -> None:
        if self.dead:
            raise Killed()

    def install(self, storage: Storage) -> None:
        read, write, commit_move = storage.run_read, storage.run_write, storage._commit_move

        async def run_read(fn):
            self.alive()
            result = await read(fn)
            self.alive()
            return result

        async def run_write(fn):
            return await self._instant(lambda: write(fn), getattr(fn, "__qualname__", "write"))

        async def _commit_move(move):
            if move.status == "running" and move.then is None:  # a move of a game going on: not the tournament's
                self.alive()
                done = await commit_move(move)
                self.alive()
                return done
            return await self._instant(lambda: commit_move(move), "move")  # a table's last move, or a timeout

        storage.run_read, storage.run_write, storage._commit_move = run_read, run_write, _commit_move

    async def _instant(self, commit: Callable[[], Awaitable[Any]], name: str) -> Any:
        self.alive()
        self.count += 1
        instant = self.count
        frames = [f.f_code.co_name for f, _ in traceback.walk_stack(None) if "/bot/" in f.f_code.co_filename][::-1]
        self.kinds.append("/".join([*frames, name]))
        if instant == self.at and not self.after:
            self.dead = True
            raise Killed()
        result = await commit()
        self.alive()  # a write committed with the fatal one (SQLite's group commit) returns to nobody
        if instant == self.at:
            self.dead = True
            raise Killed()
        return result


class Discord(Threads):
    """The Discord stand-in (threads, the tournament message), silent once the process died."""

    def __init__(self) -> None:
        super().__init__()
        self.switch = Switch()

    async def show(self, view, *, again=False):
        self.switch.alive()
        await super().show(view, again=again)

    async def open_thread(self, tournament, table, names):
        self.switch.alive()
        return await super().open_thread(tournament, table, names)

    async def remove_thread(self, tournament, thread_id):
        self.switch.alive()
        await super().remove_thread(tournament, thread_id)


class Process:
    """The bot's services on one database, as ``python -m bot`` runs them; killed by its switch."""

    def __init__(self, url: str, clock: Clock, discord: Discord, switch: Switch) -> None:
        self.url, self.clock, self.discord, self.switch = url, clock, discord, switch

    async def start(self, *, restore: bool) -> None:
        self.discord.switch = self.switch
        self.storage = await Storage.open(self.url, synchronous="OFF")  # the kill is the process's, not the machine's
        self.switch.install(self.storage)
        self.games = GameService(self.storage, ai_delay=0, clock=self.clock, new_seed=lambda: 7)
        self.games.publisher = Recorder()
        self.tournaments = Tournaments(self.games)
        self.tournaments.publisher = self.discord
        if restore:  # as DeckhandBot.setup_hook: the tables, then the tournaments
            await self.games.restore()
            await self.tournaments.restore()

    async def stop(self) -> None:
        await self.games.close()
        await self.storage.close()

    async def idle(self) -> None:
        await self.games.wait_idle(timeout=60)


class Run:
    """People driving one scenario through a process that may die, started again at once."""

    def __init__(self, url: str, switch: Switch) -> None:
        self.url, self.clock, self.discord = url, Clock(), Discord()
        self.first_switch = switch
        self.kills = 0

    async def __aenter__(self) -> Run:
        self.process = Process(self.url, self.clock, self.discord, self.first_switch)
        try:
            await self.process.start(restore=False)
        except Killed:
            await self._restart()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.process.stop()

    async def _restart(self) -> None:
        self.kills += 1
        await self.process.stop()
        self.process = Process(self.url, self.clock, self.discord, Switch())
        await self.process.start(restore=True)
        await self.process.idle()

    async def step(self, action: Callable[[Process], Awaitable[object]]) -> None:
        """Do ``action`` as a person would: again after the process died under it, until it
        ran in a process that lived through it and its consequences."""
        while True:
            try:
                await action(self.process)
                await self.process.idle()
            except Killed:
                pass
            if not self.process.switch.dead:
                await no_one_out_still_plays(self.process)
                return
            await self._restart()


async def no_one_out_still_plays(p: Process) -> None:
    """Whoever is out of the tournament has the AI at their table: nobody waits for them."""
    for t in await p.tournaments.of_guild(GUILD):
        out = {e.user_id for e in await p.storage.run_read(lambda db: tstore.entrants(db, t.id)) if e.dropped}
        for table in await p.storage.run_read(lambda db: tstore.round_tables(db, t.id, t.round)):
            row = await p.storage.get_table(table.table_id) if table.table_id else None
            if row is not None and row.status == "running":
                assert not [s for s in row.seats if s.user_id in out and not s.is_ai], (t.round, table.grp)


# -- what people do, each step safe to ask again --------------------------------------------------------


def create(**options: Any) -> Callable[[Process], Awaitable[None]]:
    async def action(p: Process) -> None:
        if not await p.tournaments.of_guild(GUILD):
            await p.tournaments.create(guild_id=GUILD, channel_id=CHANNEL, host=HOST, game_id="q2j", options={},
                                       table_size=2, **options)
    return action


async def _tid(p: Process) -> int:
    return (await p.tournaments.of_guild(GUILD))[0].id


def _click(call: Callable[[Tournaments, int], Awaitable[object]], done: str) -> Callable[[Process], Awaitable[None]]:
    """A click on the tournament: ``call`` with its id, a refusal saying ``done`` (it was done
    already) counting as done (the click before the kill took)."""
    async def action(p: Process) -> None:
        try:
            await call(p.tournaments, await _tid(p))
        except UserError as exc:
            if done not in exc.text.render("en"):
                raise
    return action


def join(player: Player) -> Callable[[Process], Awaitable[None]]:
    return _click(lambda t, tid: t.join(tid, player), "entered this tournament already")


def check_in(player: Player) -> Callable[[Process], Awaitable[None]]:
    return _click(lambda t, tid: t.check_in(tid, player), "checked in already")


def at(when: Callable[[Process], Awaitable[float]]) -> Callable[[Process], Awaitable[None]]:
    """The clock reaches ``when``; the tournament's timer fires (as its TimerQueue would)."""
    async def action(p: Process) -> None:
        p.clock.now = max(p.clock.now, await when(p))
        await p.tournaments.check(await _tid(p))
    return action


start_now = _click(lambda t, tid: t.start_now(tid, HOST, is_admin=False), "started already")


def finish_round(number: int) -> Callable[[Process], Awaitable[None]]:
    """Round ``number`` runs out of time (if it is still the current one): the AI plays every
    table to its end, and the next round is paired."""
    async def action(p: Process) -> None:
        t = await p.tournaments.get(await _tid(p))
        if t.status == "running" and t.round == number:
            await p.tournaments.check(t.id, now=t.deadline)
    return action


def leave(player: Player) -> Callable[[Process], Awaitable[None]]:
    return _click(lambda t, tid: t.leave(tid, player), "not in this tournament")


def add_player(player: Player) -> Callable[[Process], Awaitable[None]]:
    return _click(lambda t, tid: t.add_player(tid, HOST, player, is_admin=False), "in this tournament already")


async def first_timeout(p: Process) -> None:
    """Whoever is to act at round 1's first table lets their timer run out (the AI plays for
    them), unless a timer ran out in the tournament already."""
    tid = await _tid(p)
    if await p.storage.run_read(lambda db: tstore.timeouts(db, tid)):
        return
    table = (await p.storage.run_read(lambda db: tstore.round_tables(db, tid, 1)))[0]
    snap = await p.games.table(table.table_id)
    await p.games.autoplay.check_timer(table.table_id, now=snap.row.deadline)


async def repair(p: Process) -> None:
    """The host pairs round 1 again, to take in the late joiner (unless that took already)."""
    tid = await _tid(p)
    late = next(e.entrant for e in await p.storage.run_read(lambda db: tstore.entrants(db, tid))
                if e.user_id == PEOPLE[4].user_id)
    if any(late in t.entrants for t in await p.storage.run_read(lambda db: tstore.round_tables(db, tid, 1))):
        return
    await p.tournaments.repair(tid, HOST, is_admin=False)


cancel = _click(lambda t, tid: t.cancel(tid, HOST, is_admin=False), "over")


async def _check_in_opens(p: Process) -> float:
    return (await p.tournaments.get(await _tid(p))).check_in_opens


async def _starts(p: Process) -> float:
    return (await p.tournaments.get(await _tid(p))).starts_at


@dataclass(frozen=True)
class Scenario:
    name: str
    steps: tuple[Callable[[Process], Awaitable[object]], ...]


SCENARIOS = [
    Scenario("check-in-and-two-rounds", (
        create(starts_at=1_000_000.0 + 3600, check_in_minutes=15, round_minutes=30, rounds=2),
        *(join(p) for p in PEOPLE[:5]),
        at(_check_in_opens),
        *(check_in(p) for p in PEOPLE[:4]),  # Eve does not check in: left out at the start
        at(_starts),
        finish_round(1),
        finish_round(2),
    )),
    Scenario("drops-and-a-late-joiner", (
        create(round_minutes=30, rounds=2, drop_after=1),
        *(join(p) for p in PEOPLE[:4]),
        start_now,
        first_timeout,  # dropped after one timeout: the AI finishes their game
        leave(PEOPLE[3]),  # Dee leaves: dropped too
        add_player(PEOPLE[4]),  # Eve joins late, for round 2
        finish_round(1),
        finish_round(2),
    )),
    Scenario("paired-again-then-cancelled", (
        create(round_minutes=30),
        *(join(p) for p in PEOPLE[:4]),
        start_now,
        add_player(PEOPLE[4]),
        repair,  # round 1 paired again, Eve in it
        cancel,
    )),
    Scenario("knockout-of-five", (
        create(format="knockout", seeding="random", round_minutes=30),
        *(join(p) for p in PEOPLE[:5]),
        start_now,  # a bracket of eight: three byes, one table
        finish_round(1),
        finish_round(2),  # the semi-finals
        finish_round(3),  # the final
    )),
    Scenario("swiss-then-a-top-four", (
        create(rounds=2, top=4, round_minutes=30),
        *(join(p) for p in PEOPLE[:5]),
        start_now,
        finish_round(1),
        finish_round(2),  # the last Swiss round: the best four go on to the semi-finals
        finish_round(3),
        finish_round(4),  # the final
    )),
]


async def play(url: str, scenario: Scenario, switch: Switch) -> tuple[dict, int]:
    """Run ``scenario``; the outcome as stored (see :func:`outcome`), and how many times the process died."""
    async with Run(url, switch) as run:
        for step in scenario.steps:
            await run.step(step)
        return await outcome(run.process), run.kills


async def outcome(p: Process) -> dict:
    """What the tournament came to, with what must hold of any run checked on the way: each
    round table opened once, in a thread of its own, with its people; every person in play
    seated once a round; every ended table's result recorded; standings equal to points
    counted by hand from the stored places."""
    tid = (await p.tournaments.of_guild(GUILD))[0].id
    view = await p.tournaments.view(tid)
    t = view.row
    assert t.status in ("finished", "cancelled"), (t.status, t.round)
    rows = await p.storage.run_read(lambda db: tstore.round_tables(db, tid))
    linked = [r.table_id for r in rows if not r.bye]
    assert None not in linked and len(set(linked)) == len(linked), rows
    every = await p.storage.run_read(lambda db: db.fetch("SELECT id, status, channel_id FROM tables ORDER BY id"))
    unlinked = [r for r in every if r[0] not in linked]
    assert all(r[1] == "cancelled" for r in unlinked), unlinked  # only a round paired again leaves any
    tables = {row.id: row for row in await p.storage.get_tables(linked)}
    threads = [tables[i].channel_id for i in linked]
    assert len(set(threads)) == len(threads)
    entrants = {e.entrant: e for e in view.entrants}
    knockout = 1 if t.format == "knockout" else t.rounds + 1 if t.top else None  # its first round
    for round in range(1, t.round + 1):
        in_round = [r for r in rows if r.round == round]
        seated = [e for r in in_round for e in r.entrants if e is not None]
        if knockout is not None and round > knockout:  # one of each table or bye of the round before goes on
            assert len(set(seated)) == len(seated), (round, seated)
            for before in (r for r in rows if r.round == round - 1):
                assert len(set(before.entrants) & set(seated)) == 1, (round, before, seated)
            expected = seated
        elif round == knockout and t.top:  # the Swiss's best
            assert len(set(seated)) == len(seated) == t.top, (round, seated)
            expected = seated
        else:
            expected = [e.entrant for e in view.entrants if e.joined_round <= round
                        and (e.dropped_round is None or e.dropped_round >= round)]
        assert sorted(seated) == sorted(expected), (round, seated, expected)
        for r in in_round:
            if not r.bye:
                assert [s.user_id for s in tables[r.table_id].seats] == [entrants[e].user_id for e in r.entrants]
    ended = [i for i in linked if tables[i].status != "running"]
    recorded = {r[0] for r in await p.storage.run_read(lambda db: db.fetch("SELECT table_id FROM results"))}
    assert set(ended) <= recorded, "a result lost"
    if t.status == "cancelled":
        assert not [i for i in linked if tables[i].status == "running"], "a table of a cancelled tournament plays on"
    else:
        assert len(ended) == len(linked)
    points = {e: Fraction(0) for e in entrants}
    for r in rows:
        if r.round > t.rounds:  # a top cut's: the Swiss standings stay as its last round left them
            continue
        if r.bye:
            points[r.entrants[0]] += 1
        elif tables[r.table_id].status == "finished":
            places = [x[0] for x in await p.storage.run_read(lambda db: db.fetch(
                "SELECT place FROM result_seats WHERE table_id = ? ORDER BY seat", (r.table_id,)))]
            for seat, place in enumerate(places):
                points[r.entrants[seat]] += Fraction(sum(1 if place < other else Fraction(1, 2) if place == other
                                                         else 0 for other in places) - Fraction(1, 2),
                                                     len(places) - 1)
    if t.round and t.format == "swiss":
        assert {s.entrant: s.points for s in view.standings} == points
    places_of = {}
    for r in rows:
        if not r.bye and tables[r.table_id].status != "cancelled":
            result = await p.storage.run_read(lambda db: db.fetch(
                "SELECT seat, place, score FROM result_seats WHERE table_id = ? ORDER BY seat", (r.table_id,)))
            places_of[(r.round, r.grp)] = (tables[r.table_id].status, [tuple(x) for x in result])
    return {
        "status": t.status, "round": t.round, "rounds": t.rounds,
        "entrants": [(e.user_id, e.joined_round, e.checked_in, e.dropped_round) for e in view.entrants],
        "tables": [(r.round, r.grp, r.entrants, r.bye) for r in rows],
        "results": places_of,
        "standings": [(s.entrant, s.points) for s in view.standings],
        "placings": view.placings,
    }


@pytest.fixture(params=SCENARIOS, ids=[s.name for s in SCENARIOS])
def scenario(request) -> Scenario:
    return request.param


@pytest.fixture
def fresh_database(db_url, tmp_path, request) -> Callable[[], str]:
    """A new empty database on ``db_url``'s backend at each call (on PostgreSQL the one before is
    dropped: a run is over when the next begins, and a hundred databases left would cost the
    session's server a gigabyte to write and delete)."""
    if db_url.startswith("postgresql"):
        server, made = request.getfixturevalue("pg_server"), []

        def fresh() -> str:
            for url in made:
                server.drop_database(url)
            made[:] = [server.create_database()]
            return made[0]
        return fresh
    names = iter(range(1, 10_000))
    return lambda: str(tmp_path / f"run-{next(names)}.sqlite3")


EVERY_INSTANT = "drops-and-a-late-joiner"
"""The scenario killed at every instant it writes (on SQLite); the others at the first instant of
each kind: most instants repeat one kind (a move, a seat handed over)."""


async def test_a_kill_at_any_instant_resumes_exactly(db_url, scenario, fresh_database):
    """Killed at the first instant of each kind (the same writes from the same place: each
    transition, the last move, a result...), and one scenario on SQLite at every instant.

    On SQLite each instant is killed both before its commit and after it; on PostgreSQL once,
    before or after in turn (the turn shifting from one scenario to the next, so a kind several
    scenarios write is killed both ways there too). The kill and what people do are the test's
    own, the same on both backends: what PostgreSQL adds is its storage under the restore."""
    whole = Switch()
    reference, kills = await play(fresh_database(), scenario, whole)
    assert kills == 0 and whole.count > 10
    on_postgresql = db_url.startswith("postgresql")
    every = scenario.name == EVERY_INSTANT and not on_postgresql
    kinds = range(whole.count) if every else whole.kinds
    instants = sorted({kind: n for n, kind in reversed(list(enumerate(kinds, start=1)))}.values())
    if on_postgresql:
        turn = SCENARIOS.index(scenario)
        ways = [(instant, (turn + i) % 2 == 1) for i, instant in enumerate(instants)]
    else:
        ways = [(instant, after) for instant in instants for after in (False, True)]
    for instant, after in ways:
        found, kills = await play(fresh_database(), scenario, Switch(instant, after=after))
        assert kills == 1, (instant, after)
        assert found == reference, (f"killed {'after' if after else 'before'} instant {instant} of {whole.count}: "
                                    f"{whole.kinds[instant - 1]}")
