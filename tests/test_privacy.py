"""``/privacy forget`` means forget: no trace of the name or id anywhere in the database file."""

from __future__ import annotations

import json
import sqlite3

import pytest

from bot.markdown import literal
from tests.discord_play import make_server, open_table, play_to_the_end, play_turn, start_bot
from tests.fakediscord import DiscordHarness

NAMES = ("zorbaqx", "zorba_qx.9")
"""A plain name, and one that message text shows escaped (``zorba\\_qx\\.9``)."""


def file_bytes(db_path) -> bytes:
    """The whole database file after checkpointing the write-ahead log into it."""
    conn = sqlite3.connect(db_path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return db_path.read_bytes()


def traces(data: bytes, *needles: str) -> list[str]:
    """Which of ``needles`` occur in ``data`` (as UTF-8 text, or JSON-escaped)."""
    return [n for n in needles if n.encode() in data or json.dumps(n).encode()[1:-1] in data]


def old_rows(db_path, guild_id: int, channel_id: int, user_id: int, name: str) -> None:
    """An ended table and result as an older version wrote them: names and a mention in text,
    and (by an SQLite built without secure delete) an overwritten copy left in free space."""
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA secure_delete = OFF")
    with conn:
        conn.execute("INSERT INTO meta (key, value) VALUES ('scratch', ?)", (f"{name} was here " * 20,))
        conn.execute("DELETE FROM meta WHERE key = 'scratch'")
        conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, game_id, options, host_id, status, seed, timer_minutes,"
            " recent_events, outcome, created_at, finished_at) VALUES (900, ?, ?, 'q2j', '{}', ?, 'abandoned', 1, 0,"
            " ?, NULL, 1.0, 2.0)",
            (guild_id, channel_id, user_id, json.dumps([f"{name} played a card.", f"<@{user_id}> ended the game."])))
        conn.execute("INSERT INTO seats (table_id, seat, user_id, name, is_ai) VALUES (900, 0, ?, ?, 0)",
                     (user_id, name))
        conn.execute("INSERT INTO moves (table_id, version, seat, action, by_ai, at) VALUES (900, 1, 0, ?, 0, 1.5)",
                     (json.dumps({"kind": "note", "by": name, "user": str(user_id)}),))
        conn.execute(
            "INSERT INTO results (table_id, guild_id, channel_id, game_id, options, status, rated, summary,"
            " finished_at) VALUES (900, ?, ?, 'q2j', '{}', 'abandoned', 0, ?, 2.0)",
            (guild_id, channel_id, f"{name} ended the game."))
        conn.execute("INSERT INTO result_seats (table_id, seat, user_id, name, is_ai, team, won)"
                     " VALUES (900, 0, ?, ?, 0, 0, 0)", (user_id, name))
    conn.close()


@pytest.mark.parametrize("name", NAMES)
async def test_forget_leaves_no_trace_of_name_or_id_in_the_database_file(tmp_path, name):
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path, names=(name, "ben", "cat"))
        await start_bot(h, s.db_path)
        person = s.user(name)
        # A finished game, and one the person ended early, both through Discord.
        finished = await open_table(s, "q2j start", {"timer": 0}, name, joiners=["ben"])
        await play_to_the_end(s, finished)
        ended = await open_table(s, "q2j start", {"timer": 0}, name, joiners=["cat"])
        await play_turn(s, ended)
        await play_turn(s, ended)
        await h.slash("table end", {}, user=person, channel=s.channel)
        old_rows(s.db_path, s.guild.id, s.channel.id, person.id, name)
        before = await h.slash("history", {}, user=s.user("cat"), channel=s.channel)
        assert literal(name) in before.text
        assert name in traces(file_bytes(s.db_path), name, literal(name))

        ask = await h.slash("privacy forget", {}, user=person, channel=s.channel)
        done = await h.click(ask.message, label="Yes, forget me", user=person)
        assert "Done" in done.text and "3 game results" in done.text

        history = await h.slash("history", {}, user=s.user("cat"), channel=s.channel)
        assert literal(name) not in history.text and "Former player" in history.text
        for table_id in ("1", "2"):  # every move, replayed with the seats' stored names
            log = await h.select(history.message, [table_id], custom_id_prefix="dh:logsel:", user=s.user("cat"))
            assert "Former player" in log.text and literal(name) not in log.text
            await h.click(history.message, label="↩ Back", user=s.user("cat"))  # to the list of games
        assert traces(file_bytes(s.db_path), name, literal(name), str(person.id)) == []
        for path in tmp_path.glob("deckhand.sqlite3*"):  # the WAL and shared-memory files too
            assert traces(path.read_bytes(), name, literal(name), str(person.id)) == [], path.name
        # The others' games still read as before.
        ben_stats = await h.slash("stats", {}, user=s.user("ben"), channel=s.channel)
        assert " game" in ben_stats.text and "No finished games" not in ben_stats.text
