"""Options every table has, whatever its game, kept in the table's options beside the
game's own but never shown to the engine: ``hints`` (the Hint button; default on)."""

from __future__ import annotations

from typing import Any, Mapping

from .errors import UserError

TABLE_OPTIONS: dict[str, bool] = {"hints": True}


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, bool]]:
    """``(the game's options, the table options with their defaults filled in)``; a table
    option that isn't true or false is refused with a :class:`UserError`."""
    table = {name: options.get(name, default) for name, default in TABLE_OPTIONS.items()}
    for name, value in table.items():
        if not isinstance(value, bool):
            raise UserError(f"The option `{name}` must be true or false.")
    return engine_options(options), table


def engine_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options the game's engine reads (a table's stored options without the table options)."""
    return {name: value for name, value in options.items() if name not in TABLE_OPTIONS}


def hints_allowed(options: Mapping[str, Any]) -> bool:
    """Whether the table offers the Hint button (tables from before the option do)."""
    return options.get("hints", TABLE_OPTIONS["hints"]) is not False
