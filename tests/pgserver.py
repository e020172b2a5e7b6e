"""A real, throw-away PostgreSQL server for tests and benchmarks.

:class:`PostgresServer` runs ``initdb -A trust`` and ``pg_ctl start`` in a temporary
directory, listening on a free loopback port and a unix socket in that directory, and
removes everything on :meth:`~PostgresServer.stop`. ``initdb`` refuses to run as root,
so as root the server runs as the ``postgres`` system user (``runuser -u postgres --``)
in a directory that user owns. The binaries come from PATH or
``/usr/lib/postgresql/*/bin`` (the newest); :func:`find_binaries` says where, or None.

Run it on its own to get a server for a benchmark or by hand::

    python tests/pgserver.py          # prints the URL, stops on Ctrl-C
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

SERVICE_USER = "postgres"
"""The system user the server runs as when the tests run as root."""

MISSING = ("PostgreSQL server binaries (initdb, pg_ctl) were not found on PATH or under "
           "/usr/lib/postgresql/*/bin; install the postgresql package to run the PostgreSQL tests")


def find_binaries() -> Path | None:
    """The directory holding ``initdb``, ``pg_ctl`` and ``psql``, or None."""
    on_path = shutil.which("initdb")
    candidates = [Path(on_path).resolve().parent] if on_path else []
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                         key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, reverse=True)
    for directory in candidates:
        if all((directory / name).exists() for name in ("initdb", "pg_ctl", "psql")):
            return directory
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServerError(RuntimeError):
    """The server could not be set up; the message carries the tool's own output."""


class PostgresServer:
    """One PostgreSQL cluster in a temporary directory. ``start()``, then ``url(name)``."""

    def __init__(self, binaries: Path, *, durable: bool = False) -> None:
        self.binaries = binaries
        self.durable = durable
        """False (tests): fsync off, nothing needs to survive a power cut. True for benchmarks."""
        self.port = 0
        self.root: Path | None = None
        self._names = itertools.count(1)

    # -- life cycle ----------------------------------------------------------------------------

    def start(self) -> PostgresServer:
        self.root = Path(tempfile.mkdtemp(prefix="deckhand-pg-"))
        self.root.chmod(0o755)
        for part in ("data", "socket"):
            (self.root / part).mkdir(mode=0o700)
        if os.geteuid() == 0:
            shutil.chown(self.root, SERVICE_USER, SERVICE_USER)
            for part in ("data", "socket"):
                shutil.chown(self.root / part, SERVICE_USER, SERVICE_USER)
        self._run("initdb", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync",
                  "-D", str(self.root / "data"))
        self.port = free_port()
        self.resume()
        return self

    def pause(self) -> None:
        """Shut the server down (fast: connections are dropped), keeping its data and port."""
        self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """(Re)start the server on its port."""
        settings = [f"-p {self.port}", f"-k {self.root / 'socket'}", "-c listen_addresses=127.0.0.1",
                    "-c max_connections=200"]
        if not self.durable:
            settings += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        self._run("pg_ctl", "-D", str(self.root / "data"), "-l", str(self.root / "server.log"), "-w",
                  "-o", " ".join(settings), "start")

    def stop(self) -> None:
        """Stop the server at once and delete its directory."""
        if self.root is None:
            return
        try:
            self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        except PostgresServerError:
            pass  # never started, or already gone: the directory goes either way
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- databases -----------------------------------------------------------------------------

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "test") -> str:
        """A new empty database; returns its URL."""
        name = f"{prefix}_{next(self._names)}"
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop the database at ``url`` (made by :meth:`create_database`), ending its connections."""
        self.sql(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run one SQL statement through ``psql`` as the superuser; returns its unaligned output."""
        done = subprocess.run(
            [str(self.binaries / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
             "-d", self.url(database), "-c", statement],
            capture_output=True, text=True, timeout=60,
        )
        if done.returncode != 0:
            raise PostgresServerError(f"{statement!r} failed: {done.stderr.strip()}")
        return done.stdout.strip()

    # -- helpers -------------------------------------------------------------------------------

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.binaries / tool), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", SERVICE_USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=self.root)
        if done.returncode != 0:
            log = self.root / "server.log" if self.root else None
            tail = log.read_text()[-2000:] if log and log.exists() else ""
            raise PostgresServerError(f"{tool} failed ({done.returncode}): {done.stderr.strip()}\n{tail}")


def main() -> int:
    binaries = find_binaries()
    if binaries is None:
        print(MISSING, file=sys.stderr)
        return 1
    with PostgresServer(binaries, durable=True) as server:
        print(server.create_database("deckhand"), flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop cleanly when killed too
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
