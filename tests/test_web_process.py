"""``python -m web site``: the servers' sites as a process of their own on PostgreSQL, following the
bot's tables through LISTEN/NOTIFY; and what it says when it cannot run."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import aiohttp

from tests.discord_play import make_server, open_table, play_turn, start_bot
from tests.fakediscord import DiscordHarness, LoopbackDiscord
from tests.test_smoke_process import assert_clean_log, running_bot, wait_booted
from tests.web_helpers import LINK, free_port, table_id

ROOT = Path(__file__).resolve().parents[1]


def site_env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DECKHAND_")}
    return {**env, "PYTHONUNBUFFERED": "1", "LOG_LEVEL": "INFO", **settings}


async def events(stream: aiohttp.ClientResponse):
    async for line in stream.content:
        if line.startswith(b"data: "):
            yield json.loads(line[6:])


async def test_the_site_as_its_own_process_follows_the_bots_moves_through_postgresql(tmp_path, pg_url) -> None:
    port = free_port()
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        s.db_path = pg_url
        await start_bot(h, pg_url)
        site = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "web", "site", cwd=ROOT, stderr=asyncio.subprocess.PIPE,
            env=site_env(DECKHAND_DB=pg_url, DECKHAND_WEB=f"127.0.0.1:{port}"))
        try:
            while b"served on" not in (line := await asyncio.wait_for(site.stderr.readline(), 30)):
                assert line, "python -m web site stopped"
            answer = await h.slash("settings web", {"site": "on"}, user=s.admin, channel=s.channel)
            (link,) = LINK.findall(answer.text)
            link = link.replace(link.split("/s/")[0], f"http://127.0.0.1:{port}")
            table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
            async with aiohttp.ClientSession() as session, session.get(f"{link}t/{table_id(table)}/events") as stream:
                shown = events(stream)
                first = await asyncio.wait_for(anext(shown), 10)
                await play_turn(s, table)
                await h.settle()
                second = await asyncio.wait_for(anext(shown), 10)
                assert second["version"] > first["version"]
        finally:
            site.send_signal(2)
            await asyncio.wait_for(site.wait(), 10)
    assert site.returncode == 0


def test_the_site_process_refuses_sqlite_with_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "web", "site"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env=site_env(DECKHAND_DB="data/x.sqlite3"))
    assert done.returncode == 2
    assert done.stdout.strip().startswith("python -m web site: DECKHAND_DB must be a postgresql:// URL")


async def test_python_m_bot_serves_the_sites_on_deckhand_web_and_plays_on_when_the_port_is_taken(tmp_path) -> None:
    port = free_port()
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
    async with LoopbackDiscord() as fake:
        owner = fake.add_user("alice")
        fake.add_guild("Fake Card Club", owner=owner).add_channel("card-table")
        async with running_bot(fake, tmp_path / "one", DECKHAND_WEB=f"127.0.0.1:{port}") as bot:
            await wait_booted(fake, bot)
            async with aiohttp.ClientSession() as session:
                rules = await session.get(f"http://127.0.0.1:{port}/rules/q2j")
                assert rules.status == 200 and "Q Squared Joe" in await rules.text()
                assert (await session.get(f"http://127.0.0.1:{port}/s/{'x' * 32}/")).status == 404
            # A second bot finds the port taken: it says so and plays on without a site.
            async with running_bot(fake, tmp_path / "two", DECKHAND_WEB=f"127.0.0.1:{port}") as second:
                for _ in range(600):
                    if "the site cannot be served on 127.0.0.1" in second.output() or second.returncode is not None:
                        break
                    await asyncio.sleep(0.05)
                assert "the site cannot be served on 127.0.0.1" in second.output()
                assert second.returncode is None, second.output()
            assert await bot.stop() == 0
            assert_clean_log(bot)
