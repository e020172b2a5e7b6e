"""``/rules/<game>``: a game's rules, the text ``/rules`` shows in Discord, as one page."""

from __future__ import annotations

from aiohttp import web

import games
from games.rules_text import words

from .html import html, join, markdown, page
from .reader import reader_language


async def rules_page(request: web.Request) -> web.Response:
    game_id = request.match_info["game"]
    if game_id not in games.GAME_IDS:
        raise web.HTTPNotFound()
    language = reader_language(request)
    game = games.get_game(game_id)
    if game.rules is None:
        raise web.HTTPNotFound()
    rules = game.rules.in_language(language)
    sections = join(html('<section id="{id}"><h2>{title}</h2>{body}</section>', id=section.id,
                         title=words(section.title), body=markdown(words(section.body)))
                    for section in rules.sections)
    body = html('<h1>{name}</h1>{sections}<p><a href="/">Deckhand</a></p>', name=game.name, sections=sections)
    return web.Response(text=page(game.name, body, language), content_type="text/html")


def add_rules_routes(app: web.Application) -> None:
    app.router.add_get("/rules/{game}", rules_page)
