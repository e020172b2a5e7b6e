"""A finished game's replay: every move in order, the table's picture at each step, every hand.

Only once the game has ended (finished or ended early): before that ``/s/<token>/r/<table>`` is a
404 like any unknown link, since its hands are still secret. The game is replayed from its seed and
stored move log (the engine replays exactly), so each step is the state the table was in. The page
holds every step (``replay.js`` shows one at a time: arrow keys, Home/End, swipes, buttons; without
JavaScript they all show); each picture is loaded when its step is first shown.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

import games
from bot.records import shown_name
from bot.storage import TableRow
from bot.table_options import engine_options
from games.base import GameState, Outcome
from games.cards import parse_card
from games.i18n import card_name, say
from games.pictures import table_png

from .html import Html, html, join, page
from .reader import reader_language
from .site import Site, base_path, html_response, site_of

KEPT = 64
"""Replays kept in memory (each every state of one game)."""


class Replay:
    """Every state of an ended game, from the deal (step 0) to the end, with the public events of each step."""

    def __init__(self, row: TableRow, log: list[tuple[int, dict[str, Any], bool]]) -> None:
        game = games.get_game(row.game_id)
        state = game.new_game(len(row.seats), engine_options(row.options), row.seed)
        self.states: list[GameState] = [game.from_json(state.to_json())]
        self.events = [[e for e in state.opening_events() if e.private_to is None]]
        self.movers: list[int | None] = [None]
        for seat, action, _by_ai in log:
            happened = state.apply(seat, game.action_from_json(action))
            self.states.append(game.from_json(state.to_json()))
            self.events.append([e for e in happened if e.private_to is None])
            self.movers.append(seat)


async def replay_of(site: Site, row: TableRow) -> Replay:
    found: Replay | None = site.kept_as("replay", row.id)
    if found is None:
        found = site.keep("replay", row.id, await asyncio.to_thread(Replay, row, await site.storage.move_log(row.id)),
                          KEPT)
    return found


async def ended_table(request: web.Request) -> tuple[Site, TableRow]:
    site = site_of(request)
    row = await site.table(request, await site.guild(request))
    if row.status in ("lobby", "running") or row.state is None:
        raise web.HTTPNotFound()  # its hands are secret until the end: as if there were no replay
    return site, row


def hands(state: GameState, seat_names: list[str], language: str) -> Html:
    rows = []
    for seat, name in enumerate(seat_names):
        cards = state.view(seat).get("hand") or []
        shown = " ".join(card_name(parse_card(code), language) for code in cards) or "—"
        rows.append(html("<tr><th>{name}</th><td>{cards}</td></tr>", name=name, cards=shown))
    return html('<table class="board hands">{rows}</table>', rows=join(rows))


async def replay_page(request: web.Request) -> web.Response:
    site, row = await ended_table(request)
    replay = await replay_of(site, row)
    language = reader_language(request)
    base = base_path(request)
    seat_names = [shown_name(s.name, s.is_ai and s.user_id is None, language) for s in row.seats]
    last = len(replay.states) - 1
    steps = []
    for n, (state, events, mover) in enumerate(zip(replay.states, replay.events, replay.movers, strict=True)):
        heading = (say("The deal").render(language) if mover is None else
                   say("Move {number} of {count}: {player}", number=n, count=last,
                       player=seat_names[mover]).render(language))
        lines = join(html("<li>{line}</li>", line=e.render(seat_names, language)) for e in events)
        steps.append(html(
            '<section class="step" id="step-{n}" data-step="{n}"><h2>{heading}</h2>'
            '<ol class="events">{lines}</ol>'
            '<img class="picture" loading="lazy" src="{base}/r/{id}/{n}.png" alt="{alt}">{hands}</section>',
            n=n, heading=heading, lines=lines, base=base, id=row.id, alt=say("The table").render(language),
            hands=hands(state, seat_names, language)))
    result = Outcome.from_json(row.outcome).reason.render(language, seat_names) if row.outcome else say(
        "🛑 This game was ended before it finished.").render(language)
    title = f"{games.get_game(row.game_id).name} · #{row.id}"
    body = html(
        '<h1>{title}</h1><p class="status">🏁 {result}</p>'
        '<nav class="stepper" id="stepper" hidden><button type="button" data-go="first">⏮</button>'
        '<button type="button" data-go="back">◀</button><span id="where"></span>'
        '<button type="button" data-go="next">▶</button><button type="button" data-go="last">⏭</button></nav>'
        '<p class="small">{keys}</p>{steps}<p class="small"><a href="{base}/">{home}</a></p>',
        title=title, result=result, steps=join(steps), base=base, home=say("All tables").render(language),
        keys=say("← → step through the game (or swipe); Home and End jump to the deal and the end.").render(language))
    return html_response(page(title, body, language, scripts=["replay.js"]))


async def replay_picture(request: web.Request) -> web.Response:
    site, row = await ended_table(request)
    replay = await replay_of(site, row)
    step = int(request.match_info["step"])
    if step >= len(replay.states):
        raise web.HTTPNotFound()
    language = reader_language(request)
    seat_names = [shown_name(s.name, s.is_ai and s.user_id is None, language) for s in row.seats]
    png = await asyncio.to_thread(table_png, replay.states[step].view(None), seat_names, language)
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "private, max-age=86400"})


def add_replay_routes(app: web.Application) -> None:
    app.router.add_get("/s/{token}/r/{table}", replay_page)
    app.router.add_get(r"/s/{token}/r/{table}/{step:\d{1,6}}.png", replay_picture)
