"""Achievements unlocked, stored and recomputed.

Achievements unlocked, stored: after each game, when a season ends, and recomputed for a
whole history (``python -m bot achievements --recompute``).

Unlocks are computed from stored facts by :mod:`bot.achievements` and kept in
``achievements``, one row per person, server, achievement and tier, with the game or season
that unlocked it and how it is told (``announce``): ``table`` in that game's ending message,
``private`` to the person alone at their next interaction (a secret one; ``told`` once they
were), ``quiet`` when nothing tells it (a season's champions are named by its end post;
recomputed unlocks are old news). After a game every person seated is looked at again as a
whole (the same functions as the recomputation, over their facts in the server) and the feats
of that game are judged; what was already stored stays as it was.

The recomputation rebuilds every row from the results, rating histories, season standings and
move logs: rows nothing earns any more go, missing ones are added (quiet), and each row keeps
how it was told; run twice, the second run changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import games
from games.base import Action, Outcome
from games.errors import GameError
from games.feats import Played, feats_of

from .achievements import (
    GameFact,
    RatingPoint,
    Title,
    Unlock,
    catalog,
    champion_unlocks,
    feat_unlocks,
    game_unlocks,
    rating_unlocks,
)
from .ratings import OVERALL
from .records import TableRow
from .seasons import Season
from .shards import ALL_SHARDS, Shards
from .storage import Row, Session, Storage
from .table_options import engine_options

log = logging.getLogger(__name__)

Person = tuple[int, int]
"""``(guild_id, user_id)``."""
BATCH = 500
"""Games read at a time when judging feats over a whole history."""


@dataclass(frozen=True)
class Badge:
    """An unlocked tier as /stats shows it: how rare it is among the server's players."""

    unlock: Unlock
    share: float
    """Players of the server holding it (0 to 1)."""


@dataclass(frozen=True)
class Recomputed:
    added: int
    removed: int
    changed: int
    kept: int


class Unlocks:
    """The stored unlocks of every server on this process's shards."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._untold: set[Person] = set()
        """People with a secret unlock not yet told to them."""

    async def restore(self, shards: Shards = ALL_SHARDS) -> None:
        """Remember who has a secret unlock to be told (after a restart)."""
        rows = await self.storage.run_read(lambda db: db.fetch(
            "SELECT DISTINCT guild_id, user_id FROM achievements WHERE announce = 'private'" + shards.sql_condition()))
        self._untold |= {(r[0], r[1]) for r in rows}

    # -- after a game ---------------------------------------------------------------------

    async def after_game(self, row: TableRow) -> list[Unlock]:
        """Store what the finished game ``row`` unlocked for its people; returns the new unlocks."""
        people = {s.seat: s.user_id for s in row.seats if s.user_id is not None and not s.is_ai}
        if row.status != "finished" or not people:
            return []
        users = sorted(set(people.values()))
        marks = ",".join("?" * len(users))
        facts = await self.storage.run_read(lambda db: _facts(
            db, f" AND r.guild_id = ? AND rs.user_id IN ({marks})", [row.guild_id, *users]))
        found = [unlock for person in facts.values() for unlock in person]
        if not row.hinted and row.state is not None and row.outcome is not None:
            moves = await self.storage.move_log(row.id)
            played = _played(row.game_id, len(row.seats), row.options, row.seed, row.outcome, row.state,
                             [(seat, Action.from_json(action)) for seat, action, _ in moves])
            found += await asyncio.to_thread(judged, row.guild_id, row.id, row.finished_at or 0.0, played, people)
        new = await self.storage.run_write(lambda db: _insert(db, found, row.id))
        secret = catalog()
        self._untold |= {(u.guild_id, u.user_id) for u in new if u.table_id == row.id and secret[u.achievement].secret}
        return new

    async def of_table(self, table_id: int) -> list[Unlock]:
        """What a game unlocked that its ending message tells (not the secret ones)."""
        rows = await self.storage.run_read(lambda db: db.fetch(
            "SELECT guild_id, user_id, achievement, tier, at, table_id, season_id FROM achievements"
            " WHERE table_id = ? AND announce = 'table' ORDER BY user_id, achievement, tier", (table_id,)))
        return [_unlock(r) for r in rows]

    # -- secrets --------------------------------------------------------------------------

    def has_untold(self, guild_id: int, user_id: int) -> bool:
        return (guild_id, user_id) in self._untold

    async def untold(self, guild_id: int, user_id: int) -> list[Unlock]:
        """The secret unlocks not yet told to the person."""
        if not self.has_untold(guild_id, user_id):
            return []
        rows = await self.storage.run_read(lambda db: db.fetch(
            "SELECT guild_id, user_id, achievement, tier, at, table_id, season_id FROM achievements"
            " WHERE guild_id = ? AND user_id = ? AND announce = 'private' ORDER BY at", (guild_id, user_id)))
        if not rows:
            self._untold.discard((guild_id, user_id))
        return [_unlock(r) for r in rows]

    async def told(self, unlocks: list[Unlock]) -> None:
        """The person was told of ``unlocks``: they are never told again."""

        async def write(db: Session) -> None:
            await db.executemany(
                "UPDATE achievements SET announce = 'told' WHERE guild_id = ? AND user_id = ? AND achievement = ?"
                " AND tier = ? AND announce = 'private'", [u.key for u in unlocks])

        await self.storage.run_write(write)
        for unlock in unlocks:
            self._untold.discard((unlock.guild_id, unlock.user_id))

    # -- /stats ---------------------------------------------------------------------------

    async def badges(self, guild_id: int, user_id: int) -> list[Badge]:
        """The person's unlocks here, the highest tier of each achievement, rarest first, with
        the share of the server's players (people with a finished game here) who hold it."""

        async def read(db: Session) -> list[Badge]:
            mine = [_unlock(r) for r in await db.fetch(
                "SELECT guild_id, user_id, achievement, tier, at, table_id, season_id FROM achievements"
                " WHERE guild_id = ? AND user_id = ? ORDER BY achievement, tier", (guild_id, user_id))]
            if not mine:
                return []
            holders = {(r[0], r[1]): r[2] for r in await db.fetch(
                "SELECT achievement, tier, COUNT(*) FROM achievements WHERE guild_id = ? GROUP BY achievement, tier",
                (guild_id,))}
            players = await db.fetchval(
                "SELECT COUNT(DISTINCT rs.user_id) FROM result_seats rs JOIN results r ON r.table_id = rs.table_id"
                " WHERE r.guild_id = ? AND r.status = 'finished' AND rs.is_ai = 0 AND rs.user_id IS NOT NULL",
                (guild_id,))
            highest = {u.achievement: u for u in mine}  # ordered by tier: the highest stays
            known = catalog()
            shown = [Badge(u, min(1.0, holders[(u.achievement, u.tier)] / max(players, 1)))
                     for u in highest.values() if u.achievement in known]
            return sorted(shown, key=lambda b: (b.share, -b.unlock.at))

        return await self.storage.run_read(read)

    # -- the whole history ----------------------------------------------------------------

    async def recompute(self, podiums: Sequence[Unlock] = ()) -> Recomputed:
        """Rebuild every server's unlocks from the stored history (see the module docs), with
        the tournaments' ``podiums`` (:func:`bot.tournaments.podium.podiums`, earliest first)."""
        facts = await self.storage.run_read(lambda db: _facts(db, "", []))
        wanted = {u.key: u for person in facts.values() for u in person}
        for unlock in podiums:
            wanted.setdefault(unlock.key, unlock)
        async for unlock in self._feats_of_history():
            wanted.setdefault(unlock.key, unlock)
        return await self.storage.run_write(lambda db: _replace_all(db, wanted))

    async def _feats_of_history(self) -> AsyncIterator[Unlock]:
        """Every feat earned in every finished, unhinted game with people seated (oldest first)."""
        with_feats = [game.id for game in games.all_games() if feats_of(game)]
        if not with_feats:
            return
        marks = ",".join("?" * len(with_feats))
        table_ids = [r[0] for r in await self.storage.run_read(lambda db: db.fetch(
            "SELECT t.id FROM tables t JOIN results r ON r.table_id = t.id WHERE r.status = 'finished'"
            f" AND r.hinted = 0 AND t.state IS NOT NULL AND t.game_id IN ({marks}) AND EXISTS (SELECT 1 FROM"
            " result_seats rs WHERE rs.table_id = t.id AND rs.is_ai = 0 AND rs.user_id IS NOT NULL)"
            " ORDER BY r.finished_at, t.id", with_feats))]
        for start in range(0, len(table_ids), BATCH):
            batch = table_ids[start:start + BATCH]
            stored = await self.storage.run_read(lambda db: _games(db, batch))
            for unlock in await asyncio.to_thread(_judge, stored):
                yield unlock


# -- reading facts ---------------------------------------------------------------------------


async def _facts(db: Session, where: str, params: list[Any]) -> dict[Person, list[Unlock]]:
    """Per person, the unlocks of their games, ratings and season titles (``where`` narrows the
    games to some people: `` AND r.guild_id = ? AND rs.user_id IN (…)``)."""
    played: dict[Person, list[GameFact]] = defaultdict(list)
    for r in await db.fetch(
            "SELECT r.guild_id, rs.user_id, r.table_id, r.game_id, r.finished_at, r.rated, rs.won FROM result_seats rs"
            " JOIN results r ON r.table_id = rs.table_id WHERE r.status = 'finished' AND rs.is_ai = 0"
            " AND rs.user_id IS NOT NULL" + where + " ORDER BY r.finished_at, r.table_id", params):
        played[(r[0], r[1])].append(GameFact(r[2], r[3], r[4], bool(r[5]), bool(r[6])))
    points: dict[Person, list[RatingPoint]] = defaultdict(list)
    for r in await db.fetch(
            "SELECT guild_id, user_id, table_id, at, ordinal FROM rating_history r WHERE game_id <> ?"
            + where.replace("rs.user_id", "r.user_id") + " ORDER BY at, table_id", [OVERALL, *params]):
        points[(r[0], r[1])].append(RatingPoint(r[2], r[3], r[4]))
    titles: dict[Person, list[Title]] = defaultdict(list)
    for r in await db.fetch(
            "SELECT r.guild_id, ss.user_id, r.id, r.ended_at FROM season_standings ss JOIN seasons r"
            " ON r.id = ss.season_id WHERE ss.place = 1" + where.replace("rs.user_id", "ss.user_id")
            + " ORDER BY r.ended_at, r.id", params):
        titles[(r[0], r[1])].append(Title(r[2], r[3]))
    return {person: game_unlocks(*person, played[person]) + rating_unlocks(*person, points[person])
            + champion_unlocks(*person, titles[person]) for person in played.keys() | points.keys() | titles.keys()}


class StoredGame(NamedTuple):
    """A finished game as stored, for judging its feats."""

    table_id: int
    guild_id: int
    game_id: str
    options: str
    seed: int
    state: str
    outcome: str
    finished_at: float
    people: dict[int, int]
    """Seat → user, for the seats people kept to the end."""
    players: int
    log: list[tuple[int, Action]]


async def _games(db: Session, table_ids: list[int]) -> list[StoredGame]:
    """The stored games ``table_ids``, with their people and move logs."""
    marks = ",".join("?" * len(table_ids))
    seats: dict[int, dict[int, int | None]] = defaultdict(dict)
    for r in await db.fetch(f"SELECT table_id, seat, user_id, is_ai FROM result_seats WHERE table_id IN ({marks})",
                            table_ids):
        seats[r[0]][r[1]] = None if r[3] else r[2]
    logs: dict[int, list[tuple[int, Action]]] = defaultdict(list)
    for r in await db.fetch(f"SELECT table_id, seat, action FROM moves WHERE table_id IN ({marks})"
                            " ORDER BY table_id, version", table_ids):
        logs[r[0]].append((r[1], Action.from_json(json.loads(r[2]))))
    rows = await db.fetch(
        "SELECT t.id, t.guild_id, t.game_id, t.options, t.seed, t.state, t.outcome, r.finished_at FROM tables t"
        f" JOIN results r ON r.table_id = t.id WHERE t.id IN ({marks}) ORDER BY r.finished_at, t.id", table_ids)
    return [StoredGame(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
                       {seat: user for seat, user in seats[r[0]].items() if user is not None}, len(seats[r[0]]),
                       logs[r[0]]) for r in rows]


def _judge(stored: list[StoredGame]) -> list[Unlock]:
    """The feats earned in stored games (run off the event loop: it replays games)."""
    found = []
    for g in stored:
        try:
            played = _played(g.game_id, g.players, json.loads(g.options), g.seed, json.loads(g.outcome),
                             json.loads(g.state), g.log)
        except GameError as exc:  # a game whose package is gone
            log.warning("no feats judged for table %s: %s", g.table_id, exc)
            continue
        found += judged(g.guild_id, g.table_id, g.finished_at, played, g.people)
    return found


def judged(guild_id: int, table_id: int, at: float, played: Played, people: dict[int, int]) -> list[Unlock]:
    """:func:`~bot.achievements.feat_unlocks`; none for a game whose log no longer replays from
    its seed (a position set by hand, a log an engine no longer accepts), with a warning."""
    try:
        return feat_unlocks(guild_id, table_id, at, played, people)
    except GameError as exc:
        log.warning("no feats judged for table %s: its moves don't replay from its seed (%s)", table_id, exc)
        return []


def _played(game_id: str, players: int, options: dict[str, Any], seed: int, outcome: dict[str, Any],
            state: dict[str, Any], log_: list[tuple[int, Action]]) -> Played:
    game = games.get_game(game_id)
    return Played(game, Outcome.from_json(outcome), log_,
                  lambda: game.new_game(players, engine_options(options), seed), lambda: game.from_json(state))


# -- writing ---------------------------------------------------------------------------------

_INSERT = ("INSERT INTO achievements (guild_id, user_id, achievement, tier, at, table_id, season_id, announce)"
           " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id, achievement, tier) DO NOTHING")


async def _insert(db: Session, unlocks: list[Unlock], table_id: int | None) -> list[Unlock]:
    """Store the unlocks not stored yet; those of game ``table_id`` are to be told (at its
    table, or in private when secret), any other quietly. Returns the ones stored now."""
    known = catalog()
    new = []
    for u in unlocks:
        announce = "quiet" if u.table_id is None or u.table_id != table_id else (
            "private" if known[u.achievement].secret else "table")
        if await db.execute(_INSERT, (*u.key, u.at, u.table_id, u.season_id, announce)) == 1:
            new.append(u)
    return new


async def unlock_titles(db: Session, season: Season) -> list[Unlock]:
    """Store the season titles of ``season``'s champions (inside the transaction that ended it)."""
    champions = [r[0] for r in await db.fetch(
        "SELECT DISTINCT user_id FROM season_standings WHERE season_id = ? AND place = 1", (season.id,))]
    if not champions:
        return []
    marks = ",".join("?" * len(champions))
    facts = await _facts(db, f" AND r.guild_id = ? AND rs.user_id IN ({marks})", [season.guild_id, *champions])
    titles = [u for person in facts.values() for u in person if u.season_id is not None]
    return await _insert(db, titles, None)


async def unlock_podium(db: Session, unlocks: list[Unlock]) -> list[Unlock]:
    """Store a finished tournament's podium (inside the transaction that finished it), quietly:
    its message crowns them. Returns the ones stored now."""
    return await _insert(db, unlocks, None)


async def _replace_all(db: Session, wanted: dict[tuple[int, int, str, int], Unlock]) -> Recomputed:
    stored = {(r[0], r[1], r[2], r[3]): (r[4], r[5], r[6]) for r in await db.fetch(
        "SELECT guild_id, user_id, achievement, tier, at, table_id, season_id FROM achievements")}
    gone = [key for key in stored if key not in wanted]
    await db.executemany("DELETE FROM achievements WHERE guild_id = ? AND user_id = ? AND achievement = ?"
                         " AND tier = ?", gone)
    added = [u for key, u in wanted.items() if key not in stored]
    await db.executemany(_INSERT,
                         [(*u.key, u.at, u.table_id, u.season_id, "quiet") for u in added])
    moved = [u for key, u in wanted.items() if key in stored and stored[key] != (u.at, u.table_id, u.season_id)]
    await db.executemany("UPDATE achievements SET at = ?, table_id = ?, season_id = ? WHERE guild_id = ?"
                         " AND user_id = ? AND achievement = ? AND tier = ?",
                         [(u.at, u.table_id, u.season_id, *u.key) for u in moved])
    return Recomputed(len(added), len(gone), len(moved), len(wanted) - len(added) - len(moved))


def _unlock(r: Row) -> Unlock:
    return Unlock(r[0], r[1], r[2], r[3], r[4], r[5], r[6])
