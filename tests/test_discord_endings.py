"""How games end through Discord: the turn ping goes, whoever made the last move."""

from __future__ import annotations

from cogs.endings import duration_text
from tests.discord_play import open_table, play_to_the_end, play_turn, status_line, texts


def live_pings(s, table):
    return [m for m in s.h.public_messages(s.channel) if m.id != table.id and not m.deleted]


async def test_no_turn_ping_stays_when_an_ai_makes_the_last_move(server):
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", ai=1)
    assert live_pings(s, table)  # ana was pinged at some point of the game
    await play_to_the_end(s, table)
    log = await s.h.bot.service.storage.move_log(1)
    assert log[-1][2], "this deal must end on the AI's move"
    assert status_line(s.h.message(table.id)).startswith("🏁")
    assert live_pings(s, table) == []


async def test_no_turn_ping_stays_when_the_table_is_ended(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    assert live_pings(s, table)
    await s.h.slash("table end", {}, user=s.user("ana"), channel=s.channel)
    assert status_line(s.h.message(table.id)).startswith("🛑")
    assert live_pings(s, table) == []


async def test_the_table_is_a_dashboard_and_the_log_button_shows_every_event_privately(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    short = await s.h.click(s.h.message(table.id), label="📜 Log", user=s.user("ana"))
    assert short.ephemeral and "Page 1/1" in short.text and not short.message.buttons  # no idle ◀ ▶
    for _ in range(12):
        await play_turn(s, table, prefer=("play", "draw"))
    message = s.h.message(table.id)
    assert status_line(message).startswith("▶ ")  # whose turn, at the top
    head, latest, small = texts(message)  # the picture between the header and the latest events
    assert len(latest.split("\n")) == 2 and "higher is stronger" not in latest
    assert small.startswith("-# ") and sum(map(len, texts(message))) <= 600
    assert [b["label"] for b in message.buttons] == ["🂠 My hand", "📜 Log", "👁 Watch"]

    log = await s.h.click(message, label="📜 Log", user=s.user("cat"))  # anyone may read it, privately
    assert log.ephemeral and "every move" in log.text
    every = await s.h.bot.service.results.move_log(1, s.guild.id)
    pages = [log.message.embeds[0]["description"]]
    while log.message.buttons and not s.h.message(log.message.id).button("▶").get("disabled"):
        log = await s.h.click(log.message, label="▶", user=s.user("cat"))
        pages.append(s.h.message(log.message.id).embeds[0]["description"])
    assert "\n".join(pages).split("\n") == every and len(every) > 12
    assert any("higher is stronger" in line for line in every)  # the explanations live in the Log


async def test_the_war_standings_say_what_each_place_has_left(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    await play_to_the_end(s, table, limit=2000, prefer=("attack", "play", "draw"))
    final = s.h.message(table.id)
    row = await s.h.bot.service.storage.get_table(1)
    standings = next(text for text in texts(final) if text.startswith("🏆")).split("\n")
    winner = row.seats[row.outcome["winners"][0]].name
    loser = row.seats[1 - row.outcome["winners"][0]].name
    left = row.outcome["scores"][row.outcome["winners"][0]]
    assert standings[0] == f"🏆 **{winner}** wins"
    assert standings[1] == f"1. **{winner}** — {left} card{'' if left == 1 else 's'} left"
    assert standings[2] == f"2. **{loser}** — 0 cards left"
    assert standings[3].startswith("-# Played in ")


def test_a_games_length_is_said_to_the_minute_in_the_readers_units():
    said = {seconds: (duration_text(seconds, "en"), duration_text(seconds, "fr")) for seconds in (20, 90, 3600, 3900)}
    assert said == {20: ("under a minute", "moins d’une minute"), 90: ("2 min", "2\xa0min"),
                    3600: ("1 hr", "1\u202fh"), 3900: ("1 hr 5 min", "1\u202fh 5\xa0min")}
