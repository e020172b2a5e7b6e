"""Seasons and badges through Discord: a season started, games played, the race on /leaderboard
and /stats, ended by command and by its time (through a restart), its post with the final
standings and champions; unlocks in a game's ending, secret ones told privately; bad input refused
politely and changing nothing."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from datetime import UTC, datetime, timedelta

from tests.discord_play import open_table, picture_text, play_to_the_end, start_bot, texts
from tests.fakediscord import HTTPError
from tests.test_discord_scores import rated_pair_games

DAY = 24 * 60 * 60


def day(offset_days: float) -> str:
    """``/season start``'s ``ends`` for a day ``offset_days`` from now (UTC)."""
    return (datetime.now(UTC) + timedelta(days=offset_days)).strftime("%Y-%m-%d")


async def start_season(s, name: str = "Spring", ends: str | None = None):
    options = {"name": name, **({"ends": ends} if ends else {})}
    return await s.h.slash("season start", options, user=s.admin, channel=s.channel)


async def the_post(s, words: str, timeout: float = 5.0):
    """The public message in #games whose text holds ``words``, once the bot posted it."""
    end = time.monotonic() + timeout
    while True:
        found = [m for m in s.h.public_messages(s.channel) if words in m.text]
        if found or time.monotonic() > end:
            assert found, f"no post saying {words!r}: {[m.text[:80] for m in s.h.public_messages(s.channel)]}"
            return found[-1]
        await asyncio.sleep(0.05)


async def test_a_season_from_start_to_its_end_by_command(server):
    s = server
    await s.h.slash("settings season-min-games", {"games": 2}, user=s.admin, channel=s.channel)
    started = await start_season(s, "Spring", day(30))
    assert not started.ephemeral and "Season “Spring” starts now!" in started.text
    ben, cat = await rated_pair_games(s, 3)
    board = await s.h.slash("leaderboard", {"game": "war"}, user=s.user("dan"), channel=s.channel)
    assert "season “Spring”" in board.message.embeds[0]["title"]
    assert {f"<@{ben.user_id}>", f"<@{cat.user_id}>"} <= set(board.message.embeds[0]["description"].split())
    assert "ranked after 2 rated games in the season" in board.message.embeds[0]["footer"]["text"]
    all_time = await s.h.slash("leaderboard", {"game": "war", "season": "*"}, user=s.user("dan"), channel=s.channel)
    assert all_time.message.embeds[0]["title"] == "Leaderboard — Q Squared Joe War"
    choices = await s.h.autocomplete("leaderboard", "season", "spr", user=s.user("dan"), channel=s.channel)
    assert [c["value"] for c in choices.choices] == ["*", "Spring"]

    stats = await s.h.slash("stats", {"user": s.user("ben")}, user=s.user("ben"), channel=s.channel)
    assert "Season “Spring”: **" in stats.text and "3 games" in stats.text
    (badges,) = stats.followups
    assert badges.ephemeral and "### 🏅 Badges · ben" in badges.text and badges.gallery_images()
    assert "🥉 1 game of Q Squared Joe War — 100% of players" in picture_text(badges)

    refused = await s.h.slash("season end", {}, user=s.user("ana"), channel=s.channel)
    assert refused.ephemeral and "Only members with Manage Server" in refused.text
    ended = await s.h.slash("season end", {}, user=s.admin, channel=s.channel)
    assert ended.ephemeral and f"posted in <#{s.channel.id}>" in ended.text
    post = await the_post(s, "is over")
    champion = next(line for line in texts(post)[0].split("\n") if line.startswith("🏆 Q Squared Joe War"))
    assert post.gallery_images() and champion.split("<@")[1].rstrip(">") in (str(ben.user_id), str(cat.user_id))
    assert "`/season show` keeps these standings." in post.text

    shown = await s.h.slash("season show", {"name": "spring"}, user=s.user("dan"), channel=s.channel)
    assert shown.ephemeral and "final standings" in shown.text and shown.message.gallery_images()
    after = await s.h.slash("leaderboard", {"game": "war"}, user=s.user("dan"), channel=s.channel)
    assert after.message.embeds[0]["title"] == "Leaderboard — Q Squared Joe War"  # none running: all time
    archived = await s.h.slash("leaderboard", {"game": "war", "season": "Spring"}, user=s.user("dan"),
                               channel=s.channel)
    assert "season “Spring”" in archived.message.embeds[0]["title"]
    again = await s.h.slash("season end", {}, user=s.admin, channel=s.channel)
    assert again.ephemeral and "No season is running here" in again.text


async def test_a_season_ends_at_its_time_through_a_restart(server):
    s = server
    await start_season(s, "Blitz", day(2))
    await rated_pair_games(s, 1)
    await s.h.stop()
    with_deadline_now(s, time.time() + 0.2)
    await start_bot(s.h, s.db_path)
    post = await the_post(s, "The season “Blitz” is over")
    assert "Nobody is ranked yet" in post.text  # one game: nobody has the 5 rated games to be ranked
    await s.h.stop()
    await start_bot(s.h, s.db_path)
    await asyncio.sleep(0.3)
    assert len([m for m in s.h.public_messages(s.channel) if "is over" in m.text]) == 1


def with_deadline_now(s, when: float) -> None:
    """Move the running season's end to ``when`` in the stored deadline (the bot is stopped)."""
    with sqlite3.connect(s.db_path) as db:
        db.execute("UPDATE seasons SET ends_at = ?, reminded = 1 WHERE ended_at IS NULL", (when,))


async def test_bad_season_input_is_refused_politely_and_changes_nothing(server):
    s = server
    for options, words in (({"ends": "next friday"}, "Write when the season ends as a day, 2025-06-30"),
                           ({"ends": "2020-01-01"}, "A season can't end in the past"),
                           ({"ends": "2025-02-30"}, "Write when the season ends")):
        refused = await s.h.slash("season start", {"name": "Spring", **options}, user=s.admin, channel=s.channel)
        assert refused.ephemeral and words in refused.text, refused.text
    member = await s.h.slash("season start", {"name": "Spring"}, user=s.user("ana"), channel=s.channel)
    assert member.ephemeral and "Only members with Manage Server" in member.text
    assert (await start_season(s, "Spring")).text.startswith("### 🏁 Season “Spring” starts now!")
    second = await start_season(s, "Summer")
    assert second.ephemeral and "The season “Spring” is running" in second.text
    missing = await s.h.slash("season show", {"name": "Winter"}, user=s.user("ana"), channel=s.channel)
    assert missing.ephemeral and "no season named “Winter”" in missing.text
    board = await s.h.slash("leaderboard", {"season": "Winter"}, user=s.user("ana"), channel=s.channel)
    assert board.ephemeral and "no season named" in board.text


async def test_a_game_s_ending_tells_what_it_unlocked_and_a_secret_is_told_privately(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ben", joiners=["cat"])
    await play_to_the_end(s, table)
    ending = s.h.message(table.id)
    assert "🏅 **ben** unlocked 1 game of Q Squared Joe War" in ending.text
    assert "🏅 **cat** unlocked 1 game of Q Squared Joe War" in ending.text
    with sqlite3.connect(s.db_path) as db:  # as if cat had won with one card left
        db.execute("INSERT INTO achievements (guild_id, user_id, achievement, tier, at, announce) VALUES"
                   " (?, ?, 'feat:war:last-stand', 1, 0, 'private')", (s.guild.id, s.user("cat").id))
    await s.h.stop()
    await start_bot(s.h, s.db_path)
    rules = await s.h.slash("rules", {"game": "war"}, user=s.user("cat"), channel=s.channel)
    (note,) = rules.followups
    assert note.ephemeral and note.visible_to == s.user("cat").id
    assert "🤫 Secret badge unlocked: **Last stand (Q Squared Joe War)** — Win with a single card left." in note.text
    later = await s.h.slash("rules", {"game": "war"}, user=s.user("cat"), channel=s.channel)
    assert later.followups == []  # told once
    stats = await s.h.slash("stats", {"public": True}, user=s.user("cat"), channel=s.channel)
    (badges,) = stats.followups
    assert "Last stand" not in picture_text(badges) and "1 secret badge is shown only to its holder." in badges.text
    own = await s.h.slash("stats", {}, user=s.user("cat"), channel=s.channel)
    assert "🤫 Last stand (Q Squared Joe War) — 50% of players" in picture_text(own.followups[0])  # 1 of 2


async def test_a_season_speaks_the_server_s_language(server):
    s = server
    await s.h.slash("settings language", {"language": "fr"}, user=s.admin, channel=s.channel)
    await s.h.slash("settings season-min-games", {"games": 1}, user=s.admin, channel=s.channel)
    started = await start_season(s, "Printemps")
    assert spaced(started.text).startswith("### 🏁 La saison « Printemps » commence maintenant !")
    await rated_pair_games(s, 1)
    board = await s.h.slash("leaderboard", {"game": "war"}, user=s.user("dan"), channel=s.channel)
    assert spaced(board.message.embeds[0]["title"]) == "Classement — Q Squared Joe War · saison « Printemps »"
    assert "classé après 1 partie classée dans la saison" in board.message.embeds[0]["footer"]["text"]
    await s.h.slash("season end", {}, user=s.admin, channel=s.channel)
    post = await the_post(s, "est terminée")
    assert spaced(post.text).startswith("### 🏁 La saison « Printemps » est terminée\n🏆 Q Squared Joe War : <@")
    assert "`/saison afficher` garde ce classement." in post.text


def spaced(text: str) -> str:
    """French text with its no-break spaces (before : ! ? and inside « ») as plain ones."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


async def test_seasons_that_follow_the_calendar_are_shown_reminded_and_survive_a_refused_end_post(server):
    s = server
    ana = s.user("ana")
    none = await s.h.slash("season show", {}, user=ana, channel=s.channel)
    assert none.ephemeral and "This server has had no season yet" in none.text
    rolled = await s.h.slash("settings season-rollover", {"period": "monthly"}, user=s.admin, channel=s.channel)
    month = datetime.now(UTC).strftime("%Y-%m")
    shown_name = month.replace("-", "\\-")  # as Markdown shows it: a plain hyphen
    assert rolled.ephemeral and f"The season “{shown_name}” starts now, here; it ends with its period." in rolled.text
    shown = await s.h.slash("season show", {}, user=ana, channel=s.channel)  # the running one
    assert shown.ephemeral and f"### 📅 Season “{shown_name}” · standings so far" in shown.text
    choices = await s.h.autocomplete("season show", "name", month[:4], user=ana, channel=s.channel)
    assert [c["value"] for c in choices.choices] == [month]

    with sqlite3.connect(s.db_path) as db:  # the season's end comes within a day
        db.execute("UPDATE seasons SET ends_at = ? WHERE ended_at IS NULL", (time.time() + DAY / 2,))
    await s.h.bot.service.seasons.restore()
    reminder = await the_post(s, "ends <t:")
    assert reminder.text.startswith(f"### ⏳ The season “{shown_name}” ends <t:")
    assert "A player is ranked after 5 rated games in the season." in reminder.text

    # Discord refuses the end's post for good (a moderator took Send Messages): the season ends all
    # the same, the next one starts, the final standings stay in /season show, and no post is tried again.
    s.h.refuse_next("POST", rf"/channels/{s.channel.id}/messages", HTTPError(403, 50013, "Missing Permissions"))
    ended = await s.h.slash("season end", {}, user=s.admin, channel=s.channel)
    assert ended.ephemeral and f"The season “{shown_name}” has ended" in ended.text
    await s.h.bot.service.wait_idle()
    assert not [m for m in s.h.public_messages(s.channel) if "is over" in m.text]
    assert len(s.h.requests_to("POST", rf"/channels/{s.channel.id}/messages")) == 2  # the reminder, the refused end
    final = await s.h.slash("season show", {"name": month}, user=ana, channel=s.channel)
    assert "final standings" in final.text
    following = await s.h.slash("season show", {}, user=ana, channel=s.channel)
    assert f"### 📅 Season “{shown_name} (2)” · standings so far" in following.text  # the month has one already
