"""The generic AI entry point: three levels over a game's own policy.

- ``easy``: a beginner: the game's policy, but one move in :data:`EASY_RANDOM_SHARE`
  is a uniformly random legal move;
- ``normal``: the game's ``Game.ai`` policy (uniformly random when it has none);
- ``hard``: determinized Monte Carlo search (:mod:`games.search`), seeded by ``rng``.
"""

from __future__ import annotations

from . import get_game
from .base import Action, GameState
from .errors import GameError, IllegalAction
from .i18n import say
from .rng import Rng
from .search import search_action

LEVELS = ("easy", "normal", "hard")
LEVEL_NAMES = {"easy": say("easy"), "normal": say("normal"), "hard": say("hard")}
"""The levels as people read them."""
DEFAULT_LEVEL = "normal"
EASY_RANDOM_SHARE = 0.3


def choose_action(state: GameState, seat: int, rng: Rng, level: str = DEFAULT_LEVEL,
                  budget: int | None = None) -> Action:
    """A legal action for ``seat`` at ``level`` (one of :data:`LEVELS`), drawing on ``rng``;
    ``budget`` is how many moves ``hard`` may simulate (default: the game's ``BUDGET``).

    Raises a :class:`~games.errors.GameError` when ``seat`` may not act now or the
    level is unknown. The result is always one of ``state.legal_actions(seat)``.
    """
    if level not in LEVELS:
        raise GameError(say("Unknown AI level {level}; levels are: {levels}", level=repr(level),
                            levels=", ".join(LEVELS)))
    legal = state.legal_actions(seat)
    if not legal:
        state.check_turn(seat)
        raise IllegalAction(say("Seat {seat} has no move to make now", seat=seat))
    if level == "hard":
        action = search_action(state, seat, rng, budget, fallback=normal_action)
    elif level == "easy" and rng.below(1000) < EASY_RANDOM_SHARE * 1000:
        action = rng.choice(legal)
    else:
        action = normal_action(state, seat, rng)
    if action not in legal:
        raise RuntimeError(f"{state.game_id} AI chose {action!r}, which is not a legal action")
    return action


def normal_action(state: GameState, seat: int, rng: Rng) -> Action:
    """The game's ``Game.ai`` policy, or a uniformly random legal action when it has none."""
    policy = get_game(state.game_id).ai
    if policy is None:
        return rng.choice(state.legal_actions(seat))
    return policy(state, seat, rng)
