"""Benchmark: two bot processes side by side on one PostgreSQL database, as two shards' processes run.

Runs two ``python -m bench.move_path`` processes at the same time against the same
database (each its own tables, as the servers of two shards are), and prints each
one's figures and the sum. Without ``--db`` it starts a throw-away PostgreSQL server
(``tests/pgserver.py``, durable: fsync on, as in production) for the run.

    python -m bench.two_processes --tables 100 --seconds 10 [--rate 1000] [--db postgresql://…]

``--rate`` is the load each process is offered (moves/s); 0 is flat out.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import subprocess
import sys
from collections.abc import Iterator

from bot.storage import Storage
from tests.pgserver import PostgresServer, find_binaries

PROCESSES = 2


@contextlib.contextmanager
def database(url: str | None) -> Iterator[tuple[str, int | None]]:
    """``url``, or a fresh database on a throw-away server (fsync on) for the run; and that
    server's process id (None for ``url``'s)."""
    if url:
        yield url, None
        return
    binaries = find_binaries()
    if binaries is None:
        raise SystemExit("no PostgreSQL server binaries found; pass --db postgresql://…")
    with PostgresServer(binaries, durable=True) as server:
        assert server.root is not None
        yield server.create_database("bench"), int((server.root / "data" / "postmaster.pid").read_text().split()[0])


async def migrate(url: str) -> None:
    """Create the schema once, before the processes open the database together."""
    await (await Storage.open(url)).close()


def figures(output: str) -> tuple[float, float, float]:
    """moves/s, p50 and p99 (ms) from ``bench.move_path``'s output."""
    rate = float(re.search(r"= ([\d,]+) moves/s", output)[1].replace(",", ""))
    p50, p99 = (float(x) for x in re.search(r"p50 ([\d.]+) ms, p99 ([\d.]+) ms", output).groups())
    return rate, p50, p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="concurrent tables per process")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=0.0, help="offered moves/s per process (0: flat out)")
    parser.add_argument("--db", help="a postgresql:// URL (default: a throw-away server)")
    args = parser.parse_args()
    with database(args.db) as (url, _):
        asyncio.run(migrate(url))
        command = [sys.executable, "-m", "bench.move_path", "--db", url, "--tables", str(args.tables),
                   "--seconds", str(args.seconds), "--rate", str(args.rate)]
        runs = [subprocess.Popen([*command, "--seed", str(n)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True) for n in range(PROCESSES)]
        outputs = [run.communicate()[0] for run in runs]
    results = []
    for n, (run, output) in enumerate(zip(runs, outputs), start=1):
        if run.returncode:
            raise SystemExit(f"two_processes: process {n} failed:\n{output}")
        results.append(figures(output))
        print(f"process {n}: {results[-1][0]:,.0f} moves/s, p50 {results[-1][1]:.2f} ms, p99 {results[-1][2]:.2f} ms")
    load = f"{args.rate:,.0f} moves/s offered to each" if args.rate else "flat out"
    print(f"{PROCESSES} processes on one PostgreSQL, {args.tables} tables each, {load}: "
          f"{sum(r[0] for r in results):,.0f} moves/s together, worst p99 {max(r[2] for r in results):.2f} ms")


if __name__ == "__main__":
    main()
