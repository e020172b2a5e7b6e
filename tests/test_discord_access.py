"""A table's channel closed to Deckhand mid-game: a moderator makes the channel private, or
takes Deckhand's View Channel there. Discord then refuses the bot's requests in that channel
(403 Missing Access) but still delivers people's clicks there."""

from __future__ import annotations

import logging

from tests.discord_play import add_ai, open_hand, open_table, play, status_line
from tests.words import event_texts

CLOSED_NOTE = "I can no longer see or post in this channel"


async def player_to_act(s):
    """Who is to play, from the game itself (the table message is not kept up to date while closed)."""
    snap = await s.h.bot.service.table(1)
    return s.by_id(snap.row.seats[snap.view["to_act"][0]].user_id)


async def test_a_channel_closed_to_deckhand_plays_on_privately_and_shows_the_table_once_it_reopens(
        server, caplog):
    s = server
    caplog.set_level(logging.INFO, logger="cogs")
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    shown_before = s.h.message(table.id).text
    s.h.close_to_bot(s.channel)
    version = (await s.h.bot.service.table(1)).row.version
    for _ in range(3):
        mover = await player_to_act(s)
        hand = await open_hand(s, mover, table)  # the table's buttons still answer, privately
        assert CLOSED_NOTE in hand.text and "View Channel" in hand.text
        await play(s, mover, hand.message)
    assert (await s.h.bot.service.table(1)).row.version == version + 3
    assert s.h.message(table.id).text == shown_before
    refused = [r for r in s.h.requests if r.status == 403]
    assert refused and all(r.error == "Missing Access" for r in refused)
    assert not [r for r in refused if r.method == "POST"], "no turn ping is tried where the table can't be edited"
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    said = warnings[0].getMessage()
    assert "View Channel and Send Messages" in said and "attach" not in said and warnings[0].exc_info is None

    s.h.close_to_bot(s.channel, closed=False)
    watcher = s.user("cat")  # anyone's click there shows Deckhand may post again
    await s.h.click(table, label="👁 Watch", user=watcher)
    await s.h.bot.service.wait_idle()
    shown = status_line(s.h.message(table.id))
    mover = await player_to_act(s)
    assert mover.mention in shown.split("·")[0]
    pings = [m for m in s.h.public_messages(s.channel) if m.id != table.id and not m.deleted]
    assert pings and mover.mention in pings[-1].content
    assert any("may post in channel" in r.getMessage() and r.levelno == logging.INFO for r in caplog.records)
    hand = await open_hand(s, mover, table)
    assert CLOSED_NOTE not in hand.text
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [said]


async def test_a_server_that_removes_deckhand_ends_its_tables_and_nothing_is_sent_there(server, caplog):
    s = server
    table = await open_table(s, "q2j start", {"timer": 5}, "ana", joiners=["ben"])
    await s.h.slash("q2j start", {}, user=s.user("cat"), channel=s.guild.add_channel("elsewhere"))
    s.h.close_to_bot(s.channel)  # kicked: Discord refuses the bot everything there
    sent = await s.h.feed("GUILD_DELETE", {"id": str(s.guild.id)})
    await s.h.bot.service.wait_idle()
    assert sent == [] and s.h.message(table.id).text  # the table message is left as it was
    rows = [(await s.h.bot.service.table(i)).row for i in (1, 2)]
    assert [row.status for row in rows] == ["abandoned", "cancelled"]
    assert rows[0].deadline is None and "removed from the server" in event_texts(rows[0])[-1]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_lobby_in_a_channel_closed_to_deckhand_says_privately_what_each_click_did(server, caplog):
    s = server
    lobby = await open_table(s, "q2j start", {"timer": 0}, "ana", start=False)
    s.h.close_to_bot(s.channel)
    shown_before = s.h.message(lobby.id).text

    joined = await s.h.click(lobby, label="Join", user=s.user("ben"))
    assert joined.ephemeral and "You took a seat." in joined.text and CLOSED_NOTE in joined.text
    added = await add_ai(s, lobby, s.user("ana"), "easy")
    assert "joined the table" in added.text and CLOSED_NOTE in added.text
    refused = await s.h.click(lobby, label="Start", user=s.user("ana"))
    assert refused.ephemeral and CLOSED_NOTE in refused.text and "press **Start** again" in refused.text
    row = (await s.h.bot.service.table(1)).row
    assert row.status == "lobby" and [seat.name for seat in row.seats][:2] == ["ana", "ben"] and len(row.seats) == 3
    assert s.h.message(lobby.id).text == shown_before
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1  # one line for the channel

    s.h.close_to_bot(s.channel, closed=False)
    started = await s.h.click(lobby, label="Start", user=s.user("ana"))
    assert CLOSED_NOTE not in (started.text or "")
    assert (await s.h.bot.service.table(1)).row.status == "running"
    assert "ben" in s.h.message(lobby.id).text
