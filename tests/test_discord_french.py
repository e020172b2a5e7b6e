"""Deckhand in French through Discord (issue 32): in a server whose Discord locale is French,
French players play a whole game of every game, and nothing anyone reads — lobby, table
message, buttons and menus, hands, pings, the ending, Play again's invitation, the pictures'
descriptions, the Log and /history — holds an English sentence (nor an AI player's English name).
A French player in an English server reads their own hand in French while the table stays in English.

A line holds English when it has a word of the catalogs' English (the French catalogs'
sources) that its French never writes (:func:`english_left`), beyond the words French shares
(:data:`tests.test_french.SAME_IN_FRENCH`) and the players' names; the lines the service writes
itself among a table's events ("The game begins: …", a timeout) are stored as data and read in
French too."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

import games
from games.i18n.__main__ import merged
from tests.discord_play import Server, ended, move_choices, play, start_bot, texts, to_act
from tests.fakediscord import DiscordHarness, FakeMessage, FakeUser
from tests.test_french import FRENCH, SAME_IN_FRENCH

NAMES = ("léa", "noé", "zoé")
WORD = re.compile(r"[^\W\d_]+")
MARKUP = re.compile(r"https?://\S+|<[@#:t][^>]*>")
"""Links, and Discord's mentions and timestamps: no words."""


@cache
def english_only() -> frozenset[str]:
    """Words (lower case) the catalog's English sources use and its French never does."""
    english: set[str] = set()
    french: set[str] = set()
    for message in merged(FRENCH):
        if not message.id or message.context:
            continue
        sources = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        english.update(word.lower() for source in sources for word in WORD.findall(re.sub(r"\{\w+\}", "", source)))
        french.update(word.lower() for string in strings for word in WORD.findall(str(string)))
    return frozenset(english - french)


LEFT_IN_ENGLISH = {
    "an AI player's English name": re.compile(r"\bAI \d"),
    "a QUASH spot's English size": re.compile(r"\bsingle\b"),
    "the leaderboard's word on a move (Victoires: victories)": re.compile(r"^Victoires · "),
}
"""English the word list can't see (French writes "ai", "single" and "Victoires" elsewhere), by
what it is."""


def english_left(line: str, names: list[str]) -> set[str]:
    """The words of ``line`` that are English and not French (names, links and Discord's
    mentions and timestamps left out)."""
    line = MARKUP.sub(" ", line)
    for name in sorted(names, key=len, reverse=True):
        line = line.replace(name, " ")
    return {word for word in WORD.findall(line) if word.lower() in english_only() and word not in SAME_IN_FRENCH}


def readable(message: FakeMessage) -> list[str]:
    """Everything a person reads of ``message``, line by line: its text, buttons, menus and the
    picture's description."""
    lines = [message.content or ""]
    for embed in message.embeds:
        lines += [embed.get("title") or "", *(embed.get("description") or "").split("\n"),
                  (embed.get("footer") or {}).get("text") or ""]
    for comp in message.walk():
        if comp.get("type") == 10:
            lines += (comp.get("content") or "").split("\n")
        lines += [comp.get(key) or "" for key in ("label", "placeholder")]
        lines += [item.get("description") or "" for item in comp.get("items", [])]
        lines += [f"{o['label']} {o.get('description') or ''}" for o in comp.get("options", [])]
    return [line for line in lines if line]


class Reader:
    """Reads every message of a server as it changes, keeping the lines left in English."""

    def __init__(self, s: Server, names: tuple[str, ...] = NAMES) -> None:
        self.s = s
        self.names = names
        self.read: dict[int, list[str]] = {}
        self.english: dict[str, set[str]] = {}

    def check(self) -> None:
        names = [*self.names, "mod", self.s.guild.name, self.s.channel.name]
        for message in self.s.h.messages():
            lines = readable(message)
            if self.read.get(message.id) == lines:
                continue
            self.read[message.id] = lines
            for line in lines:
                left = english_left(line, names) | {what for what, found in LEFT_IN_ENGLISH.items()
                                                    if found.search(line)}
                if left:
                    self.english.setdefault(line, set()).update(left)


def server(h: DiscordHarness, tmp_path: Path, guild_locale: str, client_locale: str) -> Server:
    guild = h.add_guild("Club de cartes")
    guild.locale = guild_locale
    channel = guild.add_channel("jeux")
    users = {name: h.add_user(name, locale=client_locale) for name in NAMES}
    for user in users.values():
        guild.add_member(user)
    admin = h.add_user("mod", locale=client_locale)
    guild.add_member(admin, manage_guild=True)
    return Server(h, guild, channel, users, admin, tmp_path / "deckhand.sqlite3")


def table_id(lobby: FakeMessage) -> int:
    join = next(c["custom_id"] for c in lobby.walk() if c.get("custom_id", "").startswith("dh:lobby:"))
    return int(join.split(":")[2])


async def open_game(s: Server, game: games.Game, host: FakeUser, reader: Reader) -> tuple[FakeMessage, int]:
    """``/<game> start`` with the game's quick options, its fewest seats filled with AI players,
    started: clicked by custom_id, the labels being in the server's language."""
    reply = await s.h.slash(f"{game.command} start", dict(game.quick_options), user=host, channel=s.channel)
    assert reply.ephemeral, reply.text
    lobby = s.h.latest_public(s.channel)
    number = table_id(lobby)
    for _ in range(game.allowed_player_counts()[0] - 1):
        menu = await s.h.click(lobby, custom_id=f"dh:lobby:{number}:ai", user=host)
        reader.check()
        await s.h.select(menu.message, ["normal"], user=host, custom_id_prefix="dh:ailevel:")
    reader.check()
    await s.h.click(lobby, custom_id=f"dh:lobby:{number}:start", user=host)
    return s.h.message(lobby.id), number


async def play_through(s: Server, table: FakeMessage, number: int, reader: Reader, limit: int = 2000) -> None:
    """Whoever is to act opens their hand (by its custom_id) and moves, until the game ends."""
    for _ in range(limit):
        reader.check()
        if ended(s.h.message(table.id)):
            return
        mover = to_act(s, table)[0]
        hand = await s.h.click(table, custom_id=f"dh:hand:{number}", user=mover)
        assert hand.ephemeral and move_choices(hand.message), hand.text
        await play(s, mover, hand.message)
    raise AssertionError(f"no result after {limit} moves")


@pytest.mark.parametrize("game_id", games.GAME_IDS)
async def test_a_french_server_plays_every_game_in_french(tmp_path, game_id):
    async with DiscordHarness() as h:
        s = server(h, tmp_path, guild_locale="fr", client_locale="fr")
        await start_bot(h, s.db_path)
        reader = Reader(s)
        host = s.user("léa")
        table, number = await open_game(s, games.get_game(game_id), host, reader)
        await play_through(s, table, number, reader)
        final = s.h.message(table.id)
        assert texts(final)[0].split("\n")[1].startswith("🏁"), final.text
        assert "Partie jouée en" in final.text
        again = await s.h.click(final, custom_id=f"dh:again:{number}", user=host)
        assert again.ephemeral and "est ouverte" in again.text
        reader.check()
        invitation = s.h.latest_public(s.channel)
        assert "**Joueurs (" in invitation.text and table_id(invitation) != number
        await s.h.click(final, custom_id=f"dh:log:{number}:0", user=host)  # the game's every move
        history = await s.h.slash("history", {}, user=host, channel=s.channel)
        assert "🤖 IA 1" in history.text, history.text
        reader.check()
    assert not reader.english, "\n".join(f"{sorted(words)}: {line!r}" for line, words in reader.english.items())


async def test_a_french_player_in_an_english_server_reads_their_hand_in_french(tmp_path):
    async with DiscordHarness() as h:
        s = server(h, tmp_path, guild_locale="en-US", client_locale="en-US")
        french = s.user("noé")
        french.locale = "fr"
        await start_bot(h, s.db_path)
        host = s.user("léa")
        reply = await s.h.slash("q2j start", {}, user=host, channel=s.channel)
        assert "table is open" in reply.text
        lobby = s.h.latest_public(s.channel)
        number = table_id(lobby)
        joined = await s.h.click(lobby, custom_id=f"dh:lobby:{number}:join", user=french)
        assert not joined.ephemeral
        await s.h.click(lobby, custom_id=f"dh:lobby:{number}:start", user=host)
        table = s.h.message(lobby.id)
        names = [*NAMES, s.guild.name]

        french_hand = readable((await s.h.click(table, custom_id=f"dh:hand:{number}", user=french)).message)
        assert any(line.startswith("### Votre main") for line in french_hand), french_hand
        assert not [line for line in french_hand if english_left(line, names)], french_hand

        english_hand = readable((await s.h.click(table, custom_id=f"dh:hand:{number}", user=host)).message)
        assert any(line.startswith("### Your hand") for line in english_hand), english_hand
        public = readable(s.h.message(table.id))
        assert "🂠 My hand" in public and any(english_left(line, names) for line in public), public
