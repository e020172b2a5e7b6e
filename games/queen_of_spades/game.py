"""The registered Queen of Spades :class:`~games.base.Game`: name, player counts,
table options, AI and what a timed-out turn becomes."""

from __future__ import annotations

from ..base import Action, Game, GameState, OptionSpec, int_option
from ..rng import Rng
from .actions import DEAL_ACTION, NEXT_ACTION, QoSAction
from .ai import choose
from .state import QoSState

OPTIONS = (
    OptionSpec(
        "target", 1000,
        "the match ends when a player reaches this many points (highest total wins); 0: no target, "
        "the match goes on until the table ends it",
        parse=int_option(0, 100_000),
        prompt="Score that wins the match (default 1000; 0 = endless, until the table ends it)",
    ),
    OptionSpec(
        "rounds", 0,
        "the match also ends after this many rounds (highest total wins); 0: no limit",
        parse=int_option(0, 1000),
        prompt="Also end the match after this many rounds (default 0 = no limit)",
    ),
)


def on_timeout(state: GameState, seat: int) -> Action:
    """A dealer who doesn't cut in time deals without a cut (no cut bonus); a seat that
    doesn't acknowledge the scores in time is ready; any other turn is played by the AI."""
    assert isinstance(state, QoSState)
    if state.phase == "cut":
        return DEAL_ACTION
    if state.phase == "round_over":
        return NEXT_ACTION
    return choose(state, seat, Rng(state.seed ^ (state.moves * 0x9E3779B97F4A7C15) ^ seat))


GAME = Game(
    id="queen-of-spades",
    name="Queen of Spades",
    min_players=2,
    max_players=8,
    options=OPTIONS,
    state_class=QoSState,
    action_class=QoSAction,
    ai=choose,
    points="match points",
    on_timeout=on_timeout,
    command="qos",
    summary="Queen of Spades, two-deck rummy with wild 2s",
)
