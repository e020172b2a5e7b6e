"""The registered War :class:`~games.base.Game`: name, player counts, table options."""

from __future__ import annotations

from ..base import Game, OptionSpec
from .actions import WarAction
from .ai import choose
from .state import LOSS_RULES, WarState

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


GAME = Game(
    id="war",
    name="Q Squared Joe War",
    min_players=2,
    max_players=4,
    options=OPTIONS,
    state_class=WarState,
    action_class=WarAction,
    ai=choose,
    command="war",
    summary="Q Squared Joe War, the combat game",
)
