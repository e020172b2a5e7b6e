"""A crash at each step of opening and playing a table, through the real bot and the fake
Discord: the process dies at that step (the step never returns, and the bot is stopped
there as a kill would leave it: everything committed stays, nothing else is sent), starts
again on the same database, and the players' next clicks get the right answer.

Crash points: after a lobby is committed (its message never posted), after its message is
posted (its id never stored), after a move is committed (never shown), after a game's last
move (its ending never shown). Start-up shows what may be behind once, and pings nobody who
was already pinged for their turn."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

import bot.client
from bot.service.game_service import GameService
from tests.discord_play import HAND_BUTTON, open_hand, open_table, play, play_turn, start_bot, to_act


@pytest.fixture(autouse=True)
def quick_stop(monkeypatch):
    """A killed process waits for nothing: stopping does not wait for interactions in flight."""
    monkeypatch.setattr(bot.client, "DRAIN_SECONDS", 0.01)


class Death:
    """Where :func:`die_at` stopped the process: :meth:`wait` returns once it did."""

    def __init__(self) -> None:
        self.happened = asyncio.Event()
        self.hanging: list[asyncio.Task[Any]] = []

    async def wait(self) -> None:
        await self.happened.wait()

    def end_hanging(self) -> None:
        """End the calls left hanging there, as the end of a process ends them."""
        for task in self.hanging:
            task.cancel()


def die_at(monkeypatch, owner: type, name: str, when: Callable[..., bool] = lambda *a, **k: True) -> Death:
    """From now on, ``owner.name`` never returns when ``when(*args, **kwargs)``: the process
    dies there."""
    original = getattr(owner, name)
    death = Death()

    async def dying(*args: Any, **kwargs: Any) -> Any:
        if when(*args, **kwargs):
            death.happened.set()
            death.hanging.append(asyncio.current_task())
            await asyncio.Event().wait()
        return await original(*args, **kwargs)

    monkeypatch.setattr(owner, name, dying)
    return death


def publisher_class(s) -> type:
    """The running bot's publisher class (stopping a bot unloads the cogs, so each bot has its own)."""
    return type(s.h.bot.publisher)


def pings_class(s) -> type:
    """The running bot's turn pings class (its publisher's)."""
    return type(s.h.bot.publisher.pings)


async def kill_and_restart(s, monkeypatch) -> None:
    monkeypatch.undo()
    monkeypatch.setattr(bot.client, "DRAIN_SECONDS", 0.01)
    await s.h.stop()
    await start_bot(s.h, s.db_path, seed=None)


def lobbies(s) -> list:
    return [m for m in s.h.public_messages(s.channel) if not m.deleted and m.find_components(label="Join")]


def pings(s, table) -> list:
    return [m for m in s.h.public_messages(s.channel) if m.id != table.id and not m.deleted]


async def test_a_lobby_committed_but_never_posted_is_posted_at_start_up(server, monkeypatch):
    s = server
    died = die_at(monkeypatch, publisher_class(s), "place")
    await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel, expect_response=False)
    await died.wait()
    assert lobbies(s) == []
    await kill_and_restart(s, monkeypatch)

    [lobby] = lobbies(s)
    assert (await s.h.bot.service.table(1)).row.lobby_message_id == lobby.id
    await s.h.click(lobby, label="Join", user=s.user("ben"))
    assert "ben" in s.h.message(lobby.id).text


async def test_the_hosts_next_start_recovers_a_lobby_that_was_never_posted(server, monkeypatch):
    s = server
    died = die_at(monkeypatch, publisher_class(s), "place")
    await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel, expect_response=False)
    await died.wait()
    monkeypatch.undo()  # the same process, which went on: the host asks again
    again = await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
    [lobby] = lobbies(s)
    assert again.ephemeral and "table is open" in again.text and str(lobby.id) in again.text
    died.end_hanging()  # or closing the bot would wait for that click


async def test_a_lobby_posted_but_whose_id_was_lost_keeps_its_one_message(server, monkeypatch):
    s = server
    died = die_at(monkeypatch, GameService, "set_publication",
                  lambda self, table_id, **columns: "lobby_message_id" in columns)
    await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel, expect_response=False)
    await died.wait()
    [posted] = lobbies(s)
    await kill_and_restart(s, monkeypatch)

    assert lobbies(s) == [posted]  # posted again with its nonce: Discord answers with the same message
    assert (await s.h.bot.service.table(1)).row.lobby_message_id == posted.id
    await s.h.click(posted, label="Join", user=s.user("ben"))
    await s.h.click(posted, label="Start", user=s.user("ana"))
    assert "to play" in s.h.message(posted.id).text


async def test_a_move_committed_but_never_shown_is_shown_at_start_up_and_pinged_once(server, monkeypatch):
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    before = s.h.message(table.id).text
    died = die_at(monkeypatch, publisher_class(s), "show")
    await play(s, mover, (await open_hand(s, mover, table)).message)
    await died.wait()
    assert s.h.message(table.id).text == before
    await kill_and_restart(s, monkeypatch)

    waiter = to_act(s, table)[0]
    assert waiter is not mover and s.h.message(table.id).text != before
    [ping] = pings(s, table)
    assert waiter.mention in ping.content
    hand = await s.h.click(s.h.message(table.id), label=HAND_BUTTON, user=waiter)
    assert hand.message.buttons  # the turn's moves

    edits = len(s.h.requests_to("PATCH", rf"/messages/{table.id}$"))
    await kill_and_restart(s, monkeypatch)  # shown and pinged: another restart sends nothing
    assert len(s.h.requests_to("PATCH", rf"/messages/{table.id}$")) == edits
    assert pings(s, table) == [ping]


async def test_a_restart_pings_nobody_already_pinged_for_their_turn(server, monkeypatch):
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    await play_turn(s, table)
    ping_ids = [m.id for m in pings(s, table)]
    requests = len(s.h.requests)
    await kill_and_restart(s, monkeypatch)
    assert [m.id for m in pings(s, table)] == ping_ids
    sent = [r for r in s.h.requests[requests:] if r.method != "GET" and "/commands" not in r.path]
    assert sent == []


async def test_a_games_last_move_never_shown_shows_the_ending_at_start_up(server, monkeypatch):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    die_at(monkeypatch, publisher_class(s), "show", lambda self, snap, **_: snap.row.status == "finished")
    for _ in range(600):
        if (await s.h.bot.service.table(1)).row.status != "running":
            break
        await play_turn(s, table)
    assert (await s.h.bot.service.table(1)).row.status == "finished"
    assert "🏆" not in s.h.message(table.id).text
    await kill_and_restart(s, monkeypatch)

    assert "🏆" in s.h.message(table.id).text
    assert pings(s, table) == []
    mover = s.user("ana")
    late = await s.h.click(s.h.message(table.id), label="📜 Log", user=mover)
    assert late.ephemeral


async def test_a_ping_cut_short_by_a_crash_is_sent_once(server, monkeypatch):
    """Killed between storing that a ping is being sent and sending it: the restarted bot
    looks in the channel, finds none, and pings."""
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    died = die_at(monkeypatch, pings_class(s), "_post")
    mover = await play_turn(s, table)
    await died.wait()
    await kill_and_restart(s, monkeypatch)
    waiter = to_act(s, table)[0]
    assert waiter is not mover
    turn_pings = [m for m in pings(s, table) if waiter.mention in m.content]
    assert len(turn_pings) == 1


async def test_a_ping_cut_short_while_the_players_ping_before_is_still_there_is_sent(server, monkeypatch):
    """Killed while pinging a player whose ping for their turn before is still in the channel
    (old pings are deleted last, when the budget allows): that ping is not this turn's, and the
    restarted bot pings them (it looks only at what came after the table's last ping)."""
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])

    async def keep_old_pings(self, table_id):
        pass

    monkeypatch.setattr(pings_class(s), "tidy", keep_old_pings)
    first = await play_turn(s, table)
    second = await play_turn(s, table)  # ``first`` pinged
    assert await play_turn(s, table) is first  # ``second`` pinged
    pinged_before = [m.id for m in pings(s, table) if first.mention in m.content]
    died = die_at(monkeypatch, pings_class(s), "_post")
    assert await play_turn(s, table) is second  # ``first``'s ping cut short
    await died.wait()
    await kill_and_restart(s, monkeypatch)
    assert to_act(s, table) == [first]
    pinged = [m.id for m in pings(s, table) if first.mention in m.content]
    assert pinged[:-1] == pinged_before and len(pinged) == len(pinged_before) + 1


async def test_a_ping_sent_just_before_a_crash_is_not_sent_again(server, monkeypatch):
    """Killed after the ping went but before that was stored: the restarted bot finds it in
    the channel and pings nobody twice."""
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    cls = pings_class(s)
    original = cls._post
    sent = asyncio.Event()

    async def send_then_die(self, *args, **kwargs):
        ping = await original(self, *args, **kwargs)
        sent.set()
        await asyncio.Event().wait()
        return ping

    monkeypatch.setattr(cls, "_post", send_then_die)
    mover = await play_turn(s, table)
    await sent.wait()
    await kill_and_restart(s, monkeypatch)
    waiter = to_act(s, table)[0]
    assert waiter is not mover
    turn_pings = [m for m in s.h.public_messages(s.channel) if m.id != table.id and waiter.mention in m.content]
    assert len(turn_pings) == 1, [m.content for m in turn_pings]
    hand = await s.h.click(s.h.message(table.id), label=HAND_BUTTON, user=waiter)
    assert hand.message.buttons
