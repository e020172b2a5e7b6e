"""Turn pings: one mention tells each person their turn began, and the half-time reminder.

A turn's ping reaches each person whose turn begins once: it rides on a recent interaction in
the table's channel when there is one (an interaction's webhook is outside the global budget:
:class:`~cogs.tokens.ChannelTokens`), else it is a message of its own, sent with a nonce so a
retry after a crash is not a second ping. Who was pinged, and a ping's intent before it goes,
are stored (``tables.pinged``, ``tables.pinging``), so nobody is pinged twice, even by a process
that took over after a crash. A ping goes once nobody it names is to act (when the budget allows).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

from bot.budget import Pacer, Priority, Route
from bot.service import GameService, TableSnapshot
from bot.storage import SeatRow, TableRow
from games.i18n import say

from .access import ChannelAccess
from .attachments import THREAD_ARCHIVED
from .language import table_language
from .open_hands import OpenHands
from .outage import UNREACHABLE, ShowAgain
from .pacing import nonce, paced
from .publication import Publication
from .tokens import WEBHOOK_SPARE_SECONDS, ChannelTokens
from .ui import message_link, players_to_act, ui_for
from .webhook_requests import delete_follow_up, send_follow_up

log = logging.getLogger(__name__)

MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False)
"""A ping or an invitation notifies the people it names, nobody else."""
PING_LOOKBACK = 20
"""Messages read back, after a crash, to find a ping it may have cut short."""
CLOCK_MARGIN = 5.0
"""Seconds by which Discord's clock may differ from ours when looking for a ping by its time."""


@dataclass
class Ping:
    message_id: int
    interaction: discord.Interaction | None = None
    """The interaction whose webhook posted it, while its token may delete it."""
    expires: float = 0.0


@dataclass
class Turns:
    """What the pings know of one table's turns."""

    channel_id: int
    seen: bool = False
    """Whether a state of the table was seen since start-up."""
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


def humans_to_act(table: TableSnapshot) -> tuple[int, ...]:
    """The seats people play that are to act (none unless the game runs)."""
    row = table.row
    if row.status != "running":
        return ()
    return tuple(s for s in players_to_act(table) if not row.seats[s].is_ai and row.seats[s].user_id is not None)


class TurnPings:
    def __init__(self, bot: discord.Client, service: GameService, pacer: Pacer, *, access: ChannelAccess,
                 channels: ChannelTokens, hands: OpenHands, publication: Publication, show_again: ShowAgain) -> None:
        self.bot = bot
        self.service = service
        self.pacer = pacer
        self.access = access
        self.channels = channels
        self.hands = hands
        self.publication = publication
        self.show_again = show_again
        self._tables: dict[int, Turns] = {}

    def follow(self, table: TableSnapshot) -> None:
        """Note whose turn begins in ``table`` (every state newer than the last passes here, even one
        that is never shown, so a turn another state overtook still counts as a new turn)."""
        turns = self._turns(table.row)
        acting = humans_to_act(table)
        for seat in acting:
            if seat not in turns.turn_starts:
                turns.turn_starts[seat] = table.row.version if turns.seen else None
        for seat in [seat for seat in turns.turn_starts if seat not in acting]:
            del turns.turn_starts[seat]
        turns.acting, turns.seen = acting, True

    async def ping(self, table: TableSnapshot, overtaken: Callable[[], bool]) -> None:
        """Ping the people whose turn began in ``table`` (shown just now) and who were not pinged
        for it; once nobody pinged is to act any more, their ping goes (when the budget allows).
        ``overtaken``: whether a newer state of the table came meanwhile (its turn is pinged
        once it is shown)."""
        row = table.row
        turns = self._turns(row)
        await self._resolve_turn_starts(row, turns)
        if overtaken():
            return
        due = [seat for seat in turns.acting if turns.pinged.get(seat) != turns.turn_starts.get(seat)]
        if turns.ping is not None and not due and not turns.acting:
            turns.stale_pings.append(turns.ping)
            turns.ping = None
            self.publication.note(row.id, ping_message_id=None)
        if not due or row.channel_id in self.access.closed:
            return
        # The ping names everyone to act, and notifies only those whose turn just began; it asks
        # them to open their hand unless the one they have open shows their moves already.
        who = ", ".join(f"<@{row.seats[seat].user_id}>" for seat in turns.acting)
        link = message_link(row.guild_id, row.channel_id, row.table_message_id)
        ui = ui_for(row.game_id, await table_language(self.bot, self.service, row))
        users = [user for seat in due if (user := row.seats[seat].user_id) is not None]
        ready = await self.hands.showing_turn(row.id, users) == set(users)
        words = {"who": who, "what": ui.turn_words(table), "game": ui.title, "table": str(row.id), "link": link}
        content = ui.words(say("🔔 {who} {what} at {game} #{table}: {link}", **words) if ready else
                           say("🔔 {who} {what} at {game} #{table}: open **My hand** on {link}", **words))
        notified = discord.AllowedMentions(users=[discord.Object(user) for user in users], roles=False, everyone=False)
        starts = {seat: start for seat in due if (start := turns.turn_starts.get(seat)) is not None}
        sending = {"seats": {str(seat): start for seat, start in starts.items()}, "at": time.time(),
                   "after": max((p.message_id for p in (turns.ping, *turns.stale_pings) if p), default=0)}
        # Stored before the ping goes (after anything noted before it): a crash meanwhile
        # leaves a ping to look for, not one sent twice.
        await self.publication.stored(row.id, pinging=sending)
        if overtaken():  # a newer state came while it was stored: that state's turn is pinged
            self.publication.note(row.id, pinging=None)
            return
        if await self._send(table, turns, content, nonce("p", row.id, "v", row.version), notified):
            turns.pinged.update(starts)
            self.publication.note(row.id, pinged={str(s): v for s, v in turns.pinged.items()}, pinging=None)

    async def remind(self, table: TableSnapshot, seats: list[SeatRow], seconds_left: float) -> None:
        """Remind ``seats`` that time is running out (a ping of its own, replacing the turn's)."""
        humans = [s for s in seats if s.user_id is not None and not s.is_ai]
        if not humans or table.row.channel_id in self.access.closed:
            return
        minutes = max(1, round(seconds_left / 60))
        who = ", ".join(f"<@{s.user_id}>" for s in humans)
        link = message_link(table.row.guild_id, table.row.channel_id, table.row.table_message_id)
        content = say("⏰ {who}, about {minutes} min left for your turn at {game}: {link}", who=who, minutes=minutes,
                      game=ui_for(table.row.game_id).title, link=link).render(
            await table_language(self.bot, self.service, table.row))
        turns = self._turns(table.row)
        if await self._send(table, turns, content, nonce("r", table.row.id, "v", table.row.version)):
            await self.tidy(table.row.id)

    async def tidy(self, table_id: int) -> None:
        """Delete the pings of turns that are over (last in line for the budget)."""
        turns = self._tables.get(table_id)
        while turns is not None and turns.stale_pings:
            ping = turns.stale_pings[0]
            try:
                if ping.interaction is not None and ping.expires - time.time() > WEBHOOK_SPARE_SECONDS:
                    await delete_follow_up(ping.interaction, ping.message_id)
                else:
                    async with self.pacer.request(Priority.TIDY, turns.channel_id, Route.DELETE):
                        await self.bot.http.delete_message(turns.channel_id, ping.message_id)
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
            turns.stale_pings.pop(0)

    def done_with(self, table: TableSnapshot) -> None:
        """``table`` was shown: once its game is over and no ping of it is left to delete, its turns are forgotten."""
        turns = self._tables.get(table.row.id)
        if turns is not None and not turns.stale_pings and not turns.acting \
                and table.row.status not in ("lobby", "running"):
            del self._tables[table.row.id]

    def forget(self, table_id: int) -> None:
        """The table ended where nothing can be sent any more (its channel or server is gone)."""
        self._tables.pop(table_id, None)

    def tables_held(self) -> int:
        return len(self._tables)

    def _turns(self, row: TableRow) -> Turns:
        """What the pings know of ``row``'s table; the first time since start-up, who was pinged as stored."""
        turns = self._tables.get(row.id)
        if turns is None:
            ping = Ping(row.ping_message_id) if row.ping_message_id else None
            turns = self._tables[row.id] = Turns(row.channel_id, pinged=dict(row.pinged), ping=ping,
                                                 cut_short=row.pinging)
        return turns

    async def _resolve_turn_starts(self, row: TableRow, turns: Turns) -> None:
        """Turns under way when the bot started began with the last move of someone else
        (the move log says which), or with the game (version 1); a ping the last process was
        sending when it stopped counts as sent if the channel holds it."""
        for seat, start in list(turns.turn_starts.items()):
            if start is None:
                turns.turn_starts[seat] = await self.service.storage.last_move_by_others(row.id, seat) or 1
        if turns.cut_short is not None:
            sending, turns.cut_short = turns.cut_short, None
            found = await self._sent_ping(row, sending)
            if found is not None:
                turns.pinged.update({int(seat): start for seat, start in sending["seats"].items()})
                turns.ping = Ping(found)
                self.publication.note(row.id, pinged={str(s): v for s, v in turns.pinged.items()},
                                      ping_message_id=found, pinging=None)
            else:
                self.publication.note(row.id, pinging=None)

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

    async def _send(self, table: TableSnapshot, turns: Turns, content: str, message_nonce: str,
                    mentions: discord.AllowedMentions = MENTIONS) -> bool:
        """Post ``content`` as the table's ping, replacing the one before (``mentions``: who is
        notified); False if it did not go."""
        row = table.row
        ping = await self._post(row, content, message_nonce, mentions)
        if ping is None:
            return False
        if turns.ping is not None:
            turns.stale_pings.append(turns.ping)
        turns.ping = ping
        self.publication.note(row.id, ping_message_id=ping.message_id)
        return True

    async def _post(self, row: TableRow, content: str, message_nonce: str,
                    mentions: discord.AllowedMentions) -> Ping | None:
        recent = self.channels.freshest(row.channel_id, time.time())
        if recent is not None:
            try:
                message_id = await send_follow_up(recent.interaction, content=content, allowed_mentions=mentions)
                return Ping(message_id, recent.interaction, recent.expires)
            except discord.HTTPException as exc:  # the token went: the channel takes it
                log.info("a ping of table %s could not ride on an interaction (%s %s)", row.id, exc.status, exc.text)
            except UNREACHABLE as exc:
                self.show_again.missed(row.id, exc)
                return None
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        send = paced(channel.send, self.pacer, Priority.PING, row.channel_id, Route.CREATE)
        try:
            message = await send(content=content, allowed_mentions=mentions, nonce=message_nonce)
        except discord.Forbidden as exc:
            self.access.refused(row, exc)
            return None
        except UNREACHABLE as exc:
            self.show_again.missed(row.id, exc)
            return None
        except discord.HTTPException as exc:
            log.warning("could not ping players of table %s: %s %s", row.id, exc.status, exc.text)
            return None
        return Ping(message.id)
