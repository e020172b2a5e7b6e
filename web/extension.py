"""The servers' sites inside the bot's process: started with the bot (by name, like its Discord
extension, so ``bot/`` never imports ``web/``) on ``DECKHAND_WEB``, stopped with it.

The site hears of each new table version from the service (:meth:`GameService.on_shown`), so a
live page follows a move within one event-loop turn of its commit.
"""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web

from .server import site_app
from .site import Site

log = logging.getLogger(__name__)

_runners: dict[int, web.AppRunner] = {}
"""The site's runner of each bot (by id): what :func:`teardown` stops."""


async def setup(bot: Any) -> None:
    """discord.py's extension entry point: serve the sites on ``bot.settings.web``."""
    host, port = bot.settings.web
    site = Site(bot.storage, bot.settings.public_url)
    bot.service.on_shown(site.notify)
    runner = web.AppRunner(site_app(site), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:  # the bot plays on without its site: Discord matters more
        log.error("the site cannot be served on %s:%s (%s): set DECKHAND_WEB to a free host:port, or off",
                  host, port, exc.strerror or exc)
        await runner.cleanup()
        return
    _runners[id(bot)] = runner
    log.info("the servers' sites are served on http://%s:%s/ (reached at %s)", host, port, bot.settings.public_url)


async def teardown(bot: Any) -> None:
    runner = _runners.pop(id(bot), None)
    if runner is not None:
        await runner.cleanup()
