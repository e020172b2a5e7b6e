"""``/table``: the table in this channel — your hand, its status, leaving it, ending it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.errors import UserError

from .common import guarded, is_admin, player_of, service_of
from .moves import show_hand
from .translator import slash_name
from .ui import message_link, players_to_act, ui_for


async def table_here(interaction: discord.Interaction) -> int:
    """The open table of the interaction's channel."""
    table_id = await service_of(interaction).channel_table(interaction.channel_id)
    if table_id is None:
        raise UserError("There's no open table in this channel. Start one with a game's `start` command.")
    return table_id


class TableCommands(commands.Cog):
    table = app_commands.Group(name=slash_name("table"), description=locale_str("The game table in this channel"),
                               guild_only=True)

    @table.command(name=slash_name("hand"), description=locale_str("Show your hand and your moves (only you see it)"))
    async def hand(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await show_hand(interaction, await table_here(interaction))

        await guarded(interaction, run)

    @table.command(name=slash_name("status"),
                   description=locale_str("Who is playing, whose turn it is, and the turn timer"))
    async def status(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            snap = await service_of(interaction).table(await table_here(interaction))
            row = snap.row
            lines = [f"**{ui_for(row.game_id).title}** table #{row.id} — {row.status}"]
            lines.append("Players: " + ", ".join(snap.names[s.seat] + (" (AI)" if s.is_ai and s.user_id is not None else "")
                                           for s in row.seats))
            acting = players_to_act(snap)
            if row.status == "running" and acting:
                lines.append("To play: " + ", ".join(snap.names[s] for s in acting))
            if row.deadline:
                lines.append(f"Turn timer: ends <t:{int(row.deadline)}:R>")
            elif row.status == "running":
                lines.append("Turn timer: off" if not row.timer_minutes else "Turn timer: waiting for the AI")
            lines.append(message_link(row.guild_id, row.channel_id, row.table_message_id))
            await interaction.response.send_message("\n".join(lines), ephemeral=True)

        await guarded(interaction, run)

    @table.command(name=slash_name("leave"),
                   description=locale_str("Leave the table; an AI takes over your seat if the game is on"))
    async def leave(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            service = service_of(interaction)
            table_id = await table_here(interaction)
            snap = await service.table(table_id)
            if snap.row.status == "lobby":
                await service.leave_lobby(table_id, player_of(interaction))
                await interaction.response.send_message("You left the lobby.", ephemeral=True)
            else:
                await service.leave_game(table_id, player_of(interaction))
                await interaction.response.send_message("You left the game; an AI plays your seat now.",
                                                        ephemeral=True)

        await guarded(interaction, run)

    @table.command(name=slash_name("end"),
                   description=locale_str("End the table in this channel (host or Manage Server)"))
    async def end(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            service = service_of(interaction)
            table_id = await table_here(interaction)
            snap = await service.table(table_id)
            if snap.row.status == "lobby":
                await service.cancel(table_id, player_of(interaction), is_admin=is_admin(interaction))
            else:
                await service.end(table_id, player_of(interaction), is_admin=is_admin(interaction))
            await interaction.response.send_message("The table is closed.", ephemeral=True)

        await guarded(interaction, run)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TableCommands())
