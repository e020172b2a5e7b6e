"""The registered War :class:`~games.base.Game`: name, player counts, table options."""

from __future__ import annotations

from typing import Any

from ..base import Game, GameState
from .actions import WarAction
from .ai import choose
from .options import NAME, OPTIONS
from .rules_text import RULES
from .state import WarState


def create(players: int, options: dict[str, Any], seed: int) -> GameState:
    return WarState.new(players, options, seed)


GAME = Game(
    id="war",
    name=NAME,
    min_players=2,
    max_players=4,
    options=OPTIONS,
    state_class=WarState,
    create=create,
    action_class=WarAction,
    ai=choose,
    command="war",
    order=2,
    rules=RULES,
    summary="Q Squared Joe War, the combat game",
)
