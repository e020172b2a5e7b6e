"""``/privacy forget``: remove a person's name and id from everything Deckhand stored.

Stored text is written with names in it (event lines, result summaries), so
forgetting rewrites it: in every ended table the person sat at or hosted, each
text and JSON column (recent events, outcome, snapshot, options, every move,
the result's summary) has the person's names replaced with
:data:`FORGOTTEN_NAME` and their id removed; a line saying they ended a game
they were not seated at ("<name> ended the game.", stored as words or as data) is
rewritten wherever it is; a seated player's lines name their seat, not them.
Seats, and entries in ended tournaments, keep a nameless "Former player"; ratings (all time and
seasons'), places in seasons' final standings and achievements are deleted. Rows written by
older versions are scrubbed the same way, since nothing relies on how they
were written. The caller then compacts the database (:meth:`Storage.compact`) so
no old copy lingers in free pages or the write-ahead log. The SQL is written once for
both backends (:mod:`bot.storage.session`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from .markdown import literal
from .records import ender_line
from .storage import Session

FORGOTTEN_NAME = "Former player"

_TABLE_TEXT = ("recent_events", "outcome", "state", "options")


async def forget_person(db: Session, user_id: int, names: Iterable[str]) -> int:
    """Scrub ``user_id`` (known as ``names`` and as every seat name stored for them) from
    ended tables, moves and results; returns how many results were anonymised."""
    known = {r[0] for r in await db.fetch(
        "SELECT name FROM seats WHERE user_id = ? UNION SELECT name FROM result_seats WHERE user_id = ?",
        (user_id, user_id))}
    known |= {n for n in names if n and n.strip()}
    known.discard(FORGOTTEN_NAME)
    known |= {literal(n) for n in known}  # as message text stores them
    scrub = _scrubber(known, user_id)
    table_ids = [r[0] for r in await db.fetch(
        "SELECT id FROM tables WHERE status NOT IN ('lobby', 'running') AND (host_id = ?"
        " OR id IN (SELECT table_id FROM seats WHERE user_id = ?)"
        " OR id IN (SELECT table_id FROM result_seats WHERE user_id = ?))", (user_id, user_id, user_id))]
    for table_id in table_ids:
        await _rewrite(db, "tables", _TABLE_TEXT, "id = ?", (table_id,), scrub)
        await _rewrite(db, "results", ("summary", "options"), "table_id = ?", (table_id,), scrub)
        for (version,) in await db.fetch("SELECT version FROM moves WHERE table_id = ?", (table_id,)):
            await _rewrite(db, "moves", ("action",), "table_id = ? AND version = ?", (table_id, version), scrub)
    await _rewrite_ender_lines(db, known)
    changed = await db.execute(
        "UPDATE result_seats SET user_id = NULL, name = ? WHERE user_id = ?", (FORGOTTEN_NAME, user_id),
    )
    await db.execute(
        "UPDATE seats SET user_id = NULL, name = ? WHERE user_id = ? AND table_id IN"
        " (SELECT id FROM tables WHERE status NOT IN ('lobby', 'running'))", (FORGOTTEN_NAME, user_id),
    )
    await db.execute("UPDATE tables SET host_id = 0 WHERE host_id = ? AND status NOT IN ('lobby', 'running')",
                     (user_id,))
    ended = "SELECT id FROM tournaments WHERE status NOT IN ('signup', 'running')"
    await db.execute(f"UPDATE tournament_entrants SET user_id = NULL, name = ? WHERE user_id = ? AND tournament_id IN"
                     f" ({ended})", (FORGOTTEN_NAME, user_id))
    await db.execute(f"UPDATE tournament_entrants SET partner_id = NULL, partner_name = ? WHERE partner_id = ?"
                     f" AND tournament_id IN ({ended})", (FORGOTTEN_NAME, user_id))
    await db.execute(f"UPDATE tournaments SET host_id = 0 WHERE host_id = ? AND id IN ({ended})", (user_id,))
    for table in ("ratings", "rating_history", "season_ratings", "season_standings", "achievements"):
        await db.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
    return changed


Scrub = Callable[[Any], Any]


def _scrubber(names: set[str], user_id: int) -> Scrub:
    """A function replacing, in a text or any JSON value, the whole-word ``names`` (longest
    first) and ``user_id`` (as decimal text, a mention, or a JSON number)."""
    alternatives = [re.escape(n) for n in sorted(names, key=len, reverse=True)]
    name_pattern = re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)") if alternatives else None
    id_pattern = re.compile(rf"<@!?{user_id}>|(?<!\d){user_id}(?!\d)")

    def scrub(value: Any) -> Any:
        if isinstance(value, str):
            if name_pattern is not None:
                value = name_pattern.sub(FORGOTTEN_NAME, value)
            return id_pattern.sub(FORGOTTEN_NAME, value)
        if isinstance(value, list):
            return [scrub(v) for v in value]
        if isinstance(value, dict):
            return {scrub(k): scrub(v) for k, v in value.items()}
        if isinstance(value, int) and not isinstance(value, bool) and value == user_id:
            return 0
        return value

    return scrub


async def _rewrite(db: Session, table: str, columns: tuple[str, ...], where: str, keys: tuple,
             scrub: Scrub) -> None:
    """Rewrite the text/JSON ``columns`` of one row through ``scrub`` (JSON stays valid JSON)."""
    row = await db.fetchrow(f"SELECT {', '.join(columns)} FROM {table} WHERE {where}", keys)
    if row is None:
        return
    new = [_scrub_column(value, scrub) for value in row]
    if list(row) != new:
        assignments = ", ".join(f"{c} = ?" for c in columns)
        await db.execute(f"UPDATE {table} SET {assignments} WHERE {where}", (*new, *keys))


def _scrub_column(value: Any, scrub: Scrub) -> Any:
    if not isinstance(value, str):
        return value
    try:
        parsed = json.loads(value)
    except ValueError:  # plain text (a result's summary)
        return scrub(value)
    scrubbed = scrub(parsed)
    return value if scrubbed == parsed else json.dumps(scrubbed, separators=(",", ":"))


async def _rewrite_ender_lines(db: Session, names: set[str]) -> None:
    """"<name> ended the game." lines of games the person ended without playing in them: as
    words (older rows) or as data (:func:`~bot.records.ender_line`), in events and summaries."""
    for name in names:
        words, data = f"{name} ended the game.", ender_line(name).to_json()
        new_words, new_data = f"{FORGOTTEN_NAME} ended the game.", ender_line(FORGOTTEN_NAME).to_json()
        await db.execute("UPDATE results SET summary = ? WHERE summary = ?", (new_words, words))
        await db.execute("UPDATE results SET summary = ? WHERE summary = ?", (json.dumps(new_data), json.dumps(data)))
        # Event lines are stored with other alphabets as \u escapes (older rows) or as they are.
        escaped, plain = (_like_pattern(json.dumps(name, ensure_ascii=ascii)[1:-1]) for ascii in (True, False))
        for table_id, events in await db.fetch(
            "SELECT id, recent_events FROM tables WHERE status NOT IN ('lobby', 'running')"
            " AND (recent_events LIKE ? ESCAPE '\\' OR recent_events LIKE ? ESCAPE '\\')", (escaped, plain)):
            lines = json.loads(events)
            rewritten = [new_words if e == words else new_data if e == data else e for e in lines]
            if rewritten != lines:
                await db.execute("UPDATE tables SET recent_events = ? WHERE id = ?", (json.dumps(rewritten), table_id))


def _like_pattern(text: str) -> str:
    """A LIKE pattern (escape ``\\``) matching any text that contains ``text``."""
    return "%" + text.replace("\\", "\\\\").replace("%", r"\%").replace("_", r"\_") + "%"
