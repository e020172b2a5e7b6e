"""Transactions that cannot be left open, and how database faults reach callers.

Every write of :class:`bot.storage.Storage` runs through :func:`transaction`: a failed
statement or a failed COMMIT rolls back, so the connection is always ready for the
next one. A fault of the database itself (locked past the busy timeout, an I/O
error, a full disk, a failed commit) reaches callers as
:class:`bot.errors.StorageUnavailable`, logged once.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import TypeVar

from .errors import StorageUnavailable

T = TypeVar("T")

log = logging.getLogger("bot.storage")

_TRANSIENT = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
_UNAVAILABLE = _TRANSIENT | {
    sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_NOMEM,
    sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PROTOCOL, sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB,
}
"""Primary result codes that mean the database, not the query, is at fault."""


class CommitFailed(Exception):
    """COMMIT itself failed (the transaction was rolled back)."""


def transaction(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """``fn(conn)`` inside BEGIN IMMEDIATE … COMMIT; any failure, COMMIT's included, rolls back."""
    if conn.in_transaction:  # only if an earlier ROLLBACK failed too: never build on its leftovers
        conn.execute("ROLLBACK")
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = fn(conn)
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise CommitFailed(str(exc)) from exc
    except BaseException:
        if conn.in_transaction:  # SQLite may already have rolled back (a full disk, an I/O error)
            conn.execute("ROLLBACK")
        raise
    return result


def failure_for_caller(exc: BaseException) -> BaseException:
    """``exc`` as the caller should see it: database faults become :class:`StorageUnavailable`
    (logged here, once per failed transaction); anything else is returned as it is."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, CommitFailed) or (isinstance(exc, sqlite3.Error) and code is not None
                                           and code & 0xFF in _UNAVAILABLE):
        _log_fault(exc)
        error = StorageUnavailable()
        error.__cause__ = exc
        return error
    return exc


def _log_fault(exc: BaseException) -> None:
    """One log line per failure: a lock held elsewhere is a warning, the rest errors."""
    cause = exc.__cause__ if isinstance(exc, CommitFailed) else exc
    code = getattr(cause, "sqlite_errorcode", 0) or 0
    level = logging.WARNING if code & 0xFF in _TRANSIENT else logging.ERROR
    what = "commit failed" if isinstance(exc, CommitFailed) else "operation failed"
    log.log(level, "database %s (%s); rolled back, nothing was saved", what, cause)
