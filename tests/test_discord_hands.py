"""A player's open hand message follows the game (cogs/open_hands.py): when their turn comes,
the hand they have open is edited through their latest interaction's token (outside the
request budget), so their next move is one click; with no token valid, it is left alone and
the turn's ping asks them to open **My hand**; a token Discord refuses is dropped, and
nothing is lost. Through the real bot and the fake Discord, whose clock says when tokens expire."""

from __future__ import annotations

import re
import time

from tests.discord_play import forge_click, make_server, move_choices, open_hand, open_table, play, start_bot, to_act
from tests.fakediscord import TOKEN_SECONDS, DiscordHarness, HTTPError, ManualClock

OPEN_MY_HAND = "open **My hand**"


def edits_through(s, token: str) -> list:
    """The edits of an interaction's original response made through its token."""
    return s.h.requests_to("PATCH", rf"^/webhooks/\d+/{re.escape(token)}/messages/@original$")


def newest_ping(s, table, user) -> str:
    pings = [m for m in s.h.public_messages(s.channel) if m.id != table.id and f"<@{user.id}>" in m.text]
    return pings[-1].text


async def version(s) -> int:
    return (await s.h.bot.service.table(1)).row.version


async def until_turn_of(s, table, waiter, mover) -> None:
    """``mover`` plays from a hand of their own until ``waiter`` is to act."""
    for _ in range(20):
        if to_act(s, table) == [waiter]:
            return
        hand = await open_hand(s, mover, table)
        await play(s, mover, hand.message)
    raise AssertionError(f"{waiter.name}'s turn never came")


async def test_an_open_hand_shows_the_turn_when_it_comes_so_a_move_is_one_click(server):
    s = server
    ana = s.user("ana")
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", ai=1)
    assert to_act(s, table) == [ana]  # the AI plays at once when it is first
    hand = (await open_hand(s, ana, table)).message
    for _ in range(3):
        before = await version(s)
        old_controls = [custom_id for _, custom_id, _ in move_choices(hand)]
        clicked = await play(s, ana, hand)
        # Ana's click answered with her hand ("Waiting for 🤖 AI 1"); the AI moved at once, and
        # her open hand was edited through that click's token to show her moves again.
        assert to_act(s, table) == [ana]
        now = await version(s)
        assert now > before + 1
        shown = s.h.message(hand.id)
        assert move_choices(shown) and all(f":1:{now}:" in custom_id for _, custom_id, _ in move_choices(shown))
        assert "Waiting for" not in shown.text
        assert len(edits_through(s, clicked.record.token)) == 1  # one edit for the one change
        assert OPEN_MY_HAND not in newest_ping(s, table, ana)
        # A click on the controls as they were is still refused, politely, changing nothing.
        stale = await forge_click(s, shown, old_controls[0], ana)
        assert stale.ephemeral and "earlier turn" in stale.text and await version(s) == now
        hand = s.h.message(hand.id)


async def test_a_hand_whose_token_expired_is_left_alone_and_the_ping_says_to_open_it(tmp_path):
    clock = ManualClock(time.time() - TOKEN_SECONDS - 60)  # what follows happened 16 minutes ago
    async with DiscordHarness(clock=clock) as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path)
        table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
        mover = to_act(s, table)[0]
        waiter = s.user("ben") if mover.name == "ana" else s.user("ana")
        opened = await open_hand(s, waiter, table)
        waiting = opened.message.text
        clock.advance(TOKEN_SECONDS + 60)  # now: the waiter's token ran out a minute ago
        await until_turn_of(s, table, waiter, mover)
        assert edits_through(s, opened.record.token) == []  # not even tried: Deckhand knows it expired
        assert s.h.message(opened.message.id).text == waiting
        assert OPEN_MY_HAND in newest_ping(s, table, waiter)
        fresh = await open_hand(s, waiter, table)
        assert move_choices(fresh.message)


async def test_a_refused_token_is_dropped_and_nothing_is_lost(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    waiter = s.user("ben") if mover.name == "ana" else s.user("ana")
    opened = await open_hand(s, waiter, table)
    waiting = opened.message.text
    token = re.escape(opened.record.token)
    s.h.refuse_next("PATCH", rf"/webhooks/\d+/{token}/messages/@original", HTTPError(404, 10015, "Unknown Webhook"))
    await until_turn_of(s, table, waiter, mover)
    assert len(edits_through(s, opened.record.token)) == 1 and s.h.message(opened.message.id).text == waiting
    assert OPEN_MY_HAND in newest_ping(s, table, waiter)
    fresh = await open_hand(s, waiter, table)  # the game goes on from a hand opened again
    before = await version(s)
    await play(s, waiter, fresh.message)
    assert await version(s) > before
    assert len(edits_through(s, opened.record.token)) == 1  # the refused token is never used again


async def test_only_the_hand_opened_last_follows_the_game(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    waiter = s.user("ben") if mover.name == "ana" else s.user("ana")
    first = await open_hand(s, waiter, table)
    second = await s.h.slash("table hand", {}, user=waiter, channel=s.channel)
    await until_turn_of(s, table, waiter, mover)
    assert edits_through(s, first.record.token) == []
    assert len(edits_through(s, second.record.token)) == 1 and move_choices(s.h.message(second.message.id))
    assert OPEN_MY_HAND not in newest_ping(s, table, waiter)
