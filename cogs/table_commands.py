"""``/table``: the table in this channel — your hand, its status, leaving it, ending it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.errors import UserError
from bot.service import TableSnapshot
from games.i18n import say

from .common import for_reader, guarded, is_admin, player_of, service_of
from .game_log import AI_TOOK_OVER
from .language import reader_language
from .moves import show_hand
from .translator import slash_name
from .ui import message_link, players_to_act, ui_for


async def table_here(interaction: discord.Interaction) -> int:
    """The open table of the interaction's channel."""
    channel_id = interaction.channel_id
    table_id = None if channel_id is None else await service_of(interaction).storage.open_table_in(channel_id)
    if table_id is None:
        raise UserError(say("There's no open table in this channel. Start one with a game's `start` command."))
    return table_id


STATUSES = {"lobby": say("lobby"), "running": say("running"), "finished": say("finished"),
            "abandoned": say("ended early"), "cancelled": say("cancelled")}
"""A table's status (as stored) in words."""


def status_text(snap: TableSnapshot, language: str) -> str:
    """``/table status``: the game, who plays, whose turn it is, the turn timer, a link."""
    row = snap.row
    took_over = f" {AI_TOOK_OVER.render(language)}"
    players = ", ".join(snap.names[s.seat] + (took_over if s.is_ai and s.user_id is not None else "")
                        for s in row.seats)
    lines = [say("**{game}** table #{table} — {status}", game=ui_for(row.game_id).title, table=str(row.id),
                 status=STATUSES[row.status]),
             say("Players: {names}", names=players)]
    acting = players_to_act(snap)
    if row.status == "running" and acting:
        lines.append(say("To play: {names}", names=", ".join(snap.names[s] for s in acting)))
    if row.deadline:
        lines.append(say("Turn timer: ends <t:{when}:R>", when=str(int(row.deadline))))
    elif row.status == "running":
        lines.append(say("Turn timer: off") if not row.timer_minutes else say("Turn timer: waiting for the AI"))
    return "\n".join([*(line.render(language) for line in lines),
                      message_link(row.guild_id, row.channel_id, row.table_message_id)])


class TableCommands(commands.Cog):
    table = app_commands.Group(name=slash_name("table"), description=locale_str("The game table in this channel"),
                               guild_only=True)

    @table.command(name=slash_name("hand"), description=locale_str("Show your hand and your moves (only you see it)"))
    @guarded
    async def hand(self, interaction: discord.Interaction) -> None:
        await show_hand(interaction, await table_here(interaction))

    @table.command(name=slash_name("status"),
                   description=locale_str("Who is playing, whose turn it is, and the turn timer"))
    @guarded
    async def status(self, interaction: discord.Interaction) -> None:
        snap = await service_of(interaction).table(await table_here(interaction))
        await interaction.response.send_message(status_text(snap, reader_language(interaction)), ephemeral=True)

    @table.command(name=slash_name("leave"),
                   description=locale_str("Leave the table; an AI takes over your seat if the game is on"))
    @guarded
    async def leave(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        table_id = await table_here(interaction)
        snap = await service.table(table_id)
        if snap.row.status == "lobby":
            await service.lobbies.leave(table_id, player_of(interaction))
            done = say("You left the lobby.")
        else:
            await service.play.leave_game(table_id, player_of(interaction))
            done = say("You left the game; an AI plays your seat now.")
        await interaction.response.send_message(for_reader(interaction, done), ephemeral=True)

    @table.command(name=slash_name("end"),
                   description=locale_str("End the table in this channel (host or Manage Server)"))
    @guarded
    async def end(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        table_id = await table_here(interaction)
        snap = await service.table(table_id)
        if snap.row.status == "lobby":
            await service.lobbies.cancel(table_id, player_of(interaction), is_admin=is_admin(interaction))
        else:
            await service.play.end(table_id, player_of(interaction), is_admin=is_admin(interaction))
        await interaction.response.send_message(for_reader(interaction, say("The table is closed.")),
                                                ephemeral=True)
