"""One process per shard on a database (``Storage.try_claim``), on both backends: the locks a
second ``python -m bot`` on the same shards finds taken. Each ``Storage.open`` here stands for a
process: SQLite's file locks and PostgreSQL's advisory locks belong to an open file or a
connection, so two storages conflict as two processes would."""

from __future__ import annotations

import pytest

from bot.shards import Shards


@pytest.mark.parametrize("first, second, both", [
    ("all", "all", False),
    ("all", "0/2", False),
    ("0/2", "all", False),
    ("0/2", "0/2", False),
    ("0-1/2", "1/2", False),
    ("0/2", "1/2", True),
    ("0-1/4", "2-3/4", True),
])
async def test_overlapping_shards_wait_and_others_run_side_by_side(db_url, open_storage, first, second, both):
    one, other = await open_storage(db_url), await open_storage(db_url)
    assert await one.try_claim(Shards.parse(first))
    assert await other.try_claim(Shards.parse(second)) is both
    if not both:
        await one.close()  # the first process ends, however it ends: the second may go on
        assert await other.try_claim(Shards.parse(second))
