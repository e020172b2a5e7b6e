"""Benchmark of the full move path: engine + SQLite commit + rendering the Discord payloads.

Many tables play at once, each move going through ``GameService.move`` (lock,
engine, one version-guarded transaction on a real SQLite file with the
configured durability) followed by rendering the table message and the
player's hand message into the exact JSON Discord would receive. Only the
network is left out. Prints moves/s and p50/p99 latency per move.

    python -m bench.move_path --tables 100 --seconds 10 [--game q2j] [--synchronous FULL]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import games
from bot.service import GameService, Player, TableSnapshot
from bot.storage import SeatRow, Storage
from cogs import q2j  # noqa: F401  (registers the game's UI)
from cogs.ui import hand_message, table_message


def payload(rendered) -> dict:
    body = {"content": rendered.content}
    if rendered.embed is not None:
        body["embeds"] = [rendered.embed.to_dict()]
    if rendered.view is not None:
        body["components"] = rendered.view.to_components()
    return body


class RenderingPublisher:
    """Renders every table update exactly as the tables cog would, without sending it."""

    def __init__(self) -> None:
        self.rendered = 0

    async def lobby_changed(self, table: TableSnapshot) -> None:
        payload(table_message(table))

    async def table_changed(self, table: TableSnapshot) -> None:
        payload(table_message(table))
        self.rendered += 1

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None:
        pass


async def play_table(service: GameService, table_id: int, users: list[int], stop_at: float,
                     latencies: list[float], rng: random.Random) -> int:
    moves = 0
    while time.perf_counter() < stop_at:
        snap = await service.table(table_id)
        if snap.row.status != "running":
            return moves
        seat = snap.view["to_act"][0]
        hand = await service.hand(table_id, users[seat])
        action = rng.choice(hand.actions)
        start = time.perf_counter()
        hand = await service.move(table_id, users[seat], hand.version, action)
        payload(hand_message(hand))
        payload(table_message(hand.table))
        latencies.append(time.perf_counter() - start)
        moves += 1
        await asyncio.sleep(0)
    return moves


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "bench.sqlite3", args.synchronous)
        service = GameService(storage, ai_delay=0)
        publisher = RenderingPublisher()
        service.publisher = publisher
        rng = random.Random(1)
        game = games.get_game(args.game)
        latencies: list[float] = []
        total = 0
        started = time.perf_counter()
        deadline = started + args.seconds
        while time.perf_counter() < deadline:
            tables = []
            for t in range(args.tables):
                users = [10_000 * (t + 1) + p for p in range(args.players)]
                snap = await service.open_lobby(
                    guild_id=1, channel_id=rng.getrandbits(40), game_id=args.game, options={},
                    host=Player(users[0], "P0"), timer_minutes=10,
                )
                for p, user in enumerate(users[1:], start=1):
                    await service.join(snap.row.id, Player(user, f"P{p}"))
                await service.start(snap.row.id, Player(users[0], "P0"))
                tables.append((snap.row.id, users))
            counts = await asyncio.gather(*(
                play_table(service, table_id, users, deadline, latencies, rng) for table_id, users in tables
            ))
            total += sum(counts)
        elapsed = time.perf_counter() - started
        await service.wait_idle()
        await service.close()
        await storage.close()
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
    print(f"{game.name}: {args.tables} concurrent tables, {args.players} players, synchronous={args.synchronous}")
    print(f"  {total} moves in {elapsed:.1f} s = {total / elapsed:,.0f} moves/s "
          f"(engine + SQLite commit + table and hand payloads)")
    print(f"  latency per move: p50 {p50:.2f} ms, p99 {p99:.2f} ms; table renders {publisher.rendered}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="q2j")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"])
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
