"""The registered QUASH :class:`~games.base.Game`: name, player counts, table options."""

from __future__ import annotations

from ..base import Game
from ..i18n import say
from .actions import QuashAction
from .ai import choose, reason
from .options import NAME, OPTIONS
from .rules_text import RULES
from .scoring import SIDE_NAMES
from .search import SEARCH
from .state import QuashState

GAME = Game(
    id="quash",
    name=NAME,
    min_players=2,
    max_players=4,
    options=OPTIONS,
    state_class=QuashState,
    action_class=QuashAction,
    player_counts=(2, 4),
    ai=choose,
    reason=reason,
    search=SEARCH,
    points=say("track points"),
    quick_options={"finish": 12},
    sides=SIDE_NAMES,
    command="quash",
    order=5,
    rules=RULES,
    summary=say("QUASH, runs against runs on nine spots a side"),
)
