"""What only the SQLite backend has: pragmas, group commit through a failed COMMIT, busy waits."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.errors import StorageUnavailable
from bot.storage import GuildSettings, MoveRecord
from tests.test_storage import new_table, update


async def test_pragmas_are_durable_by_default(open_storage, tmp_path):
    storage = await open_storage(tmp_path / "deckhand.sqlite3")
    def pragma(name: str):
        return storage.run_read(lambda db: db.connection.execute(f"PRAGMA {name}").fetchone()[0])

    assert await pragma("synchronous") == 2  # FULL
    assert await pragma("journal_mode") == "wal"
    assert await pragma("foreign_keys") == 1
    assert await pragma("secure_delete") == 1
    assert await pragma("busy_timeout") == 2000
    await storage.close()


def deny_commit(action, arg1, *_):
    return sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_TRANSACTION and arg1 == "COMMIT" else sqlite3.SQLITE_OK


async def test_a_failed_commit_rolls_back_and_the_next_transaction_works(open_storage, tmp_path, caplog):
    storage = await open_storage(tmp_path / "deckhand.sqlite3")
    first, second = await new_table(storage, 10), await new_table(storage, 11)
    for table_id in (first, second):
        row = await storage.get_table(table_id)
        await storage.start_table(table_id, expected_version=0, seats=row.seats, update=update(0), now=1.0)
    await storage.run_read(lambda db: db.connection.set_authorizer(deny_commit))
    move = MoveRecord(0, {"kind": "draw", "args": []}, False, 2.0)
    # Two tables' moves and a settings change in one group commit: all refused, all rolled back.
    moves = [storage.commit_moves(t, expected_version=1, moves=[move], update=update(1)) for t in (first, second)]
    outcomes = await asyncio.gather(*moves, storage.set_guild_settings(5, timer_minutes=3), return_exceptions=True)
    assert [type(o) for o in outcomes] == [StorageUnavailable] * 3
    assert [r.getMessage() for r in caplog.records if r.name == "bot.storage"] == [
        "database commit failed (not authorized); rolled back, nothing was saved"]  # one transaction
    assert not await storage.run_read(lambda db: db.connection.in_transaction)
    await storage.run_read(lambda db: db.connection.set_authorizer(None))
    assert [(await storage.get_table(t)).version for t in (first, second)] == [1, 1]
    assert await storage.guild_settings(5) == GuildSettings(False, None)
    assert await storage.commit_moves(first, expected_version=1, moves=[move], update=update(1))
    await storage.set_guild_settings(5, timer_minutes=3)
    await storage.close()
    storage = await open_storage(tmp_path / "deckhand.sqlite3")
    assert (await storage.get_table(first)).version == 2 and await storage.guild_settings(5) == GuildSettings(False, 3)
    await storage.close()


async def test_a_move_failing_in_a_group_commit_fails_alone(open_storage, tmp_path):
    """Moves of several tables share one transaction; one whose statements fail (here a move
    log row already taken by a stray write) is rolled back alone and the others commit."""
    storage = await open_storage(tmp_path / "deckhand.sqlite3")
    tables = [await new_table(storage, 20 + i) for i in range(3)]
    for table_id in tables:
        row = await storage.get_table(table_id)
        await storage.start_table(table_id, expected_version=0, seats=row.seats, update=update(0), now=1.0)
    stray = tables[1]
    await storage.run_write(lambda db: db.execute(
        "INSERT INTO moves (table_id, version, seat, action, by_ai, at) VALUES (?, 2, 0, '{}', 0, 0)", (stray,)))
    move = MoveRecord(0, {"kind": "draw", "args": []}, False, 2.0)
    outcomes = await asyncio.gather(*(
        storage.commit_moves(t, expected_version=1, moves=[move], update=update(1)) for t in tables
    ), return_exceptions=True)
    assert outcomes[0] is True and outcomes[2] is True
    assert isinstance(outcomes[1], Exception)
    assert [(await storage.get_table(t)).version for t in tables] == [2, 1, 2]
    assert [len(await storage.move_log(t)) for t in tables] == [1, 1, 1]
    await storage.close()


async def test_lobby_and_settings_writes_share_the_group_commit_and_fail_alone(open_storage, tmp_path):
    """Every write joins the shared transaction, not only moves: writes queued together
    take one hop to the database thread, and one that raises is rolled back alone."""
    storage = await open_storage(tmp_path / "deckhand.sqlite3")
    table_id = await new_table(storage, 30)
    hops = 0
    in_thread = storage._in_thread

    async def counted(fn):
        nonlocal hops
        hops += 1
        return await in_thread(fn)

    storage._in_thread = counted

    async def half_then_refuse(db):
        await db.execute("UPDATE tables SET timer_minutes = 99 WHERE id = ?", (table_id,))
        raise ValueError("refused halfway")

    outcomes = await asyncio.gather(
        storage.set_guild_settings(6, timer_minutes=4), storage.run_write(half_then_refuse),
        new_table(storage, 31), return_exceptions=True)
    assert hops == 1
    assert outcomes[0] is None and isinstance(outcomes[1], ValueError) and isinstance(outcomes[2], int)
    assert (await storage.get_table(table_id)).timer_minutes != 99
    assert (await storage.get_table(outcomes[2])).channel_id == 31
    assert (await storage.guild_settings(6)).timer_minutes == 4
    await storage.close()


async def test_a_lock_held_elsewhere_is_waited_for_briefly_then_reported(open_storage, tmp_path, caplog):
    storage = await open_storage(tmp_path / "deckhand.sqlite3", busy_timeout=0.05)
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
