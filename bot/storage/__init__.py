"""Persistence: tables, seats, the move log, results and settings, on SQLite or PostgreSQL.

``await Storage.open(target)`` opens a SQLite file (a path, the default) or a PostgreSQL
database (a ``postgresql://`` URL); both backends implement :class:`Storage`
(:mod:`bot.storage.base`), and modules with tables of their own write their SQL once
against a :class:`Session` (:mod:`bot.storage.session`).
"""

from ..records import ChannelBusy, GuildSettings, MoveRecord, OpenTable, SeatRow, TablePlace, TableRow, TableUpdate
from .base import BUSY_TIMEOUT, SessionFn, Storage, is_postgres_url
from .postgres import PostgresStorage  # importing a backend registers it with Storage.open
from .session import Conflict, Row, Session
from .sqlite import SqliteStorage

__all__ = [
    "BUSY_TIMEOUT", "ChannelBusy", "Conflict", "GuildSettings", "MoveRecord", "OpenTable", "PostgresStorage",
    "Row", "SeatRow", "Session", "SessionFn", "SqliteStorage", "Storage", "TablePlace", "TableRow", "TableUpdate",
    "is_postgres_url",
]
