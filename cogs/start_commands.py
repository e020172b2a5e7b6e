"""``/<game> start``, generated from each game's table options (its ``OptionSpec``s).

The group is ``Game.command`` described by ``Game.summary``; ``start`` has one option
per table option (choices with the spec's labels, ranges for whole numbers, booleans
for on/off) and the shared ``timer`` and ``hints`` (:mod:`bot.table_options`). An option
left out keeps the engine's default. Names and descriptions are translated like every
command's (:mod:`cogs.translator`): the engine's words are Texts, and its names are in the
catalogs (``python -m games.i18n update`` reads them from the games).
"""

from __future__ import annotations

import inspect
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.service import MAX_TIMER_MINUTES
from games.base import Game, OptionSpec
from games.i18n import Text

from .common import guarded
from .limits import CHOICE_NAME, COMMAND_DESCRIPTION
from .opening import open_table
from .translator import command_text, slash_name

TIMER_DESCRIPTION = locale_str(
    "Minutes per turn before the AI plays for you; 0 turns it off (default: the server's, or 10)")
HINTS_DESCRIPTION = locale_str(
    "Offer the Hint button (the move the normal AI would make); hinted games are unrated (default: on)")


def slash_type(spec: OptionSpec) -> Any:
    """The option's type as discord.py reads it: choices are sent as text, whatever
    the engine's values (Q2J's ``short_hand`` is ``"random"``, 0 or 1)."""
    if spec.choices:
        return str
    if isinstance(spec.default, bool):
        return bool
    if spec.bounds is not None:
        return app_commands.Range[int, spec.bounds[0], spec.bounds[1]]
    return type(spec.default)


def engine_value(spec: OptionSpec, value: Any) -> Any:
    """The engine's value for what Discord sent."""
    if spec.choices:
        return {str(choice): choice for choice in spec.choices}.get(value, value)
    return value


def start_command(game: Game, description: Text | str) -> app_commands.Command:
    specs = {spec.name: spec for spec in game.options}

    @guarded
    async def start(interaction: discord.Interaction, **given: Any) -> None:
        timer = given.pop("timer", None)
        hints = given.pop("hints", None)
        options = {name: engine_value(specs[name], value) for name, value in given.items() if value is not None}
        if hints is not None:
            options["hints"] = hints
        await open_table(interaction, game.id, options, timer)

    with_game_options(start, game, [
        (slash_name("timer"), app_commands.Range[int, 0, MAX_TIMER_MINUTES], TIMER_DESCRIPTION),
        (slash_name("hints"), bool, HINTS_DESCRIPTION)])
    return app_commands.Command(name=slash_name("start"), description=command_text(description, COMMAND_DESCRIPTION),
                                callback=start)


def with_game_options(callback: Any, game: Game, more: list[tuple[locale_str, Any, locale_str]]) -> None:
    """Give ``callback`` (``async def (interaction, **given)``) one optional slash option per
    option of ``game`` (choices with the spec's labels, ranges for whole numbers, booleans for
    on/off), then ``more``: ``(name, type, description)`` each, the name a :func:`slash_name`."""
    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)]
    parameters += [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation | None)
        for name, annotation in [*((s.name, slash_type(s)) for s in game.options),
                                 *((n.message, a) for n, a, _ in more)]
    ]
    callback.__signature__ = inspect.Signature(parameters)
    app_commands.rename(**{name.message: name for name, _, _ in more})(callback)
    app_commands.describe(
        **{s.name: command_text(s.prompt or s.description, COMMAND_DESCRIPTION) for s in game.options},
        **{name.message: description for name, _, description in more},
    )(callback)
    choices = {
        s.name: [app_commands.Choice(name=command_text(s.labels.get(c, str(c)), CHOICE_NAME), value=str(c))
                 for c in s.choices]
        for s in game.options if s.choices
    }
    if choices:
        app_commands.choices(**choices)(callback)


def group_name(game: Game) -> str:
    """The game's slash-command group: ``Game.command`` (its id unless the game says otherwise)."""
    return game.command


def start_group(game: Game, description: Text | str) -> app_commands.Group:
    """``/<game.command>`` with its ``start`` command (``description``: what start says)."""
    group = app_commands.Group(name=group_name(game),
                               description=command_text(game.summary or game.name, COMMAND_DESCRIPTION),
                               guild_only=True)
    group.add_command(start_command(game, description))
    return group
