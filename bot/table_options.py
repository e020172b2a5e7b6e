"""Options every table has whatever its game, stored with the game's own but never shown to the engine.

Today one: ``hints`` (the Hint button; default on)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.i18n import SlashOption, say

from .errors import UserError

TABLE_OPTIONS: dict[str, bool] = {"hints": True}


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, bool]]:
    """``(the game's options, the table options to store)``. Only a table option changed from
    its default is stored, so a table that keeps the defaults has exactly its game's options.
    A table option that isn't true or false is refused with a :class:`UserError`."""
    table = {}
    for name, default in TABLE_OPTIONS.items():
        value = options.get(name, default)
        if not isinstance(value, bool):
            raise UserError(say("The option `{option}` must be true or false.", option=SlashOption(name)))
        if value != default:
            table[name] = value
    return engine_options(options), table


def engine_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options the game's engine reads (a table's stored options without the table options)."""
    return {name: value for name, value in options.items() if name not in TABLE_OPTIONS}


def hints_allowed(options: Mapping[str, Any]) -> bool:
    """Whether the table offers the Hint button (tables from before the option do)."""
    return options.get("hints", TABLE_OPTIONS["hints"]) is not False
