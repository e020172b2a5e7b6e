"""Queen of Spades' name and table options, in a module of their own below state.py and
game.py: both validate options with :func:`normalize`."""

from __future__ import annotations

from typing import Any, Mapping

from ..base import OptionSpec, int_option, normalize_options

NAME = "Queen of Spades"

OPTIONS = (
    OptionSpec(
        "target", 1000,
        "the match ends when a player reaches this many points (highest total wins); 0: no target, "
        "the match goes on until the table ends it",
        parse=int_option(0, 100_000),
        prompt="Score that wins the match (default 1000; 0 = endless, until the table ends it)",
    ),
    OptionSpec(
        "rounds", 0,
        "the match also ends after this many rounds (highest total wins); 0: no limit",
        parse=int_option(0, 1000),
        prompt="Also end the match after this many rounds (default 0 = no limit)",
    ),
)


def normalize(options: Mapping[str, Any] | None, players: int | None = None) -> dict[str, Any]:
    """Queen of Spades's options with defaults filled in; bad names, values or combinations raise GameError."""
    return normalize_options(NAME, OPTIONS, options, players)
