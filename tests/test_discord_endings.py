"""How games end through Discord: the turn ping goes, whoever made the last move."""

from __future__ import annotations

from discord_play import open_table, play_to_the_end


def live_pings(s, table):
    return [m for m in s.h.public_messages(s.channel) if m.id != table.id and not m.deleted]


async def test_no_turn_ping_stays_when_an_ai_makes_the_last_move(server):
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", ai=1)
    assert live_pings(s, table)  # ana was pinged at some point of the game
    await play_to_the_end(s, table)
    log = await s.h.bot.service.storage.move_log(1)
    assert log[-1][2], "this deal must end on the AI's move"
    assert s.h.message(table.id).content.startswith("🏁")
    assert live_pings(s, table) == []


async def test_no_turn_ping_stays_when_the_table_is_ended(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    assert live_pings(s, table)
    await s.h.slash("table end", {}, user=s.user("ana"), channel=s.channel)
    assert s.h.message(table.id).content.startswith("🛑")
    assert live_pings(s, table) == []
