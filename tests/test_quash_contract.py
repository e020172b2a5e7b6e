"""QUASH passes the shared engine contract (tests/contract.py) over many seeded random
games: 2 and 4 players, basic and advanced play, several track lengths.

Advanced games list hundreds of swap chains per turn, and the checker re-checks
every action it has ever seen, so those run fewer seeds and mostly shorter tracks.
"""

from __future__ import annotations

import pytest

from games.ai import choose_action
from games.quash import GAME
from games.rng import Rng
from tests.contract import card_counts, check_contract, check_finished, check_views

BASIC_SEEDS = 40
ADVANCED = [(seed, (10, 15, 20)[seed % 3]) for seed in range(6)]


@pytest.mark.parametrize("players", [2, 4])
def test_basic_random_play_keeps_the_contract(players: int) -> None:
    winners = set()
    tiebreaks = 0
    for seed in range(BASIC_SEEDS):
        finish = 30 if seed % 4 else 12
        state = check_contract("quash", players, {"finish": finish}, seed, check_every=10)
        outcome = state.outcome()
        winners.add(outcome.winners)
        tiebreaks += any(r["how"] == "tiebreak" for r in state.results)
    assert len(winners) > 1  # different seeds, different winners
    assert tiebreaks  # scoring paused for secret cards in some games


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(("seed", "finish"), ADVANCED)
def test_advanced_random_play_keeps_the_contract(players: int, seed: int, finish: int) -> None:
    check_contract("quash", players, {"advanced": True, "finish": finish}, seed, check_every=40)


@pytest.mark.parametrize("advanced", [False, True], ids=["basic", "advanced"])
@pytest.mark.parametrize("players", [2, 4])
def test_ai_self_play_is_legal_and_ends(players: int, advanced: bool) -> None:
    """AI seats build runs and win tiebreaks, reaching positions random play rarely does."""
    for seed in range(4 if advanced else 10):
        state = GAME.new_game(players, {"advanced": advanced}, seed)
        cards = card_counts(state)
        rng = Rng(seed)
        pool = set()
        steps = 0
        while not state.is_over():
            acting = state.to_act()
            seat = acting[rng.below(len(acting))]
            legal = state.legal_actions(seat)
            action = choose_action(state, seat, rng)
            assert action in legal
            pool.add(action)
            state.apply(seat, action)
            steps += 1
            assert card_counts(state) == cards
            if steps % 23 == 0:
                check_views(state)
            assert steps < 5000
        check_finished(GAME, state, pool)
