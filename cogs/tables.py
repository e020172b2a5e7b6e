"""Shared table machinery for every game: opening lobbies, the public table
message, turn pings and reminders, and the ``/table`` commands."""

from __future__ import annotations

import contextlib
import logging
import time
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import StorageUnavailable, UserError
from bot.service import TableSnapshot, checked_options
from bot.storage import SeatRow, TableRow

from .common import guarded, is_admin, may_post_here, player_of, service_of
from .control import find_form, is_known
from .moves import show_hand, table_message
from .limits import CUSTOM_ID, clip
from .lobby import lobby_message
from .outage import UNREACHABLE, ShowAgain
from .pictures.attach import THREAD_ARCHIVED, Picture, draws_table, pictures_on, send_with_picture, table_picture
from .play_again import PlayAgainButton
from .posting import embed_links_note, message_link, post_lobby
from .ui import players_to_act, ui_for
from .watch import WatchButton

log = logging.getLogger(__name__)

TURN_PING = discord.AllowedMentions(users=True, roles=False, everyone=False)
UNKNOWN_CHANNEL = 10003  # Discord's error code when a channel no longer exists
CHANNEL_DELETED = "The table's channel was deleted."
NO_ATTACHING_SECONDS = 3600
"""How long a channel's tables are shown as text after Discord refused one of their pictures."""


async def open_table(
    interaction: discord.Interaction, game_id: str, options: dict[str, Any], timer: int | None
) -> None:
    """What every ``/<game> start`` does: open a lobby here (or in a new thread) and post it."""

    async def run() -> None:
        if interaction.guild_id is None or interaction.channel is None:
            raise UserError("Deckhand tables live in server channels, not in direct messages.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = service_of(interaction)
        title = ui_for(game_id).title
        checked = checked_options(game_id, options)  # a refused start makes no thread
        await service.may_host(interaction.guild_id, player_of(interaction))
        settings = await service.storage.guild_settings(interaction.guild_id)
        in_new_thread = settings.use_threads and isinstance(interaction.channel, discord.TextChannel)
        if not in_new_thread:
            link = await open_in(interaction, interaction.channel, game_id, checked, timer)
        else:
            thread = await new_thread(interaction.channel, f"{title} — {interaction.user.display_name}")
            try:
                link = await open_in(interaction, thread, game_id, checked, timer)
            except Exception:
                await remove_empty_thread(thread)
                raise
        await interaction.followup.send(f"Your {title} table is open: {link}{embed_links_note(interaction)}",
                                        ephemeral=True)

    await guarded(interaction, run)


async def open_in(interaction: discord.Interaction, target: discord.abc.Messageable, game_id: str,
                  options: dict[str, Any], timer: int | None) -> str:
    """Open the lobby in ``target``, post it there and return its link."""
    snap = await service_of(interaction).open_lobby(
        guild_id=interaction.guild_id, channel_id=target.id, game_id=game_id, options=options,
        host=player_of(interaction), timer_minutes=timer,
    )
    return await post_lobby(interaction, target, snap)


async def new_thread(channel: discord.TextChannel, name: str) -> discord.Thread:
    """A public thread in ``channel`` for one table; :class:`UserError` if Discord refuses it."""
    try:
        return await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                           auto_archive_duration=1440)
    except discord.Forbidden:
        raise UserError("I can't open threads here. Give me Create Public Threads, "
                        "or turn threads off in the server settings.") from None
    except discord.HTTPException as exc:
        log.warning("Discord refused a thread in channel %s: %s %s", channel.id, exc.status, exc.text)
        raise UserError("Discord didn't open the table's thread, so no table was opened. "
                        "Please try again in a moment.") from None


async def remove_empty_thread(thread: discord.Thread) -> None:
    """Delete a thread opened for a table that could not open, so no empty thread is left.
    That needs Manage Threads; without it the thread stays (and is logged)."""
    try:
        await thread.delete()
    except discord.HTTPException as exc:
        log.info("could not remove the empty thread %s: %s %s", thread.id, exc.status, exc.text)


class TablesCog(commands.Cog):
    """The lobby and table messages, turn pings, and ``/table``."""

    table = app_commands.Group(name="table", description="The game table in this channel", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.service = bot.service  # type: ignore[attr-defined]
        self.service.publisher = self
        self._acting: dict[int, tuple[int, ...]] = {}
        self._show_again = ShowAgain(self.service.show_again)
        self._no_attaching: dict[int, float] = {}
        """Channels where Discord refused a table picture (403), until when (``time.monotonic``)."""
        self._closed: set[int] = set()
        """Channels where Discord refused Deckhand itself (403): warned about once, until it may post there again."""

    # -- Publisher -----------------------------------------------------------------

    def _channel(self, snap: TableSnapshot) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(snap.row.channel_id, guild_id=snap.row.guild_id)

    async def lobby_changed(self, table: TableSnapshot) -> None:
        body = lobby_message(table).kwargs()
        if table.row.status == "lobby":  # Play again's invitation stays above an open lobby
            del body["content"]
        await self._edit(table, body)

    async def table_changed(self, table: TableSnapshot) -> None:
        rendered = table_message(table)
        picture = None
        if (draws_table(table) and self._may_attach(table.row.channel_id)
                and await pictures_on(self.service, table.row.guild_id)):
            picture = await table_picture(table)
        if await self._edit(table, rendered.kwargs(), picture):
            await self._ping(table)

    def _may_attach(self, channel_id: int) -> bool:
        """False for an hour after Discord refused a table picture in the channel (no Attach Files)."""
        until = self._no_attaching.get(channel_id)
        if until is None:
            return True
        if time.monotonic() < until:
            return False
        del self._no_attaching[channel_id]
        return True

    def _attaching_refused(self, channel_id: int) -> None:
        """Show the channel's tables as text for an hour, with one warning, instead of trying
        (two requests a move) and warning at every move."""
        self._no_attaching[channel_id] = time.monotonic() + NO_ATTACHING_SECONDS
        log.warning("Deckhand may not attach files in channel %s: its tables are shown as text for the next "
                    "hour. Give Deckhand Attach Files there, or turn pictures off with /settings pictures.",
                    channel_id)

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None:
        humans = [s for s in seats if s.user_id is not None and not s.is_ai]
        if not humans:
            return
        minutes = max(1, round(seconds_left / 60))
        who = ", ".join(f"<@{s.user_id}>" for s in humans)
        link = message_link(table.row.guild_id, table.row.channel_id, table.row.table_message_id)
        await self._replace_ping(
            table, f"⏰ {who}, about {minutes} min left for your turn at {ui_for(table.row.game_id).title}: {link}"
        )

    async def _edit(self, table: TableSnapshot, body: dict[str, Any], picture: Picture | None = None) -> bool:
        """Edit the table's message to ``body`` (with ``picture``, replacing any earlier one);
        False when nobody should be pinged there: the table can't be played where it is (and
        it ended), or Deckhand may not post there now."""
        row = table.row
        message_id = row.table_message_id or row.lobby_message_id
        if message_id is None:
            return True
        channel = self._channel(table)
        refused = partial(self._attaching_refused, row.channel_id)
        edit = partial(send_with_picture, channel.get_partial_message(message_id).edit, body, picture, edit=True,
                       what=f"table {row.id}", forbidden=refused)
        try:
            try:
                await edit()
            except discord.HTTPException as exc:
                if exc.code != THREAD_ARCHIVED:
                    raise
                if row.status == "cancelled":
                    return True  # a lobby nobody started: not worth reopening its thread for
                if not await self._reopened(row):
                    return False
                await edit()
            self._open_again(row.channel_id)
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                if row.status in ("lobby", "running"):
                    await self._abandon(row.id, CHANNEL_DELETED)
                return False
            # Someone deleted the table message: post it again so the game stays playable.
            if row.status in ("lobby", "running"):
                message = await send_with_picture(channel.send, body, picture, edit=False, what=f"table {row.id}",
                                                  forbidden=refused)
                await self.service.set_messages(row.id, table_message_id=message.id, lobby_message_id=message.id)
        except discord.Forbidden as exc:
            self._refused_here(row, exc)
            return False
        except UNREACHABLE as exc:
            self._show_again.missed(row.id, exc)
        except discord.HTTPException:
            log.warning("could not update the message of table %s", row.id, exc_info=True)
        return True

    def _refused_here(self, row: TableRow, exc: discord.Forbidden) -> None:
        """Discord refused Deckhand in the table's channel (a moderator took its View Channel
        or Send Messages there): one warning per channel, not one per move. The game goes on
        through people's private messages. The table is shown again, and its turn pinged, at
        the next move or the first click there whose permissions say Deckhand may post again
        (no polling: refused requests count towards Discord's limit on invalid ones)."""
        if row.channel_id in self._closed:
            return
        self._closed.add(row.channel_id)
        log.warning("Deckhand may not see or post in channel %s (%s): table %s is not shown there and nobody is "
                    "pinged until it can. Give Deckhand View Channel and Send Messages there; people can still "
                    "play from their private hand messages.", row.channel_id, exc.text or exc.status, row.id)

    def _open_again(self, channel_id: int) -> None:
        if channel_id in self._closed:
            self._closed.discard(channel_id)
            log.info("Deckhand may post in channel %s again", channel_id)

    async def _reopened(self, row: TableRow) -> bool:
        """Reopen the table's thread after Discord refused an edit there because it is archived
        (a day without messages, or a moderator archived it); True if it is open again. A
        thread a moderator also locked stays closed, and its table ends: nobody can play there."""
        thread = await self.bot.http.get_channel(row.channel_id)
        if thread.get("thread_metadata", {}).get("locked"):
            if row.status in ("lobby", "running"):
                await self._abandon(row.id, "A moderator closed the table's thread.")
            return False
        await self.bot.http.edit_channel(row.channel_id, archived=False, reason="a game is played in this thread")
        log.info("reopened the archived thread of table %s", row.id)
        return True

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
            for table_id in await self.service.guild_tables(guild.id):
                await self._abandon(table_id, "Deckhand was removed from the server.")
        except StorageUnavailable:
            log.warning("could not end the tables of server %s, which removed Deckhand: the database is away",
                        guild.id)

    async def _channel_gone(self, channel_id: int) -> None:
        """End the open table of a deleted channel or thread at once, not at its next move
        (which, without a turn timer, might never come)."""
        try:
            table_id = await self.service.channel_table(channel_id)
            if table_id is not None:
                await self._abandon(table_id, CHANNEL_DELETED)
        except StorageUnavailable:
            pass  # logged by the storage; the table ends when its message can't be edited

    async def _abandon(self, table_id: int, reason: str) -> None:
        """End a table nobody can play at any more, for ``reason``."""
        log.info("ending table %s: %s", table_id, reason)
        await self.service.abandon(table_id, reason)
        self._acting.pop(table_id, None)

    async def _ping(self, table: TableSnapshot) -> None:
        """Mention the humans to act when the turn passes to them; clear the ping at the end."""
        row = table.row
        if row.status != "running":
            # However the game ended (an AI's last move included), no ping outlives it.
            self._acting.pop(row.id, None)
            await self._replace_ping(table, None)
            return
        acting = tuple(s for s in players_to_act(table) if not row.seats[s].is_ai)
        if self._acting.get(row.id) == acting:
            return
        self._acting[row.id] = acting
        if not acting:
            return
        who = ", ".join(f"<@{row.seats[s].user_id}>" for s in acting)
        link = message_link(row.guild_id, row.channel_id, row.table_message_id)
        if not await self._replace_ping(
            table, f"🔔 {who}, your turn at {ui_for(row.game_id).title} #{row.id}. Open **My hand**: {link}"
        ):
            self._acting.pop(row.id, None)  # so the table shown again pings again

    async def _replace_ping(self, table: TableSnapshot, content: str | None) -> bool:
        """Replace the table's ping message with ``content`` (``None``: only remove it); False if
        Discord was out of reach, and the table is then shown again once it answers."""
        channel = self._channel(table)
        old = await self.service.ping_message(table.row.id)
        if old is None and content is None:
            return True
        new_id = stale = None
        try:
            if old is not None:
                try:
                    await channel.get_partial_message(old).delete()
                except UNREACHABLE:
                    raise
                except discord.HTTPException as exc:
                    if exc.code == THREAD_ARCHIVED:
                        stale = old  # sending the new ping reopens the thread; deleted then
            if content is not None:
                try:
                    new_id = (await channel.send(content, allowed_mentions=TURN_PING)).id
                except UNREACHABLE:
                    raise
                except discord.Forbidden as exc:
                    self._refused_here(table.row, exc)
                except discord.HTTPException:
                    log.warning("could not ping players of table %s", table.row.id, exc_info=True)
            if stale is not None and new_id is not None:
                with contextlib.suppress(discord.HTTPException, *UNREACHABLE):
                    await channel.get_partial_message(stale).delete()
        except UNREACHABLE as exc:
            self._show_again.missed(table.row.id, exc)
            return False
        await self.service.set_messages(table.row.id, ping_message_id=new_id)
        return True

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        await self._show_again.now()

    @commands.Cog.listener()
    async def on_shard_resumed(self, shard_id: int) -> None:
        await self._show_again.now()

    async def cog_unload(self) -> None:
        self._show_again.close()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer number forms, and clicks whose custom_id no Deckhand control recognises;
        show the table of a channel that refused Deckhand again once a click there says it
        may post."""
        if interaction.channel_id in self._closed and may_post_here(interaction):
            with contextlib.suppress(StorageUnavailable):  # logged by the storage; the next click tries again
                table_id = await self.service.channel_table(interaction.channel_id)
                if table_id is None:
                    self._closed.discard(interaction.channel_id)  # nothing left to show: stop looking
                else:
                    await self.service.show_again(table_id)
        custom_id = (interaction.data or {}).get("custom_id", "")
        if interaction.type is discord.InteractionType.modal_submit:
            form = find_form(custom_id)
            if form is not None:
                await form[0].submitted(interaction, form[1])
                return
        elif interaction.type is not discord.InteractionType.component or is_known(custom_id):
            return
        log.info("unrecognised control %r from user %s", clip(custom_id, CUSTOM_ID), interaction.user.id)
        try:
            await interaction.response.send_message("That control isn't one Deckhand recognises any more.",
                                                    ephemeral=True)
        except discord.HTTPException:
            pass

    # -- /table ----------------------------------------------------------------------

    async def _table_here(self, interaction: discord.Interaction) -> int:
        table_id = await self.service.channel_table(interaction.channel_id)
        if table_id is None:
            raise UserError("There's no open table in this channel. Start one with a game's `start` command.")
        return table_id

    @table.command(name="hand", description="Show your hand and your moves (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await show_hand(interaction, await self._table_here(interaction))

        await guarded(interaction, run)

    @table.command(name="status", description="Who is playing, whose turn it is, and the turn timer")
    async def status(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            snap = await self.service.table(await self._table_here(interaction))
            row = snap.row
            lines = [f"**{ui_for(row.game_id).title}** table #{row.id} — {row.status}"]
            lines.append("Players: " + ", ".join(snap.names[s.seat] + (" (AI)" if s.is_ai else "") for s in row.seats))
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

    @table.command(name="leave", description="Leave the table; an AI takes over your seat if the game is on")
    async def leave(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            table_id = await self._table_here(interaction)
            snap = await self.service.table(table_id)
            if snap.row.status == "lobby":
                await self.service.leave_lobby(table_id, player_of(interaction))
                await interaction.response.send_message("You left the lobby.", ephemeral=True)
            else:
                await self.service.leave_game(table_id, player_of(interaction))
                await interaction.response.send_message("You left the game; an AI plays your seat now.",
                                                        ephemeral=True)

        await guarded(interaction, run)

    @table.command(name="end", description="End the table in this channel (host or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            table_id = await self._table_here(interaction)
            snap = await self.service.table(table_id)
            if snap.row.status == "lobby":
                await self.service.cancel(table_id, player_of(interaction), is_admin=is_admin(interaction))
            else:
                await self.service.end(table_id, player_of(interaction), is_admin=is_admin(interaction))
            await interaction.response.send_message("The table is closed.", ephemeral=True)

        await guarded(interaction, run)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TablesCog(bot))
