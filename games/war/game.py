"""The registered War :class:`~games.base.Game`: name, player counts, table options."""

from __future__ import annotations

from ..base import Game
from ..i18n import say
from .actions import WarAction
from .ai import SEARCH, choose, reason
from .options import NAME, OPTIONS
from .rules_text import RULES
from .state import WarState

GAME = Game(
    id="war",
    name=NAME,
    min_players=2,
    max_players=4,
    options=OPTIONS,
    state_class=WarState,
    action_class=WarAction,
    ai=choose,
    reason=reason,
    search=SEARCH,
    command="war",
    order=2,
    rules=RULES,
    summary=say("Q Squared Joe War, the combat game"),
)
