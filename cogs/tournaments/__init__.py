"""Tournaments in Discord.

``/tournament`` (:mod:`.commands`), the tournament message
(:mod:`.message`) and its controls (:mod:`.controls`), and the publisher that shows them
within the request budget and opens round tables' threads (:mod:`.publisher`).

:func:`install` wires them into the bot (from :func:`cogs.extension.setup`).
"""

from __future__ import annotations

from bot.client import DeckhandBot
from games.base import Game

from ..publisher import TablePublisher
from .commands import tournament_group
from .publisher import TournamentMessages

COMMAND = "tournament"


def install(bot: DeckhandBot, tables: TablePublisher, games_list: list[Game]) -> None:
    """``/tournament`` (a ``create`` per game of ``games_list``), and the publisher tournaments
    (and tables' banners) are shown through."""
    messages = TournamentMessages(bot, bot.tournaments, bot.pacer)
    bot.tournaments.publisher = messages
    tables.banners = messages.banner
    bot.tree.add_command(tournament_group(games_list))


def uninstall(bot: DeckhandBot) -> None:
    bot.tree.remove_command(COMMAND)
    bot.tournaments.publisher = None
