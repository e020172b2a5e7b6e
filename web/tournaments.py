"""A server's tournaments: each one's standings, bracket and current round, recomputed from stored
results at every reading (as its Discord message is: :func:`bot.tournaments.scoring.scores`).

``/s/<token>/tournaments/<id>`` follows the tournament live (``follow.js``): it listens to the
event streams of the current round's tables still playing and reloads itself when one ends (its
result is then in the standings), and while the tournament is open it also reloads every
:data:`RELOAD_SECONDS` (a new round's pairing has no stream to announce it).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from aiohttp import web

import games
from bot.storage import Session
from bot.tournaments import store
from bot.tournaments.records import OPEN, EntrantRow, RoundTableRow, TournamentRow
from bot.tournaments.scoring import Scores, scores
from games.i18n import say

from .html import Html, html, join, page
from .reader import reader_language
from .site import Site, base_path, html_response, site_of

TOURNAMENT_ID = re.compile(r"[1-9][0-9]{0,17}")
RELOAD_SECONDS = 30


async def read_tournament(site: Site, guild_id: int, text: str
                          ) -> tuple[TournamentRow, list[EntrantRow], list[RoundTableRow], set[int], Scores]:
    """The tournament the address names, if it is this server's (else 404): its entrants, its
    tables, those with a result, and where it stands."""
    if not TOURNAMENT_ID.fullmatch(text):
        raise web.HTTPNotFound()
    tournament_id = int(text)

    async def read(db: Session) -> tuple[Any, ...]:
        row = await store.tournament(db, tournament_id)
        if row is None or row.guild_id != guild_id:
            return None, [], [], []
        return (row, await store.entrants(db, tournament_id), await store.round_tables(db, tournament_id),
                await store.results(db, tournament_id))

    row, entrants, tables, recorded = await site.storage.run_read(read)
    if row is None:
        raise web.HTTPNotFound()
    ended = {r.table_id for r in recorded}
    return row, entrants, tables, ended, await asyncio.to_thread(scores, row, entrants, tables, recorded)


def entrant_name(entrants: list[EntrantRow], number: int) -> str:
    entrant = next((e for e in entrants if e.entrant == number), None)
    if entrant is None:
        return "?"
    return f"{entrant.name} & {entrant.partner_name}" if entrant.partner_name else entrant.name


async def tournament_page(request: web.Request) -> web.Response:
    site = site_of(request)
    guild_id = await site.guild(request)
    row, entrants, tables, ended, now = await read_tournament(site, guild_id, request.match_info["tournament"])
    language = reader_language(request)
    base = base_path(request)
    parts: list[Html] = [html("<h1>{name}</h1><p>{game}</p>", name=row.name, game=games.get_game(row.game_id).name)]
    if now.placings:
        places = join(html("<li>{names}</li>", names=", ".join(entrant_name(entrants, e) for e in group))
                      for group in now.placings)
        parts.append(html("<h2>{title}</h2><ol>{places}</ol>", title=say("Final places").render(language),
                          places=places))
    if now.standings:
        lines = join(html('<tr><td class="num">{rank}</td><td>{name}</td><td class="num">{points}</td>'
                          '<td class="num">{played}</td></tr>', rank=s.rank, name=entrant_name(entrants, s.entrant),
                          points=f"{float(s.points):g}", played=s.played) for s in now.standings)
        parts.append(html('<h2>{title}</h2><table class="board"><tr><th class="num">#</th><th>{player}</th>'
                          '<th class="num">{points}</th><th class="num">{played}</th></tr>{lines}</table>',
                          title=say("Standings").render(language), player=say("Player").render(language),
                          points=say("Points").render(language), played=say("Games").render(language), lines=lines))
    for number, bracket_round in enumerate(now.bracket_tables, 1):
        cells = join(html('<li>{names}{arrow}</li>', names=" · ".join(entrant_name(entrants, e) for e in t.entrants)
                          or "…", arrow=" → " + ", ".join(entrant_name(entrants, e) for e in t.going_on)
                          if t.going_on else "") for t in bracket_round)
        parts.append(html("<h2>{title}</h2><ul>{cells}</ul>",
                          title=say("Knockout round {number}", number=number).render(language), cells=cells))
    current = [t for t in tables if t.round == row.round and t.table_id is not None]
    playing = [t.table_id for t in current if t.table_id not in ended]
    parts.append(html('<p class="live" id="follow" data-streams="{streams}" data-reload="{reload}"></p>',
                      streams=" ".join(f"{base}/t/{table}/events" for table in playing),
                      reload=RELOAD_SECONDS if row.status in OPEN else 0))
    if current:
        parts.append(html("<h2>{title}</h2><ul>{tables}</ul>",
                          title=say("Round {number}", number=row.round).render(language),
                          tables=join(html('<li><a href="{base}/t/{id}">#{id}</a> {names}</li>', base=base,
                                           id=t.table_id, names=", ".join(entrant_name(entrants, e) for e in t.playing))
                                      for t in current)))
    parts.append(html('<p class="small"><a href="{base}/">{home}</a></p>', base=base,
                      home=say("All tables").render(language)))
    return html_response(page(row.name, join(parts), language, scripts=["follow.js"]))


def add_tournament_routes(app: web.Application) -> None:
    app.router.add_get("/s/{token}/tournaments/{tournament}", tournament_page)
