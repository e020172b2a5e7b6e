"""Seasons: a server's running race and the standings of the seasons that ended.

Seasons: a server's running race, beside the all-time ratings, and the standings of each
season that ended.

A season runs from ``started_at`` until it ends: at ``ends_at`` (a stored deadline, fired by
the process that owns the server, :mod:`bot.service.seasons`) or by ``/season end``. While it
runs, every rated game that finishes inside it also updates the players' season ratings (per
game and overall, in ``season_ratings``, in the game's result transaction): a player's first
season rating starts from their all-time rating with its uncertainty raised
(:func:`bot.ratings.season_start`); the all-time ratings never see the season.

Standings are computed from stored results every time they are shown: games and wins are
counted from the results inside the season, the rating is the season rating, and a player is
ranked once their season rating rests on the server's minimum of rated games. When a season
ends, its standings are computed once more and kept (``season_standings``): the archive is a
snapshot of that computation, taken in the transaction that ends the season, which succeeds
for one caller only (``version``), so two processes never both end it.

SQL is written once for both backends (:mod:`bot.storage.session`).
"""

from __future__ import annotations

import calendar
from dataclasses import astuple, dataclass, replace
from datetime import UTC, datetime
from typing import Any

from games.i18n import Text, say

from .ratings import OVERALL, Rating, ordinal, season_start
from .records import GuildSettings
from .storage import Session

NAME_LENGTH = 40
"""The longest season name: it fits a menu choice and a picture's heading."""
REMINDER_SECONDS = 24 * 60 * 60
"""A season's channel is reminded this long before its end."""
ROLLOVERS: dict[str, Text] = {"monthly": say("monthly"), "quarterly": say("quarterly")}
"""``/settings season-rollover``: seasons that follow the calendar, each starting as the last ends."""

_COLUMNS = "id, guild_id, channel_id, name, started_at, ends_at, ended_at, reminded, announced, version"


@dataclass(frozen=True)
class Season:
    id: int
    guild_id: int
    channel_id: int
    """Where its reminder and its end are posted (where it was started)."""
    name: str
    started_at: float
    ends_at: float | None
    """When it ends by itself (None: when ``/season end`` ends it)."""
    ended_at: float | None
    """When it ended (None while it runs)."""
    reminded: bool
    announced: bool
    """Its end was posted."""
    version: int

    @property
    def running(self) -> bool:
        return self.ended_at is None

    @property
    def until(self) -> float | None:
        """Games finished from this time on are not the season's."""
        return self.ended_at if self.ended_at is not None else self.ends_at


@dataclass(frozen=True)
class Standing:
    """A player's place in a season's standings of one game (or overall)."""

    place: int
    user_id: int
    name: str
    rating: float
    """The season rating (the stored ordinal)."""
    rated_games: int
    games: int
    wins: int
    points: int
    """The game's points (``Outcome.scores``) summed over the season's games."""


@dataclass(frozen=True)
class Board:
    """A season's standings of one game (``game_id``, or :data:`bot.ratings.OVERALL`)."""

    game_id: str
    standings: list[Standing]


def _season(row: Any) -> Season:
    return Season(row[0], row[1], row[2], row[3], row[4], row[5], row[6], bool(row[7]), bool(row[8]), row[9])


# -- the calendar ----------------------------------------------------------------------------


def period(rollover: str, at: float) -> tuple[str, float]:
    """The name and the end of the calendar period (``monthly`` or ``quarterly``, in UTC) that
    ``at`` falls in: ``("2025-04", <1 May>)``, ``("2025-Q2", <1 July>)``."""
    when = datetime.fromtimestamp(at, UTC)
    months = 3 if rollover == "quarterly" else 1
    first = (when.month - 1) // months * months + 1
    year, month = divmod(first - 1 + months, 12)
    end = calendar.timegm((when.year + year, month + 1, 1, 0, 0, 0))
    name = f"{when.year}-Q{(first + 2) // 3}" if months == 3 else f"{when.year}-{when.month:02}"
    return name, float(end)


# -- reading ---------------------------------------------------------------------------------


async def running_season(db: Session, guild_id: int) -> Season | None:
    row = await db.fetchrow(f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
    return _season(row) if row else None


async def season_named(db: Session, guild_id: int, name: str) -> Season | None:
    """The server's season called ``name`` (letter case aside)."""
    row = await db.fetchrow(f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND lower(name) = lower(?)",
                            (guild_id, name))
    return _season(row) if row else None


async def season_by_id(db: Session, season_id: int) -> Season | None:
    row = await db.fetchrow(f"SELECT {_COLUMNS} FROM seasons WHERE id = ?", (season_id,))
    return _season(row) if row else None


async def seasons_of(db: Session, guild_id: int) -> list[Season]:
    """The server's seasons, the running one first, then the latest ended first."""
    rows = await db.fetch(f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ?"
                          " ORDER BY ended_at IS NOT NULL, ended_at DESC, id DESC", (guild_id,))
    return [_season(r) for r in rows]


async def season_of_game(db: Session, guild_id: int, finished_at: float) -> Season | None:
    """The running season a game finished at ``finished_at`` counts in, if any."""
    season = await running_season(db, guild_id)
    if season is None or finished_at < season.started_at or (season.ends_at is not None
                                                              and finished_at >= season.ends_at):
        return None
    return season


# -- ratings ---------------------------------------------------------------------------------


async def season_ratings(db: Session, season: Season, game_id: str, users: dict[int, int],
                         all_time: dict[int, Rating]) -> dict[int, tuple[Rating, int]]:
    """Per seat (``users``: seat → user), the season rating before a game and its rated games:
    the stored one, or the soft reset of ``all_time`` (the seat's all-time rating before it)."""
    current = {}
    for seat, user in users.items():
        found = await db.fetchrow("SELECT mu, sigma, rated_games FROM season_ratings"
                                  " WHERE season_id = ? AND game_id = ? AND user_id = ?", (season.id, game_id, user))
        current[seat] = ((found[0], found[1]), found[2]) if found else (season_start(all_time[seat]), 0)
    return current


async def store_season_rating(db: Session, season: Season, game_id: str, user_id: int, rating: Rating,
                              rated_games: int) -> None:
    await db.execute(
        "INSERT INTO season_ratings (season_id, game_id, user_id, mu, sigma, rated_games) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (season_id, game_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " rated_games = excluded.rated_games", (season.id, game_id, user_id, *rating, rated_games))


# -- standings -------------------------------------------------------------------------------


async def standings(db: Session, season: Season, game_id: str, min_games: int, *, named: bool = True
                    ) -> list[Standing]:
    """The season's standings of ``game_id`` (or :data:`OVERALL`) computed now: players whose
    season rating rests on ``min_games`` rated games or more, best first (ties: more wins,
    then the earlier player). Games, wins and points are counted from the results inside the
    season; with ``named``, names are those the players last played under in it."""
    rated = {r[0]: (ordinal(r[1], r[2]), r[3]) for r in await db.fetch(
        "SELECT user_id, mu, sigma, rated_games FROM season_ratings WHERE season_id = ? AND game_id = ?"
        " AND rated_games >= ?", (season.id, game_id, min_games))}
    if not rated:
        return []
    where, params = _inside(season, game_id)
    counted = {r[0]: (r[1], r[2], r[3]) for r in await db.fetch(
        "SELECT rs.user_id, COUNT(*), SUM(rs.won), COALESCE(SUM(rs.score), 0) FROM result_seats rs"
        " JOIN results r ON r.table_id = rs.table_id WHERE " + where + " GROUP BY rs.user_id", params)}
    names = {r[0]: r[1] for r in await db.fetch(
        "SELECT rs.user_id, rs.name FROM result_seats rs JOIN results r ON r.table_id = rs.table_id WHERE "
        + where + " ORDER BY r.finished_at, r.table_id", params) if r[0] in rated} if named else {}
    order = sorted(rated, key=lambda user: (-rated[user][0], -counted.get(user, (0, 0, 0))[1], user))
    return [Standing(place, user, names.get(user, ""), *rated[user], *counted.get(user, (0, 0, 0)))
            for place, user in enumerate(order, start=1)]


async def player_in(db: Session, season: Season, game_id: str, user_id: int
                    ) -> tuple[float | None, int, int, int]:
    """A player's season rating of ``game_id`` (or overall; None before a rated game in the season),
    the rated games it rests on, and their games and wins in the season."""
    rated = await db.fetchrow("SELECT mu, sigma, rated_games FROM season_ratings WHERE season_id = ?"
                              " AND game_id = ? AND user_id = ?", (season.id, game_id, user_id))
    where, params = _inside(season, game_id)
    counted = await db.fetchrow("SELECT COUNT(*), COALESCE(SUM(rs.won), 0) FROM result_seats rs JOIN results r"
                                " ON r.table_id = rs.table_id WHERE " + where + " AND rs.user_id = ?",
                                (*params, user_id))
    assert counted is not None  # aggregates without GROUP BY: always one row
    rating = ordinal(rated[0], rated[1]) if rated else None
    return rating, rated[2] if rated else 0, counted[0], counted[1]


async def board(db: Session, season: Season, game_id: str, min_games: int) -> list[Standing]:
    """The season's standings of one game (or overall), unnamed while it runs, as archived once it ended."""
    if season.running:
        return await standings(db, season, game_id, min_games, named=False)
    return [_standing(r) for r in await db.fetch(
        f"SELECT {_STANDING} FROM season_standings WHERE season_id = ? AND game_id = ? ORDER BY place",
        (season.id, game_id))]


_STANDING = "place, user_id, name, rating, rated_games, games, wins, points"


def _standing(r: Any) -> Standing:
    return Standing(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7])


def _inside(season: Season, game_id: str) -> tuple[str, list[Any]]:
    """Conditions for the finished games of people inside the season (of one game, unless overall)."""
    where = ("r.guild_id = ? AND r.status = 'finished' AND rs.is_ai = 0 AND rs.user_id IS NOT NULL"
             " AND r.finished_at >= ?")
    params: list[Any] = [season.guild_id, season.started_at]
    if season.until is not None:
        where += " AND r.finished_at < ?"
        params.append(season.until)
    if game_id != OVERALL:
        where += " AND r.game_id = ?"
        params.append(game_id)
    return where, params


async def boards(db: Session, season: Season, min_games: int) -> list[Board]:
    """The season's standings of every game someone is ranked in, overall first: as archived
    for an ended season, computed for a running one."""
    if season.running:
        return await computed_boards(db, season, min_games)
    rows = await db.fetch(f"SELECT game_id, {_STANDING} FROM season_standings WHERE season_id = ?"
                          " ORDER BY game_id, place", (season.id,))
    by_game: dict[str, list[Standing]] = {}
    for r in rows:
        by_game.setdefault(r[0], []).append(_standing(list(r)[1:]))
    return _in_order([Board(game, ranked) for game, ranked in by_game.items()])


async def computed_boards(db: Session, season: Season, min_games: int) -> list[Board]:
    """:func:`boards` computed now from the season's ratings and results (an ended season's too)."""
    games = [r[0] for r in await db.fetch(
        "SELECT DISTINCT game_id FROM season_ratings WHERE season_id = ? ORDER BY game_id", (season.id,))]
    return _in_order([Board(game, await standings(db, season, game, min_games)) for game in games])


def _in_order(found: list[Board]) -> list[Board]:
    return sorted((b for b in found if b.standings), key=lambda b: (b.game_id != OVERALL, b.game_id))


# -- transitions -----------------------------------------------------------------------------


async def start_season(db: Session, guild_id: int, channel_id: int, name: str, at: float,
                       ends_at: float | None) -> Season:
    """Open a season (the caller checked the name and that none runs: the unique indexes refuse
    a second running season or a taken name with :class:`~bot.storage.Conflict`)."""
    season_id = await db.fetchval(
        "INSERT INTO seasons (guild_id, channel_id, name, started_at, ends_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
        (guild_id, channel_id, name, at, ends_at))
    return Season(season_id, guild_id, channel_id, name, at, ends_at, None, False, False, 0)


async def end_season(db: Session, season: Season, at: float, settings: GuildSettings
                     ) -> tuple[Season, Season | None] | None:
    """End ``season`` at ``at`` if it is still as read (its version), archiving its standings and,
    with the server's rollover, starting the next season: ``(the ended season, the next or
    None)``; None when another caller ended or changed it first (nothing written)."""
    changed = await db.execute("UPDATE seasons SET ended_at = ?, version = version + 1"
                               " WHERE id = ? AND version = ? AND ended_at IS NULL", (at, season.id, season.version))
    if changed != 1:
        return None
    ended = replace(season, ended_at=at, version=season.version + 1)
    for each in await computed_boards(db, ended, settings.season_min_games):
        await db.executemany(
            f"INSERT INTO season_standings (season_id, game_id, {_STANDING}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(season.id, each.game_id, *astuple(s)) for s in each.standings])
    if settings.season_rollover not in ROLLOVERS:
        return ended, None
    name, ends_at = period(settings.season_rollover, at)
    following = await start_season(db, season.guild_id, season.channel_id,
                                   await free_name(db, season.guild_id, name), at, ends_at)
    return ended, following


async def free_name(db: Session, guild_id: int, name: str) -> str:
    """``name``, or ``name (2)``, ``(3)``… when the server already has a season so called."""
    taken = {r[0].lower() for r in await db.fetch("SELECT name FROM seasons WHERE guild_id = ?", (guild_id,))}
    candidate, number = name, 1
    while candidate.lower() in taken:
        number += 1
        candidate = f"{name} ({number})"
    return candidate


async def due_seasons(db: Session, shard_condition: str) -> list[Season]:
    """Seasons with something left to do (a reminder, an end, an end not yet posted), of the
    servers the condition (:meth:`bot.shards.Shards.sql_condition`) selects."""
    rows = await db.fetch(f"SELECT {_COLUMNS} FROM seasons WHERE (ended_at IS NULL AND ends_at IS NOT NULL"
                          " OR ended_at IS NOT NULL AND announced = 0)" + shard_condition + " ORDER BY id")
    return [_season(r) for r in rows]


async def mark(db: Session, season: Season, column: str) -> bool:
    """Set ``reminded`` or ``announced`` once: True for the one caller that set it."""
    if column not in ("reminded", "announced"):
        raise ValueError(f"not a season flag: {column}")
    return await db.execute(f"UPDATE seasons SET {column} = 1 WHERE id = ? AND {column} = 0", (season.id,)) == 1

