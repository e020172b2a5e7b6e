"""QUASH's name and table options, below state.py (hand-set positions check their
options) and game.py."""

from __future__ import annotations

from ..base import OptionSpec, bool_option, int_option
from ..i18n import say

NAME = "QUASH"
FINISH_RANGE = (5, 100)

OPTIONS = (
    OptionSpec(
        "advanced", False,
        say("advanced play: 2 players get 23 cards each (6 set aside, no draw pile); swap chains "
            "move cards already placed; every placement must keep its spot able to become a run"),
        parse=bool_option,
        prompt=say("Advanced play: hidden cards, and swaps that keep every spot able to become a run"),
    ),
    OptionSpec(
        "finish", 30,
        say("the track's length: the first side to reach this many points wins ({low}–{high})",
            low=FINISH_RANGE[0], high=FINISH_RANGE[1]),
        parse=int_option(*FINISH_RANGE),
        prompt=say("Points that win the match (default 30)"),
    ),
)

