"""Q Squared Joe War's name and table options, in a module of their own below state.py and
game.py: both validate options with :func:`normalize`."""

from __future__ import annotations

from typing import Any, Mapping

from ..base import OptionSpec, normalize_options

NAME = "Q Squared Joe War"
LOSS_RULES = ("no-cards", "field-empty")

OPTIONS = (
    OptionSpec(
        "loss", "no-cards",
        "no-cards: a player is out when their field and deck are both empty (English rules); "
        "field-empty: out as soon as their field is empty (French rules)",
        choices=LOSS_RULES,
        prompt="When a player is out (default: when field and deck are both empty)",
        labels={"no-cards": "Out when field and deck are empty", "field-empty": "Out as soon as the field is empty"},
    ),
)


def normalize(options: Mapping[str, Any] | None, players: int | None = None) -> dict[str, Any]:
    """Q Squared Joe War's options with defaults filled in; bad names, values or combinations raise GameError."""
    return normalize_options(NAME, OPTIONS, options, players)
