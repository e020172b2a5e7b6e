"""What the service's player-facing parts (lobbies, play) share.

The live tables, the publisher, the AI and timers, and the clock."""

from __future__ import annotations

from collections.abc import Callable

from .autoplay import AutoPlay
from .live_tables import LiveTables
from .publishing import Publishing


class ServicePart:
    def __init__(
        self, tables: LiveTables, publishing: Publishing, autoplay: AutoPlay, clock: Callable[[], float],
    ) -> None:
        self._tables = tables
        self._storage = tables.storage
        self._publishing = publishing
        self._autoplay = autoplay
        self._clock = clock
