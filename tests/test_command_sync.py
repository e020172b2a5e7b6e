"""The command tree is synced with Discord only when it changed since the last sync
(Discord rate-limits syncing), or when ``python -m bot --sync`` asks."""

from __future__ import annotations

import dataclasses
import logging

import discord
import pytest
from discord import app_commands

from bot.__main__ import main
from cogs.common import guarded
from tests.discord_play import make_bot, make_server, start_bot
from tests.fakediscord import DiscordHarness, HTTPError

SYNC = r"^/applications/\d+/commands$"
MOST = 7
"""A name only this module holds, for a guarded command's annotation."""


def syncs(h: DiscordHarness) -> int:
    return len(h.requests_to("PUT", SYNC))


async def test_a_restart_with_the_same_commands_does_not_sync(tmp_path):
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path)
        assert syncs(h) == 1
        await h.stop()
        await start_bot(h, s.db_path)
        assert syncs(h) == 1
        await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel)  # still there


async def test_a_changed_tree_is_synced_once(tmp_path):
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        bot = await start_bot(h, s.db_path)

        @app_commands.command(name="ping", description="A command added after the last sync")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        bot.tree.add_command(ping)
        await bot.sync_commands()
        assert syncs(h) == 2
        assert any(c["name"] == "ping" for c in h.commands())
        await bot.sync_commands()
        assert syncs(h) == 2


async def test_sync_is_forced_on_request(tmp_path):
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path)
        await h.stop()
        bot = make_bot(s.db_path)
        bot.force_sync = True
        await h.start(bot)
        assert syncs(h) == 2


async def test_a_refused_sync_leaves_the_bot_running_and_the_next_start_tries_again(tmp_path, caplog):
    """DEV_GUILD_ID names a server the bot was not invited to with the applications.commands
    scope: Discord answers 403. The bot says so and runs on; the next start syncs again."""
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        h.refuse_next("PUT", r"/applications/\d+/guilds/\d+/commands", HTTPError(403, 50001, "Missing Access"))
        for _ in range(2):
            bot = make_bot(s.db_path)
            bot.settings = dataclasses.replace(bot.settings, dev_guild_id=s.guild.id)
            with caplog.at_level(logging.WARNING, logger="bot.client"):
                await h.start(bot)
            assert bot.is_ready()
            await h.stop()
        assert [r.status for r in h.requests_to("PUT", r"^/applications/\d+/guilds/\d+/commands$")] == [403, 200]
        refused = [r.getMessage() for r in caplog.records if r.name == "bot.client"]
        assert len(refused) == 1 and "Missing Access" in refused[0] and "applications.commands scope" in refused[0]
        assert {c["name"] for c in h.commands(s.guild)} >= {"q2j", "rules", "table"}


def test_a_guarded_command_keeps_its_options():
    """discord.py reads a callback's string annotations in its ``__globals__``, the wrapper's
    module for a guarded command: guarded hands it the annotations resolved in the command's."""

    @app_commands.command(name="pick", description="Pick a number")
    @guarded
    async def pick(interaction: discord.Interaction, number: app_commands.Range[int, 1, MOST]) -> None:
        await interaction.response.send_message(str(number))

    (number,) = pick.parameters
    assert (number.name, number.type, number.min_value, number.max_value) == (
        "number", discord.AppCommandOptionType.integer, 1, MOST)


def test_the_sync_flag_reaches_the_bot(monkeypatch):
    started = []
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setattr("bot.client.DeckhandBot.run", lambda bot, *a, **k: started.append(bot.force_sync))
    monkeypatch.setattr("bot.__main__.tune_garbage_collection", lambda: started.append("gc tuned"))
    assert main(["--sync"]) == 0 and main([]) == 0
    assert started == ["gc tuned", True, "gc tuned", False]
    with pytest.raises(SystemExit):
        main(["--bogus"])
