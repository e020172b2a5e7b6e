"""Q Squared Joe's name and table options, below state.py (hand-set positions check
their options) and game.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import OptionSpec
from ..errors import GameError
from ..i18n import say

NAME = "Q Squared Joe"
VARIANTS = ("standard", "classic", "faceup", "challenge", "countdown")
MATCHES = ("single", "elimination")

OPTIONS = (
    OptionSpec(
        "variant", "standard",
        say("standard: Q2J with the Q² and Joe rules; classic: no Q²/Joe; faceup: all hands public; "
            "challenge: 2 players, 1 card against 5; countdown: new hands of 4, 3, 2, 1 after emptying one"),
        choices=VARIANTS,
        prompt=say("Which rules (default: Standard)"),
        labels={"standard": say("Standard (Q² and Joe rules)"), "classic": say("Classic (the concept only)"),
                "faceup": say("Face-up (all hands public)"), "challenge": say("Challenge (2 players: 1 card vs 5)"),
                "countdown": say("Countdown (hands of 5, 4, 3, 2, 1)")},
    ),
    OptionSpec(
        "match", "single",
        say("single: the first to empty their hand wins; elimination: each game the last player "
            "holding cards is out, until one player remains"),
        choices=MATCHES,
        prompt=say("One game, or an elimination match (default: single game)"),
        labels={"single": say("Single game"), "elimination": say("Elimination match")},
    ),
    OptionSpec(
        "short_hand", "random",
        say("challenge only: who is dealt the 1-card hand: random (seeded), or seat 0 or 1"),
        choices=("random", 0, 1),
        prompt=say("Challenge only: who is dealt the single card (default: random)"),
        labels={"random": say("Random"), 0: say("First seat (the host)"), 1: say("Second seat")},
    ),
)


def check_options(options: Mapping[str, Any], players: int | None) -> None:
    """Raise :class:`GameError` for option combinations Q2J does not offer
    (the player count is checked once it is known)."""
    short = options["short_hand"]
    if short != "random" and (type(short) is not int or short not in (0, 1)):
        raise GameError(say("Option {name}={value} is not valid; choose one of: {allowed}", name="short_hand",
                            value=repr(short), allowed="random, 0, 1"))
    if options["variant"] == "challenge":
        if players is not None and players != 2:
            raise GameError(say("Challenge is for exactly 2 players, not {players}", players=players))
    elif short != "random":
        raise GameError(say("Option short_hand only applies to the challenge variant"))
