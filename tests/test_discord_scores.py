"""Leaderboards, stats, history, settings and forgetting, through Discord."""

from __future__ import annotations

import re


from bot.service import Player
from discord_play import forge_click, open_table, play_to_the_end
from test_results import play_out




async def many_results(s, players: int) -> None:
    """Finished two-player games between ``players`` people (ids 500…), straight through the service."""
    service = s.h.bot.service
    people = [Player(500 + i, f"Player {i}") for i in range(players)]
    for n in range(0, players, 2):
        pair = people[n:n + 2]
        snap = await service.open_lobby(guild_id=s.guild.id, channel_id=s.channel.id, game_id="q2j",
                                        options={}, host=pair[0], timer_minutes=0)
        await service.join(snap.row.id, pair[1])
        await service.start(snap.row.id, pair[0])
        await play_out(service, snap.row.id, pair)


def board_ids(message) -> list[int]:
    return [int(i) for i in re.findall(r"<@(\d+)>", message.embeds[0]["description"])]


async def test_leaderboard_pages_in_order(server):
    s = server
    await many_results(s, 24)
    reply = await s.h.slash("leaderboard", {"game": "q2j", "sort": "wins"}, user=s.user("ana"), channel=s.channel)
    assert not reply.ephemeral
    first = board_ids(reply.message)
    assert len(first) == 10 and reply.message.component(label="◀")["disabled"]
    await s.h.click(reply.message, label="▶", user=s.user("ben"))
    second = board_ids(s.h.message(reply.message.id))
    await s.h.click(reply.message, label="▶", user=s.user("ben"))
    third = board_ids(s.h.message(reply.message.id))
    assert len(second) == 10 and len(third) == 4 and s.h.message(reply.message.id).component(label="▶")["disabled"]
    board = await s.h.bot.service.results.leaderboard(s.guild.id, "q2j", "wins")
    assert first + second + third == [e.user_id for e in board]
    assert [e.wins for e in board][:12] == [1] * 12 and "Page 3/3" in s.h.message(reply.message.id).embeds[0]["footer"]["text"]
    back = await s.h.click(reply.message, label="◀", user=s.user("ben"))
    assert board_ids(back.message) == second


async def test_stats_history_and_move_log(server):
    s = server
    empty = await s.h.slash("stats", {}, user=s.user("cat"), channel=s.channel)
    assert empty.ephemeral and "No finished games yet" in empty.text
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    await play_to_the_end(s, table)
    stats = await s.h.slash("stats", {"user": s.user("ana"), "public": True}, user=s.user("cat"), channel=s.channel)
    assert not stats.ephemeral and "Games" in stats.text and "Rating" in stats.text
    history = await s.h.slash("history", {}, user=s.user("cat"), channel=s.channel)
    assert history.ephemeral and "#1 Q Squared Joe" in history.text
    log = await s.h.select(history.message, ["1"], custom_id="dh:logsel", user=s.user("cat"))
    assert log.ephemeral and "every move" in log.text and "Dealt" in log.text


async def test_settings_need_manage_server_and_reset_is_confirmed(server):
    s = server
    group = next(c for c in s.h.commands() if c["name"] == "settings")
    assert int(group["default_member_permissions"]) == 1 << 5  # Manage Server
    shown = await s.h.slash("settings timer", {"minutes": 3}, user=s.admin, channel=s.channel)
    assert "3 min" in shown.text
    await many_results(s, 2)
    ask = await s.h.slash("settings reset-leaderboard", {}, user=s.admin, channel=s.channel)
    assert ask.ephemeral and "can't be undone" in ask.text
    refused = await forge_click(s, ask.message, f"dh:reset:{s.guild.id}:yes", s.user("ana"))
    assert refused.ephemeral and "Manage Server" in refused.text
    assert await s.h.bot.service.results.leaderboard(s.guild.id, None)
    done = await s.h.click(ask.message, label="Reset the leaderboards", user=s.admin)
    assert "afresh" in done.text and not done.message.buttons
    assert await s.h.bot.service.results.leaderboard(s.guild.id, None) == []


async def test_privacy_forget_with_confirmation(server):
    s = server
    ana = s.user("ana")
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    ask = await s.h.slash("privacy forget", {}, user=ana, channel=s.channel)
    seated = await s.h.click(ask.message, label="Yes, forget me", user=ana)
    assert seated.ephemeral and "open table" in seated.text
    await play_to_the_end(s, table)
    keep = await s.h.click(ask.message, label="Keep my data", user=ana)
    assert "Nothing was changed" in keep.text
    ask = await s.h.slash("privacy forget", {}, user=ana, channel=s.channel)
    done = await s.h.click(ask.message, label="Yes, forget me", user=ana)
    assert "Former player" in done.text
    stats = await s.h.slash("stats", {}, user=ana, channel=s.channel)
    assert "No finished games yet" in stats.text
    board = await s.h.slash("leaderboard", {}, user=s.user("ben"), channel=s.channel)
    assert str(ana.id) not in board.text
