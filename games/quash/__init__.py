"""QUASH (docs to come)."""

from .actions import QuashAction
from .chains import ChainOptions, chain_options
from .game import GAME, OPTIONS
from .rules import can_become_run, is_run, score_spot
from .state import QuashState

__all__ = ["GAME", "OPTIONS", "ChainOptions", "QuashAction", "QuashState", "can_become_run", "chain_options",
           "is_run", "score_spot"]
