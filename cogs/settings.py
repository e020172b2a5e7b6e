"""``/settings``: per-server preferences (Manage Server only)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import DEFAULT_TIMER_MINUTES, MAX_TIMER_MINUTES

from .common import guarded, service_of


class SettingsCog(commands.Cog):
    @app_commands.command(name="settings", description="Server preferences for Deckhand tables")
    @app_commands.describe(
        threads="Open each new table in its own thread",
        timer=f"Default minutes per turn for new tables (0 = off; Deckhand's default is {DEFAULT_TIMER_MINUTES})",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(
        self, interaction: discord.Interaction, threads: bool | None = None,
        timer: app_commands.Range[int, 0, MAX_TIMER_MINUTES] | None = None,
    ) -> None:
        async def run() -> None:
            storage = service_of(interaction).storage
            if threads is not None or timer is not None:
                await storage.set_guild_settings(interaction.guild_id, use_threads=threads, timer_minutes=timer)
            use_threads, minutes = await storage.guild_settings(interaction.guild_id)
            minutes = DEFAULT_TIMER_MINUTES if minutes is None else minutes
            await interaction.response.send_message(
                f"New tables open {'in their own thread' if use_threads else 'in the channel'}; "
                f"turn timer {f'{minutes} min' if minutes else 'off'} unless the host picks one.",
                ephemeral=True,
            )

        await guarded(interaction, run)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog())
