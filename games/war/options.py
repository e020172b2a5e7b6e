"""Q Squared Joe War's name and table options, below state.py (hand-set positions check
their options) and game.py."""

from __future__ import annotations

from ..base import OptionSpec
from ..i18n import say

NAME = "Q Squared Joe War"
LOSS_RULES = ("no-cards", "field-empty")

OPTIONS = (
    OptionSpec(
        "loss", "no-cards",
        say("no-cards: a player is out when their field and deck are both empty (English rules); "
            "field-empty: out as soon as their field is empty (French rules)"),
        choices=LOSS_RULES,
        prompt=say("When a player is out (default: when field and deck are both empty)"),
        labels={"no-cards": say("Out when field and deck are empty"),
                "field-empty": say("Out as soon as the field is empty")},
    ),
)

