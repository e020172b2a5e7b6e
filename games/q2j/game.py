"""The registered Q2J :class:`~games.base.Game`: name, player counts, table options."""

from __future__ import annotations

from ..base import Game
from ..i18n import say
from .actions import Q2JAction
from .ai import choose, reason
from .options import NAME, OPTIONS, check_options
from .rules_text import RULES
from .search import SEARCH
from .state import Q2JState

GAME = Game(
    id="q2j",
    name=NAME,
    min_players=2,
    max_players=10,
    options=OPTIONS,
    state_class=Q2JState,
    action_class=Q2JAction,
    ai=choose,
    reason=reason,
    search=SEARCH,
    check_options=check_options,
    command="q2j",
    order=1,
    usual_players=4,
    rules=RULES,
    summary=say("Q Squared Joe, the shedding game"),
)
