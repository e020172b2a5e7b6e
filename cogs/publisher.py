"""Showing tables in Discord within its request budget: the table message, turn pings and
reminders (the service's :class:`~bot.service.Publisher`).

Per table, only the newest state waits to be shown and one request is under way at a time:
a state a newer one overtook is never sent (the Log keeps every event), and its picture is
never drawn. Every request waits for its turn at the process's :class:`~bot.budget.Pacer`,
the table's new state first, then pings, then tidying. A table message Discord did not
take (rate limited past discord.py's retries, out of reach, a 5xx) is shown again later,
as it is then: every table ends up showing its latest state.

A turn's ping reaches each person whose turn begins once: it rides on a recent interaction
in the table's channel when there is one (an interaction's webhook is outside the global
budget), else it is a message of its own, sent with a nonce so a retry after a crash is
not a second ping. What was shown and pinged is stored (``tables.shown``, ``tables.pinged``),
so start-up shows exactly the tables that may be behind, and pings nobody twice.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any

import discord

from bot.budget import Pacer, Priority, Route, edit_route
from bot.errors import StorageUnavailable
from bot.service import GameService, TableSnapshot
from bot.storage import SeatRow, TableRow
from games.i18n import Text, say

from .attachments import THREAD_ARCHIVED, Picture, draws_table, pictures_on, send_with_picture, table_picture
from .language import server_language
from .lobby_controls import lobby_message
from .messages import table_message
from .open_hands import OpenHands
from .outage import UNREACHABLE, ShowAgain
from .tokens import token_expiry
from .ui import message_link, players_to_act, ui_for

log = logging.getLogger(__name__)

MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False)
"""A ping or an invitation notifies the people it names, nobody else."""
UNKNOWN_CHANNEL = 10003
"""Discord's error code when a channel no longer exists."""
OLD_MESSAGE_EDITS = 30046
"""Discord's error code for too many edits of a message older than an hour."""
CHANNEL_DELETED = say("The table's channel was deleted.")
NO_ATTACHING_SECONDS = 3600
"""How long a channel's tables are shown as text after Discord refused one of their pictures."""
RETRY_SECONDS = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Waits before showing a table again after Discord rate-limited it past discord.py's retries."""
WEBHOOK_SPARE_SECONDS = 60.0
"""An interaction's webhook carries a ping only while this much of its 15 minutes is left."""
SAVE_SECONDS = 2.0
"""How long closing waits for what was shown and pinged to be stored."""
PING_LOOKBACK = 20
CLOCK_MARGIN = 5.0
"""Seconds by which Discord's clock may differ from ours when looking for a ping by its time."""
"""Messages read back, after a crash, to find a ping it may have cut short."""
RECENT_INTERACTIONS = 3
"""Interactions kept per channel: the newest answered one carries the ping."""
ANSWERED = (discord.InteractionResponseType.channel_message, discord.InteractionResponseType.deferred_message_update,
            discord.InteractionResponseType.message_update)
"""Answers after which an interaction's follow-ups are messages of their own (not the answer itself)."""


def shown_key(row: TableRow) -> str:
    """What ``tables.shown`` holds once ``row`` is on show."""
    return f"{row.status}@{row.version}"


def newer(a: TableSnapshot, b: TableSnapshot) -> bool:
    """Whether ``a`` is a later state of its table than ``b`` (a lobby's changes keep its version:
    the later one, in the order they were made, wins)."""
    return a.row.version >= b.row.version


def nonce(*parts: object) -> str:
    """A message nonce (at most 25 characters): Discord then takes a message sent twice, as
    after a crash between sending it and storing its id, as the first one."""
    text = "dh" + "".join(str(p) for p in parts)
    return text if len(text) <= 25 else str(abs(hash(text)) % 10**24)


@dataclass
class Ping:
    message_id: int
    webhook: discord.Webhook | None = None
    """The interaction webhook that posted it, while its token may delete it."""
    expires: float = 0.0


@dataclass
class Shown:
    """What the publisher knows of one table."""

    channel_id: int
    newest: TableSnapshot | None = None
    """The newest state not yet shown."""
    busy: bool = False
    shown: str | None = None
    seen: bool = False
    """Whether a state of the table was seen since start-up."""
    again: bool = False
    """The newest state came from start-up looking again (see :meth:`TablePublisher.show`)."""
    acting: tuple[int, ...] = ()
    """The people to act in the newest state seen."""
    turn_starts: dict[int, int | None] = field(default_factory=dict)
    """Per person to act, the version their turn began at (None: begun before start-up; the
    move log says when)."""
    pinged: dict[int, int] = field(default_factory=dict)
    """Per person, the turn (its first version) they were last pinged for."""
    ping: Ping | None = None
    stale_pings: list[Ping] = field(default_factory=list)
    """Pings of turns that are over, to delete when the budget allows."""
    cut_short: dict[str, Any] | None = None
    """A ping the last process was sending when it stopped (``tables.pinging``): whether it
    went is looked up in the channel before anyone is pinged again."""
    invitation: str | None = None
    """Play again's invitation, shown above the lobby while it is open (kept in memory only:
    the people it names were notified when it was posted)."""


@dataclass
class Webhook:
    """A recent interaction in a channel, whose webhook may carry a ping there."""

    interaction: discord.Interaction
    expires: float


class TablePublisher:
    def __init__(self, bot: discord.Client, service: GameService, pacer: Pacer) -> None:
        self.bot = bot
        self.service = service
        self.pacer = pacer
        self._tables: dict[int, Shown] = {}
        self.hands = OpenHands(service)
        """The hand messages people have open, kept following the game."""
        self._webhooks: dict[int, collections.deque[Webhook]] = {}
        """Per channel, its latest interactions (the newest last)."""
        self._show_again = ShowAgain(service.show_again)
        self._unsaved: dict[int, dict[str, Any]] = {}
        """Per table, publication columns not yet stored (:meth:`_note`)."""
        self._saving: dict[int, asyncio.Task[None]] = {}
        self._no_attaching: dict[int, float] = {}
        """Channels where Discord refused a table picture (403), until when (``time.monotonic``)."""
        self.closed: set[int] = set()
        """Channels where Discord refused Deckhand itself (403): warned about once, until it may post there again."""

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
        self._follow_turns(shown, table)
        shown.newest = table
        shown.again = again
        if shown.busy:
            return
        shown.busy = True
        try:
            await self._show_newest(table.row.id, shown)
        finally:
            shown.busy = False
            if shown.newest is None and not shown.stale_pings and not shown.acting \
                    and table.row.status not in ("lobby", "running"):
                self._tables.pop(table.row.id, None)

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None:
        """Remind ``seats`` that time is running out, unless the table moved on meanwhile."""
        shown = self._tables.get(table.row.id)
        latest = shown.newest if shown is not None and shown.newest is not None else None
        if latest is not None and latest.row.version > table.row.version:
            return
        humans = [s for s in seats if s.user_id is not None and not s.is_ai]
        if not humans or table.row.channel_id in self.closed:
            return
        minutes = max(1, round(seconds_left / 60))
        who = ", ".join(f"<@{s.user_id}>" for s in humans)
        link = message_link(table.row.guild_id, table.row.channel_id, table.row.table_message_id)
        content = say("⏰ {who}, about {minutes} min left for your turn at {game}: {link}", who=who, minutes=minutes,
                      game=ui_for(table.row.game_id).title, link=link).render(await self.language(table.row))
        shown = self._shown(table.row)
        if await self._send_ping(table, shown, content, nonce("r", table.row.id, "v", table.row.version)):
            await self._tidy(shown)

    async def place(self, table: TableSnapshot, invitation: str | None = None) -> discord.Message:
        """Post a new lobby's message now (``/<game> start``, **Play again**), with ``invitation``
        above it (its mentions notified). Discord's refusal is raised to the caller."""
        body = lobby_message(table, invitation, await self.language(table.row)).kwargs()
        if invitation is not None:
            body.update(allowed_mentions=MENTIONS)
        message = await self._post(table, body, None)
        shown = self._shown(table.row)  # stored with the message's id
        shown.shown, shown.invitation = shown_key(table.row), invitation
        return message

    async def language(self, row: TableRow) -> str:
        """The language of the table's public messages: its server's (setting, else Discord locale)."""
        guild = self.bot.get_guild(row.guild_id)
        settings = await self.service.storage.guild_settings(row.guild_id)
        return server_language(settings, guild.preferred_locale if guild is not None else None)

    # -- what the Discord layer tells it ----------------------------------------------------------

    def saw(self, interaction: discord.Interaction) -> None:
        """An interaction in a server channel: its webhook may carry the channel's next ping."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return
        recent = self._webhooks.get(interaction.channel_id)
        if recent is None:
            recent = self._webhooks[interaction.channel_id] = collections.deque(maxlen=RECENT_INTERACTIONS)
        recent.append(Webhook(interaction, token_expiry(interaction)))
        if len(self._webhooks) > 10_000:
            now = time.time()
            self._webhooks = {c: r for c, r in self._webhooks.items() if r[-1].expires > now}

    def forget(self, table_id: int) -> None:
        """The table ended where nothing can be shown any more (its channel or server is gone)."""
        self._tables.pop(table_id, None)

    def open_again(self, channel_id: int) -> None:
        if channel_id in self.closed:
            self.closed.discard(channel_id)
            log.info("Deckhand may post in channel %s again", channel_id)

    async def show_missed_now(self) -> None:
        """Discord answers again (a shard connected or resumed): show what it missed."""
        await self._show_again.now()

    async def close(self) -> None:
        """Stop showing tables; what was shown and pinged is stored first (a few seconds at most)."""
        self._show_again.close()
        self.hands.close()
        if self._saving:
            await asyncio.wait(list(self._saving.values()), timeout=SAVE_SECONDS)
        for task in self._saving.values():
            task.cancel()

    def tables_held(self) -> int:
        return len(self._tables)

    # -- showing a table ----------------------------------------------------------------------------

    def _shown(self, row: TableRow) -> Shown:
        """What the publisher knows of ``row``'s table; the first time since start-up, what
        was shown and pinged as stored."""
        shown = self._tables.get(row.id)
        if shown is None:
            ping = Ping(row.ping_message_id) if row.ping_message_id else None
            shown = self._tables[row.id] = Shown(row.channel_id, shown=row.shown, pinged=dict(row.pinged), ping=ping,
                                                 cut_short=row.pinging)
        return shown

    def _follow_turns(self, shown: Shown, table: TableSnapshot) -> None:
        """Note whose turn begins in ``table`` (every committed state passes here, even one
        that is never shown, so a turn another state overtook still counts as a new turn)."""
        acting = self._humans_to_act(table)
        for seat in acting:
            if seat not in shown.turn_starts:
                shown.turn_starts[seat] = table.row.version if shown.seen else None
        for seat in [seat for seat in shown.turn_starts if seat not in acting]:
            del shown.turn_starts[seat]
        shown.acting, shown.seen = acting, True

    @staticmethod
    def _humans_to_act(table: TableSnapshot) -> tuple[int, ...]:
        row = table.row
        if row.status != "running":
            return ()
        return tuple(s for s in players_to_act(table) if not row.seats[s].is_ai and row.seats[s].user_id is not None)

    async def _show_newest(self, table_id: int, shown: Shown) -> None:
        """Show the table's newest state, again while newer ones come (during the requests, or
        while old pings are tidied away), then tidy."""
        while shown.newest is not None:
            if not await self._show_states(table_id, shown):
                return
            await self._tidy(shown)

    async def _show_states(self, table_id: int, shown: Shown) -> bool:
        """Show states until none is newer; False if the table can't be shown now."""
        failures = 0
        while shown.newest is not None:
            table = shown.newest
            on_show = shown.again and table.row.status != "lobby" and shown.shown == shown_key(table.row)
            try:
                done = True if on_show else await self._show_one(table)
            except _RateLimited:
                await asyncio.sleep(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
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
                self._note(table.row.id, shown=shown.shown)
            if shown.newest is None:  # nothing newer: this state's turn is the one to ping
                await self._ping_turn(table, shown)
        return True

    async def _show_one(self, table: TableSnapshot) -> bool:
        """One state on show; False when there is nothing more to do for it (the table can't
        be shown where it is, or Discord was out of reach: it is shown again later)."""
        row = table.row
        language = await self.language(row)
        if row.status in ("lobby", "cancelled"):
            body = lobby_message(table, self._shown(row).invitation, language).kwargs()
            picture = None
        else:
            body = table_message(table, language).kwargs()
            picture = None
            if (draws_table(table) and self._may_attach(row.channel_id)
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

    async def _post(self, table: TableSnapshot, body: dict[str, Any], picture: Picture | None) -> discord.Message:
        """A new message for the table (its first, or after its message was deleted or its id lost)."""
        row = table.row
        channel = self._channel(row)
        send = self._paced(channel.send, Priority.TURN, row.channel_id, Route.CREATE)
        body = {**body, "nonce": nonce("t", row.id, "v", row.version)}
        message = await send_with_picture(send, body, picture, edit=False, what=f"table {row.id}",
                                          forbidden=partial(self._attaching_refused, row.channel_id))
        await self.service.set_publication(row.id, table_message_id=message.id, lobby_message_id=message.id,
                                           shown=shown_key(row))
        return message

    async def _edit(self, table: TableSnapshot, body: dict[str, Any], picture: Picture | None) -> bool:
        row = table.row
        message_id = row.table_message_id or row.lobby_message_id
        assert message_id is not None
        channel = self._channel(row)
        edit = partial(send_with_picture,
                       self._paced(channel.get_partial_message(message_id).edit, Priority.TURN, row.channel_id,
                                   edit_route(message_id)),
                       body, picture, edit=True, what=f"table {row.id}",
                       forbidden=partial(self._attaching_refused, row.channel_id))
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
            self.open_again(row.channel_id)
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                if row.status in ("lobby", "running"):
                    await self.abandon(row.id, CHANNEL_DELETED)
                return False
            # Someone deleted the table message: post it again so the game stays playable.
            if row.status in ("lobby", "running"):
                await self._post(table, body, picture)
        except discord.Forbidden as exc:
            self._refused_here(row, exc)
            return False
        except discord.HTTPException as exc:
            if exc.status == 429 or exc.code == OLD_MESSAGE_EDITS:
                if exc.code == OLD_MESSAGE_EDITS:
                    self.pacer.learn(row.channel_id, Route.OLD_EDIT, 0, 6.0)
                raise _RateLimited() from None
            log.warning("could not update the message of table %s: %s %s", row.id, exc.status, exc.text)
        return True

    def _paced(self, request: Callable[..., Awaitable[Any]], priority: Priority, channel_id: int,
               route: Route) -> Callable[..., Awaitable[Any]]:
        async def paced(**kwargs: Any) -> Any:
            async with self.pacer.request(priority, channel_id, route):
                return await request(**kwargs)

        return paced

    def _channel(self, row: TableRow) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    def _note(self, table_id: int, **columns: Any) -> None:
        """Store what the table's message shows and who was pinged, in the background (a slow
        or locked database never holds up showing the table): one write at a time per table,
        the newest values winning."""
        self._unsaved.setdefault(table_id, {}).update(columns)
        if table_id not in self._saving:
            self._saving[table_id] = asyncio.get_running_loop().create_task(
                self._save(table_id), name=f"publication-{table_id}")

    async def _stored(self, table_id: int, **columns: Any) -> None:
        """:meth:`_note`, then wait until everything noted for the table so far is stored."""
        self._note(table_id, **columns)
        saving = self._saving.get(table_id)
        if saving is not None:
            await asyncio.shield(saving)

    async def _save(self, table_id: int) -> None:
        try:
            while table_id in self._unsaved:
                columns = self._unsaved.pop(table_id)
                try:
                    await self.service.set_publication(table_id, **columns)
                except StorageUnavailable:
                    pass  # logged by the storage; at worst start-up shows the table once more
        finally:
            del self._saving[table_id]

    # -- pings ------------------------------------------------------------------------------------

    async def _ping_turn(self, table: TableSnapshot, shown: Shown) -> None:
        """Ping the people whose turn began and who were not pinged for it; once nobody
        pinged is to act any more, their ping goes (when the budget allows)."""
        row = table.row
        await self._resolve_turn_starts(row, shown)
        if shown.newest is not None:
            return  # a newer state came meanwhile: its turn is pinged once it is shown
        due = [seat for seat in shown.acting if shown.pinged.get(seat) != shown.turn_starts.get(seat)]
        if shown.ping is not None and not due and not shown.acting:
            shown.stale_pings.append(shown.ping)
            shown.ping = None
            self._note(row.id, ping_message_id=None)
        if not due or row.channel_id in self.closed:
            return
        # The ping names everyone to act, and notifies only those whose turn just began; it asks
        # them to open their hand unless the one they have open shows their moves already.
        who = ", ".join(f"<@{row.seats[seat].user_id}>" for seat in shown.acting)
        link = message_link(row.guild_id, row.channel_id, row.table_message_id)
        ui = ui_for(row.game_id, await self.language(row))
        users = [user for seat in due if (user := row.seats[seat].user_id) is not None]
        ready = await self.hands.showing_turn(row.id, users) == set(users)
        words = {"who": who, "what": ui.turn_words(table), "game": ui.title, "table": str(row.id), "link": link}
        content = ui.words(say("🔔 {who} {what} at {game} #{table}: {link}", **words) if ready else
                           say("🔔 {who} {what} at {game} #{table}: open **My hand** on {link}", **words))
        notified = discord.AllowedMentions(users=[discord.Object(user) for user in users], roles=False, everyone=False)
        starts = {seat: start for seat in due if (start := shown.turn_starts.get(seat)) is not None}
        sending = {"seats": {str(seat): start for seat, start in starts.items()}, "at": time.time(),
                   "after": max((p.message_id for p in (shown.ping, *shown.stale_pings) if p), default=0)}
        # Stored before the ping goes (after anything noted before it): a crash meanwhile
        # leaves a ping to look for, not one sent twice.
        await self._stored(row.id, pinging=sending)
        if shown.newest is not None:  # overtaken while it was stored: the newer state's turn is pinged
            self._note(row.id, pinging=None)
            return
        if await self._send_ping(table, shown, content, nonce("p", row.id, "v", row.version), notified):
            shown.pinged.update(starts)
            self._note(row.id, pinged={str(s): v for s, v in shown.pinged.items()}, pinging=None)

    async def _resolve_turn_starts(self, row: TableRow, shown: Shown) -> None:
        """Turns under way when the bot started began with the last move of someone else
        (the move log says which), or with the game (version 1); a ping the last process was
        sending when it stopped counts as sent if the channel holds it."""
        for seat, start in list(shown.turn_starts.items()):
            if start is None:
                shown.turn_starts[seat] = await self.service.storage.last_move_by_others(row.id, seat) or 1
        if shown.cut_short is not None:
            sending, shown.cut_short = shown.cut_short, None
            found = await self._sent_ping(row, sending)
            if found is not None:
                shown.pinged.update({int(seat): start for seat, start in sending["seats"].items()})
                shown.ping = Ping(found)
                self._note(row.id, pinged={str(s): v for s, v in shown.pinged.items()}, ping_message_id=found,
                           pinging=None)
            else:
                self._note(row.id, pinging=None)

    async def _sent_ping(self, row: TableRow, sending: dict[str, Any]) -> int | None:
        """The id of the ping the last process sent for ``sending``'s seats, if the channel's
        latest messages hold one (a mention of each, from Deckhand, sent since), else None."""
        users = {str(row.seats[int(seat)].user_id) for seat in sending["seats"]}
        # A few seconds' margin for clocks, but never as far back as the table's pings known then
        # (a player's ping for their turn before); the table's own message names the players too.
        after = max(discord.utils.time_snowflake(datetime.fromtimestamp(sending["at"] - CLOCK_MARGIN, UTC)),
                    sending.get("after", 0))
        not_pings = {str(row.table_message_id), str(row.lobby_message_id)}
        try:
            async with self.pacer.request(Priority.PING, row.channel_id):
                messages = await self.bot.http.logs_from(row.channel_id, PING_LOOKBACK, after=after)
        except (discord.HTTPException, *UNREACHABLE) as exc:
            log.info("could not look for the ping table %s was sending: %s", row.id, exc)
            return None
        mine = self.bot.user.id if self.bot.user else None
        for message in messages:
            mentioned = {str(user["id"]) for user in message.get("mentions", [])}
            if str(message["author"]["id"]) == str(mine) and message["id"] not in not_pings and users <= mentioned:
                return int(message["id"])
        return None

    async def _send_ping(self, table: TableSnapshot, shown: Shown, content: str, message_nonce: str,
                         mentions: discord.AllowedMentions = MENTIONS) -> bool:
        """Post ``content`` as the table's ping, replacing the one before (``mentions``: who is
        notified); False if it did not go."""
        row = table.row
        ping = await self._post_ping(row, content, message_nonce, mentions)
        if ping is None:
            return False
        if shown.ping is not None:
            shown.stale_pings.append(shown.ping)
        shown.ping = ping
        self._note(row.id, ping_message_id=ping.message_id)
        return True

    async def _post_ping(self, row: TableRow, content: str, message_nonce: str,
                         mentions: discord.AllowedMentions) -> Ping | None:
        webhook = self._webhook_for(row.channel_id)
        if webhook is not None:
            try:
                message = await webhook.interaction.followup.send(content, allowed_mentions=mentions, wait=True)
                return Ping(message.id, webhook.interaction.followup, webhook.expires)
            except discord.HTTPException as exc:  # the token went: the channel takes it
                log.info("a ping of table %s could not ride on an interaction (%s %s)", row.id, exc.status, exc.text)
            except UNREACHABLE as exc:
                self._show_again.missed(row.id, exc)
                return None
        send = self._paced(self._channel(row).send, Priority.PING, row.channel_id, Route.CREATE)
        try:
            message = await send(content=content, allowed_mentions=mentions, nonce=message_nonce)
        except discord.Forbidden as exc:
            self._refused_here(row, exc)
            return None
        except UNREACHABLE as exc:
            self._show_again.missed(row.id, exc)
            return None
        except discord.HTTPException as exc:
            log.warning("could not ping players of table %s: %s %s", row.id, exc.status, exc.text)
            return None
        return Ping(message.id)

    def _webhook_for(self, channel_id: int) -> Webhook | None:
        """The channel's newest interaction that was answered with a message and has time
        left (the newest may not be answered yet: its reply still being drawn)."""
        now = time.time()
        for webhook in reversed(self._webhooks.get(channel_id, ())):
            response = webhook.interaction.response
            if webhook.expires - now >= WEBHOOK_SPARE_SECONDS and response.is_done() and response.type in ANSWERED:
                return webhook
        return None

    async def _tidy(self, shown: Shown) -> None:
        """Delete the pings of turns that are over (last in line for the budget)."""
        while shown.stale_pings:
            ping = shown.stale_pings[0]
            try:
                if ping.webhook is not None and ping.expires - time.time() > WEBHOOK_SPARE_SECONDS:
                    await ping.webhook.delete_message(ping.message_id)
                else:
                    async with self.pacer.request(Priority.TIDY, shown.channel_id, Route.DELETE):
                        await self.bot.http.delete_message(shown.channel_id, ping.message_id)
            except discord.NotFound:
                pass
            except discord.HTTPException as exc:
                if exc.code == THREAD_ARCHIVED:
                    pass  # the next message in the thread reopens it; the ping goes with the table
                else:
                    log.info("could not delete an old ping: %s %s", exc.status, exc.text)
                    return
            except UNREACHABLE:
                return
            shown.stale_pings.pop(0)

    # -- where a table can't be shown -------------------------------------------------------------------

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

    def _refused_here(self, row: TableRow, exc: discord.Forbidden) -> None:
        """Discord refused Deckhand in the table's channel (a moderator took its View Channel
        or Send Messages there): one warning per channel, not one per move. The game goes on
        through people's private messages. The table is shown again, and its turn pinged, at
        the next move or the first click there whose permissions say Deckhand may post again
        (no polling: refused requests count towards Discord's limit on invalid ones)."""
        if row.channel_id in self.closed:
            return
        self.closed.add(row.channel_id)
        log.warning("Deckhand may not see or post in channel %s (%s): table %s is not shown there and nobody is "
                    "pinged until it can. Give Deckhand View Channel and Send Messages there; people can still "
                    "play from their private hand messages.", row.channel_id, exc.text or exc.status, row.id)

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

    async def abandon(self, table_id: int, reason: Text) -> None:
        """End a table nobody can play at any more, for ``reason``: nothing is shown for it any more."""
        log.info("ending table %s: %s", table_id, reason)
        await self.service.abandon(table_id, reason)
        self.forget(table_id)


class _RateLimited(Exception):
    """Discord kept answering 429 (or 30046) past discord.py's retries: show the table again later."""
