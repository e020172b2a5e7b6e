"""Benchmark: how long the event loop is held up while many ``hard`` AI players think.

``--tables`` tables (default 20) each seat a person and a ``hard`` AI; the person
moves the moment it is their turn, so every table keeps its AI thinking, and 20 hard
AIs think at once. The AI thinks in the service's worker pool (:mod:`bot.ai_pool`);
a probe task meanwhile sleeps 10 ms again and again and records how late it wakes
up: the event loop's lag, which is how long any click would wait to be acknowledged.
Prints lag p50/p99/max and the hard moves made. ``--in-loop`` computes ``hard`` on
the event loop instead, to show what the pool saves.

    python -m bench.ai_load [--tables 20] [--seconds 15] [--game q2j] [--in-loop]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.ai_pool import AiPool
from bot.errors import StaleControl
from bot.service import GameService, Player
from bot.storage import Storage
from cogs.looks import load_game_uis
from games.ai import choose_action
from games.base import Action, GameState
from games.rng import Rng

from .move_path import RenderingPublisher

PROBE_SECONDS = 0.01


class InLoopPool(AiPool):
    """Computes on the event loop (``--in-loop``): the behaviour the pool replaces."""

    async def choose(self, state: GameState, seat: int, seed: int, level: str, budget: int | None = None) -> Action:
        self.moves += 1
        return choose_action(state, seat, Rng(seed), level, budget)


async def probe(lags: list[float], stop_at: float) -> None:
    while time.perf_counter() < stop_at:
        start = time.perf_counter()
        await asyncio.sleep(PROBE_SECONDS)
        lags.append(time.perf_counter() - start - PROBE_SECONDS)


async def person(service: GameService, table_id: int, player: Player, stop_at: float) -> int:
    """Move whenever it is the person's turn; a finished table is dealt again. Returns games played."""
    played = 0
    while time.perf_counter() < stop_at:
        snap = await service.table(table_id)
        if snap.row.status != "running":
            table_id = await open_table(service, snap.row.channel_id + 1000, player)
            played += 1
            continue
        hand = await service.play.hand(table_id, player)
        if not hand.actions:  # the AI is thinking
            await asyncio.sleep(0.02)
            continue
        try:
            await service.play.move(table_id, player, hand.version, hand.actions[0])
        except StaleControl:  # the AI moved between reading the hand and moving
            continue
    return played


async def open_table(service: GameService, channel_id: int, player: Player, game_id: str = "q2j") -> int:
    snap = await service.lobbies.open(guild_id=1, channel_id=channel_id, game_id=game_id, options={}, host=player,
                                    timer_minutes=0)
    await service.lobbies.add_ai(snap.row.id, player, "hard")
    await service.lobbies.start(snap.row.id, player)
    return snap.row.id


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


async def run(tables: int, seconds: float, game_id: str, in_loop: bool) -> None:
    load_game_uis()
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "bench.sqlite3", "NORMAL")
        pool = InLoopPool() if in_loop else AiPool()
        service = GameService(storage, ai_delay=0, ai_pool=pool)
        service.publisher = RenderingPublisher()
        people = [Player(100 + n, f"Player {n}", 1) for n in range(tables)]
        ids = [await open_table(service, 10 + n, people[n], game_id) for n in range(tables)]
        stop_at = time.perf_counter() + seconds
        lags: list[float] = []
        await asyncio.gather(probe(lags, stop_at), *(person(service, t, p, stop_at) for t, p in zip(ids, people)))
        await service.close()
        await storage.close()
    where = "on the event loop" if in_loop else f"in {pool.size} worker process(es)"
    print(f"{tables} tables of {game_id}, a hard AI at each, thinking {where}, {seconds:.0f} s:")
    print(f"  hard moves: {pool.moves} ({pool.moves / seconds:.1f}/s); workers replaced: {pool.replaced}")
    print(f"  event-loop lag over {len(lags)} probes: p50 {percentile(lags, 50) * 1000:.1f} ms, "
          f"p99 {percentile(lags, 99) * 1000:.1f} ms, max {max(lags) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--game", default="q2j")
    parser.add_argument("--in-loop", action="store_true", help="compute hard on the event loop (for comparison)")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.seconds, args.game, args.in_loop))


if __name__ == "__main__":
    main()
