"""A table, live: what **Watch** shows (the public view's picture, whose turn, the latest events, the
timer), kept up to date by Server-Sent Events.

``/s/<token>/t/<table>`` is the page; ``…/events`` its stream: an event (id: the table's version,
data: the live part of the page as HTML) each time the table changes, a first one at once when the
page is behind, ``: ping`` comments between, and the end of the stream when the game ends. A
dropped connection resumes from ``Last-Event-ID`` (the browser's EventSource sends it, and waits
:data:`RETRY_MS` first), so nothing shown in between is missed: the stream starts with the version
it doesn't have. A site stopping ends its streams; they resume on the next one. Everything shown is
drawn from the public view (``state.view(None)``) and the table's public events: no hand, ever.
"""

from __future__ import annotations

import asyncio
import json

from aiohttp import web

import games
from bot.records import event_words
from bot.storage import TableRow
from games.base import Outcome
from games.i18n import say
from games.pictures import table_png

from .guard import LIMITS, TOO_MANY, client_address, secure_headers, short_page
from .html import Html, html, join, page
from .reader import reader_language
from .site import Site, base_path, html_response, site_of

LATEST_EVENTS = 6
"""Events the live page lists, newest last (Discord's table message shows 2; a page has room)."""
HEARTBEAT_SECONDS = 15.0
"""A comment this often keeps proxies from closing a quiet stream."""
RETRY_MS = 1000
"""How long a browser waits before reconnecting a dropped stream."""


def names(row: TableRow, language: str) -> list[str]:
    return [seat.name_in(language) for seat in row.seats]


def live_part(site: Site, row: TableRow, base: str, language: str) -> Html:
    """The part of the page that follows the game (whose turn or the result, picture, events),
    the same for everyone reading in ``language`` (kept per version)."""
    key = (row.id, row.version, language, base)
    found: Html | None = site.kept_as("live part", key)
    if found is not None:
        return found
    seats = names(row, language)
    parts: list[Html] = [html('<p class="status">{status}</p>', status=status_text(site, row, seats, language))]
    if row.deadline and row.status == "running":
        parts.append(html('<p class="small">⏰ <span class="countdown" data-deadline="{at}">{left}</span></p>',
                          at=int(row.deadline), left=say("turn timer running").render(language)))
    if row.state is not None:
        parts.append(html('<img class="picture" src="{base}/t/{id}/{v}.png" alt="{alt}">', base=base, id=row.id,
                          v=row.version, alt=say("The table").render(language)))
    events = [event_words(line, seats, language) for line in row.recent_events[-LATEST_EVENTS:]]
    if events:
        parts.append(html('<ol class="events">{items}</ol>', items=join(html("<li>{e}</li>", e=e) for e in events)))
    if row.status not in ("lobby", "running"):
        parts.append(html('<p><a href="{base}/r/{id}">{replay}</a></p>', base=base, id=row.id,
                          replay=say("Step through the whole game").render(language)))
    fragment = html('<div id="live" data-version="{v}" data-over="{over}">{parts}</div>', v=row.version,
                    over=int(row.status not in ("lobby", "running")), parts=join(parts))
    return site.keep("live part", key, fragment)


def event_of(site: Site, row: TableRow, base: str, language: str) -> bytes:
    """The stream's event for ``row``'s version (kept: every stream of the table sends the same bytes)."""
    key = (row.id, row.version, language, base)
    found: bytes | None = site.kept_as("event", key)
    if found is None:
        data = json.dumps({"version": row.version, "html": live_part(site, row, base, language)})
        found = site.keep("event", key, f"id: {row.version}\ndata: {data}\n\n".encode())
    return found


def status_text(site: Site, row: TableRow, seats: list[str], language: str) -> str:
    if row.status == "lobby":
        return say("This game hasn't started: players are joining in Discord.").render(language)
    if row.status == "running":
        view = site.state(row).view(None)
        acting = ", ".join(seats[s] for s in view.get("to_act", []))
        return f"▶ {acting} {say('to play').render(language)}" if acting else ""
    if row.outcome:
        return "🏁 " + Outcome.from_json(row.outcome).reason.render(language, seats)
    return say("🛑 This game was ended before it finished.").render(language)


async def table_page(request: web.Request) -> web.Response:
    site = site_of(request)
    row = await site.table(request, await site.guild(request))
    language = reader_language(request)
    base = base_path(request)
    title = f"{games.get_game(row.game_id).name} · #{row.id}"
    body = html('<h1>{title}</h1><p class="live" id="connection" data-stream="{base}/t/{id}/events"></p>{live}'
                '<p class="small"><a href="{base}/">{home}</a></p>', title=title, base=base, id=row.id,
                live=live_part(site, row, base, language), home=say("All tables").render(language))
    return html_response(page(title, body, language, scripts=["live.js"]))


async def table_picture(request: web.Request) -> web.Response:
    """The table's picture now (the version in the address only names what the page expects)."""
    site = site_of(request)
    row = await site.table(request, await site.guild(request))
    if row.state is None:
        raise web.HTTPNotFound()
    language = reader_language(request)
    key = (row.id, row.version, language)
    png: bytes | None = site.kept_as("picture", key)
    if png is None:
        png = site.keep("picture", key, await asyncio.to_thread(table_png, site.state(row).view(None),
                                                                 names(row, language), language))
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "private, max-age=3600"})


def resume_from(request: web.Request) -> int:
    """The version the reader has: ``Last-Event-ID`` (a reconnection), else ``?since=``; -1 for none."""
    text = request.headers.get("Last-Event-ID") or request.query.get("since", "-1")
    if not text.lstrip("-").isdigit() or len(text) > 18:
        raise web.HTTPBadRequest()
    return max(-1, int(text))


async def table_events(request: web.Request) -> web.StreamResponse:
    site = site_of(request)
    guild_id = await site.guild(request)
    row = await site.table(request, guild_id)
    since = resume_from(request)
    language = reader_language(request)
    base = base_path(request)
    limits, address = request.app[LIMITS], client_address(request)
    if not limits.open_stream(address):
        return short_page(request, 429, TOO_MANY.render(language))
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                           "X-Accel-Buffering": "no"})
    secure_headers(response)
    try:
        await response.prepare(request)
        await response.write(f"retry: {RETRY_MS}\n\n".encode())
        with site.hub.follow(row.id) as changed:
            while not site.hub.closing:
                changed.clear()
                row = await site.current(row.id)
                if row.version > since:
                    await response.write(event_of(site, row, base, language))
                    since = row.version
                if row.status not in ("lobby", "running"):
                    await response.write(b"event: end\ndata: {}\n\n")
                    break
                try:
                    await asyncio.wait_for(changed.wait(), HEARTBEAT_SECONDS)
                except TimeoutError:
                    await response.write(b": ping\n\n")
    except ConnectionError:  # the reader left (a closed tab, a cut connection): nothing to answer
        pass
    finally:
        limits.close_stream(address)
    return response


def add_table_routes(app: web.Application) -> None:
    app.router.add_get("/s/{token}/t/{table}", table_page)
    app.router.add_get("/s/{token}/t/{table}/events", table_events)
    app.router.add_get(r"/s/{token}/t/{table}/{version:\d{1,18}}.png", table_picture)
