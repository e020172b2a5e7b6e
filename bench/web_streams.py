"""Benchmark of the site's live pages: many open event streams over many live tables, one process.

The site (:mod:`web`) runs in this process beside a :class:`GameService` on a real SQLite file,
hearing each committed version as it does inside the bot (:meth:`GameService.on_shown`); the
tables are played at a steady rate by players picking random legal moves. Another process (this
module with ``--client``, so its work is not counted here) opens the event streams, spread evenly
over the tables, and notes when each version reaches each stream. Prints:

- from a table's commit (the moment the service tells its listeners) to each of its pages' streams
  delivering that version or a newer one: p50, p99 and the worst;
- the CPU this process spends per shown version with the streams open, against the same moves with
  none open (the difference is what the site costs), and per delivered event;
- a table page's weight (HTML, style, script and picture) and its first render in headless
  Chromium (first contentful paint), if Chromium is installed.

    python -m bench.web_streams [--tables 100] [--streams 1000] [--rate 100] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from aiohttp import web

from bot.garbage_collection import tune_garbage_collection
from bot.service import GameService, Player
from bot.storage import Storage
from web.guard import Limits
from web.server import site_app
from web.site import Site

GAME = "queen-of-spades"
"""Long games: every table is still playing at the end of the run."""
TOKEN = "b" * 32
GUILD = 1


async def open_tables(service: GameService, count: int) -> list[int]:
    ids = []
    for n in range(count):
        host, guest = Player(2 * n + 1, f"P{2 * n + 1}", GUILD), Player(2 * n + 2, f"P{2 * n + 2}", GUILD)
        snap = await service.lobbies.open(guild_id=GUILD, channel_id=1000 + n, game_id=GAME, options={},
                                          host=host, timer_minutes=0)
        await service.lobbies.join(snap.row.id, guest)
        await service.lobbies.start(snap.row.id, host)
        ids.append(snap.row.id)
    return ids


async def play(service: GameService, table_ids: list[int], rate: float, seconds: float, seed: int) -> int:
    """Moves at ``rate`` a second over all tables, for ``seconds``; how many were made."""
    rng = random.Random(seed)
    interval = len(table_ids) / rate
    stop_at = time.perf_counter() + seconds
    made = 0

    async def one_table(table_id: int) -> None:
        nonlocal made
        next_move = time.perf_counter() + rng.random() * interval
        while time.perf_counter() < stop_at:
            await asyncio.sleep(max(0.0, next_move - time.perf_counter()))
            next_move += interval
            snap = await service.table(table_id)
            if snap.row.status != "running":
                return
            player = snap.player(snap.view["to_act"][0])
            hand = await service.play.hand(table_id, player)
            await service.play.move(table_id, player, hand.version, rng.choice(hand.actions))
            made += 1

    await asyncio.gather(*(one_table(t) for t in table_ids))
    return made


async def serve(args: argparse.Namespace) -> None:
    tune_garbage_collection()
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "bench.sqlite3", "NORMAL")
        service = GameService(storage, ai_delay=0)
        await storage.set_guild_settings(GUILD, web_token=TOKEN)
        site = Site(storage)
        committed: dict[tuple[int, int], float] = {}
        service.on_shown(lambda table, version: committed.setdefault((table, version), time.time()))
        service.on_shown(site.notify)
        runner = web.AppRunner(site_app(site, Limits(requests_per_second=1e6, burst=1e6, streams=10 * args.streams)),
                               access_log=None, handler_cancellation=True)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", args.port).start()
        base = f"http://127.0.0.1:{args.port}/s/{TOKEN}"
        table_ids = await open_tables(service, args.tables)
        weight = await page_weight(base, table_ids[0])

        cpu = time.process_time()
        alone = await play(service, table_ids, args.rate, args.seconds / 2, args.seed)
        await service.wait_idle()
        cpu_alone = time.process_time() - cpu

        results = Path(folder) / "streams.json"
        plan = {"base": base, "tables": table_ids, "streams": args.streams, "seconds": args.seconds + 8,
                "out": str(results)}
        client = subprocess.Popen([sys.executable, "-m", "bench.web_streams", "--client", json.dumps(plan)])
        while site.hub.streams() < args.streams:
            await asyncio.sleep(0.1)
            if client.poll() is not None:
                raise SystemExit("the client process stopped")
        first_render = await render_time(f"{base}/t/{table_ids[0]}")
        committed.clear()
        cpu = time.process_time()
        watched = await play(service, table_ids, args.rate, args.seconds, args.seed + 1)
        await service.wait_idle()
        await asyncio.sleep(1.0)  # the last versions reach their streams
        cpu_watched = time.process_time() - cpu
        client.wait()
        received = json.loads(results.read_text())
        site.hub.close()
        await runner.cleanup()
        await service.close()
        await storage.close()
    report(args, committed, received, alone, cpu_alone, watched, cpu_watched, weight, first_render)


def report(args: argparse.Namespace, committed: dict[tuple[int, int], float], received: list[list[float]],
           alone: int, cpu_alone: float, watched: int, cpu_watched: float, weight: dict[str, int],
           first_render: float | None) -> None:
    by_table: dict[int, list[tuple[int, float]]] = {}
    for table, version, _stream, at in received:
        by_table.setdefault(int(table), []).append((int(version), at))
    arrivals: dict[tuple[int, int], list[tuple[int, float]]] = {}
    for table, version, stream, at in received:
        arrivals.setdefault((int(table), int(stream)), []).append((int(version), at))
    delays = []
    for (table, _stream), got in arrivals.items():
        got.sort()
        for (t, version), at_commit in committed.items():
            if t != table:
                continue
            reached = next((at for v, at in got if v >= version), None)
            if reached is not None:
                delays.append(reached - at_commit)
    delays.sort()
    per_version_alone = cpu_alone / alone * 1e6
    per_version_watched = cpu_watched / watched * 1e6
    print(f"{args.tables} live tables of {GAME}, {args.streams} open event streams "
          f"({args.streams // args.tables} a table), {args.rate:.0f} moves/s for {args.seconds:.0f} s, SQLite NORMAL")
    print(f"  commit → stream: p50 {statistics.median(delays) * 1000:.1f} ms, "
          f"p99 {delays[int(len(delays) * 0.99) - 1] * 1000:.1f} ms, worst {delays[-1] * 1000:.1f} ms "
          f"over {len(delays):,} (version, stream) pairs; {len(received):,} events delivered")
    print(f"  CPU per shown version: {per_version_watched:,.0f} µs with the streams open, "
          f"{per_version_alone:,.0f} µs with none: the site costs {per_version_watched - per_version_alone:,.0f} µs "
          f"a version, {(cpu_watched - cpu_alone * watched / alone) / max(1, len(received)) * 1e6:,.0f} µs an event")
    total = sum(weight.values())
    parts = ", ".join(f"{k} {v / 1024:.1f} KB" for k, v in weight.items())
    print(f"  a table page weighs {total / 1024:.0f} KB: {parts}")
    if first_render is not None:
        print(f"  first contentful paint in headless Chromium: {first_render * 1000:.0f} ms")


async def page_weight(base: str, table_id: int) -> dict[str, int]:
    async with aiohttp.ClientSession() as session:
        page = await (await session.get(f"{base}/t/{table_id}")).read()
        style = await (await session.get(f"http://{base.split('/')[2]}/static/site.css")).read()
        script = await (await session.get(f"http://{base.split('/')[2]}/static/live.js")).read()
        row_version = page.decode().split('data-version="')[1].split('"')[0]
        picture = await (await session.get(f"{base}/t/{table_id}/{row_version}.png")).read()
    return {"HTML": len(page), "style": len(style), "script": len(script), "picture": len(picture)}


async def render_time(url: str) -> float | None:
    try:
        from tests.browser import open_browser
        async with open_browser() as browser:
            tab = await browser.new_tab(width=380)
            await tab.goto(url)
            paint = await tab.wait_for("(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime")
            return float(paint) / 1000
    except Exception as exc:  # no Chromium here: the figure is left out
        print(f"  (no first-render figure: {exc})")
        return None


async def follow(plan: dict) -> None:
    """The client: open the streams, note (table, version, stream, time) for every event, for a while."""
    received: list[list[float]] = []
    stop_at = time.time() + plan["seconds"]

    async def stream(number: int, session: aiohttp.ClientSession) -> None:
        table = plan["tables"][number % len(plan["tables"])]
        async with session.get(f"{plan['base']}/t/{table}/events") as answer:
            while time.time() < stop_at:
                try:
                    line = await asyncio.wait_for(answer.content.readline(), max(0.1, stop_at - time.time()))
                except TimeoutError:
                    break
                if line.startswith(b"data: "):
                    received.append([table, json.loads(line[6:])["version"], number, time.time()])

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None)) as session:
        await asyncio.gather(*(stream(n, session) for n in range(plan["streams"])))
    Path(plan["out"]).write_text(json.dumps(received))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=100.0, help="moves a second over all tables")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--port", type=int, default=8099)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--client", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        asyncio.run(follow(json.loads(args.client)))
    else:
        asyncio.run(serve(args))


if __name__ == "__main__":
    main()
