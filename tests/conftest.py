"""Fixtures shared by the tests: the Discord-level server, and the databases both storage
backends run on (a SQLite file, and a fresh database on a real PostgreSQL server)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.garbage_collection import tune_garbage_collection
from bot.storage import Storage
from tests.discord_play import PLAYERS, make_server, pictures_off, start_bot
from tests.fakediscord import DiscordHarness
from tests.pgserver import MISSING, PostgresServer, find_binaries

BACKENDS = ("sqlite", "postgresql")

# Compiled modules are written to __pycache__ (ignored by git) even where PYTHONDONTWRITEBYTECODE
# is set, as on this machine: otherwise each of the suite's workers and each of the seventy bot,
# AI-worker and command processes the tests start compiles every module again.
sys.dont_write_bytecode = False


MEMORY = Path("/dev/shm")
"""A file system in memory (tmpfs), where the machine has one."""
MEMORY_NEEDED = 2 << 30
"""Free room :data:`MEMORY` needs to hold the suite's temporary files, with plenty to spare."""


def pytest_configure(config: pytest.Config) -> None:
    """Temporary files go to memory when :data:`MEMORY` has the room and TMPDIR does not say
    otherwise: each test's folder (its SQLite files), the PostgreSQL servers' data, the
    browser's profile and the bot processes', through TMPDIR, which the workers and every
    process the tests start inherit. On this machine's disk, writing cost as much kernel time
    as the work itself (a new PostgreSQL database, 7.5 MB: a quarter of a second), and the
    suite took a tenth longer (bench/RESULTS.md, Test suite)."""
    if "TMPDIR" in os.environ:
        return
    try:
        roomy = os.access(MEMORY, os.W_OK) and shutil.disk_usage(MEMORY).free >= MEMORY_NEEDED
    except OSError:
        roomy = False
    if roomy:
        os.environ["TMPDIR"] = tempfile.tempdir = str(MEMORY)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--game", action="append", default=[], metavar="ID",
                     help="run the shared tests' items for this game only (items of no one game still run); "
                          "repeatable: docs/adding-a-game.md")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With ``--game``, leave out the items parametrized for another game (their ``game_id``)."""
    wanted = config.getoption("--game")
    if not wanted:
        return
    kept, dropped = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        game_id = callspec.params.get("game_id", wanted[0]) if callspec else wanted[0]
        (kept if game_id in wanted else dropped).append(item)
    config.hook.pytest_deselected(items=dropped)
    items[:] = kept


def pytest_collection_finish(session: pytest.Session) -> None:
    """The tests run the bot in their own process, so with the garbage collection ``python -m bot``
    sets (:mod:`bot.garbage_collection`): what collecting the tests loaded is frozen out of every
    collection, and the young generation is collected less often. The collector's CPU over the
    Discord-level and contract tests went from 3.1 to 0.5 s in 50 (measured with ``gc.callbacks``)."""
    tune_garbage_collection()


@pytest.fixture
async def server(tmp_path):
    """A server (guild, #games, four members and a moderator) with the real bot
    running on a fresh SQLite file, through discord.py's own dispatch."""
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path)
        yield s


@pytest.fixture
async def club(tmp_path):
    """A server with ten members besides its moderator, pictures off (the boards are text)."""
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path, names=PLAYERS)
        await start_bot(h, s.db_path)
        await pictures_off(s)
        yield s


@pytest.fixture
async def server_on_each_backend(tmp_path, db_url):
    """The ``server`` fixture once per backend: on a fresh SQLite file, then on a fresh
    PostgreSQL database (``db_path`` holds its URL)."""
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        s.db_path = db_url
        await start_bot(h, db_url)
        yield s


@pytest.fixture(scope="session")
def pg_server():
    """One real PostgreSQL server for the whole session (started on first use).

    Without server binaries the test is skipped with the reason, except in CI
    (``CI`` set), where a skipped PostgreSQL test would hide a missing install: it fails."""
    binaries = find_binaries()
    if binaries is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {MISSING}", pytrace=False)
        pytest.skip(MISSING)
    server = PostgresServer(binaries).start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server) -> Iterator[str]:
    """The URL of a fresh, empty database on the session's PostgreSQL server, dropped after the
    test (the server's files are in memory, where :func:`pytest_configure` puts them)."""
    url = pg_server.create_database()
    yield url
    pg_server.drop_database(url)


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path) -> str:
    """What ``DECKHAND_DB`` would hold, once per backend: a fresh SQLite file's path, then
    a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "deckhand.sqlite3")
    return request.getfixturevalue("pg_url")


@pytest.fixture
async def open_storage():
    """``await open_storage(target, **options)`` is :meth:`Storage.open`, and whatever the test
    leaves open (it failed halfway) is closed after it: an open SQLite connection's thread
    would keep pytest from exiting instead of reporting the failure."""
    opened: list[Storage] = []

    async def open_(target, **options) -> Storage:
        storage = await Storage.open(target, **options)
        opened.append(storage)
        return storage

    yield open_
    for storage in opened:
        await storage.close()
