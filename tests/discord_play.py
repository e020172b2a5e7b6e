"""Helpers for Discord-level tests of Deckhand: a server with players, the real
bot on a real SQLite file, and playing through the same clicks people make.

Every request the bot sends is validated against Discord's OpenAPI spec by the
fake Discord (tests/fakediscord, in process).
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.client import DeckhandBot
from bot.service import Player
from bot.settings import Settings
from tests.fakediscord import (
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    DiscordHarness,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
)

HAND_BUTTON = "🂠 My hand"
PLAYERS = ("ana", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jo")
"""The members of the ``club`` fixture's server (tests/conftest.py), besides its moderator."""


def make_bot(db_path: Path | str, *, seed: int | None = 1, rest_rate: float | None = None) -> DeckhandBot:
    settings = Settings(token="x", dev_guild_id=None, db_path=db_path, log_level="INFO",
                        db_synchronous="FULL", ai_delay=0.0, rest_rate=rest_rate)
    bot = DeckhandBot(settings, guild_ready_timeout=0.01)
    if seed is not None:
        bot.seeds = iter(range(seed, seed + 1000))
    return bot


async def start_bot(h: DiscordHarness, db_path: Path | str, *, seed: int | None = 1,
                    rest_rate: float | None = None) -> DeckhandBot:
    bot = await h.start(make_bot(db_path, seed=seed, rest_rate=rest_rate))
    if seed is not None:  # deterministic deals, so a test plays the same game every run
        bot.service.lobbies.new_seed = lambda: next(bot.seeds)
    return bot


@dataclass
class Server:
    h: DiscordHarness
    guild: FakeGuild
    channel: FakeChannel
    users: dict[str, FakeUser]
    admin: FakeUser
    db_path: Path | str
    """The SQLite file, or a PostgreSQL URL (:func:`server_on_each_backend`)."""

    def user(self, name: str) -> FakeUser:
        return self.users[name]

    def by_id(self, user_id: int) -> FakeUser:
        return next(u for u in [*self.users.values(), self.admin] if u.id == user_id)

    def player(self, user: FakeUser) -> Player:
        """``user`` as the service knows them when they act in this server."""
        return Player(user.id, user.name, self.guild.id)


def make_server(h: DiscordHarness, tmp_path: Path, names=("ana", "ben", "cat", "dan")) -> Server:
    guild = h.add_guild("Card Club")
    channel = guild.add_channel("games")
    users = {name: h.add_user(name) for name in names}
    for user in users.values():
        guild.add_member(user)
    admin = h.add_user("mod")
    guild.add_member(admin, manage_guild=True)
    return Server(h, guild, channel, users, admin, tmp_path / "deckhand.sqlite3")


async def add_ai(s: Server, lobby: FakeMessage, host: FakeUser, level: str = "normal"):
    """Click **Add AI** and choose ``level`` in the menu it shows the host; returns the choice's result."""
    menu = await s.h.click(lobby, label="Add AI", user=host)
    assert menu.ephemeral, menu.text
    return await s.h.select(menu.message, [level], user=host, custom_id_prefix="dh:ailevel:")


async def open_table(s: Server, command: str, options: dict, host: str, joiners=(), ai: int = 0,
                     start: bool = True, level: str = "normal") -> FakeMessage:
    """Run ``/<game> start``, fill the lobby (``ai`` AI players at ``level``), start; return the table message."""
    reply = await s.h.slash(command, options, user=s.user(host), channel=s.channel)
    assert reply.ephemeral, reply.text
    lobby = s.h.latest_public(s.channel)
    for name in joiners:
        await s.h.click(lobby, label="Join", user=s.user(name))
    for _ in range(ai):
        await add_ai(s, lobby, s.user(host), level)
    if start:
        await s.h.click(lobby, label="Start", user=s.user(host))
    return s.h.message(lobby.id)


def texts(message: FakeMessage) -> list[str]:
    """The text displays of a Components V2 message, in order."""
    return [c["content"] for c in message.walk() if c.get("type") == 10]


def status_line(message: FakeMessage) -> str:
    """A table message's line under its heading: whose turn ("▶ …"), or the result ("🏁 …", "🛑 …")."""
    lines = texts(message)[0].split("\n")
    return lines[1] if len(lines) > 1 else ""


def board(message: FakeMessage) -> str:
    """The text board a table message shows in the picture's place (pictures off: :func:`pictures_off`)."""
    assert not message.gallery_images(), "this message shows its picture, not its text board"
    return texts(message)[1]


def picture_text(message: FakeMessage) -> str:
    """What a message's picture shows, in words (its media gallery item's description: the text
    board, for screen readers)."""
    (item,) = [item for c in message.walk() if c.get("type") == 12 for item in c["items"]]
    return item.get("description") or ""


def ended(message: FakeMessage) -> bool:
    return status_line(message).startswith(("🏁", "🛑"))


async def pictures_off(s: Server) -> None:
    """``/settings pictures enabled:false``: tables and hands show their text in the picture's place."""
    shown = await s.h.slash("settings pictures", {"enabled": False}, user=s.admin, channel=s.channel)
    assert "off" in shown.text


def to_act(s: Server, table: FakeMessage) -> list[FakeUser]:
    """The people the table message says are to play."""
    line = status_line(s.h.message(table.id))
    head = line.split("·")[0] if line.startswith("▶") else ""
    return [s.by_id(int(i)) for i in re.findall(r"<@(\d+)>", head)]


def move_choices(hand: FakeMessage) -> list[tuple[str, str, str]]:
    """``(kind, custom_id, value)`` for each move a hand message offers (buttons and menus)."""
    found = []
    for comp in hand.walk():
        custom_id = comp.get("custom_id", "")
        if custom_id.startswith("dh:mv:"):
            found.append(("button", custom_id, custom_id.split(":", 4)[4]))
        elif custom_id.startswith(("dh:ms:", "dh:st:")):
            found += [("select", custom_id, o["value"]) for o in comp["options"]]
    return found


async def play(s: Server, user: FakeUser, hand: FakeMessage, prefer=("play", "qq", "attack", "recover")):
    """Make one move from an open hand message, preferring the kinds in ``prefer``."""
    choices = move_choices(hand)
    assert choices, f"no moves offered to {user.name}: {hand.text}"
    ranked = sorted(choices, key=lambda c: next((i for i, k in enumerate(prefer) if c[2].startswith(k)), 99))
    kind, custom_id, value = ranked[0]
    if kind == "button":
        return await s.h.click(hand, custom_id=custom_id, user=user)
    result = await s.h.select(hand, [value], custom_id=custom_id, user=user)
    if custom_id.startswith("dh:st:"):  # a first step: now choose the target
        return await play(s, user, s.h.message(hand.id), prefer)
    return result


async def open_hand(s: Server, user: FakeUser, table: FakeMessage):
    result = await s.h.click(table, label=HAND_BUTTON, user=user)
    assert result.ephemeral
    return result


async def choose_first_attacker(s: Server, command: str):
    """``/<command>`` for ana and ben; the player to act opens their hand and picks the first
    card in "Attack with…". Returns the table message, the mover and their hand."""
    table = await open_table(s, command, {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    hand = await open_hand(s, mover, table)
    menu = hand.message.component(placeholder="Attack with…")
    await s.h.select(hand.message, [menu["options"][0]["value"]], placeholder="Attack with…", user=mover)
    return table, mover, hand


async def play_turn(s: Server, table: FakeMessage, prefer=("play", "qq", "attack", "recover")) -> FakeUser:
    """The player to act opens their hand and makes a move; returns who moved."""
    mover = to_act(s, table)[0]
    hand = await open_hand(s, mover, table)
    await play(s, mover, hand.message, prefer)
    return mover


async def play_to_the_end(s: Server, table: FakeMessage, limit: int = 600, prefer=("play", "qq", "attack", "recover")) -> int:
    for moves in range(limit):
        if ended(s.h.message(table.id)):
            return moves
        await play_turn(s, table, prefer)
    raise AssertionError(f"no result after {limit} moves")


async def forge_select(s: Server, message: FakeMessage, custom_id: str, values: list[str], user: FakeUser):
    """A select menu answer with any custom_id and values, as a modified client could send it."""
    options = [{"label": "forged", "value": v} for v in dict.fromkeys(values)] or [{"label": "x", "value": "x"}]
    saved = message.components
    forged = message.components = [*saved, {"type": 1, "components": [
        {"type": 3, "custom_id": custom_id, "options": options, "min_values": 0, "max_values": 25}]}]
    try:
        return await s.h._dispatch_interaction(
            MESSAGE_COMPONENT, {"custom_id": custom_id, "component_type": 3, "values": values}, user=user,
            channel=message.channel, message=message, label=f"forged select {custom_id!r}")
    finally:
        unforge(message, forged, saved)


async def forge_form(s: Server, custom_id: str, answer: str, user: FakeUser, channel: FakeChannel):
    """A form (modal) submitted with any custom_id and answer, without the bot having shown it."""
    data = {"custom_id": custom_id, "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "value", "value": answer}]}]}
    return await s.h._dispatch_interaction(MODAL_SUBMIT, data, user=user, channel=channel,
                                           label=f"forged form {custom_id!r}")


async def forge_click(s: Server, message: FakeMessage, custom_id: str, user: FakeUser):
    """A click with any custom_id, as a modified client could send it: the button
    appears on the message in the interaction payload only."""
    data = {"custom_id": custom_id, "component_type": 2}
    saved = message.components
    forged = message.components = [*saved, {"type": 1, "components": [
        {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}]}]
    try:
        return await s.h._dispatch_interaction(MESSAGE_COMPONENT, data, user=user, channel=message.channel,
                                               message=message, label=f"forged click {custom_id!r}")
    finally:
        unforge(message, forged, saved)


def unforge(message: FakeMessage, forged: list[dict], saved: list[dict]) -> None:
    """Take a forged control off ``message`` again, unless the bot's answer replaced its
    components meanwhile (a V2 message's text lives in its components: keep the answer)."""
    if message.components is forged:
        message.components = saved


def stored_rows(s: Server) -> dict[str, list[str]]:
    """Every row of every table in the bot's database file."""
    with contextlib.closing(sqlite3.connect(s.db_path)) as db:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {name: sorted(map(repr, db.execute(f'SELECT * FROM "{name}"'))) for name in names}


def public_messages(s: Server) -> list[tuple[Any, ...]]:
    """Every message everyone can see, in every channel of every server."""
    return [(m.id, m.content, m.embeds, m.components) for m in s.h.messages(ephemeral=False) if m.kind != "dm"]


class Unchanged:
    """The database and every public message, to compare after a probe: a refused probe
    gets a private answer and changes neither. (That the answer is within Discord's limits,
    the fake Discord checks of every request.)"""

    def __init__(self, s: Server) -> None:
        self.s = s
        self.rows = stored_rows(s)
        self.messages = public_messages(s)

    def check(self, result, probe: Any) -> None:
        assert result.ephemeral and result.text.strip(), (probe, result)
        assert stored_rows(self.s) == self.rows, probe
        assert public_messages(self.s) == self.messages, probe


