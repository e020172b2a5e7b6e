"""Benchmark of start-up: N open tables restored and serving, and the memory each idle table costs.

Creates N running tables (every registered game in turn, two human seats, one
table in ten with an AI seat, a turn timer on each, its half-time reminder minutes away)
straight into a real SQLite file, then in a fresh service measures:

* start-up: ``GameService.restore()`` until serving, i.e. until the first move
  on a random table has been played and committed;
* memory per idle table: the process's resident memory after start-up (and
  after the background work start-up began has finished) minus before, over N.

    python -m bench.restore --tables 100000 [--shards 0/2]

Table N is in server ``N << 22``, so the servers spread evenly over any shard count;
``--shards`` restores as a process running only those shards would.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import tempfile
import time
from pathlib import Path

import games
from bot.service import GameService
from bot.shards import ALL_SHARDS, Shards
from bot.storage import Storage

SEED_VARIANTS = 8
"""Distinct starting states per game the tables are drawn from (building one per table is slow)."""


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def starting_states() -> list[tuple[str, int, str, str]]:
    """``(game_id, players, options json, state json)`` to copy into the tables."""
    states = []
    for game in games.all_games():
        players = min(game.allowed_player_counts())
        options = game.normalize_options({})
        for seed in range(SEED_VARIANTS):
            state = game.new_game(players, options, seed)
            states.append((game.id, players, json.dumps(options), json.dumps(state.to_json())))
    return states


async def create_tables(path: Path, count: int, now: float) -> None:
    storage = await Storage.open(path, synchronous="OFF")
    states = starting_states()
    rng = random.Random(1)
    tables, seats = [], []
    for table_id in range(1, count + 1):
        game_id, players, options, state = states[table_id % len(states)]
        timer = rng.choice((5, 10, 30))
        tables.append((table_id, table_id << 22, table_id, game_id, options, table_id * 10, "running", table_id, 1, state,
                       timer, now + rng.uniform(timer * 30 + 120, timer * 60), now, now))
        for seat in range(players):
            is_ai = seat == players - 1 and table_id % 10 == 0
            seats.append((table_id, seat, None if is_ai else table_id * 10 + seat, f"P{seat}", int(is_ai)))

    async def write(db) -> None:
        await db.executemany(
            "INSERT INTO tables (id, guild_id, channel_id, game_id, options, host_id, status, seed, version,"
            " state, timer_minutes, deadline, created_at, started_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            tables)
        await db.executemany("INSERT INTO seats (table_id, seat, user_id, name, is_ai) VALUES (?,?,?,?,?)", seats)

    await storage.run_write(write)
    await storage.close()


async def first_move(service: GameService, count: int) -> None:
    """Play one move on a random table whose human is to act, as the first click after start-up would."""
    rng = random.Random()
    while True:
        table_id = rng.randint(1, count)
        snap = await service.table(table_id)
        seat = snap.view["to_act"][0]
        if snap.row.seats[seat].is_ai or snap.row.seats[seat].user_id is None:
            continue
        player = snap.player(seat)
        hand = await service.play.hand(table_id, player)
        await service.play.move(table_id, player, hand.version, rng.choice(hand.actions))
        return


async def measure(path: Path, count: int, shards: Shards) -> None:
    storage = await Storage.open(path)
    service = GameService(storage, ai_delay=0, shards=shards)
    gc.collect()
    before = resident_bytes()
    start = time.perf_counter()
    restored = await service.restore()
    await first_move(service, count)
    serving = time.perf_counter() - start
    print(f"{restored} open tables: serving after {serving:.2f} s", flush=True)
    await service.wait_idle(timeout=600)
    settled = time.perf_counter() - start
    gc.collect()
    per_table = (resident_bytes() - before) / count
    print(f"background start-up work done after {settled:.2f} s; {per_table / 1024:.1f} KB of memory per idle table; "
          f"{service.tables_in_memory()} per-table entries in memory")
    await service.close()
    await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--shards", type=Shards.parse, default=ALL_SHARDS,
                        help="restore as a process running these shards (DECKHAND_SHARDS), e.g. 0/2")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "bench.sqlite3"
        start = time.perf_counter()
        asyncio.run(create_tables(path, args.tables, time.time()))
        print(f"created {args.tables} tables in {time.perf_counter() - start:.1f} s")
        asyncio.run(measure(path, args.tables, args.shards))


if __name__ == "__main__":
    main()
