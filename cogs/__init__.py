"""Deckhand's Discord layer, loaded as one extension (``bot.load_extension("cogs")``).

:func:`setup` installs the publisher (how the service shows tables in Discord), answers
every control and command error, translates the commands (:mod:`cogs.translator`), loads
the shared cogs, and gives every registered game its look (:mod:`cogs.games`) and its
``/<game> start`` command.
"""

from __future__ import annotations

from bot.client import DeckhandBot
from games import GAME_IDS, get_game

from .common import on_app_command_error
from .control import dynamic_items
from .games import load_game_uis
from .installed import table_publisher
from .parsing import install_option_checks
from .publisher import TablePublisher
from .start_commands import group_name, start_group
from .translator import CatalogTranslator

SHARED_COGS = ("cogs.router", "cogs.channel_events", "cogs.table_commands", "cogs.settings_commands", "cogs.scores",
               "cogs.rules")


async def setup(bot: DeckhandBot) -> None:
    publisher = TablePublisher(bot, bot.service, bot.pacer)
    bot.publisher = bot.service.publisher = publisher
    bot.tree.error(on_app_command_error)
    await bot.tree.set_translator(CatalogTranslator())
    for extension in SHARED_COGS:
        await bot.load_extension(extension)
    bot.add_dynamic_items(*dynamic_items())  # every control's module is imported by now
    for ui in load_game_uis():
        bot.tree.add_command(start_group(ui.game, ui.start_text()))
    install_option_checks(bot.tree)


async def teardown(bot: DeckhandBot) -> None:
    await table_publisher(bot).close()
    await bot.tree.set_translator(None)
    bot.remove_dynamic_items(*dynamic_items())
    for extension in SHARED_COGS:
        await bot.unload_extension(extension)
    for game_id in GAME_IDS:
        bot.tree.remove_command(group_name(get_game(game_id)))
