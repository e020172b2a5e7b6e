"""Posting a new lobby message: what ``/<game> start`` and **Play again** share."""

from __future__ import annotations

import logging

import discord

from bot.errors import UserError
from bot.service import TableSnapshot

from .common import player_of, service_of
from .lobby import lobby_message

log = logging.getLogger(__name__)

INVITE = discord.AllowedMentions(users=True, roles=False, everyone=False)


def embed_links_note(interaction: discord.Interaction) -> str:
    """A line for the host when Deckhand may not embed links in the interaction's channel:
    Discord then takes the table's message but shows it without its board or seats (the
    buttons and private hands still work), and, unlike a missing Send Messages, says nothing.
    Empty when the permission is there, or when the interaction carried no permissions."""
    granted = interaction.app_permissions
    if granted.value == 0 or granted.embed_links:
        return ""
    return ("\n⚠️ I may not use Embed Links in this channel, so the table's board and seats don't show "
            "on its message. A moderator can give me Embed Links here; until then, use **My hand**.")


def message_link(guild_id: int, channel_id: int, message_id: int | None) -> str:
    if message_id is None:
        return f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


async def post_lobby(interaction: discord.Interaction, target: discord.abc.Messageable, snap: TableSnapshot,
                     content: str | None = None) -> str:
    """Post the lobby of ``snap`` in ``target`` (with ``content`` above it, its mentions
    notified) and return its link; if Deckhand may not post there, the lobby is cancelled
    and the user told what permission is missing; if Discord refuses it for another reason,
    the lobby is cancelled too, so it never holds the channel without a message."""
    service = service_of(interaction)
    body = lobby_message(snap).kwargs()
    if content is not None:
        body.update(content=content, allowed_mentions=INVITE)
    try:
        message = await target.send(**body)
    except discord.HTTPException as exc:
        await service.cancel(snap.row.id, player_of(interaction))
        if isinstance(exc, discord.Forbidden):
            raise UserError("I can't post in this channel. Give me View Channel, Send Messages and "
                            "Embed Links here, then try again.") from None
        log.warning("Discord refused the lobby of table %s: %s %s", snap.row.id, exc.status, exc.text)
        raise UserError("Discord didn't take the table's message, so no table was opened. "
                        "Please try again in a moment.") from None
    await service.set_messages(snap.row.id, lobby_message_id=message.id, table_message_id=message.id)
    return message_link(snap.row.guild_id, snap.row.channel_id, message.id)
