"""The extension the bot loads (``bot.load_extension("cogs.extension")``, ``bot/client.py``).

:func:`setup` installs the publisher (how the service shows tables in Discord), answers
every control and command error, translates the commands (:mod:`cogs.translator`), adds
the shared cogs, and gives every registered game its look (:mod:`cogs.looks`) and its
``/<game> start`` command. The cogs' modules are imported once per process: unloading an
extension drops its own module (and its submodules) from ``sys.modules``, and this one is
alone in it, so a bot started again in the same process (the tests do it hundreds of
times) does not compile the whole layer again.
"""

from __future__ import annotations

import importlib
import pkgutil

from discord.ext import commands

from bot.client import DeckhandBot
from games import GAME_IDS, get_game

from .attachments import clear_cache
from .channel_events import ChannelEvents
from .common import on_app_command_error
from .control import dynamic_items
from .installed import table_publisher
from .looks import load_game_uis
from .parsing import install_option_checks
from .publisher import TablePublisher
from .router import Router
from .rules import RulesCog
from .scores import ScoresCog
from .season_commands import SeasonCog, SeasonHerald
from .settings_commands import SettingsCog
from .start_commands import group_name, start_group
from .table_commands import TableCommands
from .tournaments import install as install_tournaments
from .tournaments import uninstall as uninstall_tournaments
from .translator import CatalogTranslator

PACKAGE = __name__.rpartition(".")[0]
"""``cogs``: unloading this extension removes the cogs defined anywhere in it."""


def import_controls() -> None:
    """Import every module of the layer: a control kind registers itself when its class is
    defined (:func:`cogs.control.registered`), whether or not a cog imports its module."""
    for info in pkgutil.iter_modules(importlib.import_module(PACKAGE).__path__, f"{PACKAGE}."):
        importlib.import_module(info.name)


def shared_cogs(bot: DeckhandBot) -> list[commands.Cog]:
    """The cogs every bot has, whatever games are installed."""
    return [Router(), ChannelEvents(bot.service, table_publisher(bot)), TableCommands(), SettingsCog(), ScoresCog(),
            SeasonCog(), RulesCog()]


async def setup(bot: DeckhandBot) -> None:
    clear_cache()  # pictures are cached by table id and version, which name another table in another database
    publisher = TablePublisher(bot, bot.service, bot.pacer)
    bot.publisher = bot.service.publisher = publisher
    bot.service.seasons.herald = SeasonHerald(bot)
    bot.tree.error(on_app_command_error)
    await bot.tree.set_translator(CatalogTranslator())
    for cog in shared_cogs(bot):
        await bot.add_cog(cog)
    import_controls()
    bot.add_dynamic_items(*dynamic_items())
    uis = load_game_uis()
    for ui in uis:
        bot.tree.add_command(start_group(ui.game, ui.start_text()))
    install_tournaments(bot, publisher, [ui.game for ui in uis])
    install_option_checks(bot.tree)


async def teardown(bot: DeckhandBot) -> None:
    await table_publisher(bot).close()
    bot.service.seasons.herald = None
    await bot.tree.set_translator(None)
    bot.remove_dynamic_items(*dynamic_items())
    for name, cog in list(bot.cogs.items()):  # this layer's cogs, as discord.py does for an extension's own
        if type(cog).__module__.startswith(f"{PACKAGE}."):
            await bot.remove_cog(name)
    for game_id in GAME_IDS:
        bot.tree.remove_command(group_name(get_game(game_id)))
    uninstall_tournaments(bot)
