"""The registered NG :class:`~games.base.Game`: name, player counts, table options."""

from __future__ import annotations

from ..base import Game, OptionSpec, bool_option
from .actions import NGAction
from .ai import choose
from .state import NGState

OPTIONS = (
    OptionSpec(
        "faceup", False,
        "every card is public: hands, face-down field cards and the deck order",
        parse=bool_option,
        prompt="Play with every card public, the deck order included (default: off)",
    ),
)


GAME = Game(
    id="ng",
    name="Q Squared Joe NG",
    min_players=2,
    max_players=4,
    options=OPTIONS,
    state_class=NGState,
    action_class=NGAction,
    ai=choose,
    command="ng",
    summary="Q Squared Joe NG, the combat game of stacks",
)
