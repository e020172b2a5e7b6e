"""Deckhand's Discord layer, loaded as one extension (``bot.load_extension("cogs")``).

:func:`setup` installs the publisher (how the service shows tables in Discord), answers
every control and command error, translates the commands (:mod:`cogs.translator`), loads
the shared cogs, and gives every registered game its look (:mod:`cogs.games`) and its
``/<game> start`` command.
"""

from __future__ import annotations

from discord.ext import commands

from games import GAME_IDS, get_game

from .common import on_app_command_error
from .control import dynamic_items
from .games import load_game_uis
from .parsing import install_option_checks
from .publisher import TablePublisher
from .start_commands import group_name, start_group
from .translator import CatalogTranslator

SHARED_COGS = ("cogs.router", "cogs.channel_events", "cogs.table_commands", "cogs.settings", "cogs.scores",
               "cogs.rules")


async def setup(bot: commands.Bot) -> None:
    publisher = TablePublisher(bot, bot.service, bot.pacer)  # type: ignore[attr-defined]
    bot.publisher = bot.service.publisher = publisher  # type: ignore[attr-defined]
    bot.tree.on_error = on_app_command_error  # type: ignore[method-assign]
    await bot.tree.set_translator(CatalogTranslator())
    for extension in SHARED_COGS:
        await bot.load_extension(extension)
    bot.add_dynamic_items(*dynamic_items())  # every control's module is imported by now
    for ui in load_game_uis():
        bot.tree.add_command(start_group(ui.game, ui.start_text()))
    install_option_checks(bot.tree)


async def teardown(bot: commands.Bot) -> None:
    await bot.publisher.close()  # type: ignore[attr-defined]
    await bot.tree.set_translator(None)
    bot.remove_dynamic_items(*dynamic_items())
    for extension in SHARED_COGS:
        await bot.unload_extension(extension)
    for game_id in GAME_IDS:
        bot.tree.remove_command(group_name(get_game(game_id)))
