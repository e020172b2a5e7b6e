"""``python -m web site``: the servers' sites as a process of their own, beside the bot's processes
on one PostgreSQL database (``DECKHAND_DB``), served on ``DECKHAND_WEB`` (default 127.0.0.1:8080).

It reads everything from the database and hears of each new table version through PostgreSQL's
LISTEN/NOTIFY (:meth:`bot.storage.Storage.listen_versions`; the bot's processes announce them), so
its live pages follow the games of every shard. With SQLite (one process) the bot serves the
sites itself: this command says so and stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal

from aiohttp import web
from dotenv import find_dotenv, load_dotenv

from bot.settings import SettingsError, database_from, web_from
from bot.storage import Storage

from .server import site_app
from .site import Site

log = logging.getLogger(__name__)


async def serve_sites(env: dict[str, str]) -> None:
    """Serve until SIGINT or SIGTERM; raises :class:`SettingsError` for a setting to change."""
    database = database_from(env.get("DECKHAND_DB", ""))
    if not isinstance(database, str):
        raise SettingsError("DECKHAND_DB must be a postgresql:// URL: with SQLite, python -m bot serves "
                            "the sites itself (DECKHAND_WEB).")
    address = web_from(env.get("DECKHAND_WEB", ""))
    if address is None:
        raise SettingsError("DECKHAND_WEB is off: set it to the host:port to serve the sites on.")
    storage = await Storage.open(database)
    site = Site(storage)
    stop_listening = await storage.listen_versions(site.notify)
    runner = web.AppRunner(site_app(site), access_log=None, handler_cancellation=True)  # a closed tab frees its stream
    await runner.setup()
    try:
        await web.TCPSite(runner, *address).start()
        log.info("the servers' sites are served on http://%s:%s/", *address)
        stopped = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stopped.set)
        await stopped.wait()
    finally:
        site.hub.close()
        await runner.cleanup()
        await stop_listening()
        await storage.close()


def run_site() -> int:
    load_dotenv(find_dotenv(usecwd=True))
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO").upper(), format="%(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve_sites(dict(os.environ)))
    except SettingsError as exc:
        print(f"python -m web site: {exc}", flush=True)
        return 2
    return 0
