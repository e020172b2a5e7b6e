"""Storage against a real SQLite file: migrations, the one-open-table rule, version-guarded moves."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.errors import StorageUnavailable
from bot.migrations import MIGRATIONS
from bot.storage import ChannelBusy, GuildSettings, MoveRecord, OpenTable, SeatRow, Storage, TableUpdate


async def open_storage(tmp_path):
    return await Storage.open(tmp_path / "deckhand.sqlite3")


async def new_table(storage: Storage, channel_id: int = 10) -> int:
    return await storage.create_table(
        guild_id=1, channel_id=channel_id, game_id="q2j", options={"variant": "classic"}, host_id=100,
        host_name="Ana", seed=42, timer_minutes=10, now=1000.0,
    )


def update(n: int, status: str = "running") -> TableUpdate:
    return TableUpdate(state={"n": n}, status=status, deadline=None, reminded=False, recent_events=[f"move {n}"])


async def test_migrations_run_once_and_record_the_version(tmp_path):
    storage = await open_storage(tmp_path)
    assert await storage.schema_version() == len(MIGRATIONS)
    await storage.close()
    storage = await open_storage(tmp_path)  # a second start applies nothing again
    assert await storage.schema_version() == len(MIGRATIONS)
    await storage.close()


async def test_pragmas_are_durable_by_default(tmp_path):
    storage = await open_storage(tmp_path)
    def pragma(name: str):
        return storage.run_read(lambda conn: conn.execute(f"PRAGMA {name}").fetchone()[0])

    assert await pragma("synchronous") == 2  # FULL
    assert await pragma("journal_mode") == "wal"
    assert await pragma("foreign_keys") == 1
    assert await pragma("secure_delete") == 1
    assert await pragma("busy_timeout") == 2000
    await storage.close()


async def test_one_open_table_per_channel(tmp_path):
    storage = await open_storage(tmp_path)
    first = await new_table(storage)
    with pytest.raises(ChannelBusy):
        await new_table(storage)
    assert await new_table(storage, channel_id=11) != first
    await storage.update_table(first, status="cancelled")
    await new_table(storage)  # the channel is free again
    await storage.close()


async def test_table_round_trip_with_seats(tmp_path):
    storage = await open_storage(tmp_path)
    table_id = await new_table(storage)
    await storage.set_seats(table_id, [SeatRow(0, 100, "Ana", False), SeatRow(1, None, "AI 1", True, ai_level="hard")])
    row = await storage.get_table(table_id)
    assert row.status == "lobby" and row.options == {"variant": "classic"} and row.seed == 42 and not row.hinted
    assert [(s.seat, s.name, s.is_ai, s.ai_level) for s in row.seats] == [
        (0, "Ana", False, None), (1, "AI 1", True, "hard")]
    assert await storage.update_table(table_id, hinted=True) and (await storage.get_table(table_id)).hinted
    assert row.seat_of(100).seat == 0 and row.seat_of(999) is None
    await storage.close()


async def test_moves_are_version_guarded_and_logged(tmp_path):
    storage = await open_storage(tmp_path)
    table_id = await new_table(storage)
    row = await storage.get_table(table_id)
    assert await storage.start_table(table_id, expected_version=0, seats=row.seats, update=update(0), now=1.0)
    move = MoveRecord(0, {"kind": "draw", "args": []}, False, 2.0)
    assert await storage.commit_moves(table_id, expected_version=1, moves=[move], update=update(1))
    # The same move again (a double click that got past the lock) is refused and writes nothing.
    assert not await storage.commit_moves(table_id, expected_version=1, moves=[move], update=update(99))
    row = await storage.get_table(table_id)
    assert row.version == 2 and row.state == {"n": 1} and row.recent_events == ["move 1"]
    assert await storage.move_log(table_id) == [(0, {"kind": "draw", "args": []}, False)]
    await storage.close()


async def test_a_failing_transaction_leaves_nothing_behind(tmp_path):
    storage = await open_storage(tmp_path)
    table_id = await new_table(storage)

    def half_then_fail(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE tables SET status = 'running' WHERE id = ?", (table_id,))
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        await storage.run_write(half_then_fail)
    assert (await storage.get_table(table_id)).status == "lobby"
    await storage.close()


async def test_committed_moves_survive_reopening(tmp_path):
    storage = await open_storage(tmp_path)
    table_id = await new_table(storage)
    row = await storage.get_table(table_id)
    await storage.start_table(table_id, expected_version=0, seats=row.seats, update=update(0), now=1.0)
    await storage.commit_moves(
        table_id, expected_version=1, moves=[MoveRecord(0, {"kind": "draw", "args": []}, True, 2.0)],
        update=update(1),
    )
    await storage.close()
    storage = await open_storage(tmp_path)
    assert [t.id for t in await storage.open_tables()] == [table_id]
    assert (await storage.get_table(table_id)).state == {"n": 1}
    await storage.close()


async def test_start_up_facts_and_tables_read_together(tmp_path):
    storage = await open_storage(tmp_path)
    first, second = await new_table(storage, 10), await new_table(storage, 11)
    await storage.set_seats(second, [SeatRow(0, 1, "Ana", False), SeatRow(1, None, "AI", True)])
    row = await storage.get_table(second)
    timed = TableUpdate(state={"n": 0}, status="running", deadline=99.0, reminded=True, recent_events=[])
    await storage.start_table(second, expected_version=0, seats=row.seats, update=timed, now=1.0)
    assert await storage.open_tables() == [
        OpenTable(first, "lobby", None, False, 10, False), OpenTable(second, "running", 99.0, True, 10, True)]
    tables = await storage.get_tables([second, 12345, first])
    assert [t.id for t in tables] == [first, second]
    assert [[s.name for s in t.seats] for t in tables] == [["Ana"], ["Ana", "AI"]]
    await storage.close()


async def test_guild_settings_default_and_update(tmp_path):
    storage = await open_storage(tmp_path)
    assert await storage.guild_settings(5) == GuildSettings(False, None)
    await storage.set_guild_settings(5, use_threads=True)
    await storage.set_guild_settings(5, timer_minutes=3)
    assert await storage.guild_settings(5) == GuildSettings(True, 3)
    await storage.set_guild_settings(5, pictures=False, ai_level="hard")
    assert await storage.guild_settings(5) == GuildSettings(True, 3, pictures=False, ai_level="hard")
    with pytest.raises(ValueError, match="colour"):
        await storage.set_guild_settings(5, colour="red")
    await storage.close()


def deny_commit(action, arg1, *_):
    return sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_TRANSACTION and arg1 == "COMMIT" else sqlite3.SQLITE_OK


async def test_a_failed_commit_rolls_back_and_the_next_transaction_works(tmp_path, caplog):
    storage = await open_storage(tmp_path)
    first, second = await new_table(storage, 10), await new_table(storage, 11)
    for table_id in (first, second):
        row = await storage.get_table(table_id)
        await storage.start_table(table_id, expected_version=0, seats=row.seats, update=update(0), now=1.0)
    await storage.run_read(lambda conn: conn.set_authorizer(deny_commit))
    move = MoveRecord(0, {"kind": "draw", "args": []}, False, 2.0)
    # Two tables' moves in one group commit, and a single transaction: all refused, all rolled back.
    moves = [storage.commit_moves(t, expected_version=1, moves=[move], update=update(1)) for t in (first, second)]
    outcomes = await asyncio.gather(*moves, storage.set_guild_settings(5, timer_minutes=3), return_exceptions=True)
    assert [type(o) for o in outcomes] == [StorageUnavailable] * 3
    assert [r.getMessage() for r in caplog.records if r.name == "bot.storage"] == [
        "database commit failed (not authorized); rolled back, nothing was saved"] * 2
    assert not await storage.run_read(lambda conn: conn.in_transaction)
    await storage.run_read(lambda conn: conn.set_authorizer(None))
    assert [(await storage.get_table(t)).version for t in (first, second)] == [1, 1]
    assert await storage.guild_settings(5) == GuildSettings(False, None)
    assert await storage.commit_moves(first, expected_version=1, moves=[move], update=update(1))
    await storage.set_guild_settings(5, timer_minutes=3)
    await storage.close()
    storage = await open_storage(tmp_path)
    assert (await storage.get_table(first)).version == 2 and await storage.guild_settings(5) == GuildSettings(False, 3)
    await storage.close()


async def test_a_lock_held_elsewhere_is_waited_for_briefly_then_reported(tmp_path, caplog):
    storage = await Storage.open(tmp_path / "deckhand.sqlite3", busy_timeout=0.05)
    table_id = await new_table(storage)
    holder = sqlite3.connect(tmp_path / "deckhand.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    with pytest.raises(StorageUnavailable, match="can't save moves right now; nothing changed"):
        await storage.update_table(table_id, status="cancelled")
    assert [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "bot.storage"] == [
        ("WARNING", "database operation failed (database is locked); rolled back, nothing was saved")]
    holder.execute("ROLLBACK")
    holder.close()
    assert await storage.update_table(table_id, status="cancelled")
    assert (await storage.get_table(table_id)).status == "cancelled"
    await storage.close()
