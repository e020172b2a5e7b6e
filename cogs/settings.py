"""``/settings``: per-server preferences and the leaderboard reset (Manage Server only)."""

from __future__ import annotations

import time

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.service import DEFAULT_TIMER_MINUTES, MAX_TIMER_MINUTES
from games.ai import LEVELS
from games.i18n import say

from .common import guarded, is_admin, service_of, static_view
from .control import Control, InServer, Place
from .parsing import control_template, stored_id


async def describe(interaction: discord.Interaction) -> str:
    settings = await service_of(interaction).storage.guild_settings(interaction.guild_id)
    minutes = DEFAULT_TIMER_MINUTES if settings.timer_minutes is None else settings.timer_minutes
    return (f"New tables open {'in their own thread' if settings.use_threads else 'in the channel'}; "
            f"default turn timer {f'{minutes} min' if minutes else 'off'} (a host can pick another).\n"
            f"Pictures of tables and hands: {'on' if settings.pictures else 'off (text only)'}.\n"
            f"AI players are {settings.ai_level} unless the host picks another level; an AI taking over "
            f"a seat plays at {settings.ai_level}.")


class ResetButton(Control, discord.ui.DynamicItem[discord.ui.Button],
                  template=control_template(r"dh:reset:(?P<guild>\d+):(?P<answer>yes|no)")):
    """The answer to ``/settings reset-leaderboard``'s question, for the server it was asked in."""

    def __init__(self, guild_id: int, answer: str) -> None:
        label, style = ("Reset the leaderboards", discord.ButtonStyle.danger) if answer == "yes" else (
            "Keep them", discord.ButtonStyle.secondary)
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"dh:reset:{guild_id}:{answer}"))
        self.guild_id, self.answer = guild_id, answer

    @classmethod
    def parse(cls, match, item):
        return cls(stored_id(match["guild"], "server"), match["answer"])

    def place(self) -> Place:
        return InServer(self.guild_id)

    async def run(self, interaction: discord.Interaction) -> None:
        if not is_admin(interaction):
            raise UserError(say("Only members with Manage Server can reset this server's leaderboards."))
        if self.answer == "no":
            await interaction.response.edit_message(content="The leaderboards were kept.", view=None)
            return
        await service_of(interaction).results.reset_leaderboard(self.guild_id, time.time())
        await interaction.response.edit_message(
            content="The leaderboards start afresh now; past games stay in `/history`.", view=None)


class SettingsCog(commands.Cog):
    settings = app_commands.Group(
        name="settings", description="Server preferences for Deckhand tables", guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # Discord hides the group from members without Manage Server; this holds when a server
        # overrides that in its integration settings.
        if not is_admin(interaction):
            raise app_commands.MissingPermissions(["manage_guild"])
        return True

    @settings.command(name="show", description="The current preferences")
    async def show(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await interaction.response.send_message(await describe(interaction), ephemeral=True)

        await guarded(interaction, run)

    @settings.command(name="threads", description="Open each new table in its own thread, or in the channel")
    @app_commands.describe(enabled="True: a thread per table; False: tables in the channel itself")
    async def threads(self, interaction: discord.Interaction, enabled: bool) -> None:
        async def run() -> None:
            await service_of(interaction).storage.set_guild_settings(interaction.guild_id, use_threads=enabled)
            await interaction.response.send_message(await describe(interaction), ephemeral=True)

        await guarded(interaction, run)

    @settings.command(name="timer", description="Default minutes per turn for new tables")
    @app_commands.describe(minutes=f"0 turns the timer off; Deckhand's own default is {DEFAULT_TIMER_MINUTES}")
    async def timer(self, interaction: discord.Interaction,
                    minutes: app_commands.Range[int, 0, MAX_TIMER_MINUTES]) -> None:
        async def run() -> None:
            await service_of(interaction).set_default_timer(interaction.guild_id, minutes)
            await interaction.response.send_message(await describe(interaction), ephemeral=True)

        await guarded(interaction, run)

    @settings.command(name="pictures", description="Show tables and hands as pictures, or as text only")
    @app_commands.describe(enabled="True: pictures beside the text; False: text only")
    async def pictures(self, interaction: discord.Interaction, enabled: bool) -> None:
        async def run() -> None:
            await service_of(interaction).storage.set_guild_settings(interaction.guild_id, pictures=enabled)
            await interaction.response.send_message(await describe(interaction), ephemeral=True)

        await guarded(interaction, run)

    @settings.command(name="ai-level", description="The level AI players default to, and AIs taking over a seat play at")
    @app_commands.describe(level="easy: a beginner; normal: Deckhand's usual player; hard: thinks ahead")
    @app_commands.choices(level=[app_commands.Choice(name=level, value=level) for level in LEVELS])
    async def ai_level(self, interaction: discord.Interaction, level: str) -> None:
        async def run() -> None:
            await service_of(interaction).set_default_ai_level(interaction.guild_id, level)
            await interaction.response.send_message(await describe(interaction), ephemeral=True)

        await guarded(interaction, run)

    @settings.command(name="reset-leaderboard", description="Start every leaderboard on this server afresh")
    async def reset_leaderboard(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            view = static_view([ResetButton(interaction.guild_id, "yes"), ResetButton(interaction.guild_id, "no")])
            await interaction.response.send_message(
                "Reset every leaderboard and rating on this server? Finished games stay in `/history`. "
                "This can't be undone.", view=view, ephemeral=True)

        await guarded(interaction, run)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog())
