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


PERMISSION_NAMES = {
    "view_channel": "View Channel", "send_messages": "Send Messages", "embed_links": "Embed Links",
    "create_public_threads": "Create Public Threads", "send_messages_in_threads": "Send Messages in Threads",
}


def check_can_post(interaction: discord.Interaction, *, new_thread: bool = False) -> None:
    """Refuse (:class:`UserError`, naming what to grant) a table in the interaction's channel, or in
    a new thread of it, where Deckhand lacks a permission to show it. Discord would refuse the
    lobby message without most of them, but without Embed Links it quietly shows the message
    with no board at all, so the permissions are read from the interaction before anything opens."""
    in_thread = new_thread or isinstance(interaction.channel, discord.Thread)
    needed = ["view_channel", "send_messages_in_threads" if in_thread else "send_messages", "embed_links"]
    if new_thread:
        needed.append("create_public_threads")
    granted = interaction.app_permissions
    if granted.value == 0:
        return  # not sent (a stand-in for Discord): the lobby's post says what is missing, if anything
    missing = [PERMISSION_NAMES[name] for name in needed if not getattr(granted, name)]
    if missing:
        listed = ", ".join(missing[:-1]) + " and " + missing[-1] if len(missing) > 1 else missing[0]
        where = "this channel (and its threads)" if new_thread else "this channel"
        raise UserError(f"I can't show a table here: a moderator needs to give me {listed} in {where}, "
                        "then try again.")


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
