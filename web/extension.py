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

_running: dict[int, tuple[web.AppRunner, Site]] = {}
"""The site of each bot (by id): what :func:`teardown` stops."""


async def setup(bot: Any) -> None:
    """discord.py's extension entry point: serve the sites on ``bot.settings.web``."""
    host, port = bot.settings.web
    site = Site(bot.storage, bot.settings.public_url)
    bot.service.on_shown(site.notify)
    runner = web.AppRunner(site_app(site), access_log=None, handler_cancellation=True)  # a closed tab frees its stream
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:  # the bot plays on without its site: Discord matters more
        bot.service.off_shown(site.notify)
        log.error("the site cannot be served on %s:%s (%s): set DECKHAND_WEB to a free host:port, or off",
                  host, port, exc.strerror or exc)
        await runner.cleanup()
        return
    _running[id(bot)] = runner, site
    log.info("the servers' sites are served on http://%s:%s/ (reached at %s)", host, port, bot.settings.public_url)


async def teardown(bot: Any) -> None:
    running = _running.pop(id(bot), None)
    if running is not None:
        runner, site = running
        bot.service.off_shown(site.notify)
        site.hub.close()
        await runner.cleanup()
