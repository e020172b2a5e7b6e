"""Discord out of reach while the bot runs: AI seats and timers play on, and the table messages
whose edits were lost are shown again once Discord answers (on reconnecting)."""

from __future__ import annotations

import asyncio
import logging

from bot.service import Player
from tests.discord_play import open_table, to_act


async def test_a_table_edited_while_discord_was_away_is_shown_again_on_reconnecting(server, caplog):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    shown_before = s.h.message(table.id).text
    s.h.unreachable = True  # the bot's host loses its connection; the gateway will reconnect
    await s.h.bot.service.play.leave_game(1, Player(mover.id, mover.name, s.guild.id))  # an AI takes the seat and plays
    await s.h.bot.service.wait_idle()
    assert s.h.message(table.id).text == shown_before
    away = [r for r in caplog.records if r.levelno >= logging.WARNING and "out of reach" in r.getMessage()]
    assert len(away) == 1 and not [r for r in caplog.records if r.levelno >= logging.ERROR]

    s.h.unreachable = False
    await s.h.feed("RESUMED", {"__shard_id__": 0})
    await s.h.bot.service.wait_idle()
    shown = s.h.message(table.id)
    assert "left the table; an AI" in shown.text and shown.text != shown_before
    pings = [m for m in s.h.public_messages(s.channel) if m.id != table.id and not m.deleted]
    assert len(pings) == 1 and to_act(s, table)[0].mention in pings[0].content  # the turn's ping came too


async def test_without_a_reconnect_the_lost_edits_are_tried_again_after_a_while(server, monkeypatch):
    """Discord's API failing while the gateway stays up: no reconnect to wait for, so the bot
    tries again every RETRY_SECONDS until the table is shown."""
    monkeypatch.setattr("cogs.outage.RETRY_SECONDS", 0.05)
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    s.h.unreachable = True
    await s.h.bot.service.play.leave_game(1, Player(mover.id, mover.name, s.guild.id))
    await s.h.bot.service.wait_idle()
    await asyncio.sleep(0.2)  # a retry while still away: missed again, tried again later
    assert "left the table" not in s.h.message(table.id).text
    s.h.unreachable = False
    for _ in range(40):
        await asyncio.sleep(0.05)
        await s.h.bot.service.wait_idle()
        if "left the table; an AI" in s.h.message(table.id).text:
            break
    assert "left the table; an AI" in s.h.message(table.id).text


async def test_a_click_that_cannot_be_answered_is_one_warning(server, caplog):
    """Discord's API away while its gateway still delivers clicks: the answer cannot go out;
    that is a warning, not an error with a traceback (and no apology is attempted)."""
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    s.h.unreachable = True
    await s.h.click(table, label="📜 Log", user=s.user("cat"), expect_response=False)
    said = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in said if "could not answer interaction" in r.getMessage()], said
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
