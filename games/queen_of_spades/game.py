"""The registered Queen of Spades :class:`~games.base.Game`: name, player counts,
table options, AI and what a timed-out turn becomes."""

from __future__ import annotations

from ..base import Action, Game
from ..i18n import say
from ..rng import Rng
from .actions import DEAL_ACTION, NEXT_ACTION, QoSAction
from .ai import choose, reason
from .options import NAME, OPTIONS
from .rules_text import RULES
from .search import SEARCH
from .state import QoSState


def on_timeout(state: QoSState, seat: int) -> Action:
    """A dealer who doesn't cut in time deals without a cut (no cut bonus); a seat that
    doesn't acknowledge the scores in time is ready; any other turn is played by the AI."""
    if state.phase == "cut":
        return DEAL_ACTION
    if state.phase == "round_over":
        return NEXT_ACTION
    return choose(state, seat, Rng(state.seed ^ (state.moves * 0x9E3779B97F4A7C15) ^ seat))


GAME = Game(
    id="queen-of-spades",
    name=NAME,
    min_players=2,
    max_players=8,
    options=OPTIONS,
    state_class=QoSState,
    action_class=QoSAction,
    ai=choose,
    reason=reason,
    search=SEARCH,
    points=say("match points"),
    on_timeout=on_timeout,
    quick_options={"rounds": 2},
    usual_players=4,
    command="qos",
    order=4,
    rules=RULES,
    summary=say("Queen of Spades, two-deck rummy with wild 2s"),
)
