"""Tournaments on both backends (a real SQLite file, a real PostgreSQL database): each transition,
refusals that change nothing, and restarts that resume exactly (bot/tournaments)."""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest

from bot.errors import UserError
from bot.service import GameService, Player
from bot.storage import Storage
from bot.tournaments import Tournaments
from bot.tournaments import store as tstore
from tests.test_service import Clock, Recorder

HOST = Player(100, "Host", 1)
PEOPLE = [Player(i, name, 1) for i, name in enumerate(["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"], start=1)]


class Threads:
    """A tournament publisher that makes threads (numbered from 9000) unless told to fail."""

    def __init__(self) -> None:
        self.made: list[tuple[int, int, int]] = []
        self.shown = []
        self.removed: list[int] = []
        self.fail_after: int | None = None

    async def show(self, view, *, again=False):
        self.shown.append(view)

    async def open_thread(self, tournament, table, names):
        if self.fail_after is not None and len(self.made) >= self.fail_after:
            return None
        self.made.append((table.round, table.grp, 9000 + len(self.made)))
        return self.made[-1][2]

    async def remove_thread(self, tournament, thread_id):
        self.removed.append(thread_id)


class Env:
    def __init__(self, url: str, clock: Clock) -> None:
        self.url, self.clock = url, clock

    async def start(self, threads: Threads | None = None) -> None:
        self.storage = await Storage.open(self.url)
        self.games = GameService(self.storage, ai_delay=0, clock=self.clock, new_seed=iter(range(7, 10_000)).__next__)
        self.games.publisher = Recorder()
        self.tournaments = Tournaments(self.games)
        self.threads = threads or Threads()
        self.tournaments.publisher = self.threads

    async def restart(self, threads: Threads | None = None) -> None:
        """A new process on the same database: services made afresh, then restored."""
        await self.stop()
        await self.start(threads or self.threads)
        await self.tournaments.restore()
        await self.games.restore()
        await self.games.wait_idle()

    async def stop(self) -> None:
        await self.games.close()
        await self.storage.close()

    async def read(self, fn):
        return await self.storage.run_read(fn)


@pytest.fixture
async def env(db_url):
    e = Env(db_url, Clock())
    await e.start()
    yield e
    await e.stop()


async def entered(env: Env, count: int, **options) -> int:
    view = await env.tournaments.create(guild_id=1, channel_id=50, host=HOST, game_id="war", options={}, **options)
    for player in PEOPLE[:count]:
        await env.tournaments.join(view.row.id, player)
    return view.row.id


async def finish_round(env: Env, tournament_id: int) -> None:
    """Let the round's time run out: the AI plays every table to its end."""
    t = await env.tournaments.get(tournament_id)
    await env.tournaments.check(tournament_id, now=t.deadline)
    await env.games.wait_idle()


async def seats_of_round(env: Env, tournament_id: int, round: int) -> list[list[int]]:
    tables = await env.read(lambda db: tstore.round_tables(db, tournament_id, round))
    rows = await env.storage.get_tables([t.table_id for t in tables if t.table_id is not None])
    return [[s.user_id for s in row.seats] for row in rows]


async def test_a_swiss_of_five_plays_three_rounds_and_its_standings_recompute_from_the_results(env):
    tid = await entered(env, 5, round_minutes=30)
    view = await env.tournaments.start_now(tid, HOST, is_admin=False)
    await env.games.wait_idle()
    assert view.row.status == "running" and view.row.round == 1 and view.row.rounds == 3
    tables = await env.read(lambda db: tstore.round_tables(db, tid, 1))
    assert [(t.bye, len(t.entrants)) for t in tables] == [(False, 2), (False, 2), (True, 1)]
    seated = await seats_of_round(env, tid, 1)
    bye = [e for t in tables if t.bye for e in t.entrants]
    assert sorted(u for seats in seated for u in seats) + bye == [1, 2, 3, 4, 5] or len(seated) == 2
    rows = await env.storage.get_tables([t.table_id for t in tables if not t.bye])
    assert sorted(r.channel_id for r in rows) == [9000, 9001] and all(r.status == "running" for r in rows)
    assert all(r.timer_minutes == 10 and r.options.get("hints") is False for r in rows)
    byes = set(bye)
    for round in (1, 2, 3):
        await finish_round(env, tid)
        if round < 3:
            following = await env.read(lambda db: tstore.round_tables(db, tid, round + 1))
            bye = [e for t in following if t.bye for e in t.entrants]
            assert bye and bye[0] not in byes  # at most one bye each while anyone has none
            byes |= set(bye)
    view = await env.tournaments.view(tid)
    assert view.row.status == "finished" and view.row.round == 3
    # The standings equal a recomputation by hand from the stored places.
    points = {e.entrant: Fraction(0) for e in view.entrants}
    for table in await env.read(lambda db: tstore.round_tables(db, tid)):
        if table.bye:
            points[table.entrants[0]] += 1
            continue
        result = await env.read(lambda db: db.fetch("SELECT seat, place FROM result_seats WHERE table_id = ?"
                                                    " ORDER BY seat", (table.table_id,)))
        places = [r[1] for r in result]
        for seat, place in enumerate(places):
            points[table.entrants[seat]] += 1 if place < max(places) else Fraction(1, 2) if places[0] == places[1] \
                else 0
    assert {s.entrant: s.points for s in view.standings} == points
    assert [s.points for s in view.standings] == sorted(points.values(), reverse=True)


async def test_refusals_change_nothing(env):
    tid = await entered(env, 2, max_players=3)
    with pytest.raises(UserError, match="entered this tournament already"):
        await env.tournaments.join(tid, PEOPLE[0])
    await env.tournaments.join(tid, PEOPLE[2])
    with pytest.raises(UserError, match="full"):
        await env.tournaments.join(tid, PEOPLE[3])
    with pytest.raises(UserError, match="no check-in"):
        await env.tournaments.check_in(tid, PEOPLE[0])
    with pytest.raises(UserError, match="Only the tournament's host"):
        await env.tournaments.start_now(tid, PEOPLE[0], is_admin=False)
    with pytest.raises(UserError, match="no such tournament"):
        await env.tournaments.join(tid, Player(9, "Zed", 2))  # from another server
    with pytest.raises(UserError, match="already under way in this channel"):
        await env.tournaments.create(guild_id=1, channel_id=50, host=HOST, game_id="war", options={})
    with pytest.raises(UserError, match="passed"):
        await env.tournaments.create(guild_id=1, channel_id=51, host=HOST, game_id="war", options={},
                                     starts_at=env.clock.now - 1)
    with pytest.raises(UserError, match="always on"):
        await env.tournaments.create(guild_id=1, channel_id=51, host=HOST, game_id="war", options={}, timer_minutes=0)
    before = await env.tournaments.view(tid)
    await env.tournaments.start_now(tid, HOST, is_admin=True)  # Manage Server may
    with pytest.raises(UserError, match="entries are closed"):
        await env.tournaments.join(tid, PEOPLE[4])
    assert len((await env.tournaments.view(tid)).entrants) == len(before.entrants)


async def test_check_in_closes_at_the_start_and_leaves_out_who_did_not(env):
    starts = env.clock.now + 3600
    tid = await entered(env, 4, starts_at=starts, check_in_minutes=15)
    with pytest.raises(UserError, match="Check-in opens"):
        await env.tournaments.check_in(tid, PEOPLE[0])
    assert (await env.tournaments.get(tid)).deadline == starts - 900
    env.clock.now = starts - 600
    await env.tournaments.check(tid)
    assert (await env.tournaments.get(tid)).deadline == starts
    for player in PEOPLE[:3]:
        await env.tournaments.check_in(tid, player)
    with pytest.raises(UserError, match="checked in already"):
        await env.tournaments.check_in(tid, PEOPLE[0])
    env.clock.now = starts
    await env.tournaments.check(tid)
    await env.games.wait_idle()
    view = await env.tournaments.view(tid)
    assert view.row.status == "running" and [e.user_id for e in view.entrants] == [1, 2, 3]
    with pytest.raises(UserError, match="check-in is closed"):
        await env.tournaments.check_in(tid, PEOPLE[3])


async def test_timeouts_drop_a_no_show_whose_results_stay_and_who_is_not_paired_again(env):
    tid = await entered(env, 4, drop_after=2, round_minutes=60)
    await env.tournaments.start_now(tid, HOST, is_admin=False)
    await env.games.wait_idle()
    tables = await env.read(lambda db: tstore.round_tables(db, tid, 1))
    table_id = tables[0].table_id
    no_show = (await env.storage.get_table(table_id)).seats[0]
    for _ in range(40):  # the no-show never moves: the timer plays for them; the other plays
        snap = await env.games.table(table_id)
        if snap.row.status != "running" or snap.row.seats[0].is_ai:
            break
        seat = snap.view["to_act"][0]
        if seat == 0:
            await env.games.autoplay.check_timer(table_id, now=snap.row.deadline)
        else:
            player = snap.player(seat)
            hand = await env.games.play.hand(table_id, player)
            await env.games.play.move(table_id, player, hand.version, hand.actions[0])
        await env.games.wait_idle()
    view = await env.tournaments.view(tid)
    dropped = [e for e in view.entrants if e.dropped]
    assert [e.user_id for e in dropped] == [no_show.user_id] and dropped[0].dropped_round == 1
    assert (await env.read(lambda db: tstore.timeouts(db, tid)))[dropped[0].entrant] == 2
    row = await env.storage.get_table(table_id)
    assert row.seats[[s.user_id for s in row.seats].index(dropped[0].user_id)].is_ai
    await finish_round(env, tid)
    following = await env.read(lambda db: tstore.round_tables(db, tid, 2))
    assert dropped[0].entrant not in {e for t in following for e in t.entrants}
    assert any(s.entrant == dropped[0].entrant and s.dropped for s in (await env.tournaments.view(tid)).standings)


async def test_a_late_joiner_plays_from_the_next_round_with_a_loss_for_the_missed_one(env):
    tid = await entered(env, 4, round_minutes=30, rounds=2)
    await env.tournaments.start_now(tid, HOST, is_admin=False)
    await env.games.wait_idle()
    with pytest.raises(UserError, match="host"):
        await env.tournaments.add_player(tid, PEOPLE[0], PEOPLE[4], is_admin=False)
    view = await env.tournaments.add_player(tid, HOST, PEOPLE[4], is_admin=False)
    late = view.entrants[-1]
    assert late.user_id == 5 and late.joined_round == 2
    await finish_round(env, tid)
    following = await env.read(lambda db: tstore.round_tables(db, tid, 2))
    assert late.entrant in {e for t in following for e in t.entrants}
    await finish_round(env, tid)
    view = await env.tournaments.view(tid)
    line = next(s for s in view.standings if s.entrant == late.entrant)
    assert view.row.status == "finished" and line.played + line.byes == 1 and line.points <= 1


async def test_a_round_is_paired_again_only_while_nobody_moved(env):
    tid = await entered(env, 4)
    await env.tournaments.start_now(tid, HOST, is_admin=False)
    await env.games.wait_idle()
    old = await env.read(lambda db: tstore.round_tables(db, tid, 1))
    await env.tournaments.add_player(tid, HOST, PEOPLE[4], is_admin=False)
    view = await env.tournaments.repair(tid, HOST, is_admin=False)
    await env.games.wait_idle()
    new = await env.read(lambda db: tstore.round_tables(db, tid, 1))
    assert sorted(e for t in new for e in t.entrants) == [1, 2, 3, 4, 5]  # the late joiner too
    assert all(r.status == "cancelled" for r in await env.storage.get_tables([t.table_id for t in old]))
    assert sorted(env.threads.removed) == sorted(t.thread_id for t in old)
    assert view.row.version > 0
    table = await env.storage.get_table(next(t.table_id for t in new if not t.bye))
    await env.games.autoplay.check_timer(table.id, now=table.deadline)  # a move (the AI's, for a late player)
    await env.games.wait_idle()
    with pytest.raises(UserError, match="moved at a table of this round"):
        await env.tournaments.repair(tid, HOST, is_admin=False)


class SlowThreads(Threads):
    """Discord making threads only once the test says so (``go``), noting those asked for meanwhile."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[int] = []
        self.three_asked = asyncio.Event()
        self.go = asyncio.Event()

    async def open_thread(self, tournament, table, names):
        self.asked.append(table.grp)
        if len(self.asked) == 3:
            self.three_asked.set()
        await self.go.wait()
        return await super().open_thread(tournament, table, names)


async def test_start_now_answers_at_once_and_the_round_asks_for_every_thread_together(env):
    """No click waits for a round's threads, and no thread waits for the one before it."""
    tid = await entered(env, 6)
    slow = SlowThreads()
    env.tournaments.publisher = slow
    view = await asyncio.wait_for(env.tournaments.start_now(tid, HOST, is_admin=False), 30)  # no thread made yet
    assert view.row.status == "running" and view.row.round == 1
    await asyncio.wait_for(slow.three_asked.wait(), 30)  # one after another, it would wait forever
    assert sorted(slow.asked) == [1, 2, 3]
    slow.go.set()
    await env.games.wait_idle()
    tables = await env.read(lambda db: tstore.round_tables(db, tid, 1))
    assert all(t.table_id is not None for t in tables)


async def test_a_round_cut_short_between_threads_and_tables_opens_each_table_once(env):
    tid = await entered(env, 6)
    env.threads.fail_after = 2  # Discord makes two threads, then refuses: the process stops there
    await env.tournaments.start_now(tid, HOST, is_admin=False)
    await env.games.wait_idle()
    tables = await env.read(lambda db: tstore.round_tables(db, tid, 1))
    assert [t.table_id is not None for t in tables] == [True, True, False]
    # A thread made but its table never created (a kill between the two) is used again.
    await env.storage.run_write(lambda db: db.execute(
        "UPDATE tournament_tables SET thread_id = 8888 WHERE tournament_id = ? AND grp = 3", (tid,)))
    env.threads.fail_after = None
    await env.restart()
    tables = await env.read(lambda db: tstore.round_tables(db, tid, 1))
    rows = await env.storage.get_tables([t.table_id for t in tables])
    thread_of = {r.id: r.channel_id for r in rows}
    assert [thread_of[t.table_id] for t in tables] == [9000, 9001, 8888] and len(env.threads.made) == 2
    seated = sorted(s.user_id for r in rows for s in r.seats)
    assert seated == [1, 2, 3, 4, 5, 6]
    count = await env.read(lambda db: db.fetchval("SELECT COUNT(*) FROM tables"))
    assert count == 3


async def test_a_stored_thread_holding_another_table_gives_the_round_table_a_new_thread_once(env):
    """Someone started a game in a round table's thread between the thread's storing and its table
    (a kill between the two): after the restart the table opens in a new thread, stored with its
    link; that game stays; a further restart opens nothing more."""
    tid = await entered(env, 4)
    env.threads.fail_after = 1  # Discord makes one thread, then refuses: the process stops there
    await env.tournaments.start_now(tid, HOST, is_admin=False)
    await env.games.wait_idle()
    await env.storage.run_write(lambda db: db.execute(
        "UPDATE tournament_tables SET thread_id = 8888 WHERE tournament_id = ? AND grp = 2", (tid,)))
    other = await env.games.lobbies.open(guild_id=1, channel_id=8888, game_id="war", options={}, host=PEOPLE[6])
    env.threads.fail_after = None
    for _ in range(2):
        await env.restart()
        tables = await env.read(lambda db: tstore.round_tables(db, tid, 1))
        rows = await env.storage.get_tables([t.table_id for t in tables])
        assert [t.thread_id for t in tables] == [r.channel_id for r in rows] == [9000, 9001]
        assert sorted(s.user_id for r in rows for s in r.seats) == [1, 2, 3, 4] and len(env.threads.made) == 2
        assert (await env.storage.open_table_in(8888)) == other.row.id
        assert (await env.storage.get_table(other.row.id)).status == "lobby"


async def test_a_restart_after_the_last_result_pairs_the_next_round_once(env):
    tid = await entered(env, 4, round_minutes=30)
    await env.tournaments.start_now(tid, HOST, is_admin=False)
    await env.games.wait_idle()
    env.games.tables.recorded.clear()  # the process dies as the round's last result is recorded
    await finish_round(env, tid)
    assert (await env.tournaments.get(tid)).round == 1
    await env.restart()
    assert (await env.tournaments.get(tid)).round == 2
    assert len(await env.read(lambda db: tstore.round_tables(db, tid, 2))) == 2
    await env.restart()  # and again: nothing more happens
    assert (await env.tournaments.get(tid)).round == 2
    assert await env.read(lambda db: db.fetchval("SELECT COUNT(*) FROM tables")) == 4


async def test_cancel_ends_the_tables_in_play_unrated(env):
    tid = await entered(env, 2)
    await env.tournaments.start_now(tid, HOST, is_admin=False)
    await env.games.wait_idle()
    view = await env.tournaments.cancel(tid, HOST, is_admin=False)
    assert view.row.status == "cancelled"
    (table,) = await env.read(lambda db: tstore.round_tables(db, tid, 1))
    assert (await env.storage.get_table(table.table_id)).status == "abandoned"
    with pytest.raises(UserError, match="over"):
        await env.tournaments.join(tid, PEOPLE[3])


async def test_forgetting_someone_anonymises_their_entries_in_ended_tournaments(env):
    tid = await entered(env, 2)
    await env.tournaments.cancel(tid, HOST, is_admin=False)
    await env.games.results.forget(PEOPLE[0].user_id, names=["Ana"])
    entrants = await env.read(lambda db: tstore.entrants(db, tid))
    assert [(e.user_id, e.name) for e in entrants] == [(None, "Former player"), (2, "Ben")]


async def test_a_paused_tournament_waits_past_its_start_and_starts_once_resumed(env):
    starts = env.clock.now + 3600
    tid = await entered(env, 3, starts_at=starts, check_in_minutes=0)
    await env.tournaments.set_paused(tid, HOST, True, is_admin=False)
    env.clock.now = starts + 1
    await env.tournaments.check(tid)
    await env.games.wait_idle()
    assert (await env.tournaments.get(tid)).status == "signup" and not env.tournaments.timer_scheduled(tid)
    await env.tournaments.set_paused(tid, HOST, False, is_admin=False)
    await env.games.wait_idle()
    t = await env.tournaments.get(tid)
    assert t.status == "running" and t.round == 1 and not env.tournaments.timer_scheduled(tid)  # no round limit


async def test_more_refusals_change_nothing_and_a_start_time_with_too_few_cancels(env):
    starts = env.clock.now + 3600
    with pytest.raises(UserError, match="starts within 90 days"):
        await env.tournaments.create(guild_id=1, channel_id=50, host=HOST, game_id="war", options={},
                                     starts_at=env.clock.now + 91 * 86400)
    tid = await entered(env, 1, starts_at=starts, check_in_minutes=15)
    before = await env.tournaments.view(tid)
    env.clock.now = starts - 600  # check-in is open
    t = env.tournaments
    for words, refused in (
        ("Join the tournament first", lambda: t.check_in(tid, PEOPLE[1])),
        ("isn't played in teams", lambda: t.join(tid, PEOPLE[1], partner=PEOPLE[2])),
        ("at least two players checked in", lambda: t.start_now(tid, HOST, is_admin=False)),
        ("no round to pair again", lambda: t.repair(tid, HOST, is_admin=False)),
        ("isn't paused", lambda: t.set_paused(tid, HOST, False, is_admin=False)),
    ):
        with pytest.raises(UserError, match=words):
            await refused()
    await env.tournaments.set_paused(tid, HOST, True, is_admin=False)
    with pytest.raises(UserError, match="paused already"):
        await env.tournaments.set_paused(tid, HOST, True, is_admin=False)
    await env.tournaments.set_paused(tid, HOST, False, is_admin=False)
    await env.games.wait_idle()
    after = await env.tournaments.view(tid)
    assert (after.row.status, after.entrants) == (before.row.status, before.entrants)

    env.clock.now = starts  # the start time, with one player: cancelled, nobody paired
    await env.tournaments.check(tid)
    await env.games.wait_idle()
    ended = await env.tournaments.view(tid)
    assert (ended.row.status, ended.row.round, ended.row.finished_at, ended.tables) == ("cancelled", 0, starts, [])
    assert not env.tournaments.timer_scheduled(tid)
    for refused in (lambda: t.hosted(tid, HOST, is_admin=False), lambda: t.add_player(tid, HOST, PEOPLE[1], is_admin=False),
                    lambda: t.remove_player(tid, HOST, PEOPLE[0].user_id, is_admin=False),
                    lambda: t.set_paused(tid, HOST, True, is_admin=False), lambda: t.leave(tid, PEOPLE[0])):
        with pytest.raises(UserError, match="This tournament is over"):
            await refused()
    await env.tournaments.check(tid)  # its timer firing late changes nothing either
    assert await env.tournaments.view(tid) == ended
