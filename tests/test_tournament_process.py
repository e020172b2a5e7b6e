"""Tournaments run by the real ``python -m bot`` against the loopback fake Discord, killed and
started again, and split between two shard processes.

A Swiss tournament of four, played by clicks to its end while the process is killed (SIGKILL)
a seeded random moment after the clicks that start a transition (Start now, each round's last
move, the final one, and now and then any move), and started again on the same database.
Then, from the database and from what Discord saw: each round's tables opened once, each in a
thread of its own holding one table message; every player seated once a round; the standings
equal to points counted from the stored results; one tournament message.

Two processes running shards 0 and 1 on one PostgreSQL, a tournament in a server of each: only
the process owning a server runs its tournament. A tournament whose start time passed while its
process was down is started by that process when it comes back, never by the other, which
restarted meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import signal
import sqlite3
import time
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.tournaments import store
from tests.discord_play import HAND_BUTTON, move_choices, status_line, texts
from tests.fakediscord import FakeChannel, FakeMessage, LoopbackDiscord, guild_id_on_shard
from tests.test_chaos_process import Processes
from tests.test_smoke_process import HUMANS, BotProcess, click_button, expect, one_guild

GAME = ("tournament create q2j", {"variant": "challenge", "table_size": 2, "swiss_rounds": 2, "timer": 5})
PREFER = ("play", "qq")
"""Moves chosen first (at random among them): games that end within a few moves."""
TABLES = len(HUMANS) // 2
"""A round's tables."""
KILL_AFTER = 0.4
"""The longest a kill waits after the click that began what it cuts short."""


@pytest.fixture
async def loopback_club() -> AsyncIterator[LoopbackDiscord]:
    async with one_guild("Game Night", "tournament") as fd:
        yield fd


def tournament_message(fd: LoopbackDiscord, channel: FakeChannel) -> FakeMessage:
    return next(m for m in fd.public_messages(channel) if "🏆" in "".join(texts(m)))


async def posted(fd: LoopbackDiscord, proc: BotProcess, channel: FakeChannel) -> None:
    """Wait for the tournament message of ``channel``, posted after ``/tournament create``'s answer."""
    await expect(proc, fd.wait_for_message(lambda m: m.channel.id == channel.id and m.public
                                           and "🏆" in "".join(texts(m))), "the tournament message")


def tables_in_play(fd: LoopbackDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in fd.messages(ephemeral=False) if m.channel.parent_id == channel.id
            and any(b.get("label") == HAND_BUTTON and not b.get("disabled") for b in m.buttons)]


def tournament_status(db: str) -> str:
    """The tournament's status, read beside the running bot."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as connection:
        return connection.execute("SELECT status FROM tournaments").fetchone()[0]


async def stored(db: str, read):
    storage = await Storage.open(db)
    try:
        return await storage.run_read(read)
    finally:
        await storage.close()


async def test_a_tournament_killed_at_random_moments_resumes_to_its_end(loopback_club: LoopbackDiscord, tmp_path: Path):
    fd, rng = loopback_club, random.Random(20261207)
    channel = next(iter(fd.guilds.values())).channel("tournament")
    db = str(tmp_path / "deckhand.sqlite3")
    processes = Processes(fd, tmp_path, db)
    await processes.start(0)
    kills = games_ended = 0

    def proc() -> BotProcess:
        return processes.running[0]

    async def kill_soon() -> None:
        """SIGKILL a moment from now, while the bot carries out what the last click began; start again."""
        nonlocal kills
        await asyncio.sleep(rng.uniform(0, KILL_AFTER))
        proc().signal(signal.SIGKILL)
        await proc().wait()
        await processes.stopped(0)
        await processes.start(0)
        kills += 1

    try:
        await expect(proc(), fd.wait_for_request("PUT", r"/commands$"), "the commands synced")
        host = fd.user("alice")
        created = await expect(proc(), fd.slash(GAME[0], GAME[1], user=host, channel=channel), "/tournament create")
        await expect(proc(), fd.wait_for_reply(created), "its answer")
        await posted(fd, proc(), channel)
        for name in HUMANS:
            await click_button(fd, proc(), tournament_message(fd, channel), label="Join", user=name)
        _, panel = await click_button(fd, proc(), tournament_message(fd, channel), label="Host", user="alice")
        await click_button(fd, proc(), panel, label="Start now", user="alice")
        await kill_soon()  # while round 1's tables open

        for _ in range(400):  # moves, a bound only
            if tournament_status(db) != "running":
                break
            table = await next_turn(fd, channel)
            if table is None:  # the round's tables are still opening (or a kill cut their showing short)
                await asyncio.sleep(0.2)
                continue
            message, mover = table
            ended = await play_a_move(fd, proc(), message, mover, rng)
            games_ended += ended
            last = ended and games_ended % TABLES == 0
            if last or (ended and rng.random() < 0.5) or rng.random() < 0.02:
                await kill_soon()  # a round's last move: its next round is paired and opened; or the final
        else:
            pytest.fail("the tournament did not end")
        await expect(proc(), fd.wait_idle(), "the bot quiet")
        assert await proc().stop() == 0, proc().output()
    finally:
        await processes.close_all()
    assert kills >= 3  # at the start, and after each round's last move
    processes.assert_clean()
    await assert_resumed_exactly(fd, db, channel, [fd.user(name).id for name in HUMANS])


async def next_turn(fd: LoopbackDiscord, channel: FakeChannel) -> tuple[FakeMessage, str] | None:
    """A table of the tournament whose message names a person to act, and that person."""
    names = {fd.user(name).id: name for name in HUMANS}
    for message in tables_in_play(fd, channel):
        head = status_line(message).split("·")[0]
        movers = [names[int(i)] for i in re.findall(r"<@(\d+)>", head) if int(i) in names]
        if movers:
            return message, movers[0]
    return None


async def play_a_move(fd: LoopbackDiscord, proc: BotProcess, table: FakeMessage, mover: str,
                      rng: random.Random) -> bool:
    """``mover`` opens their hand and makes a move (through any steps it has); whether their game ended."""
    _, hand = await click_button(fd, proc, table, label=HAND_BUTTON, user=mover)
    shown = table.edited_at  # the message object stays current: what it shows before the move
    for _ in range(4):
        choices = move_choices(hand)
        if not choices:
            break
        rank = {c: next((i for i, k in enumerate(PREFER) if c[2].startswith(k)), len(PREFER)) for c in choices}
        kind, custom_id, value = rng.choice([c for c in choices if rank[c] == min(rank.values())])
        if kind == "button":
            inter = await expect(proc, fd.click(hand, custom_id=custom_id, user=fd.user(mover)), "a move")
        else:
            inter = await expect(proc, fd.select(hand, [value], custom_id=custom_id, user=fd.user(mover)), "a move")
        hand = await expect(proc, fd.wait_for_reply(inter), "the hand after the move")
        if not custom_id.startswith("dh:st:"):
            break
    await expect(proc, fd.wait_until(lambda: table.edited_at != shown, 10, "the table shown"), "the table's edit")
    return status_line(table).startswith(("🏁", "🛑"))


async def assert_resumed_exactly(fd: LoopbackDiscord, db: str, channel: FakeChannel, players: list[int]) -> None:
    """Each round's tables opened once, each in a thread of its own holding one table message;
    every player seated once a round; standings equal to points counted from the stored places;
    one tournament message."""
    storage = await Storage.open(db)
    try:
        (t,) = await storage.run_read(lambda db: db.fetch("SELECT id, status, round, rounds FROM tournaments"))
        assert (t["status"], t["round"]) == ("finished", t["rounds"])
        rows = await storage.run_read(lambda db: store.round_tables(db, t["id"]))
        entrants = {e.entrant: e.user_id for e in await storage.run_read(lambda db: store.entrants(db, t["id"]))}
        linked = [r.table_id for r in rows if not r.bye]
        assert None not in linked and len(set(linked)) == len(linked)
        assert await storage.run_read(lambda db: db.fetchval("SELECT COUNT(*) FROM tables")) == len(linked)
        tables = {row.id: row for row in await storage.get_tables(linked)}
        for round in range(1, t["round"] + 1):
            seated = [entrants[e] for r in rows if r.round == round for e in r.entrants if e is not None]
            assert sorted(seated) == sorted(players), round
        points = {e: Fraction(0) for e in entrants}
        for r in rows:
            if r.bye:
                points[r.entrants[0]] += 1
                continue
            assert tables[r.table_id].status == "finished"
            assert [s.user_id for s in tables[r.table_id].seats] == [entrants[e] for e in r.entrants]
            places = [x[0] for x in await storage.run_read(lambda db: db.fetch(
                "SELECT place FROM result_seats WHERE table_id = ? ORDER BY seat", (r.table_id,)))]
            won = Fraction(1, 2) if places[0] == places[1] else Fraction(int(places[0] < places[1]))
            points[r.entrants[0]] += won
            points[r.entrants[1]] += 1 - won
    finally:
        await storage.close()
    threads = {tables[i].channel_id for i in linked}
    assert len(threads) == len(linked)
    for thread_id in threads:
        assert fd.channel(thread_id).parent_id == channel.id
        assert len([m for m in fd.public_messages(thread_id) if "🏆" in "".join(texts(m))]) == 1, \
            "a table shown twice"  # its message carries the round's banner
    made = [c for c in channel.guild.channels.values() if c.parent_id == channel.id]
    assert all(not fd.public_messages(c) for c in made if c.id not in threads), "a thread left over holds messages"
    assert len([m for m in fd.public_messages(channel) if "🏆" in "".join(texts(m))]) == 1
    standings = "\n".join(boards(tournament_message(fd, channel)))
    for user_id, name in zip(players, HUMANS):
        entrant = next(e for e, u in entrants.items() if u == user_id)
        shown = re.search(rf"\d+\. {name.capitalize()} — (\S+)", standings)
        assert shown is not None, standings
        assert shown[1] == _points(points[entrant]), (name, standings)


def boards(message: FakeMessage) -> list[str]:
    """What a message says in words: its text displays, and its pictures' descriptions (a board
    a picture shows is its description)."""
    pictured = [item.get("description") or "" for c in message.walk() if c.get("type") == 12
                for item in c.get("items", [])]
    return texts(message) + pictured


def _points(value: Fraction) -> str:
    whole, part = divmod(value, 1)
    return str(int(whole)) if not part else f"{int(whole) if whole else ''}½"


async def test_only_the_process_owning_a_server_runs_its_tournament(tmp_path: Path, pg_url: str) -> None:
    async with LoopbackDiscord(recommended_shards=2) as fd:
        users = [fd.add_user(name, global_name=name.capitalize()) for name in HUMANS]
        channels = []
        for shard in range(2):
            guild = fd.add_guild(f"Club {shard}", id=guild_id_on_shard(fd, shard, 2), owner=users[0])
            channels.append(guild.add_channel("tournament"))
            for user in users:
                guild.add_member(user)
        processes = Processes(fd, tmp_path, pg_url)
        shard_of: dict[BotProcess, int] = {}

        async def start(shard: int) -> None:
            await processes.start(shard)
            shard_of[processes.running[shard]] = shard

        try:
            for shard in range(2):
                await start(shard)
            await expect(processes.running[0], fd.wait_for_request("PUT", r"/commands$"), "the commands synced")
            for shard, channel in enumerate(channels):
                proc = processes.running[shard]
                created = await expect(proc, fd.slash(GAME[0], {**GAME[1], "starts": "in 2h", "check_in": 0},
                                                      user=users[0], channel=channel), "/tournament create")
                await expect(proc, fd.wait_for_reply(created), "its answer")
                await posted(fd, proc, channel)
                for name in HUMANS:
                    await click_button(fd, proc, tournament_message(fd, channel), label="Join", user=name)
            ids = await stored(pg_url, lambda db: db.fetch("SELECT id, guild_id FROM tournaments ORDER BY id"))
            owned = {(row[1] >> 22) % 2: row[0] for row in ids}

            # Shard 0's process goes down; meanwhile both start times pass (moved back: two hours go by).
            processes.running[0].signal(signal.SIGKILL)
            await processes.stopped(0)
            past = time.time() - 60
            await stored_write(pg_url, "UPDATE tournaments SET starts_at = ?, deadline = ?", (past, past))
            # Shard 1's process starts again: it starts its own tournament, and leaves the other alone.
            processes.running[1].signal(signal.SIGTERM)
            await processes.stopped(1)
            await start(1)
            await expect(processes.running[1], fd.wait_until(lambda: len(tables_in_play(fd, channels[1])) == 2, 20,
                                                             "shard 1's round"), "shard 1's round open")
            statuses = dict(await stored(pg_url, lambda db: db.fetch("SELECT id, status FROM tournaments")))
            assert statuses == {owned[0]: "signup", owned[1]: "running"}
            assert not tables_in_play(fd, channels[0])
            # Shard 0's process comes back and starts its tournament.
            await start(0)
            await expect(processes.running[0], fd.wait_until(lambda: len(tables_in_play(fd, channels[0])) == 2, 20,
                                                             "shard 0's round"), "shard 0's round open")
            await processes.stop_all()
        finally:
            await processes.close_all()
        processes.assert_clean()
        for p, shard in shard_of.items():
            other = owned[1 - shard]
            assert f"tournament {other}:" not in p.stdout() + p.stderr(), f"the process of shard {shard} ran {other}"
            assert f"tournament {owned[shard]}: round 1 open" in p.stdout() + p.stderr() or p is not processes.every[-1]


async def stored_write(db: str, sql: str, args: tuple) -> None:
    storage = await Storage.open(db)
    try:
        await storage.run_write(lambda session: session.execute(sql, args))
    finally:
        await storage.close()
