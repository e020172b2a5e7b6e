"""The :class:`~cogs.publisher.TablePublisher` the extension installs on the bot, typed for the cogs that use it.

The bot holds it typed by the service's :class:`~bot.service.Publisher` protocol (bot/ never
imports cogs/): the cogs reach it here, as the class it is."""

from __future__ import annotations

import discord

from bot.client import DeckhandBot

from .common import bot_of
from .publisher import TablePublisher


def table_publisher(bot: DeckhandBot) -> TablePublisher:
    """The bot's publisher, as :func:`cogs.setup` made it (the bot types it by the service's
    :class:`~bot.service.Publisher` protocol: bot/ never imports cogs)."""
    publisher = bot.publisher
    if not isinstance(publisher, TablePublisher):
        raise TypeError(f"the bot's publisher is a {type(publisher).__name__}: cogs.setup installs a TablePublisher")
    return publisher


def table_publisher_of(interaction: discord.Interaction) -> TablePublisher:
    """The publisher of the bot answering ``interaction``."""
    return table_publisher(bot_of(interaction))
