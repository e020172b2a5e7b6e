"""The Discord client: opens the database, loads the cogs, restores tables, syncs commands.

It runs as discord.py's ``AutoShardedBot``: one process runs every shard (the default,
Discord's recommended count) or the shards DECKHAND_SHARDS names, and then restores and
drives only the tables of the servers on them (:mod:`bot.shards`)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import signal
from typing import Any

import discord
from discord.ext import commands

from .announcer import VersionAnnouncer
from .budget import Pacer, process_rate
from .in_flight import InFlight
from .request_meter import RequestMeter
from .service import GameService, Publisher
from .settings import Settings
from .storage import Storage
from .storage.postgres import redacted
from .tournaments import Tournaments

log = logging.getLogger(__name__)

EXTENSION = "cogs.extension"
"""The Discord layer: its ``setup`` loads every cog and every game's commands."""
WEB_EXTENSION = "web.extension"
"""The servers' sites, loaded by name when DECKHAND_WEB is set (bot/ never imports web/)."""
SYNCED_TREE_KEY = "synced_command_tree"
"""Storage meta key (per sync target) holding the hash of the last command tree synced."""
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""Ctrl+C, and what ``docker stop`` and systemd send."""
CLAIM_RETRY_SECONDS = 1.0
"""How often a process standing by (another runs its shards) checks whether that one stopped."""
DRAIN_SECONDS = 5.0
"""How long closing waits for the interactions being answered (``docker stop`` kills after 10 s)."""


class DeckhandBot(commands.AutoShardedBot):
    """Deckhand. Slash commands only: it needs no privileged intents."""

    settings: Settings
    force_sync: bool
    """Sync the slash commands at start-up even if they did not change (``--sync``)."""
    stop_on_signals: bool
    claim_database: bool
    pacer: Pacer
    """Paces this process's requests to Discord (:mod:`bot.budget`)."""
    meter: RequestMeter
    in_flight: InFlight
    """The interactions being answered, drained before closing."""
    storage: Storage
    """Opened in :meth:`setup_hook`."""
    service: GameService
    """Created in :meth:`setup_hook`, once the database is open."""
    tournaments: Tournaments
    """Beside the service, on it (created with it)."""
    announcer: VersionAnnouncer
    """On PostgreSQL: each table version shown, told to the other processes (the site's own)."""
    publisher: Publisher
    """How tables are shown in Discord: the cogs' ``TablePublisher``, installed when they load
    (also the service's :attr:`GameService.publisher`). Typed by the service's protocol: bot/
    never imports cogs, not even for type checking (tests/test_structure.py)."""

    def __init__(self, settings: Settings, *, force_sync: bool = False, stop_on_signals: bool = False,
                 claim_database: bool = False, **options: Any) -> None:
        """``stop_on_signals``: the process is this bot's (``python -m bot``): SIGINT and
        SIGTERM close it (see :meth:`_stop_on_signals`). ``claim_database``: run only when no
        other process runs the same shards on the database (:meth:`_wait_for_the_database`)."""
        # Deckhand never joins voice: silence discord.py's warnings about voice libraries.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        self.pacer = Pacer(process_rate(settings.shards, settings.rest_rate))
        self.meter = RequestMeter(self.pacer)
        if settings.shards.ids is not None:  # else discord.py runs every shard
            options["shard_ids"] = list(settings.shards.ids)
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shards.count, http_trace=self.meter.trace_config(), **options,
        )
        self.settings = settings
        self.force_sync = force_sync
        self.stop_on_signals = stop_on_signals
        self.claim_database = claim_database
        self._stopping: asyncio.Task[None] | None = None
        self.in_flight = InFlight()

    async def setup_hook(self) -> None:
        self.storage = await Storage.open(self.settings.db_path, self.settings.db_synchronous)
        if self.claim_database:
            await self._wait_for_the_database()
        self.service = GameService(self.storage, ai_delay=self.settings.ai_delay, shards=self.settings.shards)
        self.tournaments = Tournaments(self.service)
        if self.storage.dialect == "postgresql":  # a site run as its own process follows the tables
            self.announcer = VersionAnnouncer(self.storage)
            self.service.on_shown(self.announcer.shown)
        await self.load_extension(EXTENSION)
        if self.settings.web is not None:
            await self.load_extension(WEB_EXTENSION)
        restored = await self.service.restore()
        await self.tournaments.restore()
        log.info("restored %d open table(s) of %s from %s", restored, self.settings.shards,
                 redacted(str(self.settings.db_path)))
        await self.sync_commands(force=self.force_sync)
        self.meter.start_reporting()
        if self.stop_on_signals:
            self._stop_on_signals()

    async def _wait_for_the_database(self) -> None:
        """Run only when no other process runs these shards on this database
        (:meth:`Storage.try_claim`): until then, wait and take over the moment it stops, so a
        process started twice by mistake stands by instead of answering every click a second
        time, and a rolling restart's new process starts as the old one ends."""
        shards = self.settings.shards
        if await self.storage.try_claim(shards):
            return
        log.warning("another Deckhand process is running %s on %s; this one waits and takes over when it stops",
                    shards, redacted(str(self.settings.db_path)))
        while not await self.storage.try_claim(shards):
            await asyncio.sleep(CLAIM_RETRY_SECONDS)
        log.info("the other process stopped; taking over %s", shards)

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """discord.py's ``start``; when a stop signal closed the bot while it was still
        connecting, the connection it pulled away ends start-up quietly."""
        try:
            await super().start(token, reconnect=reconnect)
        except Exception:
            if self._stopping is None:
                raise

    def _stop_on_signals(self) -> None:
        """From the end of start-up, SIGINT and SIGTERM close the bot cleanly (tables, workers,
        database), and a second one while it closes stops it at once.

        The event loop's own signal handling, not a Python handler: a signal may land on any
        thread, and a Python handler runs only when the main thread next runs code, which an
        idle loop waiting on its sockets may not do for a long time.
        """
        loop = asyncio.get_running_loop()
        for sig in STOP_SIGNALS:
            with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C stays Python's
                loop.add_signal_handler(sig, self._on_stop_signal, sig)

    def _on_stop_signal(self, sig: int) -> None:
        if self._stopping is not None:
            raise KeyboardInterrupt
        log.info("%s received: closing", signal.Signals(sig).name)
        self._stopping = asyncio.create_task(self.close())

    async def tree_hash(self, guild: discord.abc.Snowflake | None) -> str:
        """A hash of the commands as Discord would receive them (for ``guild``, or global), their
        translations included: a changed catalog is synced like a changed command."""
        translator = self.tree.translator
        payload = [await command.get_translated_payload(self.tree, translator) if translator
                   else command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        text = json.dumps(sorted(payload, key=lambda c: (c["name"], c.get("type", 1))), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync_commands(self, force: bool = False) -> None:
        """Globally, or to DEV_GUILD_ID when set (instant, for development); only when the
        commands changed since the last sync (Discord rate-limits syncing) or ``force``.
        A sync Discord refuses is logged and the bot runs on with the commands Discord has."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        key = f"{SYNCED_TREE_KEY}:{guild.id if guild else 'global'}"
        digest = await self.tree_hash(guild)
        if not force and await self.storage.get_meta(key) == digest:
            log.info("commands unchanged since the last sync; not syncing (python -m bot --sync forces it)")
            return
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:
            # The commands Discord already has keep working; the next start tries again.
            where = f"server {guild.id} (DEV_GUILD_ID)" if guild else "Discord"
            hint = (" Is the bot in that server, invited with the applications.commands scope?"
                    if guild is not None and isinstance(exc, discord.Forbidden) else "")
            log.warning("could not sync the slash commands with %s: %s %s.%s The bot runs on; "
                        "the next start tries again.", where, exc.status, exc.text or "", hint)
            return
        await self.storage.set_meta(key, digest)
        log.info("synced %d command(s)", len(synced))

    async def on_ready(self) -> None:
        log.info("connected as %s to %d server(s) on shard(s) %s of %s", self.user, len(self.guilds),
                 ",".join(map(str, self.shards)), self.shard_count)

    async def close(self) -> None:
        """Answer the interactions in flight (new ones are told the bot is restarting), then
        stop the tables' tasks and AI workers, the database and the connection to Discord."""
        if not self.in_flight.closing and not await self.in_flight.drain(DRAIN_SECONDS):
            log.warning("closing with %d interaction(s) still being answered", self.in_flight.count)
        self.meter.close()
        self.pacer.close()
        if hasattr(self, "service"):
            await self.service.close()
        if hasattr(self, "announcer"):
            await self.announcer.close()
        if hasattr(self, "storage"):
            await self.storage.close()
        await super().close()
