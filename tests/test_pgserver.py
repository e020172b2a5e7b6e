"""The test PostgreSQL server: a real server, and a fresh database for every test."""

from __future__ import annotations

import asyncpg


async def test_each_test_gets_its_own_empty_database(pg_server, pg_url):
    other = pg_server.create_database()
    assert other != pg_url
    first = await asyncpg.connect(pg_url)
    second = await asyncpg.connect(other)
    try:
        await first.execute("CREATE TABLE only_here (x integer)")
        assert await second.fetchval("SELECT to_regclass('only_here') IS NULL")
        assert await first.fetchval("SELECT current_setting('listen_addresses')") == "127.0.0.1"
    finally:
        await first.close()
        await second.close()
