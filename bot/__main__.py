"""``python -m bot``: start Deckhand, move a deployment to PostgreSQL, or rebuild achievements.

``python -m bot [--sync]`` starts Deckhand; ``python -m bot migrate-to-postgres SQLITE_FILE
POSTGRES_URL`` copies a SQLite deployment to PostgreSQL; ``python -m bot achievements
--recompute`` rebuilds every unlocked achievement from the stored history."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

from .garbage_collection import tune_garbage_collection
from .settings import Settings, SettingsError

# discord.py, the database drivers and the bot's own modules take a few tenths of a second
# to load: they are imported inside the functions, so a Ctrl+C meanwhile ends the start
# quietly (see the end of this file) instead of with a traceback.


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)-8s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # discord.py's gateway chatter is noise at INFO; keep its warnings.
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Start Deckhand.")
    parser.add_argument("--sync", action="store_true",
                        help="sync the slash commands with Discord even if they did not change since the last sync")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    migrate = commands.add_parser(
        "migrate-to-postgres", help="copy a SQLite database into an empty PostgreSQL database, then verify the counts")
    migrate.add_argument("sqlite_file", metavar="SQLITE_FILE")
    migrate.add_argument("postgres_url", metavar="POSTGRES_URL")
    achievements = commands.add_parser(
        "achievements", help="rebuild the achievements unlocked from the stored games, ratings and seasons "
                             "(DECKHAND_DB), e.g. to backfill a new one; running it again changes nothing")
    achievements.add_argument("--recompute", action="store_true", required=True,
                              help="recompute every server's achievements from the whole history")
    args = parser.parse_args(argv)
    if args.command == "migrate-to-postgres":
        return migrate_command(args.sqlite_file, args.postgres_url)
    if args.command == "achievements":
        return achievements_command()
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"deckhand: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)

    import aiohttp
    import discord

    from .client import DeckhandBot
    from .errors import DatabaseUnreachable, StorageUnavailable
    from .storage import is_postgres_url

    bot = DeckhandBot(settings, force_sync=args.sync, stop_on_signals=True, claim_database=True)
    tune_garbage_collection()
    try:
        asyncio.run(check_database(settings))  # before Discord: a wrong DECKHAND_DB is one clear line
        bot.run(settings.token, log_handler=None)
    except DatabaseUnreachable as exc:
        hint = ("check DECKHAND_DB and that the database server is running" if is_postgres_url(settings.db_path)
                else "check DECKHAND_DB: a file the bot can create, read and write")
        print(f"deckhand: {exc}; {hint}.", file=sys.stderr)
        return 1
    except StorageUnavailable:
        print("deckhand: the database failed during start-up (the log line above says how); "
              "check that the database server is running.", file=sys.stderr)
        return 1
    except aiohttp.ClientError as exc:  # only logging in is not retried; the connection itself is
        print(f"deckhand: cannot reach Discord ({exc}); check this machine's network connection.", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print("deckhand: Discord rejected DISCORD_TOKEN; copy the bot token again from the "
              "Developer Portal (Bot → Reset Token).", file=sys.stderr)
        return 1
    except discord.ConnectionClosed as exc:  # a close discord.py does not retry: only the admin can fix it
        print(f"deckhand: {closed_for_good(exc.code, exc.reason)}", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("deckhand: Discord refused an intent the bot asked for; see README (no privileged "
              "intents are needed).", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


GATEWAY_CLOSES = {
    4004: "Discord no longer accepts DISCORD_TOKEN (was it reset?); copy the new token from the "
          "Developer Portal (Bot → Reset Token)",
    4010: "Discord refused the shards DECKHAND_SHARDS names; check FIRST-LAST/COUNT",
    4011: "Discord needs more shards for this bot's servers; set DECKHAND_SHARDS=all, or a larger COUNT",
}


def closed_for_good(code: int | None, reason: str | None) -> str:
    """One line for a gateway close discord.py does not retry (it then ends the bot)."""
    why = GATEWAY_CLOSES.get(code or 0, f"Discord closed the connection for good ({code}: {reason or 'no reason'})")
    return f"{why}. The bot has stopped."


async def check_database(settings: Settings) -> None:
    """Open (and migrate) the database once, so an unreachable one stops start-up at once."""
    from .storage import Storage

    storage = await Storage.open(settings.db_path, settings.db_synchronous)
    await storage.close()


def migrate_command(sqlite_file: str, postgres_url: str) -> int:
    from .errors import StorageUnavailable
    from .migrate_to_postgres import MigrationError, migrate_to_postgres

    try:
        copied = asyncio.run(migrate_to_postgres(sqlite_file, postgres_url))
    except (MigrationError, StorageUnavailable) as exc:
        print(f"deckhand: migrate-to-postgres: {exc}", file=sys.stderr)
        return 1
    print("copied " + ", ".join(f"{n} {table}" for table, n in copied.items()) + "; the counts match")
    return 0


def achievements_command() -> int:
    from dotenv import find_dotenv, load_dotenv

    from .errors import DatabaseUnreachable, StorageUnavailable
    from .settings import database_from
    from .storage import Storage
    from .tournaments.podium import podiums
    from .unlocks import Unlocks

    load_dotenv(find_dotenv(usecwd=True))

    async def recompute() -> str:
        storage = await Storage.open(database_from(os.environ.get("DECKHAND_DB", "")))
        try:
            done = await Unlocks(storage).recompute(await podiums(storage))
        finally:
            await storage.close()
        return (f"achievements recomputed: {done.added} added, {done.removed} removed, {done.changed} moved to "
                f"the game that earns them, {done.kept} kept")

    try:
        print(asyncio.run(recompute()))
    except (SettingsError, DatabaseUnreachable, StorageUnavailable) as exc:
        print(f"deckhand: achievements: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl+C while the modules load, before the bot handles it
        sys.exit(130)
