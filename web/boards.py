"""A server's leaderboards (per game, all time and the running season's) with each leader's rating
over time as a chart, and a player's page: their games, ratings and recent results.

The same figures ``/leaderboard`` and ``/stats`` show (:class:`bot.results.Results`), named as the
server's results name them (the name each player last finished a game under; a person who ran
``/privacy forget`` as Discord shows them since). A player's page is found by a key made from the
site's token and the player (:func:`player_key`): it says nothing of their Discord id, and a new
site link changes every key.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from aiohttp import web
from babel.numbers import format_percent

import games
from bot.achievements import catalog
from bot.ratings import display_rating
from bot.results import BoardEntry
from bot.seasons import Season, seasons_of
from bot.storage import Session
from bot.unlocks import Badge
from games.i18n import say

from .html import Html, html, join, page
from .reader import reader_language
from .site import Site, base_path, html_response, site_of

BOARD_ROWS = 25
CHART_PLAYERS = 5
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 600, 280, 64
COLOURS = ("#5865f2", "#e67e22", "#2ecc71", "#e74c3c", "#9b59b6")


def shown_rating(rating: float | None) -> str:
    """A rating as Discord shows it (:func:`bot.ratings.display_rating`), a dash for none yet."""
    return "—" if rating is None else str(display_rating(rating))


def player_key(token: str, user_id: int) -> str:
    """The part of a player's page address that names them on one site."""
    return hmac.new(token.encode(), str(user_id).encode(), hashlib.sha256).hexdigest()[:20]


async def player_names(site: Site, guild_id: int, user_ids: list[int]) -> dict[int, str]:
    """Each player's name as this server's results last recorded it."""
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)

    async def read(db: Session) -> dict[int, str]:
        rows = await db.fetch(
            "SELECT rs.user_id, rs.name FROM result_seats rs JOIN results r ON r.table_id = rs.table_id"
            f" WHERE r.guild_id = ? AND rs.is_ai = 0 AND rs.user_id IN ({marks}) ORDER BY r.finished_at",
            (guild_id, *user_ids))
        return {row[0]: row[1] for row in rows}

    return await site.storage.run_read(read)


Series = list[tuple[float, float]]
"""A player's rating over time: ``(time, rating)`` after each rated game, oldest first."""


async def rating_series(site: Site, guild_id: int, game_id: str, user_ids: list[int]) -> dict[int, Series]:
    """Each player's rating after each rated game of ``game_id`` here, oldest first."""
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)

    async def read(db: Session) -> list[Any]:
        return await db.fetch(
            "SELECT user_id, at, ordinal FROM rating_history WHERE guild_id = ? AND game_id = ?"
            f" AND user_id IN ({marks}) ORDER BY at, table_id", (guild_id, game_id, *user_ids))

    series: dict[int, Series] = {user: [] for user in user_ids}
    for user, at, rating in await site.storage.run_read(read):
        series[user].append((at, display_rating(rating)))
    return series


def chart(series: list[tuple[str, Series]], title: str) -> Html:
    """Ratings over time as an SVG: one line a player, time across, rating up."""
    points = [p for _, line in series for p in line]
    if not any(len(line) > 1 for _, line in series):  # a line needs two games
        return Html("")
    (t0, t1), (r0, r1) = ((min(p[i] for p in points), max(p[i] for p in points)) for i in (0, 1))
    span_t, span_r = (t1 - t0) or 1.0, (r1 - r0) or 1.0

    def xy(at: float, rating: float) -> tuple[str, str]:
        x = CHART_PAD + (at - t0) / span_t * (CHART_WIDTH - 2 * CHART_PAD)
        y = CHART_HEIGHT - CHART_PAD - (rating - r0) / span_r * (CHART_HEIGHT - 2 * CHART_PAD)
        return f"{x:.1f}", f"{y:.1f}"

    def drawn(colour: str, line: Series) -> Html:
        at = [xy(*point) for point in line]
        dots = join(html('<circle r="3" fill="{colour}" cx="{x}" cy="{y}"/>', colour=colour, x=x, y=y) for x, y in at)
        return html('<polyline stroke="{colour}" points="{points}"/>{dots}', colour=colour,
                    points=" ".join(f"{x},{y}" for x, y in at), dots=dots)

    lines = join(drawn(COLOURS[n % len(COLOURS)], line) for n, (_, line) in enumerate(series) if line)
    legend = join(html('<li><span class="swatch" data-colour="{n}">■</span> {name}</li>', n=n % len(COLOURS),
                       name=name) for n, (name, line) in enumerate(series) if line)
    return html(
        '<figure><svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{title}">'
        '<text x="0" y="{top}" fill="currentColor" font-size="26">{r1}</text>'
        '<text x="0" y="{bottom}" fill="currentColor" font-size="26">{r0}</text>{lines}</svg>'
        '<figcaption><ul class="legend">{legend}</ul></figcaption></figure>',
        w=CHART_WIDTH, h=CHART_HEIGHT, title=title, top=CHART_PAD - 20, bottom=CHART_HEIGHT - CHART_PAD + 40,
        r1=f"{r1:.0f}", r0=f"{r0:.0f}", lines=lines, legend=legend)


def board_table(entries: list[BoardEntry], names: dict[int, str], base: str, token: str, language: str) -> Html:
    header = html('<tr><th class="num">#</th><th>{player}</th><th class="num">{rating}</th>'
                  '<th class="num">{games}</th><th class="num">{wins}</th></tr>',
                  player=say("Player").render(language), rating=say("Rating").render(language),
                  games=say("Games").render(language), wins=say("Wins").render(language))
    rows = [html('<tr><td class="num">{place}</td><td><a href="{base}/p/{key}">{name}</a></td>'
                 '<td class="num">{rating}</td><td class="num">{games}</td><td class="num">{wins}</td></tr>',
                 place=n, base=base, key=player_key(token, e.user_id), name=names.get(e.user_id, "?"),
                 rating=shown_rating(e.rating), games=e.games, wins=e.wins)
            for n, e in enumerate(entries[:BOARD_ROWS], 1)]
    return html('<table class="board">{header}{rows}</table>', header=header, rows=join(rows))


async def leaderboard_page(request: web.Request) -> web.Response:
    site = site_of(request)
    guild_id = await site.guild(request)
    game_id = request.match_info["game"]
    if game_id not in games.GAME_IDS:
        raise web.HTTPNotFound()
    language = reader_language(request)
    base, token = base_path(request), request.match_info["token"]
    name = games.get_game(game_id).name
    entries = await site.results.leaderboard(guild_id, game_id)
    seasons = await site.storage.run_read(lambda db: seasons_of(db, guild_id))
    season = chosen_season(request, seasons)
    season_entries = await site.results.leaderboard(guild_id, game_id, season=season) if season else []
    names = await player_names(site, guild_id, [e.user_id for e in entries + season_entries])
    leaders = [e.user_id for e in entries[:CHART_PLAYERS]]
    series = await rating_series(site, guild_id, game_id, leaders)
    parts = [html("<h1>{title}</h1>", title=say("{game} leaderboard", game=name).render(language))]
    if season:
        parts.append(html("<h2>{title}</h2>{board}", title=say("Season {name}", name=season.name).render(language),
                          board=board_table(season_entries, names, base, token, language)))
    parts.append(html("<h2>{title}</h2>", title=say("All time").render(language)))
    parts.append(board_table(entries, names, base, token, language) if entries else html(
        "<p>{none}</p>", none=say("No one has finished a game of it here yet.").render(language)))
    parts.append(chart([(names.get(u, "?"), series[u]) for u in leaders],
                       say("Rating over time").render(language)))
    if seasons:
        links = join(html('<a href="{base}/leaderboard/{game}?season={id}">{name}</a>', base=base, game=game_id,
                          id=other.id, name=other.name) for other in seasons)
        parts.append(html('<h2>{title}</h2><p class="stepper">{links}</p>', title=say("Seasons").render(language),
                          links=links))
    parts.append(html('<p class="small"><a href="{base}/">{home}</a></p>', base=base,
                      home=say("All tables").render(language)))
    return html_response(page(name, join(parts), language))


def chosen_season(request: web.Request, seasons: list[Season]) -> Season | None:
    """The season ``?season=<id>`` names (404 if it is not one of this server's), else the running one."""
    text = request.query.get("season")
    if text is None:
        return next((season for season in seasons if season.running), None)
    found = next((season for season in seasons if str(season.id) == text), None)
    if found is None:
        raise web.HTTPNotFound()
    return found


async def player_page(request: web.Request) -> web.Response:
    site = site_of(request)
    guild_id = await site.guild(request)
    token, key = request.match_info["token"], request.match_info["player"]
    language = reader_language(request)
    base = base_path(request)
    everyone = await site.results.leaderboard(guild_id, None)
    user_id = next((e.user_id for e in everyone if hmac.compare_digest(player_key(token, e.user_id), key)), None)
    if user_id is None:
        raise web.HTTPNotFound()
    name = (await player_names(site, guild_id, [user_id])).get(user_id, "?")
    stats = await site.results.stats(guild_id, user_id, None)
    tallies = join(html('<tr><td><a href="{base}/leaderboard/{id}">{game}</a></td><td class="num">{games}</td>'
                        '<td class="num">{wins}</td><td class="num">{rating}</td></tr>', base=base, id=t.game_id,
                        game=games.get_game(t.game_id).name, games=t.games, wins=t.wins,
                        rating=shown_rating(t.rating)) for t in stats.per_game)
    recent = await site.results.history(guild_id, user_id=user_id, limit=20)
    lines = join(html('<li><a href="{base}/r/{id}">{game} · #{id}</a> {summary}</li>', base=base, id=line.table_id,
                      game=games.get_game(line.game_id).name,
                      summary=line.summary.render(language, [n for n, *_ in line.players])) for line in recent)
    badges = [b for b in await site.results.unlocks.badges(guild_id, user_id)
              if not catalog()[b.unlock.achievement].secret]  # secret ones are only ever told privately
    by_game: dict[str, Series] = {}
    for point in stats.history:
        by_game.setdefault(point.game_id, []).append((point.at, display_rating(point.rating)))
    body = html(
        '<h1>{name}</h1><table class="board"><tr><th>{game}</th><th class="num">{games}</th>'
        '<th class="num">{wins}</th><th class="num">{rating}</th></tr>{tallies}</table>{chart}'
        '{badges}<h2>{recent_title}</h2><ul>{lines}</ul><p class="small"><a href="{base}/">{home}</a></p>',
        name=name,
        game=say("Game").render(language), games=say("Games").render(language), wins=say("Wins").render(language),
        rating=say("Rating").render(language), tallies=tallies,
        chart=chart([(games.get_game(g).name, line) for g, line in by_game.items()],
                    say("Rating over time").render(language)),
        badges=badge_list(badges, language), recent_title=say("Recent games").render(language), lines=lines, base=base,
        home=say("All tables").render(language))
    return html_response(page(name, body, language))


def badge_list(badges: list[Badge], language: str) -> Html:
    """A player's badges, rarest first, each with the share of the server's players holding it."""
    if not badges:
        return Html("")
    known = catalog()
    items = []
    for badge in badges:
        achievement = known[badge.unlock.achievement]
        title = achievement.title(badge.unlock.tier).render(language)
        if achievement.feat is not None and achievement.game_id:
            title = f"{title} ({games.get_game(achievement.game_id).name})"
        items.append(html("<li>🏅 {title} · {share}</li>", title=title,
                          share=say("{share} of players", share=format_percent(badge.share, locale=language))
                          .render(language)))
    return html("<h2>{title}</h2><ul>{items}</ul>", title=say("Badges").render(language), items=join(items))


def add_board_routes(app: web.Application) -> None:
    app.router.add_get("/s/{token}/leaderboard/{game}", leaderboard_page)
    app.router.add_get(r"/s/{token}/p/{player:[0-9a-f]{20}}", player_page)
