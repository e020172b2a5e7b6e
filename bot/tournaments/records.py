"""A tournament's rows as stored (migration 8), as plain values the store reads and the service hands out."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import games

STATUSES = ("signup", "running", "finished", "cancelled")
OPEN = ("signup", "running")


@dataclass(frozen=True)
class TournamentRow:
    """One tournament. ``round`` is the round paired last (0 before the start); ``deadline``
    the next timed transition (check-in opening, the start, the round limit), fired by the
    process that owns the server; ``version`` grows with every change, guarding transitions
    against a concurrent writer."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    name: str
    game_id: str
    options: dict[str, Any]
    """The game's options and the table options (``hints``), as every table of it has them."""
    timer_minutes: int
    format: str
    top: int
    rounds: int | None
    """Swiss rounds; ``None`` until the start, when it becomes enough to find a winner."""
    table_size: int
    advance: int
    seeding: str
    drop_after: int
    """Turns a timer plays for an entrant in the whole tournament before they are dropped."""
    round_minutes: int | None
    max_players: int | None
    check_in_minutes: int
    starts_at: float | None
    status: str
    paused: bool
    stage: str
    round: int
    deadline: float | None
    seed: int
    version: int
    created_at: float
    started_at: float | None
    finished_at: float | None
    shown: str | None
    """What the tournament message shows, ``"<status>@<version>"``."""

    @property
    def check_in_opens(self) -> float | None:
        """When check-in opens: ``check_in_minutes`` before the start; ``None`` without a start
        time or with check-in off (then everyone who joined plays)."""
        if self.starts_at is None or not self.check_in_minutes:
            return None
        return self.starts_at - self.check_in_minutes * 60

    def checking_in(self, now: float) -> bool:
        """Whether check-in is open at ``now``."""
        opens = self.check_in_opens
        return self.status == "signup" and opens is not None and opens <= now

    @property
    def is_open(self) -> bool:
        return self.status in OPEN

    @cached_property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each entrant's side at a table, entrant 1 of the table first: one seat
        each, or for a game played in teams (QUASH at four) a team's two seats."""
        return games.get_game(self.game_id).teams(self.table_size)

    @property
    def per_table(self) -> int:
        """Entrants at a table (people, or teams): what pairing and brackets see as a table's seats."""
        return len(self.sides)

    @property
    def in_teams(self) -> bool:
        """Whether entrants are teams of two, who register together."""
        return len(self.sides[0]) == 2


@dataclass(frozen=True)
class EntrantRow:
    """Someone who entered (with their partner, for a game played in teams). ``entrant`` numbers
    them in order of joining and is who pairing and standings see. ``joined_round``: 0 if they
    entered before the start, else the first round they could play (a late joiner has a loss
    for each round before it)."""

    tournament_id: int
    entrant: int
    user_id: int | None
    """None once they asked to be forgotten (in an ended tournament)."""
    name: str
    partner_id: int | None
    partner_name: str | None
    joined_round: int
    checked_in: bool
    dropped_round: int | None
    rating: float | None

    @property
    def dropped(self) -> bool:
        return self.dropped_round is not None

    @property
    def label(self) -> str:
        """How the entrant is named: their name, or a team's two names ("Ana & Ben")."""
        return self.name if self.partner_name is None else f"{self.name} & {self.partner_name}"

    @property
    def people(self) -> list[int]:
        """The people's ids (none for an entry forgotten by ``/privacy forget``)."""
        return [user for user in (self.user_id, self.partner_id) if user is not None]


@dataclass(frozen=True)
class RoundTableRow:
    """One table of a round (``grp`` numbers them from 1), or a bye. ``entrants`` holds the
    entrant at each seat, ``None`` for an AI seat. ``thread_id`` is stored as soon as the
    thread exists and ``table_id`` once the table is open, so opening a round resumes where a
    restart cut it."""

    tournament_id: int
    round: int
    grp: int
    entrants: tuple[int | None, ...]
    bye: bool
    thread_id: int | None
    table_id: int | None

    @property
    def playing(self) -> tuple[int, ...]:
        """The entrants at the table, each once (a team fills two seats), in seat order; AI seats left out."""
        return tuple(dict.fromkeys(e for e in self.entrants if e is not None))


@dataclass(frozen=True)
class SeatResult:
    """How one seat of a round's table finished, as recorded (``place`` None: ended early)."""

    seat: int
    place: int | None
    score: int | None


@dataclass(frozen=True)
class TableResult:
    """A round table's recorded result: ``status`` ``finished`` or ``abandoned``."""

    round: int
    grp: int
    table_id: int
    status: str
    seats: tuple[SeatResult, ...]
