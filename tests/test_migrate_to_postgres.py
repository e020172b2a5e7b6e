"""``python -m bot migrate-to-postgres``: a real SQLite deployment copied into a real PostgreSQL
database, everything readable there as it was; refusals are one clear line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.migrate_to_postgres import TABLES
from bot.service import GameService, Player
from bot.storage import Storage
from tests.test_results import ANA, BEN, CAT, finished_game

REPO_ROOT = Path(__file__).resolve().parent.parent


def migrate(*args: str) -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("DECKHAND_")}, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run([sys.executable, "-m", "bot", "migrate-to-postgres", *args], env=env,
                          capture_output=True, text=True, timeout=120)


async def snapshot(storage: Storage) -> dict:
    """Everything a player or admin can see, read through the storage."""
    service = GameService(storage, ai_delay=0)
    table_ids = [r[0] for r in await storage.run_read(lambda db: db.fetch("SELECT id FROM tables ORDER BY id"))]
    seen = {
        "tables": await storage.get_tables(table_ids),
        "logs": [await storage.move_log(t) for t in table_ids],
        "history": await service.results.history(9, limit=100),
        "board": await service.results.leaderboard(9, None),
        "stats": await service.results.stats(9, ANA.user_id, "q2j"),
        "settings": await storage.guild_settings(9),
        "meta": await storage.get_meta("synced"),
        "board_since": await service.results.board_since(9),
    }
    await service.close()
    return seen


@pytest.fixture
async def deployment(tmp_path) -> Path:
    """A SQLite file with finished, rated games, an unfinished one, settings and a meta fact."""
    path = tmp_path / "deckhand.sqlite3"
    storage = await Storage.open(path)
    service = GameService(storage, ai_delay=0, new_seed=lambda: 11)
    await finished_game(service, [ANA, BEN], channel=50)
    await finished_game(service, [BEN, CAT, ANA], channel=51)
    await finished_game(service, [ANA], ai=1, channel=52)
    lobby = await service.lobbies.open(guild_id=9, channel_id=53, game_id="q2j", options={}, host=CAT, timer_minutes=5)
    await service.lobbies.join(lobby.row.id, Player(4, "Dan", 9))
    await service.lobbies.start(lobby.row.id, CAT)
    await storage.set_guild_settings(9, use_threads=True, timer_minutes=4, ai_level="hard")
    await storage.set_meta("synced", "abc123")
    await service.close()
    await storage.close()
    return path


async def test_every_row_is_copied_and_reads_the_same(deployment, pg_url):
    source = await Storage.open(deployment)
    before = await snapshot(source)
    await source.close()
    done = migrate(str(deployment), pg_url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("; the counts match")
    assert all(f" {table}" in done.stdout for table in TABLES)
    target = await Storage.open(pg_url)
    after = await snapshot(target)
    assert after == before
    assert before["history"] and before["board"] and before["stats"].rating is not None
    # New tables are numbered after the copied ones.
    new = await target.create_table(guild_id=9, channel_id=60, game_id="q2j", options={}, host_id=1,
                                    host_name="Ana", seed=1, timer_minutes=0, now=1.0)
    assert new > max(t.id for t in before["tables"])
    await target.close()


async def test_a_database_that_already_holds_data_is_refused(deployment, pg_url):
    assert migrate(str(deployment), pg_url).returncode == 0
    again = migrate(str(deployment), pg_url)
    assert again.returncode == 1 and "Traceback" not in again.stderr
    [line] = again.stderr.strip().splitlines()
    assert line.startswith("deckhand: migrate-to-postgres: the PostgreSQL database already holds Deckhand data (")
    assert line.endswith("migrate into an empty database")


def test_bad_arguments_are_one_clear_line(tmp_path, pg_url):
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("hello, this is not SQLite" * 100)
    other_sqlite = tmp_path / "other.sqlite3"
    subprocess.run([sys.executable, "-c", f"import sqlite3; sqlite3.connect({str(other_sqlite)!r}).execute("
                    "'CREATE TABLE x (y)')"], check=True)
    cases = [
        ((str(tmp_path / "missing.sqlite3"), pg_url), "does not exist"),
        ((str(not_a_database), pg_url), "is not a SQLite database"),
        ((str(other_sqlite), pg_url), "is not a Deckhand database"),
        ((str(other_sqlite), str(tmp_path / "b.sqlite3")), "is not a postgresql:// URL"),
    ]
    for args, reason in cases:
        done = migrate(*args)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        [line] = done.stderr.strip().splitlines()
        assert line.startswith("deckhand: migrate-to-postgres: ") and reason in line, line
