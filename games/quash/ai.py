"""placeholder"""
from ..rng import Rng

def choose(state, seat, rng: Rng):
    legal = state.legal_actions(seat)
    return legal[rng.below(len(legal))]
