"""Fixtures shared by the Discord-level tests."""

from __future__ import annotations

import pytest

from discord_harness import DiscordHarness
from discord_play import make_server, start_bot


@pytest.fixture
async def server(tmp_path):
    """A server (guild, #games, four members and a moderator) with the real bot
    running on a fresh SQLite file, through discord.py's own dispatch."""
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path)
        yield s
