"""Showing tables: each table's newest state on its one message (the service's :class:`~bot.service.Publisher`).

Per table, only the newest state waits to be shown and one request is under way at a time:
a state a newer one overtook is never sent (the Log keeps every event), and its picture is
never drawn. A table message a click's token may edit (a click on it answered by updating it,
as the lobby's are: :class:`~cogs.tokens.ClickedMessages`) is edited through the freshest such
token, outside the global request budget; any other request, and an edit whose token Discord
refuses, waits for its turn at the process's pacer (:mod:`cogs.pacing`), the table's new state
first, then its turn's ping (:mod:`cogs.turn_pings`), then tidying. A table
message Discord did not take (rate limited past discord.py's retries, out of reach, a 5xx) is
shown again later, as it is then: every table ends up showing its latest state. What a message
shows is stored (``tables.shown``, :mod:`cogs.publication`), so start-up shows exactly the
tables that may be behind. The hands people have open follow every state (:mod:`cogs.open_hands`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord

from bot.budget import Pacer, Priority, Route, edit_route
from bot.errors import StorageUnavailable
from bot.service import GameService, TableSnapshot
from bot.storage import SeatRow, TableRow
from games.i18n import Text, say

from .access import ChannelAccess
from .attachments import THREAD_ARCHIVED, Picture, draws_table, pictures_on, send_with_picture, table_picture
from .language import table_language
from .lobby_controls import lobby_message
from .messages import table_message
from .open_hands import OpenHands
from .outage import UNREACHABLE, ShowAgain
from .pacing import nonce, paced, rate_limited, retry_wait
from .publication import Publication
from .site_links import page_url, table_path
from .tokens import ChannelTokens, ClickedMessages, TokenRefused, edit_original
from .turn_pings import MENTIONS, TurnPings

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
"""Discord's error code when a channel no longer exists."""
CHANNEL_DELETED = say("The table's channel was deleted.")


def shown_key(row: TableRow) -> str:
    """What ``tables.shown`` holds once ``row`` is on show."""
    return f"{row.status}@{row.version}"


def message_id_of(row: TableRow) -> int | None:
    """The id of the message that shows ``row`` (its lobby's, which became its table's), if posted."""
    return row.table_message_id or row.lobby_message_id


def newer(a: TableSnapshot, b: TableSnapshot) -> bool:
    """Whether ``a`` is a later state of its table than ``b`` (a lobby's changes keep its version:
    the later one, in the order they were made, wins)."""
    return a.row.version >= b.row.version


@dataclass
class Shown:
    """What the publisher knows of one table's message."""

    newest: TableSnapshot | None = None
    """The newest state not yet shown."""
    busy: bool = False
    shown: str | None = None
    again: bool = False
    """The newest state came from start-up looking again (see :meth:`TablePublisher.show`)."""
    invitation: str | None = None
    """Play again's invitation, shown above the lobby while it is open (kept in memory only:
    the people it names were notified when it was posted)."""
    banner: Banner | None = None
    banner_known: bool = False
    """Whether :attr:`banner` was looked up (once per table and process)."""


@dataclass(frozen=True)
class Banner:
    """What opened a table, shown on its message under whose turn it is (a tournament's round);
    the table's first post notifies ``notify``, who then count as pinged for the first turn."""

    words: Text
    notify: tuple[int, ...]


BannerSource = Callable[[TableRow], Awaitable[Banner | None]]
"""Looks up a table's :class:`Banner` (None for a table nothing special opened)."""


class RateLimited(Exception):
    """Discord kept answering 429 (or 30046) past discord.py's retries: show the table again later."""


class TablePublisher:
    def __init__(self, bot: discord.Client, service: GameService, pacer: Pacer) -> None:
        self.bot = bot
        self.service = service
        self.pacer = pacer
        self._tables: dict[int, Shown] = {}
        self.access = ChannelAccess()
        """Channels where Discord refuses Deckhand's messages or pictures."""
        self.channels = ChannelTokens()
        """Per channel, its recent interactions (their webhooks carry pings outside the budget)."""
        self.clicks = ClickedMessages()
        """Per table message, the clicks whose tokens may edit it outside the budget."""
        self.hands = OpenHands(service)
        """The hand messages people have open, kept following the game."""
        self.publication = Publication(service)
        self._show_again = ShowAgain(service.show_again)
        self.pings = TurnPings(bot, service, pacer, access=self.access, channels=self.channels, hands=self.hands,
                               publication=self.publication, show_again=self._show_again)
        self.banners: BannerSource | None = None
        """Where tables' banners come from (the tournaments' cog sets itself here)."""

    # -- what the service calls ---------------------------------------------------------------

    async def show(self, table: TableSnapshot, *, again: bool = False) -> None:
        """Show ``table`` (a lobby or a game) unless a newer state of it is known; returns
        at once if the table is being shown already (that work shows the newest state).
        ``again``: start-up looking at a table that may be behind; its message is left as it
        is if it shows that version already, and only its turn's ping is seen to. The hands
        open at the table follow every state, shown or not."""
        self.hands.follow(table)
        shown = self._shown(table.row)
        if shown.newest is not None and not newer(table, shown.newest):
            return
        self.pings.follow(table)
        shown.newest = table
        shown.again = again
        if shown.busy:
            return
        shown.busy = True
        try:
            await self._show_newest(table.row.id, shown)
        finally:
            shown.busy = False
            if shown.newest is None and table.row.status not in ("lobby", "running"):
                self._tables.pop(table.row.id, None)
                self.pings.done_with(table)
                self.clicks.forget(message_id_of(table.row) or 0)

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None:
        """Remind ``seats`` that time is running out, unless the table moved on meanwhile."""
        shown = self._tables.get(table.row.id)
        latest = shown.newest if shown is not None else None
        if latest is not None and latest.row.version > table.row.version:
            return
        await self.pings.remind(table, seats, seconds_left)

    async def place(self, table: TableSnapshot, invitation: str | None = None) -> discord.Message:
        """Post a new lobby's message now (``/<game> start``, **Play again**), with ``invitation``
        above it (its mentions notified). Discord's refusal is raised to the caller."""
        body = lobby_message(table, invitation, await table_language(self.bot, self.service, table.row)).kwargs()
        if invitation is not None:
            body.update(allowed_mentions=MENTIONS)
        message = await self._post(table, body, None)
        shown = self._shown(table.row)  # stored with the message's id
        shown.shown, shown.invitation = shown_key(table.row), invitation
        return message

    async def close(self) -> None:
        """Stop showing tables; what was shown and pinged is stored first (a few seconds at most)."""
        self._show_again.close()
        self.hands.close()
        await self.publication.close()

    def tables_held(self) -> int:
        return len(self._tables) + self.pings.tables_held()

    # -- what the Discord layer tells it ----------------------------------------------------------

    def saw(self, interaction: discord.Interaction) -> None:
        """An interaction came in: its webhook may carry its channel's next ping, and once answered
        by updating the message clicked, its token may edit that message (a table's)."""
        self.channels.saw(interaction)
        self.clicks.saw(interaction)

    async def abandon(self, table_id: int, reason: Text) -> None:
        """End a table nobody can play at any more, for ``reason``: nothing is shown for it any more."""
        log.info("ending table %s: %s", table_id, reason)
        await self.service.play.abandon(table_id, reason)
        self._tables.pop(table_id, None)
        self.pings.forget(table_id)

    async def show_missed_now(self) -> None:
        """Discord answers again (a shard connected or resumed): show what it missed."""
        await self._show_again.now()

    # -- showing a table ----------------------------------------------------------------------------

    def _shown(self, row: TableRow) -> Shown:
        """What the publisher knows of ``row``'s message; the first time since start-up, what
        was shown as stored."""
        shown = self._tables.get(row.id)
        if shown is None:
            shown = self._tables[row.id] = Shown(shown=row.shown)
        return shown

    async def _show_newest(self, table_id: int, shown: Shown) -> None:
        """Show the table's newest state, again while newer ones come (during the requests, or
        while old pings are tidied away), then tidy."""
        while shown.newest is not None:
            if not await self._show_states(table_id, shown):
                return
            await self.pings.tidy(table_id)

    async def _show_states(self, table_id: int, shown: Shown) -> bool:
        """Show states until none is newer; False if the table can't be shown now."""
        failures = 0
        while shown.newest is not None:
            table = shown.newest
            on_show = shown.again and table.row.status != "lobby" and shown.shown == shown_key(table.row)
            try:
                done = True if on_show else await self._show_one(table)
            except RateLimited:
                await asyncio.sleep(retry_wait(failures))
                failures += 1
                continue
            except StorageUnavailable:
                self._show_again.missed(table_id, StorageUnavailable())
                return False
            if shown.newest is table:
                shown.newest = None
            if not done:
                return False
            if not on_show:
                shown.shown = shown_key(table.row)
                self.publication.note(table.row.id, shown=shown.shown)
            if shown.newest is None:  # nothing newer: this state's turn is the one to ping
                await self.pings.ping(table, overtaken=lambda: shown.newest is not None)
        return True

    async def _show_one(self, table: TableSnapshot) -> bool:
        """One state on show; False when there is nothing more to do for it (the table can't
        be shown where it is, or Discord was out of reach: it is shown again later)."""
        row = table.row
        language = await table_language(self.bot, self.service, row)
        if row.status in ("lobby", "cancelled"):
            body = lobby_message(table, self._shown(row).invitation, language).kwargs()
            picture = None
        else:
            banner = await self._banner(row)
            site = await page_url(self.bot, self.service, row.guild_id, table_path(row.id, row.status == "running"))
            body = table_message(table, language, banner.words.render(language) if banner else None, site).kwargs()
            if banner is not None and row.table_message_id is None:  # its first post tells the players
                body["allowed_mentions"] = discord.AllowedMentions(
                    users=[discord.Object(user) for user in banner.notify], roles=False, everyone=False)
            picture = None
            if (draws_table(table) and self.access.may_attach(row.channel_id)
                    and await pictures_on(self.service, row.guild_id)):
                picture = await table_picture(table, language)
        try:
            if row.table_message_id is None and row.lobby_message_id is None:
                if row.status in ("lobby", "running"):
                    await self._post(table, body, picture)
                return True
            return await self._edit(table, body, picture)
        except UNREACHABLE as exc:
            self._show_again.missed(row.id, exc)
            return False

    async def _banner(self, row: TableRow) -> Banner | None:
        shown = self._shown(row)
        if not shown.banner_known and self.banners is not None:
            shown.banner, shown.banner_known = await self.banners(row), True
        return shown.banner

    async def _post(self, table: TableSnapshot, body: dict[str, Any], picture: Picture | None) -> discord.Message:
        """A new message for the table (its first, or after its message was deleted or its id lost)."""
        row = table.row
        send = paced(self._channel(row).send, self.pacer, Priority.TURN, row.channel_id, Route.CREATE)
        body = {**body, "nonce": nonce("t", row.id, "v", row.version)}
        message = await send_with_picture(send, body, picture, edit=False, what=f"table {row.id}",
                                          forbidden=partial(self.access.attaching_refused, row.channel_id))
        await self.service.set_publication(row.id, table_message_id=message.id, lobby_message_id=message.id,
                                           shown=shown_key(row))
        return message

    async def _edit(self, table: TableSnapshot, body: dict[str, Any], picture: Picture | None) -> bool:
        row = table.row
        message_id = message_id_of(row)
        assert message_id is not None
        if await self._edited_through_token(row, message_id, body, picture):
            return True
        edit = partial(send_with_picture,
                       paced(self._channel(row).get_partial_message(message_id).edit, self.pacer, Priority.TURN,
                             row.channel_id, edit_route(message_id)),
                       body, picture, edit=True, what=f"table {row.id}",
                       forbidden=partial(self.access.attaching_refused, row.channel_id))
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
            self.access.open_again(row.channel_id)
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                if row.status in ("lobby", "running"):
                    await self.abandon(row.id, CHANNEL_DELETED)
                return False
            # Someone deleted the table message: post it again so the game stays playable.
            if row.status in ("lobby", "running"):
                await self._post(table, body, picture)
        except discord.Forbidden as exc:
            self.access.refused(row, exc)
            return False
        except UNREACHABLE:
            raise  # not shown: shown again once Discord answers (_show_one)
        except discord.HTTPException as exc:
            if rate_limited(exc, self.pacer, row.channel_id):
                raise RateLimited() from None
            log.warning("could not update the message of table %s: %s %s", row.id, exc.status, exc.text)
        return True

    async def _edited_through_token(self, row: TableRow, message_id: int, body: dict[str, Any],
                                    picture: Picture | None) -> bool:
        """Edit the table's message through the freshest click's token that may, outside the
        global budget; False if none may, or Discord refused the edit: the budget's route then
        edits it (and meets whatever Discord says of the message, the channel or the thread)."""
        interaction = self.clicks.freshest(message_id, time.time())
        if interaction is None:
            return False
        try:
            await send_with_picture(partial(edit_original, interaction), body, picture, edit=True,
                                    what=f"table {row.id}",
                                    forbidden=partial(self.access.attaching_refused, row.channel_id))
        except TokenRefused as exc:
            log.info("a click's token can't edit table %s's message any more (%s): edited within the budget",
                     row.id, exc)
            self.clicks.drop(message_id, interaction)
            return False
        except UNREACHABLE:
            raise
        except discord.HTTPException as exc:
            log.info("table %s's message could not be edited through a click's token (%s %s): edited within the "
                     "budget", row.id, exc.status, exc.text)
            return False
        self.access.open_again(row.channel_id)
        return True

    def _channel(self, row: TableRow) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    async def _reopened(self, row: TableRow) -> bool:
        """Reopen the table's thread after Discord refused an edit there because it is archived
        (a day without messages, or a moderator archived it); True if it is open again. A
        thread a moderator also locked stays closed, and its table ends: nobody can play there."""
        async with self.pacer.request(Priority.TURN, row.channel_id):
            thread = await self.bot.http.get_channel(row.channel_id)
        metadata = thread.get("thread_metadata")
        if isinstance(metadata, dict) and metadata.get("locked"):
            if row.status in ("lobby", "running"):
                await self.abandon(row.id, say("A moderator closed the table's thread."))
            return False
        async with self.pacer.request(Priority.TURN, row.channel_id):
            await self.bot.http.edit_channel(row.channel_id, archived=False, reason="a game is played in this thread")
        log.info("reopened the archived thread of table %s", row.id)
        return True
