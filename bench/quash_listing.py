"""QUASH advanced: the CPU time of every legal-move listing of seeded random games, and a hash of the lists.

    python -m bench.quash_listing [--games 80] [--players 2] [--first-seed 0]

Plays the loop of :mod:`bench.engines` (whose turn, legal actions, a uniform seeded
choice, apply) on advanced games from seeds ``first-seed`` … and times each
``legal_actions`` call with the process's CPU clock. Prints p50, p99, the worst and
the total, and a digest of every list in order: two versions of the chain search
that print the same digest offered the same steps in the same order.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.quash import GAME
from games.rng import Rng

from .engines import MAX_STEPS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args(argv)
    clock = time.process_time
    times: list[float] = []
    digest = hashlib.sha256()
    for seed in range(args.first_seed, args.first_seed + args.games):
        state = GAME.new_game(args.players, {**GAME.quick_options, "advanced": True}, seed)
        rng = Rng(seed ^ 0x5DEECE66D)
        for _ in range(MAX_STEPS):
            acting = state.to_act()
            if not acting:
                break
            seat = acting[0] if len(acting) == 1 else acting[rng.below(len(acting))]
            start = clock()
            legal = state.legal_actions(seat)
            times.append(clock() - start)
            digest.update(" ".join(a.code() for a in legal).encode() + b"\n")
            state.apply(seat, legal[rng.below(len(legal))])
    times.sort()
    n = len(times)
    print(f"{args.games} games, {n} listings: p50 {times[n // 2] * 1e6:.0f} us, "
          f"p99 {times[n * 99 // 100] * 1e3:.2f} ms, worst {times[-1] * 1e3:.1f} ms, {sum(times):.2f} s in all; "
          f"lists {digest.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
