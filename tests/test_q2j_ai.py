"""The Q2J heuristic AI and the generic games.ai entry point."""

from __future__ import annotations

import dataclasses

import pytest

import games
from games.ai import choose_action
from games.base import Action
from games.errors import NotYourTurn
from games.q2j import GAME, Q2JState
from games.rng import Rng

STOCK = ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"]


def pick(hands, top, **kw) -> Action:
    state = Q2JState.from_position(hands, top, STOCK, **kw)
    return choose_action(state, state.turn, Rng(0))


def test_plays_a_jack_under_duty_else_draws() -> None:
    assert pick([["3C", "JH"], ["4C"]], ["QD", "QC"], duty=1) == Action("play", ("JH",))
    assert pick([["3C", "KH"], ["4C"]], ["QD", "QC"], duty=1) == Action("draw")


def test_prefers_q2_and_never_draws_when_a_clean_play_exists() -> None:
    assert pick([["QS", "QH", "3C"], ["4C"]], "9C") == Action("qq", ("QS", "QH"))
    assert pick([["QS", "QH", "3C"], ["4C"]], "9C", options={"variant": "classic"}).kind == "play"
    assert pick([["KH", "2H"], ["4C"]], "9C") == Action("play", ("KH",))
    assert pick([["KC", "2H"], ["4C"]], "9C") == Action("draw")  # both weaker, none equal


def test_prefers_the_card_fewest_cards_can_cover_and_avoids_penalties() -> None:
    # On 5S: 9S is weaker (same suit, higher); 5H is equal; AH and 2S are clean plays.
    # 2S is covered only by AS and the other 2s; AH is covered by more cards.
    assert pick([["9S", "5H", "AH", "2S"], ["4C"]], "5S") == Action("play", ("2S",))
    # Only an equal card: playing it (and drawing) beats drawing.
    assert pick([["9S", "5H"], ["4C"]], "5S") == Action("play", ("5H",))


def test_free_play_after_the_duty_came_back() -> None:
    action = pick([["KH", "2C"], ["4C"]], ["QD", "QC"], duty=0, free=True)
    assert action.kind == "play"


def test_ai_is_always_legal_in_every_variant() -> None:
    for variant in ("standard", "classic", "faceup", "challenge", "countdown"):
        for match in ("single", "elimination"):
            players = 2 if variant == "challenge" else 4
            state = GAME.new_game(players, {"variant": variant, "match": match}, 3)
            rng = Rng(3)
            while not state.is_over():
                seat = state.to_act()[0]
                action = choose_action(state, seat, rng)
                assert action in state.legal_actions(seat)
                state.apply(seat, action)


def test_ai_clearly_beats_random_play() -> None:
    wins = 0
    for seed in range(200):
        state = GAME.new_game(2, {}, seed)
        ai_seat, rng = seed % 2, Rng(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, choose_action(state, seat, rng) if seat == ai_seat else rng.choice(legal))
        wins += state.outcome().winners == (ai_seat,)
    assert wins >= 150  # measured: about 180 of 200; random play would win about 100


def test_choose_action_refuses_a_seat_that_cannot_act() -> None:
    state = GAME.new_game(3, {}, 0)
    other = (state.turn + 1) % 3
    with pytest.raises(NotYourTurn):
        choose_action(state, other, Rng(0))


def test_games_without_a_policy_play_uniformly_at_random() -> None:
    state = GAME.new_game(2, {}, 0)
    seat = state.turn
    legal = state.legal_actions(seat)
    with games.registered(dataclasses.replace(GAME, ai=None)):
        chosen = {choose_action(state, seat, Rng(s)) for s in range(200)}
    assert chosen == set(legal)


def test_an_illegal_policy_choice_is_a_bug_not_a_move() -> None:
    state = GAME.new_game(2, {}, 0)
    with games.registered(dataclasses.replace(GAME, ai=lambda s, seat, rng: Action("pass"))):
        with pytest.raises(RuntimeError):
            choose_action(state, state.turn, Rng(0))
