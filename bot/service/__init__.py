"""The game service: lobbies, moves, AI seats and turn timers, on top of storage.

Data flows one way (DESIGN.md): a cog parses and authorises an interaction, calls the part
of the service that does the work (``service.lobbies``, ``service.play``, ``service.replays``,
``service.autoplay``: the :class:`GameService` makes and wires them), and renders what it
returns. A part loads the table, applies the move through the engine, commits it (one
transaction, version guarded), and only then lets anyone see the result. Work that follows a
move without an interaction (AI turns, timers, editing the public table message) runs in
tasks the service tracks; it reaches Discord through a :class:`Publisher` that the Discord
layer provides, so this package never imports discord (nor cogs).

The parts, lowest first: ``snapshots`` (what the service hands out), ``tasks`` (background
work), ``publishing``, ``live_tables`` (tables in memory and committing a new state),
``autoplay`` (AI seats and turn timers), ``lobby``, ``play`` and ``replay`` (what people do),
and ``game_service`` (the :class:`GameService` holding them).
"""

from .game_service import GameService
from .lobby import DEFAULT_TIMER_MINUTES, MAX_TIMER_MINUTES, checked_options
from .snapshots import HandSnapshot, Player, Publisher, TableSnapshot

__all__ = [
    "DEFAULT_TIMER_MINUTES", "MAX_TIMER_MINUTES", "GameService", "HandSnapshot", "Player", "Publisher",
    "TableSnapshot", "checked_options",
]
