"""Queen of Spades' hard AI: the sharper heuristic it starts from (games.queen_of_spades.sharp)
and the search settings built on it (games.queen_of_spades.search)."""

from __future__ import annotations

import games
from games.ai import choose_action
from games.determinize import determinized_snapshot, game_hooks
from games.queen_of_spades import QoSState, ai, search, sharp
from games.rng import Rng
from tests.test_queen_of_spades_rules import act, pos

GAME = games.get_game("queen-of-spades")
DRAW = ["5S", "6S", "7H", "8H", "9C", "10D", "JS", "KC"] * 2
"""A draw pile long enough that no one counts the round as nearly over by it."""


def test_the_sharp_player_makes_only_legal_moves_through_whole_matches() -> None:
    for seed in range(6):
        state = GAME.new_game(2 + seed % 3, {"rounds": 2}, seed)
        rng = Rng(seed)
        while state.to_act():
            seat = state.to_act()[0]
            action = sharp.choose(state, seat, rng)
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
        assert state.outcome() is not None


def test_a_pair_waits_for_the_pile_while_both_hands_are_big() -> None:
    """normal lays 9 9 with the wild 2; sharp keeps the pair (it may take the pile with it)
    unless the other hand is small or its own is."""
    hand = ["9S", "9H", "2C", "4D", "KH", "6C", "7D", "JH"]
    big = ["3C", "5D", "6H", "7S", "8D", "10C", "JD"]
    calm = pos([hand, big], draw=DRAW, phase="lay")
    assert ai.choose(calm, 0, Rng(0)) == act("lay:9,2,w")
    assert sharp.choose(calm, 0, Rng(0)) == act("discard:4D")
    close = pos([hand, ["3C", "5D", "6H"]], draw=DRAW, phase="lay")
    assert sharp.choose(close, 0, Rng(0)) == act("lay:9,2,w")
    small = pos([hand[:sharp.OWN_CALM], big], draw=DRAW, phase="lay")
    assert sharp.choose(small, 0, Rng(0)) == act("lay:9,2,w")


def test_dear_cards_go_first_once_the_other_hand_may_go_out() -> None:
    """Early the cheapest lone card goes; with the other hand at 4 cards, the Q♠ does."""
    hand = ["QS", "4D", "7C", "KH"]
    early = pos([hand, ["3C", "5D", "6H", "8S", "8D", "10C", "JD"]], draw=DRAW, phase="lay")
    late = pos([hand, ["3C", "5D", "6H", "8S"]], draw=DRAW, phase="lay")
    assert sharp.choose(early, 0, Rng(0)) == act("discard:4D")
    assert ai.choose(late, 0, Rng(0)) == act("discard:4D")
    assert sharp.choose(late, 0, Rng(0)) == act("discard:QS")


def test_a_lone_card_the_other_seat_could_take_is_kept_back() -> None:
    """The pile is empty and seat 1 has a set of 4s: a discarded 4 would be its lone discard."""
    state = pos([["4D", "5C", "KH"], ["3C", "5D", "6H", "8S", "9D", "10C", "JD"]],
                sets=[[], [["4S", "4H", "4C"]]], draw=DRAW, phase="lay")
    assert ai.choose(state, 0, Rng(0)) == act("discard:4D")
    assert sharp.choose(state, 0, Rng(0)) == act("discard:5C")


def _positions(seed: int) -> list[tuple[QoSState, int]]:
    """Every position of a 2-player match (sharp against normal) where a seat has a choice."""
    state = GAME.new_game(2, {"rounds": 2}, seed)
    rng = Rng(seed)
    found = []
    while state.to_act():
        seat = state.to_act()[0]
        if len(state.legal_actions(seat)) > 1:
            found.append((GAME.from_json(state.to_json()), seat))
        state.apply(seat, (sharp.choose if seat == seed % 2 else ai.choose)(state, seat, rng))
    return found


def test_the_sharp_player_reads_only_what_its_seat_sees() -> None:
    """The same move on every guess of the hidden cards (other hands, draw pile)."""
    hooks = game_hooks(GAME.new_game(2, {}, 0))
    for seed in range(4):
        for state, seat in _positions(seed):
            move = sharp.choose(state, seat, Rng(0))
            for guess_seed in range(2):
                guess = QoSState.from_json(determinized_snapshot(state, seat, Rng(guess_seed), hooks))
                assert guess.view(seat) == state.view(seat)
                assert sharp.choose(guess, seat, Rng(1)) == move


def test_hard_starts_from_the_sharp_move_and_models_the_others_as_normal() -> None:
    assert search.base_policy is sharp.choose
    assert search.rollout_policy is ai.choose


def test_hard_is_reproducible_and_legal_over_a_match() -> None:
    state = GAME.new_game(2, {"rounds": 1}, 5)
    rng = Rng(5)
    while state.to_act():
        seat = state.to_act()[0]
        seed = rng.next64()
        action = choose_action(state, seat, Rng(seed), "hard", budget=200)
        assert action in state.legal_actions(seat)
        assert choose_action(GAME.from_json(state.to_json()), seat, Rng(seed), "hard", budget=200) == action
        state.apply(seat, action)
    assert state.outcome() is not None


def test_a_cut_short_playout_counts_the_race_to_go_out() -> None:
    """Nothing laid; seat 0 holds two cheap cards fewer: it is forecast about 43 points
    ahead, two cards' worth, not just the 10 points those cards would cost."""
    state = pos([["3C", "4D", "KH"], ["3D", "4C", "5H", "6D", "KD"]], draw=DRAW)
    assert search.round_forecast(state, 0) - search.round_forecast(state, 1) == -2 * search.PER_CARD - 10 * search.HELD_POINTS
    assert search.evaluate(state, 0) > 0.5 > search.evaluate(state, 1)


def test_the_forecast_values_a_pair_and_a_2_as_sets_to_come() -> None:
    lone = pos([["3C", "4D", "KH", "9S"], ["3D", "4C", "5H", "6D"]], draw=DRAW)
    pair = pos([["3C", "4D", "KH", "KS"], ["3D", "4C", "5H", "6D"]], draw=DRAW)
    two = pos([["3C", "4D", "KH", "2S"], ["3D", "4C", "5H", "6D"]], draw=DRAW)
    assert search.round_forecast(pair, 0) > search.round_forecast(lone, 0)
    assert search.round_forecast(two, 0) > search.round_forecast(lone, 0)
