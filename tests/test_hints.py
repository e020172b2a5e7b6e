"""Hints (games.hints.hint): the normal AI's move with one line why, for every game and
variant, over many random positions; each game explains its moves in its own terms."""

from __future__ import annotations

from typing import Any

import pytest

import games
from games.ai import choose_action
from games.hints import GENERIC_REASON, hint
from games.q2j.state import Q2JState
from games.rng import Rng
from tests.contract import contract_cases


def _cases() -> list[Any]:
    return [
        pytest.param(g.id, players, options, id=f"{g.id}-{players}p-{options}")
        for g in games.all_games()
        for players, options in contract_cases(g)
    ]


@pytest.mark.parametrize("game_id, players, options", _cases())
def test_every_position_gets_the_normal_move_and_a_reason(game_id, players, options):
    game = games.get_game(game_id)
    for seed in range(4):
        state = game.new_game(players, options, seed)
        rng = Rng(seed + 77)
        for move in range(300):
            acting = state.to_act()
            if not acting:
                break
            for seat in acting:
                found = hint(state, seat)
                if move % 5 == 0:  # the AI's own choice costs what the hint does: every fifth position
                    assert found.action == choose_action(state, seat, Rng(seat), "normal")
                assert found.action in state.legal_actions(seat)
                why = str(found.why)
                assert why and "\n" not in why and found.why != GENERIC_REASON
                assert len(why) < 200
            seat = acting[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_every_game_has_its_own_reasons():
    for game in games.all_games():
        assert game.reason is not None, f"{game.id}: give Game a reason (why its normal AI plays a move)"


def test_q2j_reason_names_the_card_beaten():
    state = Q2JState.from_position([["4C", "2H"], ["2S", "3S"]], top="JC", stock=["5D", "6D"], turn=0)
    found = hint(state, 0)
    assert str(found.action) == "play 4♣"
    assert str(found.why).startswith("same suit, lower is stronger, it beats J♣")
