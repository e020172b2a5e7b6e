"""Opening a table: what ``/<game> start`` and **Play again** share.

A lobby is committed first, then its message is posted (by the publisher, with a nonce, so
a post repeated after a crash is the same message). A crash between the two leaves a lobby
without a message: start-up posts it, and so does its host's next ``/<game> start``. A host
who starts again where their lobby is open is answered with its link, not refused.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.errors import HostsLobby, UserError
from bot.service import TableSnapshot, checked_options
from games.i18n import say

from .common import IN_DIRECT_MESSAGES, player_of, service_of
from .installed import table_publisher_of
from .language import reader_language
from .ui import message_link, ui_for

log = logging.getLogger(__name__)


def embed_links_note(interaction: discord.Interaction) -> str:
    """A line for the host when Deckhand may not embed links in the interaction's channel:
    Discord then takes the table's message but shows it without its board or seats (the
    buttons and private hands still work), and, unlike a missing Send Messages, says nothing.
    Empty when the permission is there, or when the interaction carried no permissions."""
    granted = interaction.app_permissions
    if granted.value == 0 or granted.embed_links:
        return ""
    return "\n" + say("⚠️ I may not use Embed Links in this channel, so the table's board and seats don't show on its "
                      "message. A moderator can give me Embed Links here; until then, use **My hand**.").render(
        reader_language(interaction))


async def open_table(
    interaction: discord.Interaction, game_id: str, options: dict[str, Any], timer: int | None
) -> None:
    """What every ``/<game> start`` does: open a lobby here (or in a new thread) and post it.
    A refusal is a :class:`UserError`, for the command's :func:`~cogs.common.guarded` to answer."""
    guild_id, channel = interaction.guild_id, interaction.channel
    if guild_id is None or channel is None:
        raise UserError(IN_DIRECT_MESSAGES)
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = service_of(interaction)
    title = ui_for(game_id, reader_language(interaction)).title
    checked = checked_options(game_id, options)  # a refused start makes no thread
    try:
        await service.lobbies.may_host(guild_id, player_of(interaction))
    except HostsLobby as exc:
        lobby = await service.table(exc.table_id)
        row = lobby.row
        posted = row.lobby_message_id is not None
        if posted and row.channel_id != interaction.channel_id:
            raise
        # Their lobby here (or one never posted, a crash between opening and posting it):
        # the host asked for a table, so show them the one they have.
        title = ui_for(row.game_id, reader_language(interaction)).title
        link = (message_link(row.guild_id, row.channel_id, row.lobby_message_id) if posted
                else await post_lobby(interaction, lobby))
    else:
        settings = await service.storage.guild_settings(guild_id)
        if settings.use_threads and isinstance(channel, discord.TextChannel):
            thread = await new_thread(channel, f"{title} — {interaction.user.display_name}")
            try:
                link = await open_in(interaction, guild_id, thread, game_id, checked, timer)
            except Exception:
                await remove_empty_thread(thread)
                raise
        else:
            link = await open_in(interaction, guild_id, channel, game_id, checked, timer)
    opened = say("Your {game} table is open: {link}", game=title, link=link).render(reader_language(interaction))
    await interaction.followup.send(opened + embed_links_note(interaction), ephemeral=True)


async def open_in(interaction: discord.Interaction, guild_id: int, target: discord.abc.Snowflake, game_id: str,
                  options: dict[str, Any], timer: int | None) -> str:
    """Open the lobby in ``target`` (a channel or thread of server ``guild_id``), post it there and return its link."""
    snap = await service_of(interaction).lobbies.open(
        guild_id=guild_id, channel_id=target.id, game_id=game_id, options=options,
        host=player_of(interaction), timer_minutes=timer,
    )
    return await post_lobby(interaction, snap)


async def post_lobby(interaction: discord.Interaction, snap: TableSnapshot, content: str | None = None) -> str:
    """Post the lobby of ``snap`` in its channel (with ``content`` above it, its mentions
    notified) and return its link; if Deckhand may not post there, the lobby is cancelled
    and the user told what permission is missing; if Discord refuses it for another reason,
    the lobby is cancelled too, so it never holds the channel without a message."""
    try:
        message = await table_publisher_of(interaction).place(snap, content)
    except discord.HTTPException as exc:
        await service_of(interaction).lobbies.cancel(snap.row.id, player_of(interaction))
        if isinstance(exc, discord.Forbidden):
            raise UserError(say("I can't post in this channel. Give me View Channel, Send Messages and Embed Links "
                                "here, then try again.")) from None
        log.warning("Discord refused the lobby of table %s: %s %s", snap.row.id, exc.status, exc.text)
        raise UserError(say("Discord didn't take the table's message, so no table was opened. Please try again in "
                            "a moment.")) from None
    return message_link(snap.row.guild_id, snap.row.channel_id, message.id)


async def new_thread(channel: discord.TextChannel, name: str) -> discord.Thread:
    """A public thread in ``channel`` for one table; :class:`UserError` if Discord refuses it."""
    try:
        return await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                           auto_archive_duration=1440)
    except discord.Forbidden:
        raise UserError(say("I can't open threads here. Give me Create Public Threads, or turn threads off in the "
                            "server settings.")) from None
    except discord.HTTPException as exc:
        log.warning("Discord refused a thread in channel %s: %s %s", channel.id, exc.status, exc.text)
        raise UserError(say("Discord didn't open the table's thread, so no table was opened. Please try again in a "
                            "moment.")) from None


async def remove_empty_thread(thread: discord.Thread) -> None:
    """Delete a thread opened for a table that could not open, so no empty thread is left.
    That needs Manage Threads; without it the thread stays (and is logged)."""
    try:
        await thread.delete()
    except discord.HTTPException as exc:
        log.info("could not remove the empty thread %s: %s %s", thread.id, exc.status, exc.text)
