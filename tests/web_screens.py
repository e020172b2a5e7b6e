"""Screenshots of Deckhand's web pages, on a phone (380 CSS pixels wide) and on desktop (900).

    python -m tests.web_screens docs/images [--language fr]

Plays real games with the real bot against the fake Discord (as the tests do), serves the site
and the local play page, and screenshots each page with headless Chromium (:mod:`tests.browser`):
``web-<page>-phone.png`` and ``web-<page>-desktop.png``. Not part of the product: a tool for the
README's pictures and for looking at the pages as people see them.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import tempfile
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from tests.browser import Browser, Tab, open_browser
from tests.discord_play import Server, make_server, open_table, play_to_the_end, play_turn, start_bot
from tests.fakediscord import DiscordHarness
from tests.web_helpers import serve_site, started_tournament, table_id
from web.local import local_app

WIDTHS = {"phone": 380, "desktop": 900}


async def shoot(tab: Tab, path: Path) -> None:
    height = await tab.eval("Math.ceil(document.documentElement.scrollHeight)")
    width = await tab.eval("document.documentElement.clientWidth")
    shot = await tab.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                     "clip": {"x": 0, "y": 0, "width": width, "height": min(height, 2400),
                                                              "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))
    print(path)


async def pages(out: Path, language: str) -> None:
    accept = "fr-FR,fr;q=0.9" if language == "fr" else "en-US"
    suffix = "" if language == "en" else f"-{language}"
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordHarness() as h:
            s = make_server(h, Path(folder))
            await start_bot(h, s.db_path)
            link = await serve_site(s)
            async with open_browser() as browser, TestClient(TestServer(local_app())) as local:
                await shoot_pages(s, link, browser, local, out, accept, suffix)


async def shoot_pages(s: Server, link: str, browser: Browser, local: TestClient, out: Path, accept: str,
                      suffix: str) -> None:
    for channel in ("games", "more games"):  # two games: the leaders' ratings draw lines
        s.channel = s.guild.add_channel(channel) if channel != "games" else s.channel
        finished = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben", "cat"])
        await play_to_the_end(s, finished)
    s.channel = s.guild.add_channel("live")  # a channel holds one table at a time
    live = await open_table(s, "qos start", {"timer": 10}, "dan", joiners=["ana"])
    for _ in range(4):
        await play_turn(s, live)
    s.channel = s.guild.add_channel("tournament")
    tournament = await started_tournament(s, swiss_rounds=2, name="Game night")
    shots = {
        "home": f"{link}", "table": f"{link}t/{table_id(live)}",
        "replay": f"{link}r/{table_id(finished)}#step-6", "leaderboard": f"{link}leaderboard/q2j",
        "tournament": f"{link}tournaments/{tournament.id}",
    }
    for kind, width in WIDTHS.items():
        tab = await browser.new_tab(language=accept, width=width, height=800)
        for name, url in shots.items():
            await tab.goto(url)
            await asyncio.sleep(0.3)
            await shoot(tab, out / f"web-{name}{suffix}-{kind}.png")
        await tab.goto(f"{link}leaderboard/q2j")
        await tab.click("table.board a")
        await shoot(tab, out / f"web-player{suffix}-{kind}.png")
        await tab.goto(str(local.make_url("/")))
        await shoot(tab, out / f"web-local{suffix}-{kind}.png")
        await tab.click('form[action="/new"] button')
        await tab.click(".moves button")
        await shoot(tab, out / f"web-local-game{suffix}-{kind}.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--language", default="en", choices=("en", "fr"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    asyncio.run(pages(args.out, args.language))


if __name__ == "__main__":
    main()
