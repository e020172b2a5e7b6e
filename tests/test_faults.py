"""Database faults in the middle of a game, through the real bot and a real SQLite file (and a
real PostgreSQL server that goes away).

For each fault (a failed COMMIT, a failed write, a database locked by another
connection, a full disk, a lost PostgreSQL server) a player's move is refused: the player is told, the
table is exactly as before on disk and in memory (same version; the next
player is not offered moves), and the same move plays once the fault clears.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import logging
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.storage import GuildSettings, Storage
from tests.discord_play import make_server, move_choices, open_hand, open_table, play_turn, start_bot, to_act
from tests.fakediscord import DiscordHarness

CANNOT_SAVE = "Deckhand can't save moves right now; nothing changed. Please try again in a moment."


# -- a game paused at one player's move ------------------------------------------------------


async def paused_game(s):
    """A running two-player game a few moves in; returns (table message, mover, hand message, table id)."""
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    for _ in range(3):
        await play_turn(s, table)
    mover = to_act(s, table)[0]
    hand = (await open_hand(s, mover, table)).message
    table_id = int(next(c["custom_id"] for c in hand.walk() if c.get("custom_id", "").startswith("dh:hand:"))
                   .split(":")[2])
    return table, mover, hand, table_id


async def move(s, user, hand, choice):
    """Send one move (a button or a menu choice) from a hand message."""
    kind, custom_id, value = choice
    if kind == "button":
        return await s.h.click(hand, custom_id=custom_id, user=user)
    return await s.h.select(hand, [value], custom_id=custom_id, user=user)


def first_move(hand):
    """A choice that plays a move at once (not a first step of a two-step move)."""
    return next(c for c in move_choices(hand) if not c[1].startswith("dh:st:"))


def answer(result) -> str:
    """What the player read: the follow-up after a deferral, else the reply itself."""
    return result.followups[-1].text if result.followups else result.text


def stored(db_path: Path, table_id: int) -> tuple[int, int, str]:
    """``(version, moves logged, recent events)`` as committed in the file."""
    conn = sqlite3.connect(db_path)
    try:
        version, events = conn.execute("SELECT version, recent_events FROM tables WHERE id = ?", (table_id,)).fetchone()
        moves = conn.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone()[0]
    finally:
        conn.close()
    return version, moves, events


async def assert_refused_and_unchanged(s, table, mover, result, table_id, before) -> None:
    assert answer(result) == CANNOT_SAVE
    assert result.ephemeral or result.followups[-1].ephemeral
    assert stored(s.db_path, table_id) == before
    snap = await s.h.bot.service.table(table_id)
    assert snap.row.version == before[0]
    assert to_act(s, table) == [mover]
    other = next(u for u in (s.user("ana"), s.user("ben")) if u != mover)
    assert move_choices((await open_hand(s, other, table)).message) == []


async def assert_play_goes_on(s, mover, hand, choice, table_id, before) -> None:
    played = await move(s, mover, hand, choice)
    assert answer(played) != CANNOT_SAVE
    version, moves, _ = stored(s.db_path, table_id)
    assert version > before[0] and moves > before[1]


async def run_fault(s, inject, clear, *, logged: str | None):
    """Play into ``inject``-ed fault, check the refusal, ``clear`` it, and play on."""
    table, mover, hand, table_id = await paused_game(s)
    choice = first_move(hand)
    before = stored(s.db_path, table_id)
    await inject()
    try:
        if logged is None:
            result = await move(s, mover, hand, choice)
        else:
            with s.h.expect_logged_error(logged) as expected:
                result = await move(s, mover, hand, choice)
            assert len(expected.records) == 1
    finally:
        await clear()
    await assert_refused_and_unchanged(s, table, mover, result, table_id, before)
    await assert_play_goes_on(s, mover, hand, choice, table_id, before)
    return result


def storage(s):
    return s.h.bot.service.storage


# -- the faults ---------------------------------------------------------------------------------


async def test_a_failed_commit_is_rolled_back_and_the_bot_keeps_working(server):
    s = server

    def deny_commit(action, arg1, *_):
        refused = action == sqlite3.SQLITE_TRANSACTION and arg1 == "COMMIT"
        return sqlite3.SQLITE_DENY if refused else sqlite3.SQLITE_OK

    async def inject():
        await storage(s).run_read(lambda db: db.connection.set_authorizer(deny_commit))

    async def clear():
        await storage(s).run_read(lambda db: db.connection.set_authorizer(None))

    await run_fault(s, inject, clear, logged=r"bot\.storage: database commit failed \(not authorized\)")
    # Settings written after the failure are really saved (no transaction was left open).
    shown = await s.h.slash("settings timer", {"minutes": 7}, user=s.admin, channel=s.channel)
    assert "7 min" in shown.text
    assert await storage(s).guild_settings(s.guild.id) == GuildSettings(False, 7)


async def test_a_failed_settings_write_does_not_claim_success(server):
    s = server
    await storage(s).run_read(lambda db: db.connection.execute("PRAGMA query_only = ON"))
    with s.h.expect_logged_error(r"database operation failed \(attempt to write a readonly database\)"):
        refused = await s.h.slash("settings timer", {"minutes": 7}, user=s.admin, channel=s.channel)
    assert refused.ephemeral and refused.text == CANNOT_SAVE
    await storage(s).run_read(lambda db: db.connection.execute("PRAGMA query_only = OFF"))
    assert await storage(s).guild_settings(s.guild.id) == GuildSettings(False, None)


async def test_a_database_that_refuses_writes_changes_nothing(server):
    s = server

    async def inject():
        await storage(s).run_read(lambda db: db.connection.execute("PRAGMA query_only = ON"))

    async def clear():
        await storage(s).run_read(lambda db: db.connection.execute("PRAGMA query_only = OFF"))

    await run_fault(s, inject, clear, logged=r"database operation failed \(attempt to write a readonly database\)")


async def test_a_write_failing_halfway_leaves_nothing_half_applied(server):
    """The table row is updated, then logging the move fails: both are undone, and the
    player gets the apology for an unexpected fault (logged once, with its traceback)."""
    s = server

    def deny_move_log(action, arg1, *_):
        return sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_INSERT and arg1 == "moves" else sqlite3.SQLITE_OK

    table, mover, hand, table_id = await paused_game(s)
    choice = first_move(hand)
    before = stored(s.db_path, table_id)
    await storage(s).run_read(lambda db: db.connection.set_authorizer(deny_move_log))
    with s.h.expect_logged_error(r"interaction failed.*not authorized") as expected:
        result = await move(s, mover, hand, choice)
    assert len(expected.records) == 1
    await storage(s).run_read(lambda db: db.connection.set_authorizer(None))
    assert result.ephemeral and "Sorry, something went wrong" in result.text
    assert stored(s.db_path, table_id) == before
    assert (await s.h.bot.service.table(table_id)).row.version == before[0]
    assert to_act(s, table) == [mover]
    await assert_play_goes_on(s, mover, hand, choice, table_id, before)


async def test_a_locked_database_gets_a_prompt_answer_and_nothing_changes(server, caplog):
    """Another connection holds the write lock: the click is deferred at once (the harness
    fails any acknowledgement later than Discord's 3 s), then the player is told."""
    s = server
    holder = sqlite3.connect(s.db_path, isolation_level=None)

    async def inject():
        holder.execute("BEGIN IMMEDIATE")

    async def clear():
        holder.execute("ROLLBACK")

    caplog.set_level(logging.WARNING, logger="bot.storage")
    try:
        refused = await run_fault(s, inject, clear, logged=None)
    finally:
        holder.close()
    assert refused.response_type == 6 and refused.followups[-1].ephemeral  # deferred, then told
    locked = [r for r in caplog.records if r.name == "bot.storage"]
    assert [(r.levelno, r.getMessage()) for r in locked] == [
        (logging.WARNING, "database operation failed (database is locked); rolled back, nothing was saved")]


# -- a full disk: a small filesystem of its own --------------------------------------------------


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MiB tmpfs (CI runs as root); without the right to mount one the test cannot run."""
    mount = tmp_path / "small"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def fill(directory: Path) -> Path:
    """Fill the filesystem to the last byte; delete the returned file to free it."""
    filler = directory / "filler"
    with open(filler, "wb", buffering=0) as out:
        for size in (1 << 16, 1 << 12, 1 << 8, 1):
            with contextlib.suppress(OSError):
                while True:
                    out.write(b"\0" * size)
    with pytest.raises(OSError) as full:
        (directory / "probe").write_bytes(b"x" * 4096)
    assert full.value.errno == errno.ENOSPC
    return filler


async def test_a_full_disk_refuses_the_move_and_play_goes_on_when_space_returns(small_disk):
    async with DiscordHarness() as h:
        s = make_server(h, small_disk)
        await start_bot(h, s.db_path)
        filler: list[Path] = []

        async def inject():
            # An empty write-ahead log, so the move's commit needs new space on the disk.
            await storage(s).run_read(lambda db: db.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall())
            filler.append(fill(small_disk))

        async def clear():
            filler.pop().unlink()
            (small_disk / "probe").unlink(missing_ok=True)

        await run_fault(s, inject, clear, logged=r"database (commit|operation) failed \(database or disk is full\)")


async def test_an_ai_turn_the_database_could_not_save_is_played_when_the_lock_goes(server, caplog):
    """The player's move is saved; the AI's reply meets a locked database, and is played
    (by the retry) once the lock is released: the game does not stall."""
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", ai=1)
    service = s.h.bot.service
    table_id = (await service.storage.open_table_in(s.channel.id))
    holder = sqlite3.connect(s.db_path, isolation_level=None)
    autoplay = service.autoplay
    kick = autoplay.kick_ai

    def lock_then_kick(row):  # the lock is taken between the player's commit and the AI's turn
        autoplay.kick_ai = kick
        holder.execute("BEGIN IMMEDIATE")
        kick(row)

    while to_act(s, table) != [s.user("ana")]:
        await s.h.settle()
    before = stored(s.db_path, table_id)
    s.h.ignore_tasks("publication-")  # what the table message shows is stored when the lock goes, or next time
    autoplay.kick_ai = lock_then_kick
    caplog.set_level(logging.WARNING, logger="bot.storage")
    try:
        await play_turn(s, table)
        after_player = stored(s.db_path, table_id)
        assert after_player[0] == before[0] + 1
        assert "database is locked" in caplog.text
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    await s.h.wait_until(lambda: stored(s.db_path, table_id)[0] > after_player[0], timeout=10,
                         what="the AI's turn, retried after the lock was released")
    await s.h.settle()
    assert (await service.table(table_id)).row.version == stored(s.db_path, table_id)[0]


# -- PostgreSQL ------------------------------------------------------------------------------


@pytest.fixture
async def pg_discord(tmp_path, pg_url):
    """The Discord-level server with the real bot on a fresh PostgreSQL database."""
    async with DiscordHarness() as h:
        s = dataclasses.replace(make_server(h, tmp_path), db_path=pg_url)
        await start_bot(h, pg_url)
        yield s


async def stored_in(storage: Storage, table_id: int) -> tuple[int, int, str]:
    """``(version, moves logged, recent events)`` as committed, read through the storage."""
    return tuple(await storage.run_read(lambda db: db.fetchrow(
        "SELECT version, (SELECT COUNT(*) FROM moves WHERE table_id = ?), recent_events FROM tables WHERE id = ?",
        (table_id, table_id))))


async def test_a_lost_postgresql_server_refuses_moves_then_play_goes_on(pg_server, pg_discord):
    """The server drops every connection and takes no new ones: the move is refused (nothing
    changes), and once the database is back the same move plays, with no restart."""
    s = pg_discord
    table, mover, hand, table_id = await paused_game(s)
    choice = first_move(hand)
    before = await stored_in(storage(s), table_id)
    name = s.db_path.rsplit("/", 1)[-1]
    pg_server.sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    pg_server.sql(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
    try:
        with s.h.expect_logged_error(r"bot\.storage: database (move|connection|read) failed"):
            result = await move(s, mover, hand, choice)
    finally:
        pg_server.sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    assert answer(result) == CANNOT_SAVE
    assert result.ephemeral or result.followups[-1].ephemeral
    assert await stored_in(storage(s), table_id) == before
    assert (await s.h.bot.service.table(table_id)).row.version == before[0]
    assert to_act(s, table) == [mover]
    played = await move(s, mover, hand, choice)
    assert answer(played) != CANNOT_SAVE
    version, moves, _ = await stored_in(storage(s), table_id)
    assert version > before[0] and moves > before[1]


async def test_a_click_answered_after_discords_three_seconds_is_one_warning_line(server, caplog):
    """A bot too slow for Discord's 3 s (far over its budget, or a stalled machine) gets
    "Unknown interaction" for its answer: one warning line, not an error with a traceback."""
    s = server
    s.h.ack_deadline = 0.0  # every answer comes too late
    caplog.set_level(logging.WARNING)
    with pytest.raises(AssertionError) as refused:  # the harness reports what Discord refused
        await s.h.slash("rules", {"game": "q2j"}, user=s.user("ana"), channel=s.channel)
    assert "acknowledged after" in str(refused.value) and "logged error" not in str(refused.value), refused.value
    late = [r for r in caplog.records if "3 s" in r.getMessage()]
    assert len(late) == 1 and late[0].levelno == logging.WARNING and late[0].exc_info is None, caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_a_click_whose_steps_are_each_slow_is_deferred_within_the_deadline(server, monkeypatch):
    """A move that is slow to commit and then slow to draw is deferred once its whole answer
    runs late, not only when one step alone does: two steps just under a second each made a
    move answer after Discord's deadline on a busy machine."""
    import asyncio

    import cogs.common
    import cogs.moves

    s = server
    table, mover, hand, _ = await paused_game(s)
    monkeypatch.setattr(cogs.common, "ACK_DEADLINE", 0.3)
    s.h.ack_deadline = 1.0
    play = s.h.bot.service.play
    commit, draw = play.move, cogs.moves.hand_picture

    async def slow_move(*args, **kwargs):
        await asyncio.sleep(0.6)
        return await commit(*args, **kwargs)

    async def slow_drawing(*args, **kwargs):
        await asyncio.sleep(0.6)
        return await draw(*args, **kwargs)

    monkeypatch.setattr(play, "move", slow_move)
    monkeypatch.setattr(cogs.moves, "hand_picture", slow_drawing)
    result = await move(s, mover, hand, first_move(hand))
    assert result.response_type == 6, result  # deferred, then the hand edited in place
    assert to_act(s, table) != [mover]
