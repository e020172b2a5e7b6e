"""``python -m bot migrate-to-postgres SQLITE_FILE POSTGRES_URL``: move a deployment to PostgreSQL.

Copies every row of every Deckhand table (tables, seats, moves, results, result seats,
ratings, rating history, server settings, deployment facts) from a SQLite file into an
empty PostgreSQL database, in one transaction, then counts the rows on both sides. The
SQLite file is only read (it is brought to the latest schema first, as a start-up would).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .errors import DatabaseUnreachable
from .storage import Row, Session, SessionFn, Storage, is_postgres_url

TABLES = ("guild_settings", "meta", "tables", "seats", "moves", "results", "result_seats", "ratings",
          "rating_history", "tournaments", "tournament_entrants", "tournament_tables", "tournament_timeouts",
          "seasons", "season_ratings", "season_standings", "achievements")
"""Every Deckhand table, parents before the rows that refer to them."""


class MigrationError(Exception):
    """The copy cannot be made (or did not verify); the message says why, in one line."""


async def migrate_to_postgres(sqlite_file: Path | str, url: str) -> dict[str, int]:
    """Copy ``sqlite_file`` into the empty database at ``url``; returns the rows per table."""
    if not is_postgres_url(url):
        raise MigrationError(f"{url!r} is not a postgresql:// URL")
    _check_source(Path(sqlite_file))
    source = await Storage.open(sqlite_file)
    try:
        target = await Storage.open(url)
    except DatabaseUnreachable as exc:
        await source.close()
        raise MigrationError(str(exc)) from exc
    try:
        held = await _counts(target)
        if any(held.values()):
            raise MigrationError(f"the PostgreSQL database already holds Deckhand data ({_describe(held)}); "
                                 "migrate into an empty database")
        rows = {table: await source.run_read(_every_row_of(table)) for table in TABLES}

        async def copy(db: Session) -> None:
            for table, found in rows.items():
                if found:
                    columns = list(found[0].keys())
                    await db.executemany(
                        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                        [tuple(r) for r in found])
            # New tables, tournaments and seasons continue after the copied ids.
            for table in ("tables", "tournaments", "seasons"):
                await db.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1,"
                                 f" false) FROM {table}")

        await target.run_write(copy)
        copied, expected = await _counts(target), await _counts(source)
        if copied != expected:
            raise MigrationError(f"counts differ after the copy: SQLite {_describe(expected)}, "
                                 f"PostgreSQL {_describe(copied)}")
        return copied
    finally:
        await source.close()
        await target.close()


def _every_row_of(table: str) -> SessionFn[list[Row]]:
    """Reads every row of ``table``."""
    return lambda db: db.fetch(f"SELECT * FROM {table}")


def _check_source(path: Path) -> None:
    """Refuse a missing file or one that is not a Deckhand database (before anything opens it)."""
    if not path.is_file():
        raise MigrationError(f"{path} does not exist (give the SQLite file DECKHAND_DB pointed at)")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        has_tables = conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'tables'").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise MigrationError(f"{path} is not a SQLite database ({exc})") from exc
    finally:
        conn.close()
    if not has_tables:
        raise MigrationError(f"{path} is not a Deckhand database (it has no tables table)")


async def _counts(storage: Storage) -> dict[str, int]:
    async def count(db: Session) -> dict[str, int]:
        return {table: await db.fetchval(f"SELECT COUNT(*) FROM {table}") for table in TABLES}

    return await storage.run_read(count)


def _describe(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {table}" for table, n in counts.items())
