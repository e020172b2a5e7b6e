"""Persistence: tables, seats, the move log, results and settings, on SQLite or PostgreSQL.

``await Storage.open(target)`` opens a SQLite file (a path, the default) or a PostgreSQL
database (a ``postgresql://`` URL); both backends implement :class:`Storage`
(:mod:`bot.storage.base`), and modules with tables of their own write their SQL once
against a :class:`Session` (:mod:`bot.storage.session`).
"""

from ..records import (  # noqa: F401  (re-exported: callers import the rows from here)
    ChannelBusy, GuildSettings, MoveRecord, OpenTable, SeatRow, TableRow, TableUpdate,
)
from .base import BUSY_TIMEOUT, OPEN_STATUSES, Storage, is_postgres_url  # noqa: F401
from .postgres import PostgresStorage  # noqa: F401  (registers the backend)
from .session import Conflict, Session  # noqa: F401
from .sqlite import SqliteStorage  # noqa: F401  (registers the backend)
