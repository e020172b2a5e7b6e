"""Stopping the bot: interactions being answered are finished first, new ones are turned away
politely and change nothing. (The signals that stop the real process, and a stop with
clicks in flight, are in ``test_smoke_process.py`` and ``test_chaos_process.py``.)"""

from __future__ import annotations

import asyncio

from bot.in_flight import RESTARTING, InFlight
from tests.discord_play import open_table


async def test_draining_waits_for_the_interactions_being_answered() -> None:
    in_flight = InFlight()
    with in_flight.track():
        drained = asyncio.ensure_future(in_flight.drain(5.0))
        await asyncio.sleep(0.01)
        assert in_flight.closing and not drained.done()
    assert await drained is True
    assert in_flight.count == 0


async def test_draining_gives_up_after_its_timeout() -> None:
    in_flight = InFlight()
    with in_flight.track():
        assert await in_flight.drain(0.01) is False
        assert in_flight.count == 1


async def test_while_closing_clicks_and_commands_are_told_to_try_again_and_change_nothing(server) -> None:
    s = server
    lobby = await open_table(s, "q2j start", {"timer": 0}, "ana", start=False)
    before, messages = s.h.message(lobby.id).text, len(s.h.public_messages(s.channel))
    s.h.bot.in_flight.closing = True  # what closing sets before it waits for the clicks in flight

    joined = await s.h.click(lobby, label="Join", user=s.user("ben"))
    command = await s.h.slash("war start", {"timer": 0}, user=s.user("cat"), channel=s.channel)

    for reply in (joined, command):
        assert reply.ephemeral and str(RESTARTING) in reply.text, reply.text
    assert s.h.message(lobby.id).text == before
    assert len(s.h.public_messages(s.channel)) == messages, "no table was opened"
    seats = (await s.h.bot.service.table(1)).row.seats
    assert [seat.user_id for seat in seats] == [s.user("ana").id], "nobody joined"
