"""Helpers for the site's tests and screenshots: the site loaded into a running test bot, its link."""

from __future__ import annotations

import dataclasses
import re
import socket
from typing import Any

from tests.discord_play import Server, open_table, play_to_the_end, texts

LINK = re.compile(r"http://127\.0\.0\.1:\d+/s/[A-Za-z0-9_-]+/")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def serve_site(s: Server) -> str:
    """Load the site into the running bot (as ``python -m bot`` does with DECKHAND_WEB set), turn the
    server's site on with ``/settings web``, and return its link from the answer."""
    bot = s.h.bot
    # The site's connections and the browser's live as long as a page is open: the harness's
    # "settled" means Discord's side is quiet, not that every page closed.
    s.h.ignore_tasks(lambda task: getattr(task.get_coro(), "__qualname__", "").startswith(
        ("RequestHandler.", "Browser.", "table_events")))
    port = free_port()
    bot.settings = dataclasses.replace(bot.settings, web=("127.0.0.1", port), public_url=f"http://127.0.0.1:{port}")
    await bot.load_extension("web.extension")
    answer = await s.h.slash("settings web", {"site": "on"}, user=s.admin, channel=s.channel)
    assert answer.ephemeral
    (link,) = LINK.findall(answer.text)
    return link


def browser_links(message: Any) -> list[str]:
    """The addresses of a message's link buttons (Open in browser)."""
    return [c["url"] for c in message.walk() if c.get("type") == 2 and c.get("style") == 5]


def table_id(table: Any) -> int:
    """A table message's table number (its heading's ``#N``)."""
    found = re.search(r"#(\d+)", texts(table)[0])
    assert found is not None
    return int(found[1])


async def finished_game(s: Server) -> tuple[Any, int]:
    """A Q Squared Joe game between ana and ben played to its end: its table message and number."""
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    await play_to_the_end(s, table)
    await s.h.settle()
    return table, table_id(table)


async def started_tournament(s: Server, **options: Any) -> Any:
    """A War tournament (``options``: /tournament create's) that ana, ben, cat and dan joined and
    its host started: its stored row."""
    await s.h.slash("tournament create war", {"timer": 1, "round_minutes": 30, **options}, user=s.admin,
                    channel=s.channel)
    message = next(m for m in reversed(s.h.public_messages(s.channel)) if "🏆" in "".join(texts(m)))
    for name in ("ana", "ben", "cat", "dan"):
        await s.h.click(message, label="Join", user=s.user(name))
    panel = await s.h.click(message, label="Host", user=s.admin)
    await s.h.click(panel.message, label="Start now", user=s.admin)
    await s.h.settle()
    return (await s.h.bot.tournaments.of_guild(s.guild.id))[0]
