"""The Discord client: opens the database, loads the cogs, restores tables, syncs commands."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import APOLOGY, reply_ephemeral

from .service import GameService
from .settings import Settings
from .storage import Storage

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.tables", "cogs.settings", "cogs.scores", "cogs.q2j", "cogs.war", "cogs.ng", "cogs.qos", "cogs.quash", "cogs.rules")


class DeckhandBot(commands.Bot):
    """Deckhand. Slash commands only: it needs no privileged intents."""

    storage: Storage
    service: GameService

    def __init__(self, settings: Settings, **options: Any) -> None:
        # Deckhand never joins voice: silence discord.py's warnings about voice libraries.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None,
            allowed_mentions=discord.AllowedMentions.none(), **options,
        )
        self.settings = settings

    async def setup_hook(self) -> None:
        from cogs.controls import DYNAMIC_ITEMS, register_items

        self.storage = await Storage.open(self.settings.db_path, self.settings.db_synchronous)
        self.service = GameService(self.storage, ai_delay=self.settings.ai_delay)
        self.tree.on_error = self.on_app_command_error
        register_items(self, *DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        restored = await self.service.restore()
        log.info("restored %d open table(s) from %s", restored, self.settings.db_path)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Globally, or to DEV_GUILD_ID when set (instant, for development)."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d command(s)", len(synced))

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            message = "Deckhand tables live in server channels, not in direct messages."
        elif isinstance(error, app_commands.CheckFailure):
            message = "You don't have permission to use that command here."
        else:
            log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                      exc_info=error)
            message = APOLOGY
        try:
            await reply_ephemeral(interaction, message)
        except discord.HTTPException:
            pass

    async def on_ready(self) -> None:
        log.info("connected as %s to %d server(s)", self.user, len(self.guilds))

    async def close(self) -> None:
        if hasattr(self, "service"):
            await self.service.close()
        if hasattr(self, "storage"):
            await self.storage.close()
        await super().close()
