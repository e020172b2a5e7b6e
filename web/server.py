"""The servers' sites as one aiohttp application: every page's route, behind :mod:`web.guard`."""

from __future__ import annotations

from aiohttp import web

from .boards import add_board_routes
from .guard import LIMITS, Limits, guard
from .replays import add_replay_routes
from .rules import add_rules_routes
from .site import SITE, Site, index
from .static import add_static_routes
from .tables import add_table_routes
from .tournaments import add_tournament_routes


def site_app(site: Site, limits: Limits | None = None) -> web.Application:
    """The sites of every server that turned theirs on (``/s/<token>/…``), and the rules (``/rules/<game>``)."""
    app = web.Application(middlewares=[guard])
    app[LIMITS] = limits or Limits()
    app[SITE] = site
    app.router.add_get("/s/{token}/", index)
    add_table_routes(app)
    add_replay_routes(app)
    add_board_routes(app)
    add_tournament_routes(app)
    add_rules_routes(app)
    add_static_routes(app)
    return app
