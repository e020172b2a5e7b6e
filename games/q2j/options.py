"""Q Squared Joe's name and table options, below state.py (hand-set positions check
their options) and game.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import OptionSpec
from ..errors import GameError

NAME = "Q Squared Joe"
VARIANTS = ("standard", "classic", "faceup", "challenge", "countdown")
MATCHES = ("single", "elimination")

OPTIONS = (
    OptionSpec(
        "variant", "standard",
        "standard: Q2J with the Q² and Joe rules; classic: no Q²/Joe; faceup: all hands public; "
        "challenge: 2 players, 1 card against 5; countdown: new hands of 4, 3, 2, 1 after emptying one",
        choices=VARIANTS,
        prompt="Which rules (default: Standard)",
        labels={"standard": "Standard (Q² and Joe rules)", "classic": "Classic (the concept only)",
                "faceup": "Face-up (all hands public)", "challenge": "Challenge (2 players: 1 card vs 5)",
                "countdown": "Countdown (hands of 5, 4, 3, 2, 1)"},
    ),
    OptionSpec(
        "match", "single",
        "single: the first to empty their hand wins; elimination: each game the last player "
        "holding cards is out, until one player remains",
        choices=MATCHES,
        prompt="One game, or an elimination match (default: single game)",
        labels={"single": "Single game", "elimination": "Elimination match"},
    ),
    OptionSpec(
        "short_hand", "random",
        "challenge only: who is dealt the 1-card hand: random (seeded), or seat 0 or 1",
        choices=("random", 0, 1),
        prompt="Challenge only: who is dealt the single card (default: random)",
        labels={"random": "Random", 0: "First seat (the host)", 1: "Second seat"},
    ),
)


def check_options(options: Mapping[str, Any], players: int | None) -> None:
    """Raise :class:`GameError` for option combinations Q2J does not offer
    (the player count is checked once it is known)."""
    short = options["short_hand"]
    if short != "random" and (type(short) is not int or short not in (0, 1)):
        raise GameError(f"Option short_hand={short!r} is not valid; choose one of: random, 0, 1")
    if options["variant"] == "challenge":
        if players is not None and players != 2:
            raise GameError(f"Challenge is for exactly 2 players, not {players}")
    elif short != "random":
        raise GameError("Option short_hand only applies to the challenge variant")
