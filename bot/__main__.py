"""``python -m bot [--sync]``: start Deckhand."""

from __future__ import annotations

import argparse
import logging
import sys

import discord

from .settings import Settings, SettingsError


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
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"deckhand: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)

    from .client import DeckhandBot

    bot = DeckhandBot(settings, force_sync=args.sync)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print("deckhand: Discord rejected DISCORD_TOKEN; copy the bot token again from the "
              "Developer Portal (Bot → Reset Token).", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("deckhand: Discord refused an intent the bot asked for; see README (no privileged "
              "intents are needed).", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
