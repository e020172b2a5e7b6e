"""Tournament pairing speed: big Swiss fields over many rounds of random results.

    python -m bench.tournament_pairing [--fields 1024x2,256x4] [--rounds N] [--seed 0]

For each field (``players`` x ``seats`` a table), plays Swiss rounds: standings from the
results so far, then the pairing (:func:`~games.tournament.swiss_pairing` at two seats,
:func:`~games.tournament.group_pairing` at more), then seeded random results (two seats:
win, draw or loss; more: random places with ties). Prints, in the process's CPU time, the
p50 and the worst of the standings and of the pairing over the rounds, and the repeat
meetings the pairings made. Rounds default to ``ceil(log2(players))``, more than the
tournament's own default at tables of more than two (harder: more people have met).
Target (issue 40): each pairing well under a second.
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import combinations
from pathlib import Path
from statistics import median

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rng import Rng
from games.tournament import Finish, Result, default_rounds, group_pairing, standings, swiss_pairing


def play(players: int, seats: int, rounds: int, seed: int) -> str:
    """One field's rounds, as a line of figures."""
    rng = Rng(seed)
    entrants = list(range(1, players + 1))
    results: list[Result] = []
    met: set[frozenset[int]] = set()
    standing_ms: list[float] = []
    pairing_ms: list[float] = []
    repeats = 0
    for round in range(1, rounds + 1):
        start = time.process_time()
        lines = standings(entrants, results, seed=seed)
        standing_ms.append((time.process_time() - start) * 1000)
        start = time.process_time()
        pairing = swiss_pairing(lines) if seats == 2 else group_pairing(lines, table_size=seats)
        pairing_ms.append((time.process_time() - start) * 1000)
        for table in pairing.tables:
            people = list(table.entrants)
            pairs = {frozenset(p) for p in combinations(people, 2)}
            repeats += len(pairs & met)
            met |= pairs
            scores = [rng.below(3) for _ in range(table.seats)]
            places = [1 + sum(other > mine for other in scores) for mine in scores]
            seated = [*people, *[None] * table.ai_seats]
            results.append(Result(round, tuple(Finish(e, p, s) for e, p, s in zip(seated, places, scores))))
        results += [Result.bye(round, e) for e in pairing.byes]
    return (f"{players} players at {seats} seats, {rounds} rounds: pairing p50 {median(pairing_ms):.0f} ms, "
            f"worst {max(pairing_ms):.0f} ms; standings p50 {median(standing_ms):.0f} ms, "
            f"worst {max(standing_ms):.0f} ms; {repeats} repeat meetings")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fields", default="1024x2,256x4", help="players x seats, comma separated")
    parser.add_argument("--rounds", type=int, default=0, help="rounds a field (0: ceil(log2(players)))")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for field in args.fields.split(","):
        players, seats = (int(x) for x in field.split("x"))
        print(play(players, seats, args.rounds or default_rounds(players), args.seed), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
