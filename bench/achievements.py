"""Benchmark of ``python -m bot achievements --recompute`` over a big history.

Builds a SQLite database of N finished games (every registered game in turn, copies of a few
dozen games per game played by the ``normal`` AI with the contract tests' short options, each
with its move log, final snapshot, result and seats), spread over 10 servers of 1,000 people:
one game in ten has an AI seat (recorded, not rated), one in twenty a hint; every rated game
gives its people a rating point. Then recomputes every achievement from it twice (the second
run changes nothing) and reports the time, the CPU time and what was found.

    python -m bench.achievements --games 100000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

import games
from bot.storage import Storage
from bot.unlocks import Unlocks
from games.ai import choose_action
from games.rng import Rng

TEMPLATES = 40
"""Distinct games played per registered game; the history repeats them with other people."""
SERVERS, PEOPLE = 10, 1_000


def templates() -> list[dict]:
    """Games played to their end by the ``normal`` AI: options, seed, players, log, snapshot, outcome."""
    found = []
    for game in games.all_games():
        players = min(game.allowed_player_counts())
        options = game.normalize_options(dict(game.quick_options), players)
        for seed in range(TEMPLATES):
            state, rng, log = game.new_game(players, options, seed), Rng(seed), []
            while not state.is_over():
                seat = state.to_act()[0]
                action = choose_action(state, seat, rng, "normal")
                state.apply(seat, action)
                log.append((seat, json.dumps(action.to_json())))
            outcome = state.outcome()
            assert outcome is not None
            found.append({"game": game.id, "players": players, "options": json.dumps(options), "seed": seed,
                          "log": log, "state": json.dumps(state.to_json()), "outcome": json.dumps(outcome.to_json()),
                          "winners": set(outcome.winners), "ranking": outcome.ranking})
    return found


async def create(path: Path, count: int) -> int:
    """The history; returns the moves stored."""
    storage = await Storage.open(path, synchronous="OFF")
    played = templates()
    rng = random.Random(1)
    tables, results, seats, moves, points = [], [], [], [], []
    for table_id in range(1, count + 1):
        game = played[table_id % len(played)]
        guild = table_id % SERVERS + 1
        at = 1_700_000_000 + table_id * 60.0
        people = rng.sample(range(guild * PEOPLE, (guild + 1) * PEOPLE), game["players"])
        with_ai, hinted = table_id % 10 == 0, table_id % 20 == 1
        rated = not with_ai and not hinted
        tables.append((table_id, guild, guild, game["game"], game["options"], people[0], "finished", game["seed"],
                       len(game["log"]), game["state"], 0, game["outcome"], at - 600, at - 600, at, int(hinted)))
        results.append((table_id, guild, guild, game["game"], game["options"], "finished", int(rated), int(hinted),
                        "{}", at - 600, at))
        place = {seat: n for n, group in enumerate(game["ranking"], start=1) for seat in group}
        for seat, user in enumerate(people):
            ai = with_ai and seat == game["players"] - 1
            seats.append((table_id, seat, None if ai else user, f"P{user}", int(ai), seat, place.get(seat), 0,
                          int(seat in game["winners"])))
            if rated:
                points.append((guild, game["game"], user, table_id, rng.gauss(5, 8), at))
        moves += [(table_id, version, seat, action, 0, at) for version, (seat, action) in
                  enumerate(game["log"], start=1)]

    async def write(db) -> None:
        await db.executemany(
            "INSERT INTO tables (id, guild_id, channel_id, game_id, options, host_id, status, seed, version, state,"
            " timer_minutes, outcome, created_at, started_at, finished_at, hinted)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", tables)
        await db.executemany(
            "INSERT INTO results (table_id, guild_id, channel_id, game_id, options, status, rated, hinted, summary,"
            " started_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)", results)
        await db.executemany(
            "INSERT INTO result_seats (table_id, seat, user_id, name, is_ai, team, place, score, won)"
            " VALUES (?,?,?,?,?,?,?,?,?)", seats)
        await db.executemany("INSERT INTO moves (table_id, version, seat, action, by_ai, at) VALUES (?,?,?,?,?,?)",
                             moves)
        await db.executemany("INSERT INTO rating_history (guild_id, game_id, user_id, table_id, ordinal, at)"
                             " VALUES (?,?,?,?,?,?)", points)

    await storage.run_write(write)
    await storage.close()
    return len(moves)


async def recompute(path: Path) -> None:
    storage = await Storage.open(path)
    for run in ("first", "second"):
        wall, cpu = time.perf_counter(), time.process_time()
        done = await Unlocks(storage).recompute()
        print(f"{run} recompute: {time.perf_counter() - wall:.1f} s ({time.process_time() - cpu:.1f} s CPU):"
              f" {done.added} added, {done.removed} removed, {done.changed} moved, {done.kept} kept", flush=True)
    feats = await storage.run_read(lambda db: db.fetchval("SELECT COUNT(*) FROM achievements WHERE achievement"
                                                          " LIKE 'feat:%'"))
    print(f"of which feats: {feats}")
    await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "bench.sqlite3"
        start = time.perf_counter()
        stored = asyncio.run(create(path, args.games))
        print(f"stored {args.games} finished games ({stored} moves) in {time.perf_counter() - start:.1f} s", flush=True)
        asyncio.run(recompute(path))


if __name__ == "__main__":
    main()
