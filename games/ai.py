"""The generic AI entry point: a game's own policy, or uniform random play."""

from __future__ import annotations

from . import get_game
from .base import Action, GameState
from .errors import IllegalAction
from .rng import Rng


def choose_action(state: GameState, seat: int, rng: Rng) -> Action:
    """A legal action for ``seat``, chosen by the game's ``Game.ai`` policy if it has
    one, else uniformly at random from ``legal_actions`` with ``rng``.

    Raises a :class:`~games.errors.GameError` when ``seat`` may not act now. The
    result is always one of ``state.legal_actions(seat)``.
    """
    legal = state.legal_actions(seat)
    if not legal:
        state.check_turn(seat)
        raise IllegalAction(f"Seat {seat} has no move to make now")
    policy = get_game(state.game_id).ai
    if policy is None:
        return rng.choice(legal)
    action = policy(state, seat, rng)
    if action not in legal:
        raise RuntimeError(f"{state.game_id} AI chose {action!r}, which is not a legal action")
    return action
