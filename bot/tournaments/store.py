"""Every tournament query, written once for both backends.

The queries are written against a :class:`~bot.storage.Session` (as :mod:`bot.results` does).
A transition is one transaction guarded by the tournament's ``version`` (:func:`bump`): a
writer that read an older version changes nothing (:class:`Moved`), so a second process, or a
step run again after a restart, never applies a transition twice."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..shards import ALL_SHARDS, Shards
from ..storage import Row, Session
from .records import EntrantRow, RoundTableRow, SeatResult, TableResult, TournamentRow

TOURNAMENT_COLUMNS = (
    "guild_id", "channel_id", "host_id", "name", "game_id", "options", "timer_minutes", "format", "top", "rounds",
    "table_size", "advance", "seeding", "drop_after", "round_minutes", "max_players", "check_in_minutes",
    "starts_at", "status", "stage", "deadline", "seed", "created_at",
)
"""What :func:`create` writes (the rest start at their defaults)."""
CHANGEABLE = frozenset({"status", "stage", "round", "rounds", "deadline", "seed", "started_at", "finished_at"})
"""What :func:`bump` may change."""


class Moved(Exception):
    """The tournament changed since it was read (another writer, or a step already taken):
    the transaction was rolled back."""


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], message_id=row["message_id"],
        host_id=row["host_id"], name=row["name"], game_id=row["game_id"], options=json.loads(row["options"]),
        timer_minutes=row["timer_minutes"], format=row["format"], top=row["top"], rounds=row["rounds"],
        table_size=row["table_size"], advance=row["advance"], seeding=row["seeding"], drop_after=row["drop_after"],
        round_minutes=row["round_minutes"], max_players=row["max_players"], check_in_minutes=row["check_in_minutes"],
        starts_at=row["starts_at"], status=row["status"], paused=bool(row["paused"]), stage=row["stage"],
        round=row["round"], deadline=row["deadline"], seed=row["seed"], version=row["version"],
        created_at=row["created_at"], started_at=row["started_at"], finished_at=row["finished_at"],
        shown=row["shown"],
    )


def _entrant(row: Row) -> EntrantRow:
    return EntrantRow(row["tournament_id"], row["entrant"], row["user_id"], row["name"], row["partner_id"],
                      row["partner_name"], row["joined_round"], bool(row["checked_in"]), row["dropped_round"],
                      row["rating"])


def _round_table(row: Row) -> RoundTableRow:
    return RoundTableRow(row["tournament_id"], row["round"], row["grp"], tuple(json.loads(row["entrants"])),
                         bool(row["bye"]), row["thread_id"], row["table_id"])


# -- reading ----------------------------------------------------------------------------------


async def tournament(db: Session, tournament_id: int) -> TournamentRow | None:
    row = await db.fetchrow("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    return _tournament(row) if row is not None else None


async def of_guild(db: Session, guild_id: int, limit: int) -> list[TournamentRow]:
    """The server's tournaments, open ones first, then the newest."""
    rows = await db.fetch(
        "SELECT * FROM tournaments WHERE guild_id = ?"
        " ORDER BY CASE WHEN status IN ('signup', 'running') THEN 0 ELSE 1 END, id DESC LIMIT ?", (guild_id, limit))
    return [_tournament(r) for r in rows]


async def open_ids(db: Session, shards: Shards = ALL_SHARDS) -> list[int]:
    """Every tournament in sign-up or running, of servers on ``shards`` (start-up)."""
    rows = await db.fetch("SELECT id FROM tournaments WHERE status IN ('signup', 'running')"
                          + shards.sql_condition() + " ORDER BY id")
    return [r[0] for r in rows]


async def entrants(db: Session, tournament_id: int) -> list[EntrantRow]:
    rows = await db.fetch("SELECT * FROM tournament_entrants WHERE tournament_id = ? ORDER BY entrant",
                          (tournament_id,))
    return [_entrant(r) for r in rows]


async def round_tables(db: Session, tournament_id: int, round: int | None = None) -> list[RoundTableRow]:
    """The tables (and byes) of one round, or of every round, in order."""
    if round is None:
        rows = await db.fetch("SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round, grp",
                              (tournament_id,))
    else:
        rows = await db.fetch("SELECT * FROM tournament_tables WHERE tournament_id = ? AND round = ? ORDER BY grp",
                              (tournament_id, round))
    return [_round_table(r) for r in rows]


async def results(db: Session, tournament_id: int) -> list[TableResult]:
    """The recorded result of every round table that has one."""
    rows = await db.fetch(
        "SELECT tt.round, tt.grp, tt.table_id, r.status, rs.seat, rs.place, rs.score FROM tournament_tables tt"
        " JOIN results r ON r.table_id = tt.table_id JOIN result_seats rs ON rs.table_id = tt.table_id"
        " WHERE tt.tournament_id = ? ORDER BY tt.round, tt.grp, rs.seat", (tournament_id,))
    found: dict[int, TableResult] = {}
    for r in rows:
        seat = SeatResult(r["seat"], r["place"], r["score"])
        known = found.get(r["table_id"])
        found[r["table_id"]] = TableResult(r["round"], r["grp"], r["table_id"], r["status"],
                                           (*known.seats, seat) if known else (seat,))
    return list(found.values())


async def tournament_of_table(db: Session, table_id: int) -> RoundTableRow | None:
    row = await db.fetchrow("SELECT * FROM tournament_tables WHERE table_id = ?", (table_id,))
    return _round_table(row) if row is not None else None


async def timeouts(db: Session, tournament_id: int) -> dict[int, int]:
    """Per entrant, the turns a timer played for them in the whole tournament (none: not listed)."""
    rows = await db.fetch("SELECT entrant, COUNT(*) FROM tournament_timeouts WHERE tournament_id = ?"
                          " GROUP BY entrant", (tournament_id,))
    return {r[0]: r[1] for r in rows}


async def cancelled_tables_in_play(db: Session, shards: Shards = ALL_SHARDS) -> list[int]:
    """Round tables still in play in a cancelled tournament (of servers on ``shards``): the
    process that cancelled it stopped before ending them all."""
    rows = await db.fetch(
        "SELECT tt.table_id FROM tournament_tables tt JOIN tournaments t ON t.id = tt.tournament_id"
        " JOIN tables x ON x.id = tt.table_id WHERE t.status = 'cancelled' AND x.status = 'running'"
        + shards.sql_condition("t.guild_id") + " ORDER BY tt.table_id")
    return [r[0] for r in rows]


async def unplayed(db: Session, table_ids: Sequence[int]) -> bool:
    """Whether no move was made at any of ``table_ids`` (each still at the version it started with)."""
    if not table_ids:
        return True
    marks = ",".join("?" * len(table_ids))
    moved = await db.fetchval(f"SELECT COUNT(*) FROM moves WHERE table_id IN ({marks})", list(table_ids))
    return not moved


async def ratings(db: Session, guild_id: int, game_id: str, user_ids: Sequence[int]) -> dict[int, float]:
    """The stored rating (openskill's ordinal) of each of ``user_ids`` in ``game_id`` here, if any."""
    if not user_ids:
        return {}
    marks = ",".join("?" * len(user_ids))
    rows = await db.fetch(f"SELECT user_id, mu - 3 * sigma FROM ratings WHERE guild_id = ? AND game_id = ?"
                          f" AND user_id IN ({marks})", (guild_id, game_id, *user_ids))
    return {r[0]: r[1] for r in rows}


# -- writing ----------------------------------------------------------------------------------


async def create(db: Session, **values: Any) -> int:
    """A new tournament in sign-up; returns its id."""
    values = {**values, "options": json.dumps(values["options"], separators=(",", ":"))}
    columns = [name for name in TOURNAMENT_COLUMNS]
    return await db.fetchval(
        f"INSERT INTO tournaments ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}) RETURNING id",
        [values[name] for name in columns])


async def bump(db: Session, current: TournamentRow, **changes: Any) -> None:
    """The version-guarded step every transition takes first: ``changes`` written and the
    version raised, if the tournament is still at ``current``'s version; else :class:`Moved`."""
    unknown = set(changes) - CHANGEABLE
    if unknown:
        raise ValueError(f"unknown tournament columns: {sorted(unknown)}")
    assignments = "".join(f", {name} = ?" for name in changes)
    values = [int(v) if isinstance(v, bool) else v for v in changes.values()]
    changed = await db.execute(
        f"UPDATE tournaments SET version = version + 1{assignments} WHERE id = ? AND version = ?",
        (*values, current.id, current.version))
    if changed != 1:
        raise Moved(current.id)


async def set_publication(db: Session, tournament_id: int, *, message_id: int | None, shown: str | None) -> None:
    await db.execute("UPDATE tournaments SET message_id = COALESCE(?, message_id), shown = ? WHERE id = ?",
                     (message_id, shown, tournament_id))


async def set_paused(db: Session, tournament_id: int, paused: bool) -> None:
    """Pause or resume (inside a transition that raised the version already)."""
    await db.execute("UPDATE tournaments SET paused = ? WHERE id = ?", (int(paused), tournament_id))


async def add_entrant(db: Session, tournament_id: int, *, user_id: int, name: str, joined_round: int,
                      checked_in: bool, rating: float | None = None, partner_id: int | None = None,
                      partner_name: str | None = None) -> int:
    """Enter ``user_id`` (with ``partner_id``, a team) as the next entrant (raises
    :class:`~bot.storage.Conflict` if entered already)."""
    number = await db.fetchval("SELECT COALESCE(MAX(entrant), 0) + 1 FROM tournament_entrants WHERE tournament_id = ?",
                               (tournament_id,))
    await db.execute(
        "INSERT INTO tournament_entrants (tournament_id, entrant, user_id, name, partner_id, partner_name,"
        " joined_round, checked_in, rating) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (tournament_id, number, user_id, name, partner_id, partner_name, joined_round, int(checked_in), rating))
    return number


async def remove_entrant(db: Session, tournament_id: int, entrant: int) -> None:
    await db.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND entrant = ?",
                     (tournament_id, entrant))


async def check_in(db: Session, tournament_id: int, entrant: int) -> None:
    await db.execute("UPDATE tournament_entrants SET checked_in = 1 WHERE tournament_id = ? AND entrant = ?",
                     (tournament_id, entrant))


async def drop(db: Session, tournament_id: int, entrant: int, round: int) -> bool:
    """Drop ``entrant`` from round ``round`` on; False if they were dropped already."""
    return await db.execute("UPDATE tournament_entrants SET dropped_round = ? WHERE tournament_id = ?"
                            " AND entrant = ? AND dropped_round IS NULL", (round, tournament_id, entrant)) == 1


async def keep_checked_in(db: Session, tournament_id: int) -> None:
    """Check-in closed: who did not check in is no longer entered."""
    await db.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND checked_in = 0", (tournament_id,))


async def set_ratings(db: Session, tournament_id: int, ratings: dict[int, float]) -> None:
    await db.executemany("UPDATE tournament_entrants SET rating = ? WHERE tournament_id = ? AND entrant = ?",
                         [(rating, tournament_id, entrant) for entrant, rating in ratings.items()])


async def add_round(db: Session, tournament_id: int, round: int, tables: Sequence[tuple[tuple[int | None, ...], bool]]
                    ) -> None:
    """Round ``round``'s tables, numbered from 1 in order: ``(entrant per seat, is a bye)`` each."""
    await db.executemany(
        "INSERT INTO tournament_tables (tournament_id, round, grp, entrants, bye) VALUES (?, ?, ?, ?, ?)",
        [(tournament_id, round, grp, json.dumps(list(seats)), int(bye)) for grp, (seats, bye) in enumerate(tables, 1)])


async def delete_round(db: Session, tournament_id: int, round: int) -> None:
    await db.execute("DELETE FROM tournament_tables WHERE tournament_id = ? AND round = ?", (tournament_id, round))


async def set_thread(db: Session, table: RoundTableRow, thread_id: int) -> int:
    """Store the thread made for ``table`` unless one is stored already; the thread to use."""
    await db.execute("UPDATE tournament_tables SET thread_id = ? WHERE tournament_id = ? AND round = ? AND grp = ?"
                     " AND thread_id IS NULL", (thread_id, table.tournament_id, table.round, table.grp))
    return await db.fetchval("SELECT thread_id FROM tournament_tables WHERE tournament_id = ? AND round = ?"
                             " AND grp = ?", (table.tournament_id, table.round, table.grp))


async def link_table(db: Session, table: RoundTableRow, table_id: int, thread_id: int) -> bool:
    """Link the new table ``table_id``, opened in ``thread_id`` (stored as its thread: a new one
    replaces a stored thread that held another table), to its place in the round, unless a table
    is linked there already (then the caller rolls the new table back)."""
    return await db.execute("UPDATE tournament_tables SET table_id = ?, thread_id = ? WHERE tournament_id = ?"
                            " AND round = ? AND grp = ? AND table_id IS NULL",
                            (table_id, thread_id, table.tournament_id, table.round, table.grp)) == 1


async def record_timeout(db: Session, table_id: int, seat: int, version: int) -> None:
    """Count the turn a timer played for ``seat`` at ``table_id`` (the move of ``version``), if that
    is a round table and the seat an entrant's: written with the move itself, so it is never lost."""
    link = await tournament_of_table(db, table_id)
    entrant = link.entrants[seat] if link is not None and seat < len(link.entrants) else None
    if link is not None and entrant is not None:
        await db.execute(
            "INSERT INTO tournament_timeouts (tournament_id, entrant, table_id, version) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id, version) DO NOTHING", (link.tournament_id, entrant, table_id, version))
