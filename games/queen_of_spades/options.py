"""Queen of Spades' name and table options, below state.py (hand-set positions check
their options) and game.py."""

from __future__ import annotations

from ..base import OptionSpec, int_option
from ..i18n import say

NAME = "Queen of Spades"

OPTIONS = (
    OptionSpec(
        "target", 1000,
        say("the match ends when a player reaches this many points (highest total wins); 0: no target, "
            "the match goes on until the table ends it"),
        parse=int_option(0, 100_000),
        prompt=say("Score that wins the match (default 1000; 0 = endless, until the table ends it)"),
    ),
    OptionSpec(
        "rounds", 0,
        say("the match also ends after this many rounds (highest total wins); 0: no limit"),
        parse=int_option(0, 1000),
        prompt=say("Also end the match after this many rounds (default 0 = no limit)"),
    ),
)

