"""Configuration from the environment (and a ``.env`` file, via python-dotenv)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import find_dotenv, load_dotenv

from .shards import ALL_SHARDS, Shards


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str
    dev_guild_id: int | None
    db_path: Path | str
    """DECKHAND_DB: a SQLite file (a :class:`Path`) or a ``postgresql://`` URL (a str)."""
    log_level: str
    db_synchronous: str
    ai_delay: float
    shards: Shards = ALL_SHARDS
    """The Discord shards this process runs (DECKHAND_SHARDS)."""
    rest_rate: float | None = None
    """DECKHAND_REST_RATE: budgeted requests a second this process may make (default: its
    share of :data:`bot.budget.DEFAULT_RATE`)."""
    web: tuple[str, int] | None = None
    """DECKHAND_WEB: where this process serves the servers' sites (``host:port``, by default
    127.0.0.1:8080 from the environment); None (``off``, and settings made in code): nowhere."""
    public_url: str = "http://127.0.0.1:8080"
    """DECKHAND_PUBLIC_URL: the address people reach the site at (the operator's HTTPS proxy),
    without a trailing slash; default: DECKHAND_WEB's own address."""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        """Read settings; ``env`` defaults to ``os.environ`` after loading ``.env``."""
        if env is None:
            load_dotenv(find_dotenv(usecwd=True))
            env = dict(os.environ)
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: put your bot token in the environment or in .env "
                "(copy .env.example), then run again."
            )
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
        level = (env.get("LOG_LEVEL", "").strip() or "INFO").upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
        sync = (env.get("DECKHAND_DB_SYNCHRONOUS", "").strip() or "FULL").upper()
        if sync not in ("FULL", "NORMAL", "EXTRA"):
            raise SettingsError(f"DECKHAND_DB_SYNCHRONOUS must be FULL, NORMAL or EXTRA, not {sync!r}.")
        delay = env.get("DECKHAND_AI_DELAY", "").strip() or "1.0"
        try:
            ai_delay = float(delay)
        except ValueError:
            ai_delay = math.nan
        if not math.isfinite(ai_delay):  # "inf" would leave every AI seat thinking forever
            raise SettingsError(f"DECKHAND_AI_DELAY must be a number of seconds, not {delay!r}.")
        try:
            shards = Shards.parse(env.get("DECKHAND_SHARDS", "all"))
        except ValueError as exc:
            raise SettingsError(f"DECKHAND_SHARDS {exc}.") from None
        rate = env.get("DECKHAND_REST_RATE", "").strip()
        try:
            rest_rate = float(rate) if rate else None
        except ValueError:
            rest_rate = math.nan
        if rest_rate is not None and not (math.isfinite(rest_rate) and rest_rate > 0):
            raise SettingsError(f"DECKHAND_REST_RATE must be a number of requests a second above 0, not {rate!r}.")
        web_address = web_from(env.get("DECKHAND_WEB", ""))
        public_url = public_url_from(env.get("DECKHAND_PUBLIC_URL", ""), web_address)
        return cls(
            token=token,
            dev_guild_id=int(guild) if guild else None,
            db_path=database_from(env.get("DECKHAND_DB", "")),
            log_level=level,
            db_synchronous=sync,
            ai_delay=max(0.0, ai_delay),
            shards=shards,
            rest_rate=rest_rate,
            web=web_address,
            public_url=public_url,
        )


def web_from(value: str) -> tuple[str, int] | None:
    """DECKHAND_WEB: ``host:port`` (default ``127.0.0.1:8080``), or ``off``."""
    value = value.strip() or "127.0.0.1:8080"
    if value.lower() == "off":
        return None
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SettingsError(f"DECKHAND_WEB must be host:port (such as 127.0.0.1:8080) or off, not {value!r}.")
    return host.strip("[]"), int(port)


def public_url_from(value: str, web: tuple[str, int] | None) -> str:
    """DECKHAND_PUBLIC_URL: an ``http(s)://`` address; default: the site's own address."""
    value = value.strip().rstrip("/")
    if not value:
        host, port = web or ("127.0.0.1", 8080)
        return f"http://{host}:{port}"
    if not value.startswith(("https://", "http://")) or any(c in value for c in " <>\"\'"):
        raise SettingsError(f"DECKHAND_PUBLIC_URL must be an http:// or https:// address, not {value!r}.")
    return value


def database_from(value: str) -> Path | str:
    """DECKHAND_DB as :meth:`bot.storage.Storage.open` takes it: a ``postgresql://`` URL as
    it is, anything else a SQLite file path (default ``data/deckhand.sqlite3``; ``~`` is the
    home folder)."""
    value = value.strip()
    if value.startswith(("postgresql://", "postgres://")):
        return value
    if "://" in value:
        raise SettingsError(f"DECKHAND_DB must be a SQLite file path or a postgresql:// URL, not {value.split('://')[0]}://…")
    return Path(value or "data/deckhand.sqlite3").expanduser()  # .env files don't expand "~" themselves
