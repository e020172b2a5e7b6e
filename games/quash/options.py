"""QUASH's name and table options, in a module of their own below state.py and
game.py: both validate options with :func:`normalize`."""

from __future__ import annotations

from typing import Any, Mapping

from ..base import OptionSpec, bool_option, int_option, normalize_options

NAME = "QUASH"
FINISH_RANGE = (5, 100)

OPTIONS = (
    OptionSpec(
        "advanced", False,
        "advanced play: 2 players get 23 cards each (6 set aside, no draw pile); swap chains "
        "move cards already placed; every placement must keep its spot able to become a run",
        parse=bool_option,
        prompt="Advanced play: hidden cards, and swaps that keep every spot able to become a run",
    ),
    OptionSpec(
        "finish", 30,
        f"the track's length: the first side to reach this many points wins "
        f"({FINISH_RANGE[0]}–{FINISH_RANGE[1]})",
        parse=int_option(*FINISH_RANGE),
        prompt="Points that win the match (default 30)",
    ),
)


def normalize(options: Mapping[str, Any] | None, players: int | None = None) -> dict[str, Any]:
    """QUASH's options with defaults filled in; bad names, values or combinations raise GameError."""
    return normalize_options(NAME, OPTIONS, options, players)
