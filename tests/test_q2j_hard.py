"""Q2J's hard AI: the sharper heuristic it starts from (games.q2j.sharp) and the search
settings built on it (games.q2j.search)."""

from __future__ import annotations

from games.ai import choose_action
from games.base import Action
from games.determinize import determinized_snapshot
from games.q2j import GAME, Q2JState, ai, search, sharp
from games.rng import Rng

VARIANTS = ("standard", "classic", "faceup", "challenge", "countdown")
STOCK = ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"]


def positions(variant: str, match: str, seed: int):
    """Every (state, seat to act) of a game where sharp and random moves take turns."""
    players = 2 if variant == "challenge" else 2 + seed % 3
    state = GAME.new_game(players, {"variant": variant, "match": match}, seed)
    rng = Rng(seed)
    while state.to_act():
        seat = state.to_act()[0]
        yield state, seat
        legal = state.legal_actions(seat)
        state.apply(seat, sharp.choose(state, seat, rng) if rng.below(3) else rng.choice(legal))


def test_the_sharp_player_makes_only_legal_moves_in_every_variant() -> None:
    for variant in VARIANTS:
        for match in ("single", "elimination"):
            for seed in range(8):
                for state, seat in positions(variant, match, seed):
                    assert sharp.choose(state, seat, Rng(0)) in state.legal_actions(seat)


def test_the_sharp_player_reads_only_its_view() -> None:
    """The hidden cards dealt again (the same view for the seat): the same choice."""
    checked = 0
    for variant in VARIANTS:
        for seed in range(4):
            for state, seat in positions(variant, "single", seed):
                other = Q2JState.from_json(determinized_snapshot(state, seat, Rng(seed), search))
                assert other.view(seat) == state.view(seat)
                assert sharp.choose(other, seat, Rng(1)) == sharp.choose(state, seat, Rng(0))
                checked += other.hands != state.hands
    assert checked > 50  # most positions really had other hidden cards


def test_a_card_nothing_left_in_the_hand_beats_is_kept_back() -> None:
    """On J♠, normal plays the weakest beater 4♠, which 8♠ and K♠ cannot beat; sharp plays 8♠."""
    state = Q2JState.from_position([["4S", "8S", "KS"], ["2C", "5H", "9C", "10D"]], "JS", STOCK)
    assert ai.choose(state, 0, Rng(0)) == Action("play", ("4S",))
    assert sharp.choose(state, 0, Rng(0)) == Action("play", ("8S",))


def test_in_the_race_it_draws_rather_than_lay_an_easy_top() -> None:
    """The other hand holds one card: K♠ on top is hard to cover, 2♠ (normal's play) is not."""
    state = Q2JState.from_position([["2S", "QH", "10C"], ["5H"]], "KS", STOCK)
    assert ai.choose(state, 0, Rng(0)) == Action("play", ("2S",))
    assert sharp.choose(state, 0, Rng(0)) == Action("draw")


def test_q2_waits_while_another_card_beats_the_top_and_no_hand_is_short() -> None:
    hand = ["QS", "QH", "3C", "KH"]
    calm = Q2JState.from_position([hand, ["2H", "5H", "9S"]], "9C", STOCK)
    assert ai.choose(calm, 0, Rng(0)) == Action("qq", ("QS", "QH"))
    assert sharp.choose(calm, 0, Rng(0)) == Action("play", ("3C",))
    close = Q2JState.from_position([hand, ["2H", "5H"]], "9C", STOCK)
    assert sharp.choose(close, 0, Rng(0)) == Action("qq", ("QS", "QH"))


def test_under_a_q2_duty_it_plays_as_normal() -> None:
    state = Q2JState.from_position([["3C", "JH"], ["4C"]], ["QD", "QC"], STOCK, duty=1)
    assert sharp.choose(state, 0, Rng(0)) == ai.choose(state, 0, Rng(0)) == Action("play", ("JH",))


def test_hard_starts_from_the_sharp_move() -> None:
    assert search.base_policy is sharp.choose


def test_hard_is_reproducible_and_legal() -> None:
    for variant in VARIANTS:
        state = GAME.new_game(2, {"variant": variant}, 5)
        rng = Rng(5)
        while state.to_act():
            seat = state.to_act()[0]
            seed = rng.next64()
            action = choose_action(state, seat, Rng(seed), "hard", budget=300)
            assert action in state.legal_actions(seat)
            assert choose_action(Q2JState.from_json(state.to_json()), seat, Rng(seed), "hard", budget=300) == action
            state.apply(seat, action)
        assert state.outcome() is not None
