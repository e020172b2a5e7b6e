"""Queen of Spades: the rulings of issue 10 (RULINGS.md §5) as exact cases: no going-out
bonus when the draw pile runs out on that discard, several players past the target in one
round, the cut window clamped to possible cuts, and the anti-stall ruling of 10 turns."""

from __future__ import annotations

from collections import Counter

import pytest

from games.queen_of_spades import GAME, STALL_LIMIT
from games.queen_of_spades.deal import land_cut
from games.rng import Rng
from tests.test_queen_of_spades_rules import act, legal, play, pos, refused, texts
from tests.words import words

# ------------------------------------------------------------------ going out on an empty draw pile


def test_going_out_as_the_draw_pile_runs_out_earns_no_going_out_bonus() -> None:
    state = pos([["QS", "QH", "QD"], ["KH"]], draw=["7H"], discard=["4C"], scores=[0, 0])
    events = play(state, 0, "take:draw", "lay:Q,3", "discard:7H")
    assert texts(events)[-3:-1] == [
        "{p0} discarded their last card, but the draw pile is empty: round 1 ends with no going-out bonus.",
        "Round 1 scores: {p0} +120 (laid 120), {p1} -10 (laid 0, 10 left in hand). Match totals: {p0} 120, {p1} -10.",
    ]
    record = state.history[-1]
    assert record["end"] == "exhausted" and record["out"] == 0
    assert [row["out_bonus"] for row in record["rows"]] == [0, 0]
    assert state.scores == [120, -10] and state.phase == "round_over"


def test_going_out_with_cards_left_in_the_draw_pile_still_earns_the_bonus() -> None:
    state = pos([["QS", "QH", "QD"], ["KH"]], draw=["5C", "7H"], discard=["4C"])
    play(state, 0, "take:draw", "lay:Q,3", "discard:7H")
    record = state.history[-1]
    assert record["end"] == "out" and record["out"] == 0 and record["rows"][0]["out_bonus"] == 100


# ------------------------------------------------------------------ several players past the target


def test_several_players_past_the_target_in_one_round_the_highest_total_wins() -> None:
    # {p0} goes out (+100 -> 1020); {p1} has three queens laid (+115 -> 1055); {p2} stays short (-5 -> 985).
    sets = [[], [["QS", "QH", "QD"]], []]
    state = pos([["5C"], ["3C"], ["4D"]], sets=sets, phase="lay", scores=[920, 940, 990], discard=["4C"])
    events = play(state, 0, "discard:5C")
    outcome = state.outcome()
    assert state.is_over() and state.end == "target"
    assert outcome.scores == (1020, 1055, 985)
    assert outcome.winners == (1,) and outcome.ranking == ((1,), (0,), (2,))
    assert texts(events)[-1] == "{p1} reached the target of 1000 and the highest total with 1055 points."


def test_several_players_past_the_target_with_equal_highest_totals_share_the_win() -> None:
    sets = [[], [["QS", "QH", "QD"]], [["QS", "QH", "QD"]]]
    state = pos([["5C"], ["3C"], ["3D"]], sets=sets, phase="lay", scores=[900, 975, 975], discard=["4C"])
    play(state, 0, "discard:5C")
    outcome = state.outcome()
    assert outcome.scores == (1000, 1090, 1090)
    assert outcome.winners == (1, 2) and outcome.ranking == ((1, 2), (0,))
    assert words(outcome.reason) == ("{p1} and {p2} reached the target of 1000 together with 1090 points each and "
                              "share the win.")


# ------------------------------------------------------------------ the cut window


@pytest.mark.parametrize(("aim", "size", "window"), [
    (40, 108, range(36, 45)), (1, 108, range(1, 6)), (3, 108, range(1, 8)),
    (108, 108, range(104, 109)), (106, 108, range(102, 109)), (2, 3, range(1, 4)),
])
def test_the_cut_window_is_clamped_to_possible_cuts_and_uniform_over_them(aim: int, size: int, window: range) -> None:
    rng, twin = Rng(7), Rng(7)
    landed = Counter(land_cut(aim, size, rng) for _ in range(len(window) * 400))
    assert set(landed) == set(window)
    assert min(landed.values()) > 400 * 0.75 and max(landed.values()) < 400 * 1.25
    # Exactly one seeded draw over the window: no clamping that piles outcomes on the ends.
    assert land_cut(aim, size, twin) == window[0] + Rng(7).below(len(window))


def test_a_cut_aimed_at_the_first_card_lands_on_one_to_five_equally_often() -> None:
    landed = Counter()
    for seed in range(500):
        state = GAME.new_game(2, {}, seed)
        state.apply(state.dealer, act("cut:1"))
        landed[state.cut["landed"]] += 1
    assert set(landed) == {1, 2, 3, 4, 5}
    assert landed[1] < 500 / 5 * 1.4  # clamping the ±4 offset used to land here 5 times in 9


# ------------------------------------------------------------------ the anti-stall ruling


def test_anti_stall_ruling_after_10_turns_without_a_draw_the_lone_discard_cannot_be_taken() -> None:
    assert STALL_LIMIT == 10
    state = pos([["5C", "6C"], ["KH", "KD"]], discard=["9S"], draw=["3C", "4C", "5D"])
    for turn in range(STALL_LIMIT):
        seat = turn % 2
        play(state, seat, "take:discard")
        events = play(state, seat, f"discard:{state.view(seat)['hand'][0]}")
        assert state.stall == turn + 1 and len(state.discard) == 1
    assert texts(events)[-1] == ("10 turns in a row without a draw from the draw pile: {p0} can't take the lone "
                                 "discard and must draw.")
    assert legal(state, 0) == ["take:draw"]
    assert "10 turns in a row" in refused(state, 0, "take:discard")
    play(state, 0, "take:draw")
    assert state.stall == 0 and len(state.draw) == 2
