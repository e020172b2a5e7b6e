"""Message rendering speed: the table and hand messages of many random positions of every game.

    python -m bench.messages [--positions 400] [--games q2j,war]

For each registered game, plays seeded random games (every player count in turn) and
renders, for each position, the public table message and the hand message of a seat to act
into the JSON Discord receives (pictures aside: ``bench/pictures.py`` times those). Prints
p50/p99 of the process's CPU time per message in microseconds, which other load on the
machine barely changes, and the largest body in characters.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from statistics import quantiles
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson

import games
from bot.service import HandSnapshot, TableSnapshot
from bot.storage import SeatRow, TableRow
from cogs.looks import load_game_uis
from cogs.messages import hand_message, table_message
from games.pictures.samples import SAMPLE_NAMES, random_positions


def body(rendered: Any) -> dict[str, Any]:
    """The JSON of a rendered message, as discord.py builds it from the message's parts."""
    parts = rendered.kwargs()
    data: dict[str, Any] = {"content": parts["content"]}
    if parts["embed"] is not None:
        data["embeds"] = [parts["embed"].to_dict()]
    if parts["view"] is not None:
        data["components"] = parts["view"].to_components()
    return data


def table_row(game: games.Game, players: int, state: games.GameState) -> TableRow:
    seats = [SeatRow(i, None if "AI" in name else 1000 + i, name, "AI" in name)
             for i, name in enumerate(SAMPLE_NAMES[:players])]
    over = state.is_over()
    return TableRow(
        id=7, guild_id=1, channel_id=2, game_id=game.id, options=game.normalize_options(dict(game.quick_options)),
        host_id=1000, status="finished" if over else "running", seed=1, version=3, state=None,
        timer_minutes=10, deadline=1_900_000_000.0, reminded=False,
        recent_events=["ana played 7♣ on 4♦ (different suits, higher is stronger)."] * 6,
        outcome=state.outcome().to_json() if over else None, lobby_message_id=2, table_message_id=2,
        ping_message_id=None, created_at=0.0, started_at=0.0, finished_at=95.0 if over else None, seats=seats,
    )


class Samples:
    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.largest = 0

    def time(self, render: Callable[[], dict[str, Any]]) -> None:
        cpu = time.process_time()
        data = render()
        self.cpu.append((time.process_time() - cpu) * 1e6)
        self.largest = max(self.largest, len(orjson.dumps(data)))


def measure(game: games.Game, positions: int) -> dict[str, Samples]:
    results = {"table": Samples(), "hand": Samples()}
    counts = game.allowed_player_counts()
    seed = 0
    while len(results["table"].cpu) < positions:
        players = counts[seed % len(counts)]
        for state in random_positions(game, players, dict(game.quick_options), seed):
            if len(results["table"].cpu) >= positions:
                break
            table = TableSnapshot(table_row(game, players, state), state.view(None))
            results["table"].time(lambda: body(table_message(table)))
            if state.to_act():
                seat = state.to_act()[0]
                hand = HandSnapshot(table, seat, state.view(seat), state.legal_actions(seat))
                results["hand"].time(lambda: body(hand_message(hand)))
        seed += 1
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.messages", description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=400, help="positions per game (default 400)")
    parser.add_argument("--games", default=",".join(games.GAME_IDS), help="comma-separated game ids")
    args = parser.parse_args(argv)
    load_game_uis()
    print(f"{'game':<16} {'message':<7} {'count':>6} {'p50 µs':>8} {'p99 µs':>8} {'largest':>8}")
    for game_id in args.games.split(","):
        for kind, samples in measure(games.get_game(game_id), args.positions).items():
            p50, p99 = (quantiles(samples.cpu, n=100, method="inclusive")[p - 1] for p in (50, 99))
            print(f"{game_id:<16} {kind:<7} {len(samples.cpu):>6} {p50:>8.0f} {p99:>8.0f} {samples.largest:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
