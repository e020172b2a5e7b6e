"""The registered NG :class:`~games.base.Game`: name, player counts, table options."""

from __future__ import annotations

from ..base import Game
from ..i18n import say
from .actions import NGAction
from .ai import SEARCH, choose, reason
from .options import NAME, OPTIONS
from .rules_text import RULES
from .state import NGState

GAME = Game(
    id="ng",
    name=NAME,
    min_players=2,
    max_players=4,
    options=OPTIONS,
    state_class=NGState,
    action_class=NGAction,
    ai=choose,
    reason=reason,
    search=SEARCH,
    command="ng",
    order=3,
    rules=RULES,
    summary=say("Q Squared Joe NG, the combat game of stacks"),
)
