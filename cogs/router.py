"""What every interaction passes on its way in, besides the control that answers it.

The publisher notes it (its webhook may carry the channel's next ping), a channel that had
refused Deckhand gets its table shown again once a click says Deckhand may post there,
forms are answered, and a click no Deckhand control answers gets a polite word."""

from __future__ import annotations

import contextlib
import logging

import discord
from discord.ext import commands

from bot.errors import StorageUnavailable
from games.i18n import say

from .common import for_reader, may_post_here, service_of
from .control import find_form, is_known
from .installed import table_publisher_of
from .limits import CUSTOM_ID, clip
from .parsing import custom_id_of

log = logging.getLogger(__name__)

UNKNOWN_CONTROL = say("That control isn't one Deckhand recognises any more.")


class Router(commands.Cog):
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        publisher = table_publisher_of(interaction)
        publisher.channels.saw(interaction)
        channel_id = interaction.channel_id
        if channel_id is not None and channel_id in publisher.access.closed and may_post_here(interaction):
            with contextlib.suppress(StorageUnavailable):  # logged by the storage; the next click tries again
                service = service_of(interaction)
                table_id = await service.storage.open_table_in(channel_id)
                if table_id is None:
                    publisher.access.open_again(channel_id)  # nothing left to show: stop looking
                else:
                    await service.show_again(table_id)
        custom_id = custom_id_of(interaction)
        if interaction.type is discord.InteractionType.modal_submit:
            form = find_form(custom_id)
            if form is not None:
                await form[0].submitted(interaction, form[1])
                return
        elif interaction.type is not discord.InteractionType.component or is_known(custom_id):
            return
        log.info("unrecognised control %r from user %s", clip(custom_id, CUSTOM_ID), interaction.user.id)
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(for_reader(interaction, UNKNOWN_CONTROL), ephemeral=True)
