"""Benchmark of the full move path: engine + SQLite commit + rendering the Discord payloads.

Many tables play at once, each move going through ``GameService.move`` (lock,
engine, one version-guarded transaction on a real SQLite file with the
configured durability) followed by rendering the table message and the
player's hand message into the exact JSON Discord would receive. Only the
network is left out. Prints moves/s, p50/p99 latency per move, and the CPU time
per move (which, unlike the first two, hardly depends on what else the machine runs).

Two modes: flat out (every table moves again as soon as its last move is
done: the most moves/s the machine gives, with latency mostly queueing), and
``--rate N``: the tables together offer N moves/s, spread evenly, as players
clicking would, and the latency is what a player waits at that load.

    python -m bench.move_path --tables 100 --seconds 10 [--rate 2000] [--game q2j] [--synchronous FULL]
    python -m bench.move_path --db postgresql://…   # the same on PostgreSQL (an empty scratch database)
    valgrind --tool=callgrind python -m bench.move_path --moves 3000 --tables 20   # instructions per move

``--moves N`` stops after about N moves instead of a time: the same work on every
run, for instruction counts (callgrind) that don't depend on the machine's speed.
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
from bot.garbage_collection import tune_garbage_collection
from bot.service import GameService, Player, TableSnapshot
from bot.storage import SeatRow, Storage, is_postgres_url
from cogs.looks import load_game_uis
from cogs.messages import hand_message, table_message


def payload(rendered) -> dict:
    parts = rendered.kwargs()
    body = {"content": parts["content"]}
    if parts["embed"] is not None:
        body["embeds"] = [parts["embed"].to_dict()]
    if parts["view"] is not None:
        body["components"] = parts["view"].to_components()
    return body


class RenderingPublisher:
    """Renders every table update exactly as the tables cog would, without sending it."""

    def __init__(self) -> None:
        self.rendered = 0

    async def show(self, table: TableSnapshot, *, again: bool = False) -> None:
        payload(table_message(table))
        if table.row.status != "lobby":
            self.rendered += 1

    def tables_held(self) -> int:
        return 0

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None:
        pass

    async def close(self) -> None:
        pass


async def play_table(service: GameService, table_id: int, users: list[int], stop_at: float,
                     latencies: list[float], rng: random.Random, interval: float, max_moves: int) -> int:
    moves = 0
    snap = await service.table(table_id)
    next_move = time.perf_counter() + rng.random() * interval
    while time.perf_counter() < stop_at and len(latencies) < max_moves and snap.row.status == "running":
        if interval:
            await asyncio.sleep(max(0.0, next_move - time.perf_counter()))
            next_move += interval
        seat = snap.view["to_act"][0]
        player = snap.player(seat)
        hand = await service.play.hand(table_id, player)  # the player opens "My hand"
        action = rng.choice(hand.actions)
        start = time.perf_counter()
        hand = await service.play.move(table_id, player, hand.version, action)
        payload(hand_message(hand))  # the table message is rendered by the publisher
        latencies.append(time.perf_counter() - start)
        snap = hand.table
        moves += 1
    return moves


async def seat_tables(service: GameService, args: argparse.Namespace, slot: int, stop_at: float,
                      latencies: list[float], rng: random.Random, interval: float) -> int:
    """One of the concurrent tables: when its game ends, the next one opens in its place."""
    moves = 0
    users = [10_000 * (slot + 1) + p for p in range(args.players)]
    while time.perf_counter() < stop_at and len(latencies) < args.moves:
        snap = await service.lobbies.open(
            guild_id=1, channel_id=rng.getrandbits(40), game_id=args.game, options={},
            host=Player(users[0], "P0", 1), timer_minutes=10,
        )
        for p, user in enumerate(users[1:], start=1):
            await service.lobbies.join(snap.row.id, Player(user, f"P{p}", 1))
        await service.lobbies.start(snap.row.id, Player(users[0], "P0", 1))
        moves += await play_table(service, snap.row.id, users, stop_at, latencies, rng, interval, args.moves)
    return moves


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(args.db or Path(folder) / "bench.sqlite3", args.synchronous)
        service = GameService(storage, ai_delay=0)
        publisher = RenderingPublisher()
        service.publisher = publisher
        game = games.get_game(args.game)
        latencies: list[float] = []
        interval = args.tables / args.rate if args.rate else 0.0
        started = time.perf_counter()
        cpu_started, loop_cpu_started = time.process_time(), time.thread_time()
        deadline = started + args.seconds
        counts = await asyncio.gather(*(
            seat_tables(service, args, t, deadline, latencies, random.Random(f"{args.seed}:{t}"), interval)
            for t in range(args.tables)
        ))
        total = sum(counts)
        elapsed = time.perf_counter() - started
        cpu, loop_cpu = time.process_time() - cpu_started, time.thread_time() - loop_cpu_started
        await service.wait_idle()
        await service.close()
        await storage.close()
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
    load = f"offered load {args.rate:,.0f} moves/s" if args.rate else "flat out"
    database = "PostgreSQL" if args.db and is_postgres_url(args.db) else "SQLite"
    durability = "" if database == "PostgreSQL" else f"synchronous={args.synchronous}, "
    print(f"{game.name}: {args.tables} concurrent tables, {args.players} players, {durability}{load}")
    print(f"  {total} moves in {elapsed:.1f} s = {total / elapsed:,.0f} moves/s "
          f"(engine + {database} commit + table and hand payloads)")
    print(f"  latency per move: p50 {p50:.2f} ms, p99 {p99:.2f} ms; table renders {publisher.rendered}")
    print(f"  CPU per move: {cpu / total * 1e6:,.0f} µs (this process, all threads: what bounds moves/s "
          f"on a loaded machine, ≈ {total / cpu:,.0f} moves per CPU second)")
    print(f"    of which the event loop's thread: {loop_cpu / total * 1e6:,.0f} µs (the rest: the database's thread)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="q2j")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--moves", type=int, default=10**12, help="stop after about this many moves")
    parser.add_argument("--rate", type=float, default=0.0, help="offered moves/s over all tables (0: flat out)")
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"])
    parser.add_argument("--db", help="a SQLite file or a postgresql:// URL (default: a temporary SQLite file)")
    parser.add_argument("--seed", default="0", help="runs sharing a database need different seeds (their channels differ)")
    load_game_uis()
    tune_garbage_collection()  # as python -m bot does
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
