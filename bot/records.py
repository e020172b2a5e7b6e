"""The rows Deckhand stores, as plain values shared by the storage backend and the service."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.ai import LEVELS
from games.i18n import SOURCE, Seat, Text, say

EventLine = str | dict[str, Any]
"""A line of a table's events as stored: an engine's words as data (:meth:`Text.to_json
<games.i18n.Text.to_json>`, its seats named when read: the engine's words and the service's own
lines alike), or words stored as they are (rows stored before events were data)."""


def event_words(line: EventLine, names: Sequence[str], language: str = SOURCE) -> str:
    """A stored event line in ``language``, its seats named by ``names``."""
    return Text.from_json(line).render(language, names)


def ender_line(player: Seat | str) -> Text:
    """"<player> ended the game.": their seat, or the name of someone who ended it without
    playing in it (a moderator), which :mod:`bot.forgetting` finds and rewrites."""
    return say("{player} ended the game.", player=player)


AI_MARK = "🤖"
"""Before an AI player's name wherever it is shown."""
AI_NAME = re.compile(r"AI (\d+)")
"""An AI player's name as stored ("AI 1"): data, worded in the reader's language when shown."""


class ChannelBusy(Exception):
    """Another table is already open in that channel."""


@dataclass
class SeatRow:
    seat: int
    user_id: int | None
    name: str
    is_ai: bool
    missed_turns: int = 0
    ai_level: str | None = None
    """The level an AI seat plays at; None for a person's seat (and AI seats from before levels: normal)."""

    @property
    def shown_name(self) -> str:
        """The name players read in English (:func:`shown_name`)."""
        return shown_name(self.name, self.is_ai and self.user_id is None)

    def name_in(self, language: str) -> str:
        """The name players read in ``language`` (:func:`shown_name`)."""
        return shown_name(self.name, self.is_ai and self.user_id is None, language)


def shown_name(name: str, ai_player: bool, language: str = SOURCE) -> str:
    """A seat's name as players read it in ``language``: an AI player's once, marked, "🤖 AI 1"
    ("🤖 IA 1" in French; its level is shown in the lobby only), also for AI seats stored before,
    named "AI 1 (hard)"; a person's as typed, also once an AI took their seat over."""
    if not ai_player:
        return name
    base, _, level = name.rpartition(" (")
    base = base if base and level.rstrip(")") in LEVELS else name
    numbered = AI_NAME.fullmatch(base)
    if numbered:
        base = say("AI {number}", number=int(numbered[1])).render(language)
    return f"{AI_MARK} {base}"


@dataclass
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    game_id: str
    options: dict[str, Any]
    host_id: int
    status: str
    seed: int
    version: int
    state: dict[str, Any] | None
    timer_minutes: int
    deadline: float | None
    reminded: bool
    recent_events: list[EventLine]
    outcome: dict[str, Any] | None
    lobby_message_id: int | None
    table_message_id: int | None
    ping_message_id: int | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    hinted: bool = False
    """Someone took a hint in this game: it is recorded unrated."""
    seats: list[SeatRow] = field(default_factory=list)
    shown: str | None = None
    """What the table's message shows, ``"<status>@<version>"`` (None: nothing yet)."""
    pinged: dict[int, int] = field(default_factory=dict)
    """Per seat, the turn (the version it began at) its player was last pinged for."""
    pinging: dict[str, Any] | None = None
    """A ping being sent (``{"seats": {seat: turn}, "at": time}``), until its id is stored."""

    def copy(self) -> TableRow:
        """An independent copy (seats included); cheaper than ``copy.copy`` on the move path."""
        clone = object.__new__(TableRow)
        clone.__dict__.update(self.__dict__)
        clone.seats = [SeatRow(s.seat, s.user_id, s.name, s.is_ai, s.missed_turns, s.ai_level) for s in self.seats]
        clone.pinged = dict(self.pinged)
        return clone

    def seat_of(self, user_id: int) -> SeatRow | None:
        """The seat ``user_id`` plays (not one an AI took over from them)."""
        return next((s for s in self.seats if s.user_id == user_id and not s.is_ai), None)


@dataclass(frozen=True)
class GuildSettings:
    """A server's settings; the defaults are what a server that never used ``/settings`` gets."""

    use_threads: bool = False
    timer_minutes: int | None = None
    """None: the built-in default turn timer."""
    pictures: bool = True
    ai_level: str = "normal"
    """The level of AI seats added without choosing one, and of AIs taking over a seat."""
    language: str | None = None
    """The language of the server's public messages (a catalog's language, ``"fr"``); None:
    the server's Discord locale (``guild_locale``), English where no catalog has it."""
    season_min_games: int = 5
    """Rated games a player needs in a season to be ranked in it."""
    active_days: int = 60
    """The all-time leaderboards list players with a finished game in this many days (0: everyone)."""
    season_rollover: str | None = None
    """``"monthly"`` or ``"quarterly"``: a season ends with its period and the next starts at
    once (:mod:`bot.seasons`); None: seasons start and end by command."""
    web_token: str | None = None
    """The secret in the links of the server's site (``/settings web``); None: the site is off."""


@dataclass(frozen=True)
class TablePlace:
    """Where a table lives, which never changes: its server and its channel (or thread).
    A control naming the table is valid only there."""

    guild_id: int
    channel_id: int
    ended: bool
    """The game is over (finished, abandoned or cancelled)."""


@dataclass(frozen=True)
class OpenTable:
    """What start-up needs of an open table without loading it: its timer and whether AI seats play."""

    id: int
    status: str
    deadline: float | None
    reminded: bool
    timer_minutes: int
    has_ai: bool


@dataclass(frozen=True)
class MoveRecord:
    seat: int
    action: dict[str, Any]
    by_ai: bool
    at: float


@dataclass
class TableUpdate:
    """The columns a move (or a batch of AI moves) changes, written in one transaction."""

    state: dict[str, Any]
    status: str
    deadline: float | None
    reminded: bool
    recent_events: list[EventLine]
    outcome: dict[str, Any] | None = None
    finished_at: float | None = None
    missed_turns: dict[int, int] = field(default_factory=dict)
    ai_seats: Iterable[int] = ()
    ai_level: str | None = None
    """The level the AI plays ``ai_seats`` at."""
