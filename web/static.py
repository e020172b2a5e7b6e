"""The site's own files (style and scripts), served from ``web/static/``."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

STATIC = Path(__file__).parent / "static"


def add_static_routes(app: web.Application) -> None:
    app.router.add_static("/static/", STATIC, append_version=False)
