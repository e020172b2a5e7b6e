"""A table message is edited through the token of a click on it (cogs/publisher.py,
cogs/tokens.py): a lobby click answered by updating its message makes that message the
click's original response, which its token edits outside the global request budget for 15
minutes. Without such a token (none yet, all expired, or Discord refused it), the edit goes
through the budget, and nothing is lost. Through the real bot and the fake Discord, whose
clock says when tokens expire."""

from __future__ import annotations

import asyncio
import re
import time

from tests.discord_play import make_server, open_table, play_turn, start_bot
from tests.fakediscord import TOKEN_SECONDS, DiscordHarness, HTTPError, ManualClock


def edits_through(s, token: str, since: int = 0) -> list:
    """The edits of an interaction's original response made through its token (from request ``since`` on)."""
    return [r for r in s.h.requests_to("PATCH", rf"^/webhooks/\d+/{re.escape(token)}/messages/@original$")
            if r.seq >= since]


def budget_edits(s, table, since: int = 0) -> list:
    """The table message's edits through the channel's route (the global budget), from request ``since`` on."""
    return [r for r in s.h.requests_to("PATCH", rf"^/channels/\d+/messages/{table.id}$") if r.seq >= since]


def mark(s) -> int:
    """The number the next request will bear."""
    return len(s.h.requests)


async def start(s, joiner: str = "ben"):
    """``/q2j start`` by ana, ``joiner`` joins, ana presses **Start**: the table message and the
    Start click (answered by updating the lobby message, which became the table's)."""
    await s.h.slash("q2j start", {"variant": "classic", "timer": 0}, user=s.user("ana"), channel=s.channel)
    lobby = s.h.latest_public(s.channel)
    await s.h.click(lobby, label="Join", user=s.user(joiner))
    started = await s.h.click(lobby, label="Start", user=s.user("ana"))
    assert started.record.callback["type"] == 6  # a deferred update: the lobby message is @original
    return s.h.message(lobby.id), started


async def shown_version(s, table) -> str:
    """The version the table message shows (in its controls), and the version stored."""
    row = (await s.h.bot.service.storage.get_table(1))
    return row.shown, f"{row.status}@{row.version}"


async def test_a_move_edits_the_table_through_the_start_clicks_token_off_the_budget(server):
    s = server
    table, started = await start(s)
    pacer = s.h.bot.pacer
    for _ in range(4):
        granted, through_budget = pacer.granted, len(budget_edits(s, table))
        before = s.h.message(table.id).history[:]
        await play_turn(s, table)
        assert len(budget_edits(s, table)) == through_budget
        assert len(s.h.message(table.id).history) > len(before)  # the table message was edited
        assert pacer.granted == granted  # and nothing of the move spent the budget (its ping rode on a click)
    shown, stored = await shown_version(s, table)
    assert shown == stored
    assert len(edits_through(s, started.record.token)) >= 4


async def test_a_token_is_never_used_after_its_15_minutes_the_budget_edits_then(tmp_path):
    clock = ManualClock(time.time() - TOKEN_SECONDS - 60)  # the table started 16 minutes ago
    async with DiscordHarness(clock=clock) as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path)
        table, started = await start(s)
        clock.advance(TOKEN_SECONDS + 60)  # now: the Start click's token ran out a minute ago
        since = mark(s)
        await play_turn(s, table)
        await play_turn(s, table)
        assert edits_through(s, started.record.token, since) == []  # not even tried: Deckhand knows it expired
        assert not [r for r in h.requests[since:] if r.status == 401]
        assert len(budget_edits(s, table, since)) == 2
        shown, stored = await shown_version(s, table)
        assert shown == stored


async def test_a_token_discord_refuses_is_dropped_and_the_budget_shows_the_move(server):
    s = server
    table, started = await start(s)
    s.h.expire_tokens(started)  # Discord ends a token early at times: 401 Invalid Webhook Token
    since = mark(s)
    await play_turn(s, table)
    [refused] = edits_through(s, started.record.token, since)
    assert refused.status == 401
    assert len(budget_edits(s, table, since)) == 1  # the same state, through the budget: nothing lost
    shown, stored = await shown_version(s, table)
    assert shown == stored
    await play_turn(s, table)
    assert edits_through(s, started.record.token, refused.seq + 1) == []  # the refused token is never used again
    assert len(budget_edits(s, table, since)) == 2


async def test_a_table_edit_discord_keeps_failing_is_not_counted_shown_and_is_shown_again(server, monkeypatch):
    """Discord answering 5xx to a table's edit past discord.py's retries (``DiscordServerError``):
    the state is not taken as shown, nor sent again as text without its picture; the table is
    shown again a while later (``cogs/outage.py``), so a game's last move is not left unseen."""
    monkeypatch.setattr("cogs.outage.RETRY_SECONDS", 0.05)
    s = server
    table, started = await start(s)
    s.h.expire_tokens(started)  # the budget's route edits the table
    s.h.refuse_next("PATCH", rf"/channels/\d+/messages/{table.id}", HTTPError(503, 0, "upstream connect error"))
    since = mark(s)
    await play_turn(s, table)
    for _ in range(40):
        await asyncio.sleep(0.05)
        await s.h.bot.service.wait_idle()
        if len(budget_edits(s, table, since)) > 1:
            break
    refused, again = budget_edits(s, table, since)
    assert refused.status == 503 and again.status == 200 and again.files  # its picture with it
    shown, stored = await shown_version(s, table)
    assert shown == stored


async def test_an_unknown_message_through_a_token_goes_through_the_budget(server):
    s = server
    table, started = await start(s)
    token = re.escape(started.record.token)
    s.h.refuse_next("PATCH", rf"/webhooks/\d+/{token}/messages/@original", HTTPError(404, 10008, "Unknown Message"))
    since = mark(s)
    await play_turn(s, table)
    [refused] = edits_through(s, started.record.token, since)
    assert refused.status == 404 and len(budget_edits(s, table, since)) == 1
    shown, stored = await shown_version(s, table)
    assert shown == stored
    await play_turn(s, table)
    assert edits_through(s, started.record.token, refused.seq + 1) == [] and len(budget_edits(s, table, since)) == 2


async def test_a_click_answered_privately_gives_the_table_no_token(server):
    """**My hand** answers with a private message, which is that click's original response: its
    token never edits the table."""
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    s.h.expire_tokens()  # the lobby's clicks' tokens: gone
    since = mark(s)
    hands = [await s.h.click(table, label="🂠 My hand", user=s.user(name)) for name in ("ana", "ben")]
    await play_turn(s, table)
    assert not [req for req in s.h.requests_to("PATCH", r"^/webhooks/") if req.seq >= since and req.status == 200
                and req.message_id == table.id]
    assert len(budget_edits(s, table, since)) == 1
    assert all(hand.ephemeral for hand in hands)
    shown, stored = await shown_version(s, table)
    assert shown == stored
