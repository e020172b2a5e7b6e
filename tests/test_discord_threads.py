"""Tables in threads that Discord archived: after a day without messages, or by a moderator.

Discord refuses edits in an archived thread (50083) until it is reopened; people's clicks
reopen it on their side, but a move nobody clicked (an AI's, a turn timer's) does not.
"""

from __future__ import annotations

import logging

from bot.service import Player
from tests.discord_play import to_act


async def open_in_thread(s, timer: int = 0):
    """A two-person Q2J game in a thread of its own: (the thread, the table message)."""
    await s.h.slash("settings threads", {"enabled": True}, user=s.admin, channel=s.channel)
    reply = await s.h.slash("q2j start", {"timer": timer}, user=s.user("ana"), channel=s.channel)
    assert reply.ephemeral and "table is open" in reply.text
    thread = next(c for c in s.guild.channels.values() if c.is_thread)
    lobby = s.h.latest_public(thread)
    await s.h.click(lobby, label="Join", user=s.user("ben"))
    await s.h.click(lobby, label="Start", user=s.user("ana"))
    return thread, s.h.message(lobby.id)


async def test_a_move_in_an_archived_thread_reopens_it_and_shows_the_table(server, caplog):
    s = server
    thread, table = await open_in_thread(s)
    mover = to_act(s, table)[0]
    shown_before = s.h.message(table.id).text
    await s.h.archive(thread)  # a day without messages
    await s.h.bot.service.play.leave_game(1, Player(mover.id, mover.name, s.guild.id))  # an AI takes the seat and plays
    await s.h.bot.service.wait_idle()
    shown = s.h.message(table.id).text
    assert "left the table; an AI" in shown and shown != shown_before
    assert not thread.archived
    pings = [m for m in s.h.public_messages(thread) if m.id != table.id and not m.deleted]
    assert len(pings) == 1 and to_act(s, table)[0].mention in pings[0].content  # the old ping was removed
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_thread_a_moderator_locked_stays_closed_and_its_table_ends(server):
    s = server
    thread, table = await open_in_thread(s)
    mover = to_act(s, table)[0]
    await s.h.archive(thread, locked=True)
    await s.h.bot.service.play.leave_game(1, Player(mover.id, mover.name, s.guild.id))
    await s.h.bot.service.wait_idle()
    assert thread.archived and thread.locked
    assert (await s.h.bot.service.table(1)).row.status == "abandoned"
    again = await s.h.slash("q2j start", {}, user=s.user("ana"), channel=s.channel)
    assert again.ephemeral and "table is open" in again.text  # its players are free to play elsewhere


async def test_a_forgotten_lobby_in_an_archived_thread_is_cancelled_without_reopening_it(server, monkeypatch):
    """Its host starts a new table a day later: the old lobby gives way, and its thread, which
    nobody needs again, stays archived."""
    s = server
    await s.h.slash("settings threads", {"enabled": True}, user=s.admin, channel=s.channel)
    await s.h.slash("q2j start", {}, user=s.user("ana"), channel=s.channel)
    old = next(c for c in s.guild.channels.values() if c.is_thread)
    await s.h.archive(old)
    monkeypatch.setattr("bot.service.lobby.LOBBY_WAIT_SECONDS", 0)
    again = await s.h.slash("q2j start", {}, user=s.user("ana"), channel=s.channel)
    assert again.ephemeral and "table is open" in again.text
    assert (await s.h.bot.service.table(1)).row.status == "cancelled"
    assert old.archived


async def test_the_turn_reminder_in_an_archived_thread_replaces_the_old_ping(server):
    """A moderator archives the thread during a timed turn; the half-time reminder reopens it
    (sending does), and the turn's first ping, which could not be deleted before, goes then."""
    s = server
    thread, table = await open_in_thread(s, timer=10)
    await s.h.archive(thread)
    deadline = (await s.h.bot.service.table(1)).row.deadline
    await s.h.bot.service.autoplay.check_timer(1, now=deadline - 60)  # past half-time: the reminder
    await s.h.bot.service.wait_idle()
    assert not thread.archived
    pings = [m for m in s.h.public_messages(thread) if m.id != table.id and not m.deleted]
    assert len(pings) == 1 and "min left for your turn" in pings[0].content
