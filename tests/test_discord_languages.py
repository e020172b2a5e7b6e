"""What Deckhand says to one person is in that person's language (their Discord client's
locale), whatever the server's or the game's: every kind of refusal, /table's replies, /stats,
/history and a game's Log; what a command posts for everyone (/leaderboard, a public /stats)
is in the server's. A game is stored as data, so its history reads in any language, whichever
it was played in. English readers read what they always did."""

from __future__ import annotations

import json
import sqlite3

from bot.errors import NOTHING_SAVED, NotHere
from bot.in_flight import RESTARTING
from cogs.common import APOLOGY, IN_DIRECT_MESSAGES, OUTDATED_COMMAND
from cogs.router import UNKNOWN_CONTROL
from games.i18n import say
from tests.discord_play import forge_click, open_table, pictures_off, play_to_the_end, to_act
from tests.test_control import direct_messages
from tests.test_discord_scores import rated_pair_games
from tests.test_hostile import raw_slash
from tests.words import english_left

FRENCH = "fr"


def in_french(text: str, *expected) -> None:
    """``text`` holds each of ``expected`` (Texts) in French, and no English."""
    for words in expected:
        assert words.render(FRENCH) in text, (words.render(FRENCH), text)
    assert not english_left(text), (english_left(text), text)


def french_speaking(s, *names):
    for name in names:
        s.user(name).locale = FRENCH
    return [s.user(name) for name in names]


async def test_every_kind_of_refusal_reaches_a_french_client_in_french(server):
    s = server
    ana, ben = french_speaking(s, "ana", "ben")
    no_table = await s.h.slash("table status", {}, user=ana, channel=s.channel)
    in_french(no_table.text, say("There's no open table in this channel. Start one with a game's `start` command."))

    lobby = await open_table(s, "q2j start", {"timer": 0}, "ana", start=False)
    menu = await s.h.click(lobby, label="Add AI", user=ana)
    in_french(menu.text, say("Which level for the new AI player?"))
    assert menu.message.component(type=3)["placeholder"] == say("AI level").render(FRENCH)
    added = await s.h.select(menu.message, ["easy"], user=ana, custom_id_prefix="dh:ailevel:")
    in_french(added.text)
    await s.h.click(lobby, label="Remove AI", user=ana)
    joined = await s.h.click(lobby, label="Join", user=ben)
    watched = await forge_click(s, lobby, "dh:watch:1", ben)
    in_french(watched.text, say("This table's game hasn't started: there is nothing to watch yet."))
    not_host = await forge_click(s, lobby, "dh:lobby:1:start", ben)
    in_french(not_host.text, say("Only the host can start the game."))
    assert joined.ephemeral is not None
    await s.h.click(lobby, label="Start", user=ana)

    table = s.h.message(lobby.id)
    mover = to_act(s, table)[0]
    waiting = ben if mover == ana else ana
    version = (await s.h.bot.service.table(1)).row.version
    not_yours = await forge_click(s, table, f"dh:mv:1:{version}:draw", waiting)
    assert not english_left(not_yours.text.split("\n")[0]), not_yours.text
    hint = await forge_click(s, table, "dh:hint:1", waiting)
    in_french(hint.text, say("It isn't your turn: a hint is for your own move."))
    stale = await forge_click(s, table, f"dh:mv:1:{version - 1}:draw", mover)
    assert say("Those controls are from an earlier turn; here is your hand as it is now.").render(FRENCH) in stale.text
    forged = await forge_click(s, table, f"dh:mv:1:{version}:fly:XX", mover)
    in_french(forged.text)
    held = json.dumps((await s.h.bot.service.play.hand(1, s.player(mover))).view)
    card = next(code for code in ("KS", "QH", "9D", "4C", "AS") if f'"{code}"' not in held)
    illegal = await forge_click(s, table, f"dh:mv:1:{version}:play:{card}", mover)
    in_french(illegal.text)
    elsewhere = await forge_click(s, table, "dh:hand:1", french_speaking(s, "cat")[0])
    in_french(elsewhere.text, say("You're not playing at this table."))
    other_channel = await forge_click(s, s.h._new_message(s.guild.add_channel("lounge"), kind="channel",
                                                          body={"content": "x"}), "dh:hand:1", ana)
    in_french(other_channel.text, NotHere().text)
    unknown = await forge_click(s, table, "dh:nothing:1", ana)
    in_french(unknown.text, UNKNOWN_CONTROL)
    malformed = await raw_slash(s, "war start", {"timer": 10**6}, ana)
    in_french(malformed.text)
    assert malformed.text.startswith("`minuteur`"), malformed.text  # the option as a French client names it
    outdated = await s.h._dispatch_interaction(2, {"id": str(s.h.new_id()), "name": "ghost", "type": 1},
                                               user=ana, channel=s.channel, label="ghost")
    in_french(outdated.text, OUTDATED_COMMAND)

    await s.h.bot.service.storage.run_read(lambda db: db.connection.execute("PRAGMA query_only = ON"))
    with s.h.expect_logged_error(r"attempt to write a readonly database"):
        unsaved = await s.h.slash("table end", {}, user=ana, channel=s.channel)
    await s.h.bot.service.storage.run_read(lambda db: db.connection.execute("PRAGMA query_only = OFF"))
    in_french(unsaved.text, NOTHING_SAVED)

    ended = await s.h.slash("table end", {}, user=ana, channel=s.channel)
    in_french(ended.text, say("The table is closed."))
    after = await forge_click(s, table, "dh:hand:1", ana)
    in_french(after.text, say("This game has ended."))

    def broken(*_):
        raise RuntimeError("a bug")

    s.h.bot.service.storage.open_table_in = broken
    with s.h.expect_logged_error("interaction failed"):
        sorry = await s.h.slash("table status", {}, user=ana, channel=s.channel)
    in_french(sorry.text, APOLOGY)
    s.h.bot.in_flight.closing = True
    closing = await s.h.slash("stats", {}, user=ana, channel=s.channel)
    in_french(closing.text, RESTARTING)


async def test_a_direct_message_is_refused_in_the_readers_language(server):
    s = server
    [ana] = french_speaking(s, "ana")
    refused = await s.h.slash("q2j start", {}, user=ana, channel=direct_messages(s, ana))
    in_french(refused.text, IN_DIRECT_MESSAGES)


async def test_a_game_played_in_english_reads_in_french_for_a_french_reader(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    await play_to_the_end(s, table)
    await pictures_off(s)
    [cat] = french_speaking(s, "cat")

    history = await s.h.slash("history", {}, user=cat, channel=s.channel)
    assert history.ephemeral
    in_french(history.text, say("Recent games — {game}", game=say("All games")))
    log = await s.h.select(history.message, ["1"], custom_id_prefix="dh:logsel", user=cat)
    shown = s.h.message(log.message.id)
    french_log = await s.h.bot.service.results.move_log(1, s.guild.id, FRENCH)
    assert shown.embeds[0]["description"].split("\n") == french_log[:len(shown.embeds[0]["description"].split("\n"))]
    in_french(shown.text)
    assert [b["label"] for b in shown.buttons][-1] == "↩ Retour"

    [ana] = french_speaking(s, "ana")
    stats = await s.h.slash("stats", {}, user=ana, channel=s.channel)
    assert stats.ephemeral
    in_french(stats.text)
    status = await s.h.slash("table status", {}, user=ana, channel=s.channel)
    assert status.ephemeral  # no table: refused, in French (see above)

    english = await s.h.slash("history", {}, user=s.user("dan"), channel=s.channel)
    assert "Recent games — All games" in english.text and english_left(english.text)


async def test_a_game_played_in_french_reads_in_english_and_public_answers_speak_the_servers_language(server):
    s = server
    await s.h.bot.service.storage.set_guild_settings(s.guild.id, language=FRENCH)
    ben, cat = french_speaking(s, "ben", "cat")
    await rated_pair_games(s, 2)

    board = await s.h.slash("leaderboard", {}, user=s.user("dan"), channel=s.channel)
    assert not board.ephemeral
    in_french(board.text, say("Leaderboard — {game}", game=say("All games")))
    public = await s.h.slash("stats", {"public": True}, user=s.user("dan"), channel=s.channel)
    assert not public.ephemeral
    in_french(public.text)
    private = await s.h.slash("stats", {}, user=ben, channel=s.channel)
    in_french(private.text)

    dan = s.user("dan")  # an English client on a French server
    history = await s.h.slash("history", {}, user=dan, channel=s.channel)
    assert "Recent games — All games" in history.text and "#1 Q Squared Joe War" in history.text
    log = await s.h.select(history.message, ["1"], custom_id_prefix="dh:logsel", user=dan)
    english_log = await s.h.bot.service.results.move_log(1, s.guild.id)
    shown = s.h.message(log.message.id)
    assert shown.embeds[0]["title"] == "#1 Q Squared Joe War — every move"
    assert shown.embeds[0]["description"].split("\n") == english_log[:len(shown.embeds[0]["description"].split("\n"))]


async def test_an_old_plain_summary_still_reads(server):
    s = server
    await rated_pair_games(s, 1)
    await s.h.bot.service.storage.run_write(lambda db: db.execute(
        "UPDATE results SET summary = 'ben won the war.' WHERE table_id = 1"))
    [line] = await s.h.bot.service.results.history(s.guild.id)
    assert line.summary.render(FRENCH, line.names()) == "ben won the war."
    stored = sqlite3.connect(s.db_path).execute("SELECT summary FROM results").fetchone()[0]
    assert stored == "ben won the war."
