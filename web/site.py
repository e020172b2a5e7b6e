"""A server's site: its live tables, replays, leaderboards and players, under its unguessable link.

A server turns its site on with ``/settings web`` (off by default): that stores a random token,
and every page of the server lives under ``/s/<token>/``; a new token (``/settings web``'s new
link) makes the old links answer 404, like any unknown link, never saying whether a server exists.
Pages show only what the server's members can see in Discord: public views and events, results,
names as Discord shows them (a person who ran ``/privacy forget`` as they appear there); never a
hand during a game, another server's data or a user id.

The site reads everything from storage (:class:`Site`), so it runs the same in the bot's process
and as a process of its own (``python -m web site``); it hears of new versions through
:meth:`Site.notify` (the service's listener, or PostgreSQL's NOTIFY).
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from typing import Any

from aiohttp import web

import games
from bot.results import Results
from bot.storage import Storage, TableRow
from bot.tournaments.store import of_guild as tournaments_of
from games.i18n import say

from .html import Html, html, join, page
from .live import Hub
from .reader import reader_language

TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
"""What a site token looks like (:func:`new_token` makes 32 characters); anything else is not looked up."""
TABLE_ID = re.compile(r"[1-9][0-9]{0,17}")
RECENT_GAMES = 20

class Site:
    """What the pages read: storage, the results on it, the live tables' versions."""

    def __init__(self, storage: Storage, public_url: str = "") -> None:
        self.storage = storage
        self.results = Results(storage)
        self.hub = Hub()
        self.public_url = public_url
        self._rows: OrderedDict[int, TableRow] = OrderedDict()
        self._heard: dict[int, int] = {}
        self._reading: dict[int, asyncio.Future[TableRow | None]] = {}
        self.kept: dict[str, OrderedDict[Any, Any]] = {}
        """What pages draw once and show many times (pictures, live parts, replays), by kind: :meth:`keep`."""

    def kept_as(self, kind: str, key: Any) -> Any:
        """What :meth:`keep` kept of ``kind`` under ``key`` (None if nothing)."""
        return self.kept.get(kind, {}).get(key)

    def keep(self, kind: str, key: Any, value: Any, most: int = 2048) -> Any:
        """Keep ``value`` (returned), forgetting the oldest of ``kind`` beyond ``most``."""
        kept = self.kept.setdefault(kind, OrderedDict())
        kept[key] = value
        while len(kept) > most:
            kept.popitem(last=False)
        return value

    def notify(self, table_id: int, version: int) -> None:
        """Table ``table_id`` is at ``version`` now: wake its live pages."""
        if table_id in self._rows or self.hub.following(table_id):
            self._heard[table_id] = max(version, self._heard.get(table_id, -1))
        self.hub.notify(table_id, version)

    async def current(self, table_id: int) -> TableRow:
        """A followed table as stored now: read once per version heard of, however many streams
        follow it (the streams woken together share one read)."""
        row = self._rows.get(table_id)
        if row is not None and row.version >= self._heard.get(table_id, -1) and self.hub.following(table_id):
            return row
        reading = self._reading.get(table_id)
        if reading is None:
            reading = self._reading[table_id] = asyncio.ensure_future(self._read(table_id))
            reading.add_done_callback(lambda _: self._reading.pop(table_id, None))
        found = await asyncio.shield(reading)
        if found is None:
            raise web.HTTPNotFound()
        return found

    async def _read(self, table_id: int) -> TableRow | None:
        heard = self._heard.get(table_id, -1)
        found = await self.storage.get_table(table_id)
        if found is not None:
            self._rows[table_id] = found
            self._heard[table_id] = max(found.version, heard, self._heard.get(table_id, -1))
            while len(self._rows) > 1024:
                gone, _ = self._rows.popitem(last=False)
                self._heard.pop(gone, None)
        return found

    async def guild(self, request: web.Request) -> int:
        """The server whose link ``request`` follows; 404 for any other link."""
        token = request.match_info["token"]
        guild_id = await self.storage.guild_of_web_token(token) if TOKEN.fullmatch(token) else None
        if guild_id is None:
            raise web.HTTPNotFound()
        return guild_id

    async def table(self, request: web.Request, guild_id: int) -> TableRow:
        """The table the request names, if it is this server's and was ever played or opened; else 404."""
        text = request.match_info["table"]
        row = await self.storage.get_table(int(text)) if TABLE_ID.fullmatch(text) else None
        if row is None or row.guild_id != guild_id or row.status == "cancelled":
            raise web.HTTPNotFound()
        return row

    def state(self, row: TableRow) -> Any:
        """The engine state of ``row`` as stored (kept for its version: many pages read the same one)."""
        key = (row.id, row.version)
        state = self.kept_as("state", key)
        if state is None:
            state = self.keep("state", key, games.get_game(row.game_id).from_json(row.state or {}), 512)
        return state


SITE = web.AppKey("site", Site)


def site_of(request: web.Request) -> Site:
    return request.app[SITE]


def base_path(request: web.Request) -> str:
    return f"/s/{request.match_info['token']}"


async def index(request: web.Request) -> web.Response:
    """The server's front page: tables in play, recent games, leaderboards."""
    site = site_of(request)
    guild_id = await site.guild(request)
    language = reader_language(request)
    base = base_path(request)
    running = await site.storage.get_tables(await site.storage.open_tables_of_guild(guild_id))
    live = [html('<li><a href="{base}/t/{id}">{game} · #{id}</a> {players}</li>', base=base, id=row.id,
                 game=games.get_game(row.game_id).name,
                 players=", ".join(seat.name_in(language) for seat in row.seats))
            for row in running if row.status == "running"]
    recent = await site.results.history(guild_id, limit=RECENT_GAMES)
    ended = [html('<li><a href="{base}/r/{id}">{game} · #{id}</a> {summary}</li>', base=base, id=line.table_id,
                  game=games.get_game(line.game_id).name,
                  summary=line.summary.render(language, [n for n, *_ in line.players]))
             for line in recent]
    tournaments = [html('<li><a href="{base}/tournaments/{id}">{name}</a> · {game}</li>', base=base, id=t.id,
                        name=t.name, game=games.get_game(t.game_id).name)
                   for t in await site.storage.run_read(lambda db: tournaments_of(db, guild_id, RECENT_GAMES))]
    boards = [html('<a href="{base}/leaderboard/{id}">{name}</a>', base=base, id=game.id, name=game.name)
              for game in games.all_games()]
    body = html(
        '<h1>Deckhand</h1><h2>{live_title}</h2>{live}<h2>{recent_title}</h2>{recent}'
        '<h2>{boards_title}</h2><p class="stepper">{boards}</p>{tournaments}',
        live_title=say("Tables in play").render(language),
        live=html("<ul>{items}</ul>", items=join(live)) if live else html(
            "<p>{none}</p>", none=say("No game is being played right now.").render(language)),
        recent_title=say("Recent games").render(language),
        recent=html("<ul>{items}</ul>", items=join(ended)) if ended else html(
            "<p>{none}</p>", none=say("No game has finished here yet.").render(language)),
        boards_title=say("Leaderboards").render(language), boards=join(boards, " · "),
        tournaments=html("<h2>{title}</h2><ul>{items}</ul>", title=say("Tournaments").render(language),
                         items=join(tournaments)) if tournaments else "",
    )
    return html_response(page("Deckhand", body, language))


def html_response(body: Html, status: int = 200) -> web.Response:
    return web.Response(text=body, status=status, content_type="text/html", headers={"Cache-Control": "no-store"})
