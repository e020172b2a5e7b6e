"""Discord refusing the bot's own requests: the player is told, and nothing is left half done.

Each test makes the fake Discord refuse one request the way Discord does (status, code,
message), then lets the next one through.
"""

from __future__ import annotations

import discord
import pytest

from bot.errors import UserError
from tests.fakediscord import HTTPError

MESSAGES = r"/channels/\d+/messages"
THREADS = r"/channels/\d+/threads"


@pytest.mark.parametrize("error, told", [
    (HTTPError(403, 50013, "Missing Permissions"), "Give me View Channel, Send Messages and Embed Links"),
    (HTTPError(400, 50035, "Invalid Form Body"), "Discord didn't take the table's message"),
], ids=["missing-permissions", "another-refusal"])
async def test_a_refused_lobby_opens_no_table_and_the_next_start_works(server, error, told):
    s = server
    s.h.refuse_next("POST", MESSAGES, error)
    refused = await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
    assert refused.ephemeral and told in refused.text
    assert (await s.h.bot.service.table(1)).row.status == "cancelled"
    assert await s.h.bot.service.storage.open_table_in(s.channel.id) is None
    opened = await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
    assert opened.ephemeral and "table is open" in opened.text
    assert [m.id for m in s.h.public_messages(s.channel) if m.find_components(label="Join")] == [
        (await s.h.bot.service.table(2)).row.lobby_message_id]


@pytest.mark.parametrize("error, told", [
    (HTTPError(403, 50013, "Missing Permissions"), "Give me Create Public Threads"),
    (HTTPError(400, 160004, "A thread has already been created for this message"),
     "Discord didn't open the table's thread"),
], ids=["missing-permissions", "another-refusal"])
async def test_a_refused_thread_opens_no_table_and_the_next_start_works(server, error, told):
    s = server
    on = await s.h.slash("settings threads", {"enabled": True}, user=s.admin, channel=s.channel)
    assert on.ephemeral
    s.h.refuse_next("POST", THREADS, error)
    refused = await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
    assert refused.ephemeral and told in refused.text
    with pytest.raises(UserError):  # nothing was stored
        await s.h.bot.service.table(1)
    opened = await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
    assert opened.ephemeral and "table is open" in opened.text


def threads_of(s) -> list:
    return [c for c in s.guild.channels.values() if c.is_thread]


async def test_refused_options_open_no_thread(server):
    s = server
    await s.h.slash("settings threads", {"enabled": True}, user=s.admin, channel=s.channel)
    refused = await s.h.slash("q2j start", {"variant": "classic", "short_hand": "0"}, user=s.user("ana"),
                              channel=s.channel)
    assert refused.ephemeral and "short_hand" in refused.text
    assert threads_of(s) == [] and not s.h.requests_to("POST", THREADS)


async def test_a_lobby_refused_in_its_new_thread_leaves_no_empty_thread(server):
    s = server
    await s.h.slash("settings threads", {"enabled": True}, user=s.admin, channel=s.channel)
    s.h.refuse_next("POST", MESSAGES, HTTPError(400, 50035, "Invalid Form Body"))
    refused = await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
    assert refused.ephemeral and "Discord didn't take the table's message" in refused.text
    await s.h.bot.service.wait_idle()
    assert threads_of(s) == [] and len(s.h.requests_to("DELETE", r"/channels/\d+")) == 1
    assert (await s.h.bot.service.table(1)).row.status == "cancelled"
    opened = await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
    assert opened.ephemeral and "table is open" in opened.text and len(threads_of(s)) == 1


def take_from_the_bot(s, **permissions: bool) -> None:
    """Remove ``permissions`` from every role the bot has in the server (and from @everyone)."""
    removed = discord.Permissions(**permissions).value
    bot_member = s.guild.members[s.h.bot_user.id]
    for role in [s.guild.everyone, *(s.guild.roles[r] for r in bot_member.role_ids)]:
        role.permissions &= ~removed


@pytest.mark.parametrize("threads", [False, True], ids=["channel", "thread"])
async def test_a_start_without_embed_links_opens_and_tells_the_host(server, threads):
    """Without Embed Links Discord takes the table's message but shows no board and no seats,
    and says nothing: the host is told what a moderator should give (the game itself works)."""
    s = server
    await s.h.slash("settings threads", {"enabled": threads}, user=s.admin, channel=s.channel)
    take_from_the_bot(s, embed_links=True)
    opened = await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
    assert "table is open" in opened.text and "A moderator can give me Embed Links here" in opened.text
    assert (await s.h.bot.service.table(1)).row.status == "lobby"


async def test_a_start_with_embed_links_or_no_permissions_said_has_no_note(server):
    """With Embed Links, no note; a payload without the bot's permissions (discord.py reads 0)
    says nothing about them, so no note either."""
    s = server
    plain = await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
    assert "table is open" in plain.text and "Embed Links" not in plain.text
    take_from_the_bot(s, **{name: True for name, _ in discord.Permissions.all()})
    other = await s.h.slash("war start", {"timer": 0}, user=s.user("ben"), channel=s.guild.add_channel("more"))
    assert "table is open" in other.text and "Embed Links" not in other.text
