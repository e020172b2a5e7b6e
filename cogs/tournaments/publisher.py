"""Tournaments shown in Discord within its request budget.

The service's :class:`~bot.tournaments.TournamentPublisher`: the tournament message, the
threads its round tables open in, and each table's banner (the round it belongs to, naming its players, whose
first post tells them their table).

As for tables (:mod:`cogs.publisher`), only the newest state of a tournament message waits to be
shown, one request at a time per tournament; every request waits for its turn at the process's
:class:`~bot.budget.Pacer`: a round's threads with the tables' own messages (what players wait
for), the tournament message after them. What the message shows is stored
(``tournaments.shown``), so start-up refreshes only a message that may be behind.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import discord

from bot.budget import Pacer, Priority, Route, edit_route
from bot.markdown import literal, plain
from bot.storage import TableRow
from bot.tournaments import RoundTableRow, TournamentRow, Tournaments, TournamentView
from games import get_game
from games.i18n import say

from ..attachments import send_with_picture
from ..language import server_language
from ..outage import UNREACHABLE
from ..pacing import nonce, retry_wait
from ..publisher import Banner
from ..site_links import page_url
from ..ui import message_link
from .message import title, tournament_message, tournament_path
from .pictures import tournament_picture

log = logging.getLogger(__name__)

THREAD_NAME = 100
"""Discord's longest thread name."""


@dataclass
class _Shown:
    newest: TournamentView | None = None
    again: bool = False
    busy: bool = False


class TournamentMessages:
    def __init__(self, bot: discord.Client, tournaments: Tournaments, pacer: Pacer) -> None:
        self.bot = bot
        self.tournaments = tournaments
        self.pacer = pacer
        self._shown: dict[int, _Shown] = {}
        self._message_ids: dict[int, int] = {}
        """Per tournament, its message once posted (the view read before the post lacks it)."""

    # -- the tournament message -------------------------------------------------------------------------

    async def show(self, view: TournamentView, *, again: bool = False) -> None:
        shown = self._shown.setdefault(view.row.id, _Shown())
        if shown.newest is not None and shown.newest.row.version > view.row.version:
            return
        shown.newest, shown.again = view, again
        if shown.busy:
            return
        shown.busy = True
        failures = 0
        try:
            while shown.newest is not None:
                current, shown.newest = shown.newest, None
                if shown.again and current.row.shown == current.shown_key and current.row.message_id:
                    continue
                try:
                    await self._show_one(current)
                except _RateLimited:
                    if shown.newest is None:
                        shown.newest = current
                    await asyncio.sleep(retry_wait(failures))
                    failures += 1
        finally:
            shown.busy = False
            if shown.newest is None:
                self._shown.pop(view.row.id, None)

    async def _show_one(self, view: TournamentView) -> None:
        row = view.row
        language = await self.language(row)
        site = await page_url(self.bot, self.tournaments.games, row.guild_id, tournament_path(row.id))
        body = tournament_message(view, self.tournaments.games.clock(), language, site=site).kwargs()
        pictures = (await self.tournaments.storage.guild_settings(row.guild_id)).pictures
        picture = await tournament_picture(view, language) if pictures else None
        what = f"tournament {row.id}"
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        message_id = row.message_id or self._message_ids.get(row.id)
        try:
            if message_id is not None:
                try:
                    async with self.pacer.request(Priority.PING, row.channel_id, edit_route(message_id)):
                        await send_with_picture(channel.get_partial_message(message_id).edit, body, picture,
                                                edit=True, what=what)
                    await self.tournaments.set_shown(row.id, message_id=None, shown=view.shown_key)
                    return
                except discord.NotFound:
                    pass  # someone deleted the message: post it again
            async with self.pacer.request(Priority.PING, row.channel_id, Route.CREATE):
                body["nonce"] = nonce("tn", row.id, "v", row.version)
                message = await send_with_picture(channel.send, body, picture, edit=False, what=what)
            self._message_ids[row.id] = message.id
            await self.tournaments.set_shown(row.id, message_id=message.id, shown=view.shown_key)
        except discord.HTTPException as exc:
            if exc.status == 429:
                raise _RateLimited() from None
            log.warning("could not show tournament %s in channel %s: %s %s", row.id, row.channel_id, exc.status,
                        exc.text)
        except UNREACHABLE as exc:
            log.warning("could not show tournament %s: Discord is out of reach (%s)", row.id, exc)

    async def language(self, row: TournamentRow) -> str:
        guild = self.bot.get_guild(row.guild_id)
        settings = await self.tournaments.storage.guild_settings(row.guild_id)
        return server_language(settings, guild.preferred_locale if guild is not None else None)

    # -- threads ---------------------------------------------------------------------------------------

    async def open_thread(self, tournament: TournamentRow, table: RoundTableRow, names: list[str]) -> int | None:
        language = await self.language(tournament)
        name = say("{tournament} · round {round} · {players}", tournament=plain(title(tournament, language)),
                   round=table.round, players=" v ".join(names)).render(language)
        try:
            async with self.pacer.request(Priority.TURN, tournament.channel_id, Route.THREAD):
                thread = await self.bot.http.start_thread_without_message(
                    tournament.channel_id, name=name[:THREAD_NAME], auto_archive_duration=1440,
                    type=discord.ChannelType.public_thread.value, reason="a tournament round's table")
        except (discord.HTTPException, *UNREACHABLE) as exc:
            log.warning("could not open a thread for tournament %s round %s table %s in channel %s (%s); trying "
                        "again shortly. Deckhand needs Create Public Threads there.", tournament.id, table.round,
                        table.grp, tournament.channel_id, exc)
            return None
        return int(thread["id"])

    async def remove_thread(self, tournament: TournamentRow, thread_id: int) -> None:
        try:
            async with self.pacer.request(Priority.TIDY, thread_id):
                await self.bot.http.delete_channel(thread_id, reason="its tournament round was paired again")
        except (discord.HTTPException, *UNREACHABLE) as exc:
            log.info("could not remove thread %s of tournament %s (%s)", thread_id, tournament.id, exc)

    # -- tables' banners ---------------------------------------------------------------------------------

    async def banner(self, row: TableRow) -> Banner | None:
        """A round table's banner: the tournament (a link to its message), the round, the table, its people."""
        found = await self.tournaments.banner(row.id)
        if found is None:
            return None
        tournament, table, entrants = found
        link = message_link(tournament.guild_id, tournament.channel_id, tournament.message_id)
        words = say("🏆 [{tournament}]({link}) · round {round} · table {table}: {players}",
                    tournament=literal(tournament.name) if tournament.name else say(
                        "{game} tournament", game=get_game(tournament.game_id).name),
                    link=link, round=table.round, table=table.grp,
                    players=" v ".join(" & ".join(f"<@{user}>" for user in e.people) for e in entrants))
        return Banner(words, tuple(user for e in entrants for user in e.people))


class _RateLimited(Exception):
    """Discord kept answering 429 past discord.py's retries: show the message again later."""
