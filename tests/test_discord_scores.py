"""Leaderboards, stats, history, settings and forgetting, through Discord."""

from __future__ import annotations

import io
import re

from PIL import Image

from bot.service import Player
from tests.discord_play import forge_click, open_table, picture_text, play_to_the_end, texts
from tests.test_results import play_out


async def many_results(s, players: int) -> None:
    """Finished two-player games between ``players`` people (ids 500…), straight through the service."""
    service = s.h.bot.service
    people = [Player(500 + i, f"Player {i}", s.guild.id) for i in range(players)]
    for n in range(0, players, 2):
        pair = people[n:n + 2]
        snap = await service.lobbies.open(guild_id=s.guild.id, channel_id=s.channel.id, game_id="q2j",
                                        options={}, host=pair[0], timer_minutes=0)
        await service.lobbies.join(snap.row.id, pair[1])
        await service.lobbies.start(snap.row.id, pair[0])
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


async def rated_pair_games(s, count: int, names=("ben", "cat")) -> tuple[Player, Player]:
    """``count`` finished War games between two people, straight through the service."""
    service = s.h.bot.service
    pair = [Player(s.user(name).id, name, s.guild.id) for name in names]
    for _ in range(count):
        snap = await service.lobbies.open(guild_id=s.guild.id, channel_id=s.channel.id, game_id="war",
                                        options={}, host=pair[0], timer_minutes=0)
        await service.lobbies.join(snap.row.id, pair[1])
        await service.lobbies.start(snap.row.id, pair[0])
        await play_out(service, snap.row.id, pair)
    return pair[0], pair[1]


def board_line(message, user_id: int) -> str:
    return next(line for line in message.embeds[0]["description"].split("\n") if f"<@{user_id}>" in line)


async def test_leaderboard_shows_a_friendly_rating_provisional_and_which_games_count(server):
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", ai=1)
    await play_to_the_end(s, table)  # with an AI seat: recorded, not rated
    ivy, jo = await rated_pair_games(s, 1)
    board = await s.h.slash("leaderboard", {}, user=s.user("dan"), channel=s.channel)
    description = board.message.embeds[0]["description"]
    assert "_Only games where every seat was a person are rated: games with an AI seat, or a seat an AI took " \
           "over, are recorded but not rated._" in description
    assert "provisional until 5 rated games" in board.message.embeds[0]["footer"]["text"]
    for person in (ivy, jo):
        figure = re.search(r"— \*\*(\d+)\*\* \(provisional, 1 rated game\) · [01] wins? in 1 game",
                           board_line(board.message, person.user_id))
        assert figure and 900 <= int(figure[1]) <= 1200
    assert re.search(r"— not rated yet · [01] wins? in 1 game", board_line(board.message, s.user("ana").id))
    assert not re.search(r"-?\d+\.\d", description)  # no raw ratings like −1.8

    await rated_pair_games(s, 4)
    board = await s.h.slash("leaderboard", {"game": "war"}, user=s.user("dan"), channel=s.channel)
    assert board.message.embeds[0]["title"] == "Leaderboard — Q Squared Joe War"
    assert re.search(r"— \*\*\d+\*\* \(5 rated games\) · \d wins? in 5 games", board_line(board.message, ivy.user_id))
    assert "provisional" not in board.message.embeds[0]["description"]

    stats = await s.h.slash("stats", {"user": s.user("ana")}, user=s.user("ana"), channel=s.channel)
    head, rated = texts(stats.message)  # the chart in between
    assert head.split("\n")[1:] == ["Not rated yet", "1 game · 0 wins (0%)", "Most played: Q Squared Joe"]
    assert rated.startswith("-# Only games where every seat was a person are rated")
    assert picture_text(stats.message) == "Q Squared Joe: Not rated yet · 0 of 1 won (0%)"


async def test_stats_show_a_chart_of_the_rating_and_games_won_and_link_to_the_games(server):
    s = server
    await rated_pair_games(s, 3)  # ben and cat
    stats = await s.h.slash("stats", {"game": "war"}, user=s.user("ben"), channel=s.channel)
    head = texts(stats.message)[0].split("\n")
    assert head[0] == "### ben · Q Squared Joe War"
    assert re.fullmatch(r"Rating \*\*\d{3,4}\*\* \(provisional, 3 rated games\)", head[1]), head[1]
    assert re.fullmatch(r"3 games · \d wins? \(\d+%\)", head[2]) and len(head) == 3
    (url,) = stats.message.gallery_images()  # the chart, drawn like the table pictures
    chart = stats.message.file(url.removeprefix("attachment://"))
    assert Image.open(io.BytesIO(chart)).size[0] == 560
    snap = await s.h.bot.service.results.stats(s.guild.id, s.user("ben").id, "war")
    assert len(snap.history) == 3 and [(t.game_id, t.games) for t in snap.per_game] == [("war", 3)]
    assert "Q Squared Joe War: Rating" in picture_text(stats.message)  # the chart in words

    # Recent games are /history's: the button opens that list, privately, for this player and game.
    listed = await s.h.click(stats.message, label="📜 Recent games", user=s.user("ben"))
    assert listed.ephemeral and listed.message.id != stats.message.id
    assert listed.message.embeds[0]["title"] == "Recent games — Q Squared Joe War"
    assert listed.text.count("#") >= 3 and "ben" in listed.text

    await s.h.slash("settings pictures", {"enabled": False}, user=s.admin, channel=s.channel)
    plain = await s.h.slash("stats", {"game": "war"}, user=s.user("ben"), channel=s.channel)
    assert not plain.message.gallery_images() and "**Q Squared Joe War**: Rating **" in texts(plain.message)[1]


async def test_history_pages_a_games_moves_and_goes_back_to_the_list(server):
    s = server
    empty = await s.h.slash("stats", {}, user=s.user("cat"), channel=s.channel)
    assert empty.ephemeral and "No finished games yet" in empty.text
    await rated_pair_games(s, 1, names=("ana", "ben"))
    history = await s.h.slash("history", {"game": "war"}, user=s.user("cat"), channel=s.channel)
    assert history.ephemeral and "#1 Q Squared Joe War" in history.text
    assert history.message.embeds[0]["title"] == "Recent games — Q Squared Joe War"
    listing = history.message.embeds[0]["description"]
    log = await s.h.select(history.message, ["1"], custom_id_prefix="dh:logsel", user=s.user("cat"))
    assert log.message.id == history.message.id  # the list makes way for the moves
    shown = s.h.message(history.message.id)
    assert shown.embeds[0]["title"] == "#1 Q Squared Joe War — every move"
    assert [b["label"] for b in shown.buttons] == ["◀", "▶", "↩ Back"] and shown.button("◀")["disabled"]
    every = await s.h.bot.service.results.move_log(1, s.guild.id)
    pages = [shown.embeds[0]["description"]]
    while not s.h.message(history.message.id).button("▶").get("disabled"):
        await s.h.click(history.message, label="▶", user=s.user("cat"))
        pages.append(s.h.message(history.message.id).embeds[0]["description"])
        assert len(pages[-1]) <= 1500
    assert "\n".join(pages).split("\n") == every and len(pages) >= 2
    assert f"Page {len(pages)}/{len(pages)}" in s.h.message(history.message.id).embeds[0]["footer"]["text"]
    back = await s.h.click(history.message, label="↩ Back", user=s.user("cat"))
    assert back.message.id == history.message.id
    again = s.h.message(history.message.id)
    assert again.embeds[0]["description"] == listing and not again.buttons
    assert again.component(custom_id_prefix="dh:logsel")


async def test_a_short_log_has_no_idle_arrows_but_keeps_back(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    await s.h.slash("table end", {}, user=s.user("ana"), channel=s.channel)
    history = await s.h.slash("history", {}, user=s.user("ana"), channel=s.channel)
    assert "ended early" in history.text and table
    await s.h.select(history.message, ["1"], custom_id_prefix="dh:logsel", user=s.user("ana"))
    shown = s.h.message(history.message.id)
    assert [b["label"] for b in shown.buttons] == ["↩ Back"] and "Page 1/1" in shown.text


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


async def test_forged_history_controls_are_refused_politely(server):
    s = server
    await rated_pair_games(s, 1, names=("ana", "ben"))
    history = await s.h.slash("history", {"user": s.user("ana")}, user=s.user("ana"), channel=s.channel)
    assert history.message.component(custom_id_prefix="dh:logsel:")["custom_id"] == f"dh:logsel:{s.guild.id}:{s.user('ana').id}:0:all"
    for custom_id in ("dh:hist:0:0:chess", "dh:hist:99999999999999999999999:0:all", "dh:log:1:0:0:0:chess"):
        refused = await forge_click(s, history.message, custom_id, s.user("ana"))
        assert refused.ephemeral and "isn't" in refused.text, custom_id
    assert s.h.message(history.message.id).embeds[0]["title"] == "Recent games — All games"  # unchanged
