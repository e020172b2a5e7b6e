"""Picture speed and size: table and hand pictures of many random positions of every game.

    python -m bench.pictures [--positions 400] [--warm 400] [--games q2j,war] [--tables 1]

For each registered game, plays seeded random games (every player count in turn) and
draws the table picture of each position from the public view and the hand picture of a
seat to act from its view, the seats named as at a real table: each picture drawn and
encoded anew (no PNG kept), after the pictures of ``--warm`` positions of other seeds,
as a bot that has been running draws them (its cards, lines of text and layers kept
drawn; the positions measured are new to it). Prints p50/p99 milliseconds per picture
(wall clock, and of the process's CPU time, which other load on the machine
changes less), the mean and largest PNG sizes, and the process's peak memory.
Targets: p99 ≤ 2 ms per table picture and per hand picture (issue 42), PNGs ≤ 150 KB.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from statistics import quantiles

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from games.base import GameState
from games.pictures import hand_png, table_png
from games.pictures.samples import SAMPLE_NAMES, random_positions


def percentile(values: list[float], p: int) -> float:
    return quantiles(values, n=100, method="inclusive")[p - 1]


class Samples:
    """Wall and CPU milliseconds and PNG bytes of the pictures of one kind."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.sizes: list[int] = []

    def time(self, draw: Callable[[], bytes | None]) -> None:
        """Time one drawing (a hand with nothing to draw is timed, and has no size)."""
        wall, cpu = time.perf_counter(), time.process_time()
        png = draw()
        self.cpu.append((time.process_time() - cpu) * 1000)
        self.wall.append((time.perf_counter() - wall) * 1000)
        if png is not None:
            self.sizes.append(len(png))


WARM_SEEDS = 1_000_000
"""The warm-up plays seeds from here on, which the measured positions (seeds from 0) never reach."""


def measure(game: games.Game, positions: int, first_seed: int = 0, tables: int = 1) -> dict[str, Samples]:
    """Samples of ``positions`` table pictures and of the hand pictures of the same positions,
    drawn at ``tables`` tables in turn, each with its own players' names (one table: the sample
    names)."""
    results = {"table": Samples(), "hand": Samples()}
    streams = [table_positions(game, first_seed + table, tables, table if tables > 1 else None)
               for table in range(tables)]
    while len(results["table"].wall) < positions:
        for stream in streams:
            if len(results["table"].wall) >= positions:
                break
            state, names = next(stream)
            public = state.view(None)
            results["table"].time(lambda: table_png(public, names=names))
            acting = state.to_act()
            if acting:
                view = state.view(acting[0])
                legal = [action.code() for action in state.legal_actions(acting[0])]
                results["hand"].time(lambda: hand_png(view, legal, names=names))
    return results


def table_positions(game: games.Game, seed: int, step: int, table: int | None) -> Iterator[tuple[GameState, list[str]]]:
    """One table's positions, game after game (seeds ``seed``, ``seed + step``, …; every player
    count in turn), with its players' names: the sample names, numbered by ``table`` when given."""
    counts = game.allowed_player_counts()
    while True:
        players = counts[seed % len(counts)]
        names = [name if table is None else f"{name} {table}" for name in SAMPLE_NAMES[:players]]
        for state in random_positions(game, players, dict(game.quick_options), seed):
            yield state, names
        seed += step


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400, help="table pictures per game (default 400)")
    parser.add_argument("--warm", type=int, default=400, help="table pictures per game drawn first (default 400)")
    parser.add_argument("--games", default=",".join(games.GAME_IDS), help="comma-separated game ids")
    parser.add_argument("--tables", type=int, default=1, help="tables drawn in turn, each with its own names "
                        "(as a bot serving that many busy tables draws them; default 1)")
    args = parser.parse_args(argv)
    print(f"{'game':16} {'picture':8} {'count':>6} {'p50 ms':>8} {'p99 ms':>8} {'p50 cpu':>8} {'p99 cpu':>8} {'mean KB':>8} {'max KB':>8}")
    for game_id in args.games.split(","):
        game = games.get_game(game_id)
        if args.warm:
            measure(game, args.warm, WARM_SEEDS, args.tables)
        for kind, samples in measure(game, args.positions, 0, args.tables).items():
            wall, sizes = samples.wall, samples.sizes
            print(f"{game_id:16} {kind:8} {len(wall):6d} {percentile(wall, 50):8.2f} {percentile(wall, 99):8.2f}"
                  f" {percentile(samples.cpu, 50):8.2f} {percentile(samples.cpu, 99):8.2f} {sum(sizes) / len(sizes) / 1024:8.1f} {max(sizes) / 1024:8.1f}")
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
