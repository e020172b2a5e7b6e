"""Queen of Spades passes the shared engine contract (tests/contract.py) over many seeded
random matches for 2, 4, 6 and 8 players, and so does AI self-play.

Random players rarely lay enough to reach a target (with five or more players their
totals drift below zero), so every random match here is bounded by ``rounds``; a few
also carry a low ``target``, which then usually ends them first.
"""

from __future__ import annotations

import json

import pytest

import games
from games.ai import choose_action
from games.rng import Rng
from tests.contract import card_counts, check_contract, check_finished, check_views

SEEDS = 40


def _options(seed: int) -> dict:
    """Vary the ending: one round, two rounds, or three rounds with a low target."""
    return ({"rounds": 1}, {"rounds": 2}, {"rounds": 3, "target": 150})[seed % 3]


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_random_play_keeps_the_contract(players: int) -> None:
    ends = set()
    winners = set()
    for seed in range(SEEDS):
        state = check_contract("queen-of-spades", players, _options(seed), seed, check_every=15)
        ends.add(state.end)
        winners.add(state.outcome().winners)
        assert state.history and len(state.history) == state.round_no
    assert "rounds" in ends
    if players == 2:
        assert "target" in ends
    assert len(winners) > 1  # different seeds, different winners


@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_ai_self_play_is_legal_conserves_cards_and_ends(players: int) -> None:
    """AI tables reach positions random play rarely shows (big sets, players going out,
    the stall rule); check conservation, views, snapshots and replay there."""
    game = games.get_game("queen-of-spades")
    for seed in range(4):
        options = {"target": 600, "rounds": 6}
        state = game.new_game(players, options, seed)
        cards = card_counts(state)
        rng = Rng(seed)
        log = []
        pool = set()
        while not state.is_over():
            acting = state.to_act()
            seat = acting[rng.below(len(acting))]
            legal = state.legal_actions(seat)
            pool.update(legal)
            action = choose_action(state, seat, rng)
            assert action in legal
            state.apply(seat, action)
            log.append((seat, action))
            assert card_counts(state) == cards
            assert len(log) < 20_000
            if len(log) % 23 == 0:
                check_views(state)
                snap = json.loads(json.dumps(state.to_json()))
                assert game.from_json(snap).to_json() == state.to_json()
        check_finished(game, state, pool)
        check_views(state)
        assert game.replay(players, options, seed, log).to_json() == state.to_json()


def test_endless_matches_never_end_on_their_own() -> None:
    """``target 0`` and ``rounds 0``: the engine keeps dealing rounds; the table ends it."""
    game = games.get_game("queen-of-spades")
    state = game.new_game(2, {"target": 0, "rounds": 0}, 3)
    rng = Rng(3)
    while state.round_no < 8:
        acting = state.to_act()
        assert acting
        seat = acting[rng.below(len(acting))]
        state.apply(seat, choose_action(state, seat, rng))
    assert not state.is_over() and state.outcome() is None
    assert len(state.history) == 7
    assert max(state.scores) >= 1000  # well past the default target: nothing stopped it
