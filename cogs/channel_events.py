"""What Discord tells Deckhand of the places tables live in: channels deleted, servers left, shards back.

A deleted channel or thread ends its table at once, a server that removes Deckhand ends all
of its tables, and a shard that connects again shows the tables Discord missed meanwhile."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.errors import StorageUnavailable
from bot.service import GameService
from games.i18n import say

from .publisher import CHANNEL_DELETED, TablePublisher

log = logging.getLogger(__name__)


class ChannelEvents(commands.Cog):
    def __init__(self, service: GameService, publisher: TablePublisher) -> None:
        self.service = service
        self.publisher = publisher

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Deckhand was removed from a server (kicked or banned, or the server deleted; not an
        outage, which is ``on_guild_unavailable``): end its tables at once, so no turn timer or
        AI seat plays on where nobody can see it. Nothing is sent there: Discord would refuse it."""
        try:
            for table_id in await self.service.storage.open_tables_of_guild(guild.id):
                await self.publisher.abandon(table_id, say("Deckhand was removed from the server."))
        except StorageUnavailable:
            log.warning("could not end the tables of server %s, which removed Deckhand: the database is away",
                        guild.id)

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        await self.publisher.show_missed_now()

    @commands.Cog.listener()
    async def on_shard_resumed(self, shard_id: int) -> None:
        await self.publisher.show_missed_now()

    async def _channel_gone(self, channel_id: int) -> None:
        """End the open table of a deleted channel or thread at once, not at its next move
        (which, without a turn timer, might never come)."""
        try:
            table_id = await self.service.storage.open_table_in(channel_id)
            if table_id is not None:
                await self.publisher.abandon(table_id, CHANNEL_DELETED)
        except StorageUnavailable:
            pass  # logged by the storage; the table ends when its message can't be edited
