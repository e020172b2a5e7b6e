"""Q Squared Joe NG's name and table options, in a module of their own below state.py and
game.py: both validate options with :func:`normalize`."""

from __future__ import annotations

from typing import Any, Mapping

from ..base import OptionSpec, bool_option, normalize_options

NAME = "Q Squared Joe NG"

OPTIONS = (
    OptionSpec(
        "faceup", False,
        "every card is public: hands, face-down field cards and the deck order",
        parse=bool_option,
        prompt="Play with every card public, the deck order included (default: off)",
    ),
)


def normalize(options: Mapping[str, Any] | None, players: int | None = None) -> dict[str, Any]:
    """Q Squared Joe NG's options with defaults filled in; bad names, values or combinations raise GameError."""
    return normalize_options(NAME, OPTIONS, options, players)
