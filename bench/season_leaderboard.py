"""Benchmark of ``/leaderboard`` for a running season of a server with 10,000 ranked players.

Builds a database (SQLite by default, or ``--db postgresql://…``) holding one server's season:
N players, each with ten rated two-player games in it (N × 5 results) and season ratings per
game and overall, plus the all-time rows those games write. Then times what ``/leaderboard``
does before it answers: the season's leaderboard read and sorted (``Results.leaderboard``),
and its first page rendered (``cogs.scores.board_page``), several times, and reports the median
and the slowest against Discord's 3 seconds to answer.

    python -m bench.season_leaderboard --players 10000 [--db postgresql://…]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.ratings import MODEL, OVERALL
from bot.records import GuildSettings
from bot.results import Results
from bot.seasons import running_season, start_season
from bot.storage import Storage
from cogs.scores import board_page

GUILD = 1 << 22
GAMES_EACH = 10
RUNS = 7


async def create(target: str, players: int) -> None:
    storage = await Storage.open(target)
    rng = random.Random(1)
    start = 1_700_000_000.0
    season = await storage.run_write(lambda db: start_season(db, GUILD, 1, "Spring", start, start + 90 * 86400))
    results, seats = [], []
    for n in range(players * GAMES_EACH // 2):
        table_id, at = n + 1, start + 60 + n
        pair = rng.sample(range(1, players + 1), 2)
        results.append((table_id, GUILD, 1, "war", "{}", "finished", 1, "{}", at))
        seats += [(table_id, seat, user, f"P{user}", 0, seat, seat + 1, 0, int(seat == 0)) for seat, user in
                  enumerate(pair)]
    ratings = [(season.id, game, user, MODEL.mu + rng.gauss(0, 5), rng.uniform(2, 7), GAMES_EACH)
               for user in range(1, players + 1) for game in ("war", OVERALL)]

    async def write(db) -> None:
        await db.executemany(
            "INSERT INTO tables (id, guild_id, channel_id, game_id, options, host_id, status, seed, timer_minutes,"
            " created_at) VALUES (?, ?, 1, 'war', '{}', 1, 'finished', 1, 0, 0)",
            [(r[0], GUILD) for r in results])
        await db.executemany(
            "INSERT INTO results (table_id, guild_id, channel_id, game_id, options, status, rated, summary,"
            " finished_at) VALUES (?,?,?,?,?,?,?,?,?)", results)
        await db.executemany(
            "INSERT INTO result_seats (table_id, seat, user_id, name, is_ai, team, place, score, won)"
            " VALUES (?,?,?,?,?,?,?,?,?)", seats)
        await db.executemany("INSERT INTO season_ratings (season_id, game_id, user_id, mu, sigma, rated_games)"
                             " VALUES (?,?,?,?,?,?)", ratings)

    await storage.run_write(write)
    await storage.close()


async def measure(target: str, players: int) -> None:
    storage = await Storage.open(target)
    results = Results(storage)
    season = await storage.run_read(lambda db: running_season(db, GUILD))
    assert season is not None
    times = []
    for _ in range(RUNS):
        begin = time.perf_counter()
        entries = await results.leaderboard(GUILD, None, "rating", season)
        board_page(entries, "all", "rating", 0, "en", season, GuildSettings())
        times.append(time.perf_counter() - begin)
    assert len(entries) == players, len(entries)
    print(f"{players} ranked players: /leaderboard's read, sort and first page in {statistics.median(times) * 1000:.0f}"
          f" ms (median of {RUNS}), {max(times) * 1000:.0f} ms at worst, of Discord's 3,000 ms")
    await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--db", help="an empty postgresql:// database (default: a SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        target = args.db or str(Path(directory) / "bench.sqlite3")
        start = time.perf_counter()
        asyncio.run(create(target, args.players))
        print(f"stored {args.players * GAMES_EACH // 2} games of {args.players} players in "
              f"{time.perf_counter() - start:.1f} s", flush=True)
        asyncio.run(measure(target, args.players))


if __name__ == "__main__":
    main()
