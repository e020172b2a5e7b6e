"""Finished games: results, skill ratings, leaderboards, stats, history, forgetting.

Every game that ends (finished, or abandoned when someone ends it early) gets
one ``results`` row and a ``result_seats`` row per seat, written in the same
transaction as the rating update. Recording is idempotent (keyed by table id),
so start-up can record anything a crash left unrecorded.

Ratings use openskill's Plackett–Luce model (:mod:`bot.ratings`), which handles any number of
players, shared places and teams. Only games where every seat ended in human
hands and nobody took a hint are rated; AI seats (including seats handed to the AI when a player left
or timed out) are recorded but never rated and never on a leaderboard. Each
player has a rating per game and an overall one (``game_id = "*"``), all time and, while a
season runs, for the season (:mod:`bot.seasons`), updated in the result's transaction.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import games
from games.base import Outcome, stored_text
from games.i18n import SOURCE, Text, say

from .forgetting import forget_person
from .markdown import literal
from .ratings import MODEL, OVERALL, Rating, ordinal, rate
from .records import SeatRow, shown_name
from .seasons import (
    Season,
    board,
    player_in,
    running_season,
    season_of_game,
    season_ratings,
    store_season_rating,
)
from .storage import Session, Storage, TableRow
from .table_options import engine_options
from .unlocks import Unlocks

log = logging.getLogger(__name__)

DAY = 24 * 60 * 60


@dataclass(frozen=True)
class BoardEntry:
    user_id: int
    games: int
    wins: int
    points: int
    rating: float | None
    rated_games: int = 0
    """How many rated games ``rating`` rests on."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class ResultLine:
    table_id: int
    game_id: str
    options: dict[str, Any]
    status: str
    summary: Text
    """How it ended (its seats named by :meth:`names`)."""
    players: list[tuple[str, int | None, bool, int | None, bool]]
    """``(name, user_id, is_ai, place, won)`` per seat."""
    started_at: float | None
    finished_at: float
    channel_id: int
    rated: bool
    hinted: bool = False
    """Someone took a hint (so the game is unrated)."""

    def names(self, language: str = SOURCE) -> list[str]:
        """Each seat's name as players read it in ``language`` (as message text: markdown escaped)."""
        return [literal(shown_name(name, ai and user_id is None, language)) for name, user_id, ai, _, _ in self.players]


@dataclass(frozen=True)
class GameLog:
    """Every public event of a game, as words for any language."""

    game_id: str
    events: list[Text]
    seats: list[SeatRow]

    def names(self, language: str = SOURCE) -> list[str]:
        """Each seat's name in ``language`` (as message text)."""
        return [literal(seat.name_in(language)) for seat in self.seats]

    def lines(self, language: str = SOURCE) -> list[str]:
        names = self.names(language)
        return [event.render(language, names) for event in self.events]


@dataclass(frozen=True)
class Stats:
    games: int
    wins: int
    rating: float | None
    favourite: str | None
    rated_games: int = 0
    per_game: list[GameTally] = field(default_factory=list)
    """Each game played (the one asked for, or all), most played first."""
    history: list[RatingPoint] = field(default_factory=list)
    """The rating after each rated game, oldest first, per game (at most :data:`HISTORY_POINTS`)."""
    season: SeasonTally | None = None
    """The running season's figures, when the player played in it."""


@dataclass(frozen=True)
class SeasonTally:
    """A player's running season (of one game, or overall): their season rating and games."""

    name: str
    rating: float | None
    rated_games: int
    games: int
    wins: int
    min_games: int
    """Rated games a player needs in the season to be ranked."""


@dataclass(frozen=True)
class GameTally:
    """One player's finished games of one game here: how many, how many won, the rating."""

    game_id: str
    games: int
    wins: int
    rating: float | None
    rated_games: int


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating (the stored ordinal) in one game, after the rated game ended at ``at``."""

    game_id: str
    at: float
    rating: float


ENDED_EARLY = say("The game was ended early.")


def stored_summary(stored: str) -> Text:
    """A result's summary as stored: a :class:`~games.i18n.Text` as JSON, or a line of text
    (an event line of an abandoned game, or any summary stored before words were data)."""
    try:
        data = json.loads(stored)
    except ValueError:
        data = None
    return stored_text(data if isinstance(data, dict) else stored)


HISTORY_POINTS = 200
"""Rated games a /stats chart draws at most (the newest)."""


SORTS = {
    "rating": lambda e: (e.rating if e.rating is not None else float("-inf"), e.wins),
    "wins": lambda e: (e.wins, e.win_rate),
    "win_rate": lambda e: (e.win_rate, e.games),
    "games": lambda e: (e.games, e.wins),
    "points": lambda e: (e.points, e.wins),
}


class Results:
    def __init__(self, storage: Storage, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.unlocks = Unlocks(storage)
        self._clock = clock

    # -- recording -------------------------------------------------------------------

    async def record(self, row: TableRow) -> bool:
        """Record a finished or abandoned table; False if it was recorded already."""
        if row.status not in ("finished", "abandoned"):
            raise ValueError(f"table {row.id} has not ended ({row.status})")
        outcome = row.outcome or {}
        teams = outcome.get("teams") or [[s.seat] for s in row.seats]
        team_of = {seat: t for t, members in enumerate(teams) for seat in members}
        place_of: dict[int, int] = {}
        for place, group in enumerate(outcome.get("ranking") or [], start=1):
            for seat in group:
                place_of[seat] = place
        winners = set(outcome.get("winners") or [])
        scores = outcome.get("scores") or []
        finished = row.status == "finished"
        rated = (finished and bool(place_of) and not row.hinted
                 and all(not s.is_ai and s.user_id for s in row.seats))
        if finished:
            summary = json.dumps(Outcome.from_json(outcome).reason.to_json())
        else:
            last = row.recent_events[-1] if row.recent_events else ENDED_EARLY.to_json()
            summary = last if isinstance(last, str) else json.dumps(last)
        view = games.get_game(row.game_id).from_json(row.state).view(None) if row.state else {}
        view_rounds = view.get("round") or view.get("game_number")
        seat_rows = [
            (row.id, s.seat, s.user_id, s.name, int(s.is_ai), team_of.get(s.seat, s.seat),
             place_of.get(s.seat) if finished else None,
             scores[s.seat] if finished and s.seat < len(scores) else None, int(s.seat in winners))
            for s in row.seats
        ]

        async def write(db: Session) -> bool:
            inserted = await db.execute(
                "INSERT INTO results (table_id, guild_id, channel_id, game_id, options, status, rated,"
                " hinted, rounds, summary, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id) DO NOTHING",
                (row.id, row.guild_id, row.channel_id, row.game_id, json.dumps(row.options), row.status,
                 int(rated), int(row.hinted), view_rounds if isinstance(view_rounds, int) else None, summary,
                 row.started_at, row.finished_at or row.created_at),
            )
            if inserted != 1:
                return False
            await db.executemany(
                "INSERT INTO result_seats (table_id, seat, user_id, name, is_ai, team, place, score, won)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", seat_rows,
            )
            if rated:
                season = await season_of_game(db, row.guild_id, row.finished_at or 0.0)
                for game_id in (row.game_id, OVERALL):
                    await _rate(db, row, game_id, teams, place_of, season)
            return True

        recorded = await self.storage.run_write(write)
        if recorded:
            try:
                await self.unlocks.after_game(row)
            except Exception:
                log.exception("could not store what table %s unlocked; `python -m bot achievements --recompute` "
                              "adds it", row.id)
        return recorded

    async def record_missing(self, rows: list[TableRow]) -> int:
        """Record ended tables that have no result yet (after a crash between the two writes)."""
        return sum([await self.record(row) for row in rows])

    # -- leaderboards and stats ----------------------------------------------------------

    async def board_since(self, guild_id: int) -> float:
        found = await self.storage.run_read(lambda db: db.fetchval(
            "SELECT board_since FROM guild_settings WHERE guild_id = ?", (guild_id,)))
        return found if found is not None else 0.0

    async def leaderboard(self, guild_id: int, game_id: str | None, sort: str = "rating",
                          season: Season | None = None) -> list[BoardEntry]:
        """A server's leaderboard of ``game_id`` (None: all games, the overall rating), best first.

        All time: every human who finished a game here since the last reset and, unless the
        server's ``active_days`` is 0, within that many days. A season's: its ranked players,
        with their season ratings (:mod:`bot.seasons`)."""
        if sort not in SORTS:
            raise ValueError(f"unknown sort {sort!r}")
        rating_game = game_id or OVERALL
        settings = await self.storage.guild_settings(guild_id)
        active_since = self._clock() - settings.active_days * DAY if settings.active_days else None

        async def in_season(db: Session) -> list[BoardEntry]:
            assert season is not None
            return [BoardEntry(s.user_id, s.games, s.wins, s.points, s.rating, s.rated_games)
                    for s in await board(db, season, rating_game, settings.season_min_games)]

        async def all_time(db: Session) -> list[BoardEntry]:
            since = await db.fetchval(
                "SELECT COALESCE((SELECT board_since FROM guild_settings WHERE guild_id = ?), 0)", (guild_id,))
            query = (
                "SELECT rs.user_id, COUNT(*) AS games, SUM(rs.won) AS wins, COALESCE(SUM(rs.score), 0) AS points"
                " FROM result_seats rs JOIN results r ON r.table_id = rs.table_id"
                " WHERE r.guild_id = ? AND r.status = 'finished' AND r.finished_at >= ?"
                " AND rs.is_ai = 0 AND rs.user_id IS NOT NULL"
            )
            params: list[Any] = [guild_id, since]
            if game_id:
                query += " AND r.game_id = ?"
                params.append(game_id)
            query += " GROUP BY rs.user_id"
            if active_since is not None:
                query += " HAVING MAX(r.finished_at) >= ?"
                params.append(active_since)
            rows = await db.fetch(query, params)
            ratings = {
                r[0]: (ordinal(r[1], r[2]), r[3]) for r in await db.fetch(
                    "SELECT user_id, mu, sigma, rated_games FROM ratings WHERE guild_id = ? AND game_id = ?",
                    (guild_id, rating_game),
                )
            }
            return [BoardEntry(r[0], r[1], r[2], r[3], *ratings.get(r[0], (None, 0))) for r in rows]

        entries = await self.storage.run_read(all_time if season is None else in_season)
        return sorted(entries, key=lambda e: (SORTS[sort](e), -e.user_id), reverse=True)

    async def stats(self, guild_id: int, user_id: int, game_id: str | None) -> Stats:
        """A player's finished games here (of ``game_id``, or all): counts, ratings, and the
        rating after each rated game, per game."""
        one = " AND r.game_id = ?" if game_id else ""
        args: list[Any] = [guild_id, user_id, *([game_id] if game_id else [])]
        settings = await self.storage.guild_settings(guild_id)

        async def read(db: Session) -> Stats:
            totals = await db.fetchrow(
                "SELECT COUNT(*), COALESCE(SUM(rs.won), 0) FROM result_seats rs JOIN results r"
                " ON r.table_id = rs.table_id WHERE r.guild_id = ? AND r.status = 'finished' AND rs.user_id = ?"
                f" AND rs.is_ai = 0{one}", args)
            assert totals is not None  # aggregates without GROUP BY: always one row
            games_played, wins = totals
            counts = await db.fetch(
                "SELECT r.game_id, COUNT(*), COALESCE(SUM(rs.won), 0) FROM result_seats rs JOIN results r"
                " ON r.table_id = rs.table_id WHERE r.guild_id = ? AND r.status = 'finished' AND rs.user_id = ?"
                " AND rs.is_ai = 0 GROUP BY r.game_id ORDER BY COUNT(*) DESC, MAX(r.finished_at) DESC",
                (guild_id, user_id))
            rated = {row[0]: (ordinal(row[1], row[2]), row[3]) for row in await db.fetch(
                "SELECT game_id, mu, sigma, rated_games FROM ratings WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id))}
            points = await db.fetch(
                "SELECT game_id, at, ordinal FROM rating_history WHERE guild_id = ? AND user_id = ? AND game_id <> ?"
                + (" AND game_id = ?" if game_id else "") + " ORDER BY at DESC, table_id DESC LIMIT ?",
                (guild_id, user_id, OVERALL, *([game_id] if game_id else []), HISTORY_POINTS))
            rating, rated_games = rated.get(game_id or OVERALL, (None, 0))
            tallies = [GameTally(row[0], row[1], row[2], *rated.get(row[0], (None, 0)))
                       for row in counts if game_id in (None, row[0])]
            season = await running_season(db, guild_id)
            tally = await player_in(db, season, game_id or OVERALL, user_id) if season else None
            in_season = SeasonTally(season.name, *tally, settings.season_min_games) \
                if season and tally and tally[2] else None
            return Stats(games_played, wins, rating, counts[0][0] if counts else None, rated_games, tallies,
                         [RatingPoint(row[0], row[1], row[2]) for row in reversed(points)], in_season)

        return await self.storage.run_read(read)

    async def history(self, guild_id: int, *, user_id: int | None = None, channel_id: int | None = None,
                      game_id: str | None = None, limit: int = 10, offset: int = 0) -> list[ResultLine]:
        """Recent ended games here, newest first, optionally of one player or channel."""

        async def read(db: Session) -> list[ResultLine]:
            where = ["r.guild_id = ?"]
            params: list[Any] = [guild_id]
            if user_id is not None:
                where.append("EXISTS (SELECT 1 FROM result_seats x WHERE x.table_id = r.table_id AND x.user_id = ?)")
                params.append(user_id)
            if channel_id is not None:
                where.append("r.channel_id = ?")
                params.append(channel_id)
            if game_id is not None:
                where.append("r.game_id = ?")
                params.append(game_id)
            found = await db.fetch(
                "SELECT * FROM results r WHERE " + " AND ".join(where) +
                " ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ? OFFSET ?", (*params, limit, offset),
            )
            lines = []
            for r in found:
                seats = await db.fetch(
                    "SELECT name, user_id, is_ai, place, won FROM result_seats WHERE table_id = ? ORDER BY seat",
                    (r["table_id"],),
                )
                lines.append(ResultLine(
                    r["table_id"], r["game_id"], json.loads(r["options"]), r["status"], stored_summary(r["summary"]),
                    [(s[0], s[1], bool(s[2]), s[3], bool(s[4])) for s in seats],
                    r["started_at"], r["finished_at"], r["channel_id"], bool(r["rated"]), bool(r["hinted"]),
                ))
            return lines

        return await self.storage.run_read(read)

    async def move_log(self, table_id: int, guild_id: int, language: str = SOURCE) -> list[str] | None:
        """Every public event of a game in ``language``, replayed from its seed and move log."""
        logged = await self.game_log(table_id, guild_id)
        return logged.lines(language) if logged else None

    async def game_log(self, table_id: int, guild_id: int) -> GameLog | None:
        """Every public event of a game here, replayed from its seed and move log (so it
        reads in any language, whichever the game was played in)."""
        row = await self.storage.get_table(table_id)
        if row is None or row.guild_id != guild_id or row.status in ("lobby", "cancelled"):
            return None
        game = games.get_game(row.game_id)
        state = game.new_game(len(row.seats), engine_options(row.options), row.seed)
        events = [e.text for e in state.opening_events() if e.private_to is None]
        for seat, action, by_ai in await self.storage.move_log(table_id):
            events += [e.text for e in state.apply(seat, game.action_from_json(action)) if e.private_to is None]
        return GameLog(row.game_id, events, row.seats)

    # -- resets and forgetting -------------------------------------------------------------

    async def reset_leaderboard(self, guild_id: int, now: float) -> None:
        """Start the server's leaderboards afresh: results stay in history, ratings start over."""

        async def write(db: Session) -> None:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, board_since) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET board_since = excluded.board_since", (guild_id, now),
            )
            await db.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            await db.execute("DELETE FROM rating_history WHERE guild_id = ?", (guild_id,))

        await self.storage.run_write(write)

    async def forget(self, user_id: int, names: Iterable[str] = ()) -> int:
        """Remove a person's names (``names`` plus every name stored for them) and id from
        everything stored (see :mod:`bot.forgetting`), then compact the database so no old
        copy stays in its free space. Returns how many results were anonymised."""
        changed = await self.storage.run_write(lambda db: forget_person(db, user_id, names))
        await self.storage.compact()
        return changed

    async def open_seats_of(self, user_id: int) -> int:
        return await self.storage.run_read(lambda db: db.fetchval(
            "SELECT COUNT(*) FROM seats s JOIN tables t ON t.id = s.table_id"
            " WHERE s.user_id = ? AND t.status IN ('lobby', 'running')", (user_id,)))

    async def open_entries_of(self, user_id: int) -> int:
        """Tournaments not over that ``user_id`` entered (alone or as a partner), dropped or not:
        their entry, which forgetting would leave behind, stays until the tournament ends."""
        return await self.storage.run_read(lambda db: db.fetchval(
            "SELECT COUNT(*) FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
            " WHERE (e.user_id = ? OR e.partner_id = ?) AND t.status IN ('signup', 'running')", (user_id, user_id)))


async def _rate(db: Session, row: TableRow, game_id: str, teams: list[list[int]], place_of: dict[int, int],
                season: Season | None) -> None:
    """Update the all-time ratings of ``game_id`` (or overall) with one rated result, and the
    ``season``'s, whose first rating of a player starts from their all-time one before the game."""
    users = {s.seat: s.user_id for s in row.seats if s.user_id is not None}
    current: dict[int, tuple[Rating, int]] = {}
    for seat, user in users.items():
        found = await db.fetchrow(
            "SELECT mu, sigma, rated_games FROM ratings WHERE guild_id = ? AND game_id = ? AND user_id = ?",
            (row.guild_id, game_id, user),
        )
        current[seat] = ((found[0], found[1]), found[2]) if found else ((MODEL.mu, MODEL.sigma), 0)
    new = rate({seat: rating for seat, (rating, _) in current.items()}, teams, place_of)
    at = row.finished_at or 0.0
    for seat, (mu, sigma) in new.items():
        await db.execute(
            "INSERT INTO ratings (guild_id, game_id, user_id, mu, sigma, rated_games) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, game_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " rated_games = excluded.rated_games",
            (row.guild_id, game_id, users[seat], mu, sigma, current[seat][1] + 1),
        )
        await db.execute(
            "INSERT INTO rating_history (guild_id, game_id, user_id, table_id, ordinal, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (row.guild_id, game_id, users[seat], row.id, ordinal(mu, sigma), at),
        )
    if season is None:
        return
    before = await season_ratings(db, season, game_id, users, {seat: rating for seat, (rating, _) in current.items()})
    for seat, rating in rate({seat: r for seat, (r, _) in before.items()}, teams, place_of).items():
        await store_season_rating(db, season, game_id, users[seat], rating, before[seat][1] + 1)
