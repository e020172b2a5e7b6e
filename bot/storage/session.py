"""What storage functions written once for both backends see: a :class:`Session`.

Modules that own tables (``bot.results``, ``bot.forgetting``) and the dialect-free part
of :class:`bot.storage.Storage` write their SQL once, with ``?`` placeholders and the SQL
that SQLite and PostgreSQL share (``INSERT … ON CONFLICT``, ``RETURNING``, integer
flags, JSON as text), as ``async def fn(db: Session)``. The storage runs ``fn`` inside
one transaction (``run_write``) or outside any (``run_read``):

- on SQLite, in the database's worker thread with the connection itself: the session
  never suspends, so :func:`settle` runs ``fn`` to its end in one thread hop;
- on PostgreSQL, on a pooled asyncpg connection, ``?`` written as ``$1, $2…``
  (:func:`numbered_placeholders`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any, Protocol, TypeVar, cast

T = TypeVar("T")


class Conflict(Exception):
    """A write would break a uniqueness rule (a unique index or a primary key)."""


class Row(Protocol):
    """A result row: by position (``row[0]``), by column name (``row["id"]``), or iterated;
    ``keys()`` names its columns."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def keys(self) -> Iterable[str]: ...


class Session(Protocol):
    """One connection, inside the transaction the storage opened for ``fn`` (if any).

    ``params`` is a sequence matching the ``?`` placeholders. Unique violations raise
    :class:`Conflict`; database faults become :class:`bot.errors.StorageUnavailable`.
    """

    dialect: str
    """``"sqlite"`` or ``"postgresql"``: for the rare statement the two spell differently."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns how many rows it changed."""

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or None."""

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row, or None."""


def settle(value: Awaitable[T]) -> T:
    """The result of ``fn(session)`` when the session never suspends (SQLite's, in its thread).

    A coroutine is run to its end right here; a plain value (a function that used the
    connection directly) is returned as it is.
    """
    if not asyncio.iscoroutine(value):
        return cast(T, value)  # a plain value: the function returned its result itself
    try:
        value.send(None)
    except StopIteration as done:
        return done.value
    value.close()
    raise RuntimeError("a storage function awaited something other than its session")


@lru_cache(maxsize=1024)
def numbered_placeholders(sql: str) -> str:
    """``sql`` with each ``?`` outside quotes written as PostgreSQL's ``$1, $2…``."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote:
            quote = None if char == quote else quote
        elif char in ("'", '"'):
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)
