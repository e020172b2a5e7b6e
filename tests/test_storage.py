"""Storage on both backends (a real SQLite file, a real PostgreSQL database): migrations, the
one-open-table rule, version-guarded moves, settings. What only one backend has is in
test_storage_sqlite.py and test_storage_postgres.py."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.migrations import MIGRATIONS, POSTGRES_MIGRATIONS
from bot.storage import ChannelBusy, GuildSettings, MoveRecord, OpenTable, SeatRow, Session, Storage, TableUpdate


async def new_table(storage: Storage, channel_id: int = 10) -> int:
    return await storage.create_table(
        guild_id=1, channel_id=channel_id, game_id="q2j", options={"variant": "classic"}, host_id=100,
        host_name="Ana", seed=42, timer_minutes=10, now=1000.0,
    )


def update(n: int, status: str = "running") -> TableUpdate:
    return TableUpdate(state={"n": n}, status=status, deadline=None, reminded=False, recent_events=[f"move {n}"])


def test_both_dialects_have_the_same_numbered_migrations():
    assert len(POSTGRES_MIGRATIONS) == len(MIGRATIONS)


async def test_migrations_run_once_and_record_the_version(open_storage, db_url):
    storage = await open_storage(db_url)
    assert await storage.schema_version() == len(MIGRATIONS)
    await storage.close()
    storage = await open_storage(db_url)  # a second start applies nothing again
    assert await storage.schema_version() == len(MIGRATIONS)
    versions = await storage.run_read(lambda db: db.fetch("SELECT version FROM schema_version ORDER BY version"))
    assert [r[0] for r in versions] == list(range(1, len(MIGRATIONS) + 1))
    await storage.close()


async def test_a_file_from_before_schema_version_records_its_migrations(open_storage, tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.executescript(MIGRATIONS[0] + MIGRATIONS[1] + "PRAGMA user_version = 2;")
    storage = await open_storage(path)
    versions = await storage.run_read(lambda db: db.fetch("SELECT version, applied_at FROM schema_version"))
    assert [r[0] for r in versions] == list(range(1, len(MIGRATIONS) + 1))
    assert [r[1] is None for r in versions] == [True, True] + [False] * (len(MIGRATIONS) - 2)
    assert await storage.schema_version() == len(MIGRATIONS)
    await storage.close()


async def test_one_open_table_per_channel(open_storage, db_url):
    storage = await open_storage(db_url)
    first = await new_table(storage)
    with pytest.raises(ChannelBusy):
        await new_table(storage)
    assert await new_table(storage, channel_id=11) != first
    await storage.update_table(first, status="cancelled")
    await new_table(storage)  # the channel is free again
    await storage.close()


async def test_table_round_trip_with_seats(open_storage, db_url):
    storage = await open_storage(db_url)
    table_id = await new_table(storage)
    await storage.set_seats(table_id, [SeatRow(0, 100, "Ana", False), SeatRow(1, None, "AI 1", True, ai_level="hard")])
    row = await storage.get_table(table_id)
    assert row.status == "lobby" and row.options == {"variant": "classic"} and row.seed == 42 and not row.hinted
    assert [(s.seat, s.name, s.is_ai, s.ai_level) for s in row.seats] == [
        (0, "Ana", False, None), (1, "AI 1", True, "hard")]
    assert await storage.update_table(table_id, hinted=True) and (await storage.get_table(table_id)).hinted
    assert row.seat_of(100).seat == 0 and row.seat_of(999) is None
    await storage.close()


async def test_moves_are_version_guarded_and_logged(open_storage, db_url):
    storage = await open_storage(db_url)
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


async def test_a_failing_transaction_leaves_nothing_behind(open_storage, db_url):
    storage = await open_storage(db_url)
    table_id = await new_table(storage)

    async def half_then_fail(db: Session) -> None:
        await db.execute("UPDATE tables SET status = 'running' WHERE id = ?", (table_id,))
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        await storage.run_write(half_then_fail)
    assert (await storage.get_table(table_id)).status == "lobby"
    await storage.close()


async def test_committed_moves_survive_reopening(open_storage, db_url):
    storage = await open_storage(db_url)
    table_id = await new_table(storage)
    row = await storage.get_table(table_id)
    await storage.start_table(table_id, expected_version=0, seats=row.seats, update=update(0), now=1.0)
    await storage.commit_moves(
        table_id, expected_version=1, moves=[MoveRecord(0, {"kind": "draw", "args": []}, True, 2.0)],
        update=update(1),
    )
    await storage.close()
    storage = await open_storage(db_url)
    assert [t.id for t in await storage.open_tables()] == [table_id]
    assert (await storage.get_table(table_id)).state == {"n": 1}
    await storage.close()


async def test_start_up_facts_and_tables_read_together(open_storage, db_url):
    storage = await open_storage(db_url)
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


async def test_guild_settings_default_and_update(open_storage, db_url):
    storage = await open_storage(db_url)
    assert await storage.guild_settings(5) == GuildSettings(False, None)
    await storage.set_guild_settings(5, use_threads=True)
    await storage.set_guild_settings(5, timer_minutes=3)
    assert await storage.guild_settings(5) == GuildSettings(True, 3)
    await storage.set_guild_settings(5, pictures=False, ai_level="hard")
    assert await storage.guild_settings(5) == GuildSettings(True, 3, pictures=False, ai_level="hard")
    with pytest.raises(ValueError, match="colour"):
        await storage.set_guild_settings(5, colour="red")
    await storage.close()


async def test_concurrent_moves_of_many_tables_all_commit(open_storage, db_url):
    """Moves of different tables at once (SQLite: one group commit; PostgreSQL: the pool),
    and a stale second move of each table refused by the version guard."""
    storage = await open_storage(db_url)
    tables = [await new_table(storage, channel) for channel in range(20, 40)]
    for table_id in tables:
        row = await storage.get_table(table_id)
        await storage.start_table(table_id, expected_version=0, seats=row.seats, update=update(0), now=1.0)
    move = MoveRecord(0, {"kind": "draw", "args": []}, False, 2.0)
    outcomes = await asyncio.gather(*(
        storage.commit_moves(t, expected_version=1, moves=[move], update=update(n))
        for t in tables for n in (1, 2)))
    for t, (first, second) in zip(tables, zip(outcomes[::2], outcomes[1::2])):
        assert first != second  # exactly one of the two moves made from version 1 is applied
        row = await storage.get_table(t)
        assert row.version == 2 and row.state["n"] == (1 if first else 2)
        assert await storage.move_log(t) == [(0, move.action, False)]
    await storage.close()


async def test_a_move_hands_seats_to_the_ai_and_counts_missed_turns(open_storage, db_url):
    storage = await open_storage(db_url)
    table_id = await new_table(storage)
    await storage.set_seats(table_id, [SeatRow(0, 100, "Ana", False), SeatRow(1, 101, "Ben", False)])
    row = await storage.get_table(table_id)
    await storage.start_table(table_id, expected_version=0, seats=row.seats, update=update(0), now=1.0)
    timed_out = TableUpdate(state={"n": 1}, status="running", deadline=5.0, reminded=False, recent_events=[],
                            missed_turns={0: 2}, ai_seats=[1])
    assert await storage.commit_moves(
        table_id, expected_version=1, moves=[MoveRecord(1, {"kind": "pass"}, True, 3.0)], update=timed_out)
    seats = (await storage.get_table(table_id)).seats
    assert [(s.missed_turns, s.is_ai) for s in seats] == [(2, False), (0, True)]
    assert await storage.unrecorded_table_ids() == []
    assert await storage.open_table_in(10) == table_id
    await storage.set_meta("synced", "abc")
    await storage.set_meta("synced", "def")
    assert await storage.get_meta("synced") == "def" and await storage.get_meta("other") is None
    await storage.close()
