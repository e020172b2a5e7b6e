"""War passes the shared engine contract (tests/contract.py) over many seeds,
for 2, 3 and 4 players and both ``loss`` rules, and so does AI self-play."""

from __future__ import annotations

import pytest

from games.ai import choose_action
from games.rng import Rng
from games.war import GAME
from tests.contract import check_contract, check_finished, check_views

SEEDS = 120
LOSS = ("no-cards", "field-empty")


@pytest.mark.parametrize("loss", LOSS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_keeps_the_contract(players: int, loss: str) -> None:
    outcomes = set()
    for seed in range(SEEDS):
        state = check_contract("war", players, {"loss": loss}, seed, check_every=10)
        outcome = state.outcome()
        outcomes.add(outcome.winners if outcome.winners else ("tie",))
    assert len(outcomes) > 1  # different seeds, different winners


@pytest.mark.parametrize("loss", LOSS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_ai_self_play_is_legal_and_ends(players: int, loss: str) -> None:
    for seed in range(15):
        state = GAME.new_game(players, {"loss": loss}, seed)
        rng = Rng(seed)
        pool = set()
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            pool.update(legal)
            action = choose_action(state, seat, rng)
            assert action in legal
            state.apply(seat, action)
            if state.moves % 20 == 0:
                check_views(state)
        check_finished(GAME, state, pool)
