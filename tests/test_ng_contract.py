"""NG passes the shared engine contract (tests/contract.py) over many seeded random games:
2, 3 and 4 players, face-up on and off."""

from __future__ import annotations

import pytest

from tests.contract import check_contract

SEEDS = 50


@pytest.mark.parametrize("faceup", [False, True], ids=["hidden", "faceup"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(SEEDS))
def test_ng_random_play_keeps_the_contract(players: int, faceup: bool, seed: int) -> None:
    state = check_contract("ng", players, {"faceup": faceup}, seed)
    assert state.outcome().winners


def test_ng_ai_games_keep_the_contract_too() -> None:
    """The contract checker plays random moves; AI-vs-AI games reach stall ends and long
    defended stacks that random play rarely shows. Check conservation and snapshots there."""
    import json

    import games
    from games.ai import choose_action
    from games.rng import Rng
    from tests.contract import card_counts, check_views

    game = games.get_game("ng")
    ends = set()
    for seed in range(12):
        for faceup in (False, True):
            state = game.new_game(2 + seed % 3, {"faceup": faceup}, seed)
            cards = card_counts(state)
            rng = Rng(seed)
            log = []
            while not state.is_over():
                seat = state.to_act()[0]
                action = choose_action(state, seat, rng)
                state.apply(seat, action)
                log.append((seat, action))
                assert card_counts(state) == cards
                assert len(log) < 5000
                if len(log) % 17 == 0:
                    check_views(state)
                    snap = json.loads(json.dumps(state.to_json()))
                    assert game.from_json(snap).to_json() == state.to_json()
            ends.add(state.end)
            assert game.replay(state.players, state.options, seed, log).to_json() == state.to_json()
    assert ends  # at least one way to end was seen
