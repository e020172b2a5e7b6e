"""Q Squared Joe NG's name and table options, below state.py (hand-set positions check
their options) and game.py."""

from __future__ import annotations

from ..base import OptionSpec, bool_option
from ..i18n import say

NAME = "Q Squared Joe NG"

OPTIONS = (
    OptionSpec(
        "faceup", False,
        say("every card is public: hands, face-down field cards and the deck order"),
        parse=bool_option,
        prompt=say("Play with every card public, the deck order included (default: off)"),
    ),
)

