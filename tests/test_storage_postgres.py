"""What only the PostgreSQL backend has, on a real server: the schema_version table, the
advisory lock around a move, several processes on one database, a server lost and back,
an unreachable URL at start-up."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest

from bot.errors import DatabaseUnreachable, StorageUnavailable
from bot.migrations import POSTGRES_MIGRATIONS
from bot.storage import MoveRecord, Storage
from tests.pgserver import PostgresServer, free_port
from tests.test_storage import new_table, update

REPO_ROOT = Path(__file__).resolve().parent.parent
MOVE = MoveRecord(0, {"kind": "draw", "args": []}, False, 2.0)


async def running_table(storage: Storage, channel_id: int = 10) -> int:
    table_id = await new_table(storage, channel_id)
    row = await storage.get_table(table_id)
    assert await storage.start_table(table_id, expected_version=0, seats=row.seats, update=update(0), now=1.0)
    return table_id


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


async def test_migrations_are_recorded_in_schema_version(pg_url):
    storage = await Storage.open(pg_url)
    await storage.close()
    storage = await Storage.open(pg_url)  # a second start applies nothing again
    versions = await storage.run_read(lambda db: db.fetch("SELECT version FROM schema_version ORDER BY version"))
    assert [v[0] for v in versions] == list(range(1, len(POSTGRES_MIGRATIONS) + 1))
    assert await storage.schema_version() == len(POSTGRES_MIGRATIONS)
    await storage.close()


async def test_processes_starting_together_migrate_once(pg_url):
    storages = await asyncio.gather(*(Storage.open(pg_url) for _ in range(3)))
    assert [await s.schema_version() for s in storages] == [len(POSTGRES_MIGRATIONS)] * 3
    for storage in storages:
        await storage.close()


async def test_a_move_waits_for_the_advisory_lock_on_its_table(pg_url):
    storage = await Storage.open(pg_url)
    table_id = await running_table(storage)
    other = await running_table(storage, channel_id=11)
    holder = await asyncpg.connect(pg_url)
    await holder.execute("BEGIN")
    await holder.execute("SELECT pg_advisory_xact_lock($1)", table_id)
    moving = asyncio.ensure_future(storage.commit_moves(table_id, expected_version=1, moves=[MOVE], update=update(1)))
    waiting = "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1"
    for _ in range(500):
        if await holder.fetchval(waiting, table_id):
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the move never asked for its table's lock")
    # Another table's move is not held up by it.
    assert await storage.commit_moves(other, expected_version=1, moves=[MOVE], update=update(1))
    assert not moving.done() and (await storage.get_table(table_id)).version == 1
    await holder.execute("COMMIT")
    assert await moving
    assert (await storage.get_table(table_id)).version == 2
    await holder.close()
    await storage.close()


async def test_a_second_process_with_a_stale_copy_is_stopped_by_the_version_guard(pg_url):
    first, second = await Storage.open(pg_url), await Storage.open(pg_url)
    table_id = await running_table(first)
    stale = await second.get_table(table_id)
    assert await first.commit_moves(table_id, expected_version=1, moves=[MOVE], update=update(1))
    assert not await second.commit_moves(table_id, expected_version=stale.version, moves=[MOVE], update=update(9))
    fresh = await second.get_table(table_id)  # it reloads and sees the other process's move
    assert fresh.version == 2 and fresh.state == {"n": 1}
    assert await second.move_log(table_id) == [(0, MOVE.action, False)]
    await first.close()
    await second.close()


async def test_a_lost_server_refuses_moves_then_recovers_by_itself(pg_server, pg_url, caplog):
    storage = await Storage.open(pg_url)
    table_id = await running_table(storage)
    name = database_name(pg_url)
    pg_server.sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    pg_server.sql(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
    try:
        for _ in range(2):  # every call while it is gone, not just the first
            with pytest.raises(StorageUnavailable, match="can't save moves right now; nothing changed"):
                await storage.commit_moves(table_id, expected_version=1, moves=[MOVE], update=update(1))
        with pytest.raises(StorageUnavailable):
            await storage.set_guild_settings(5, timer_minutes=3)
    finally:
        pg_server.sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    assert all(r.name == "bot.storage" and r.levelname == "ERROR" for r in caplog.records) and caplog.records
    row = await storage.get_table(table_id)
    assert row.version == 1 and row.state == {"n": 0}  # nothing was half applied
    assert await storage.commit_moves(table_id, expected_version=1, moves=[MOVE], update=update(1))
    assert (await storage.get_table(table_id)).version == 2
    await storage.close()


async def test_a_server_that_shuts_down_and_comes_back_is_used_again(pg_server):
    """The whole server stops (connections refused), then starts again: no restart of the bot."""
    with PostgresServer(pg_server.binaries) as own:  # its own server, so no other test is disturbed
        storage = await Storage.open(own.create_database())
        table_id = await running_table(storage)
        own.pause()
        try:
            with pytest.raises(StorageUnavailable):
                await storage.commit_moves(table_id, expected_version=1, moves=[MOVE], update=update(1))
            with pytest.raises(StorageUnavailable):
                await storage.get_table(table_id)
        finally:
            own.resume()
        assert (await storage.get_table(table_id)).version == 1
        assert await storage.commit_moves(table_id, expected_version=1, moves=[MOVE], update=update(1))
        await storage.close()


async def test_an_unreachable_server_is_one_clear_error_without_the_password():
    url = f"postgresql://deckhand:hunter2@127.0.0.1:{free_port()}/deckhand"
    with pytest.raises(DatabaseUnreachable) as refused:
        await Storage.open(url)
    assert "hunter2" not in str(refused.value)
    assert str(refused.value).startswith("cannot reach the PostgreSQL database postgresql://deckhand:***@127.0.0.1")


def test_the_bot_exits_with_one_line_when_the_database_cannot_be_reached(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DECKHAND_", "DISCORD_", "DEV_GUILD"))}
    env.update(DISCORD_TOKEN="fake-token", DECKHAND_DB=f"postgresql://deckhand@127.0.0.1:{free_port()}/deckhand")
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env={**env, "PYTHONPATH": str(REPO_ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("deckhand: cannot reach the PostgreSQL database postgresql://deckhand@127.0.0.1:")
    assert line.endswith("check DECKHAND_DB and that the database server is running.")
