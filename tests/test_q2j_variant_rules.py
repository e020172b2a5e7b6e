"""Q Squared Joe, the rest of RULINGS.md §1–2 as exact cases: the classic, face-up, challenge and
countdown variants, the elimination match, and errors and the end (the helpers are in
test_q2j_rules.py)."""

from __future__ import annotations

import pytest

from games.base import Action
from games.errors import GameFinished, MalformedAction, NotYourTurn
from games.q2j import GAME, Q2JAction
from games.rng import Rng
from tests.test_q2j_rules import DRAW, FILLER, play, position, qq, refused, texts
from tests.words import words

# ------------------------------------------------------------------ classic, face-up, challenge


def test_classic_has_no_q2() -> None:
    state = position([["QS", "QH", "3D"], ["4D"]], "9C", FILLER, options={"variant": "classic"})
    assert all(a.kind != "qq" for a in state.legal_actions(0))
    assert refused(state, 0, qq("QS", "QH")) == "Classic has no Q² rule: play one card at a time"


def test_faceup_shows_every_hand_publicly_and_standard_does_not() -> None:
    hands = [["QS", "3D"], ["4D", "KC"], ["5D"]]
    faceup = position(hands, "9C", FILLER, options={"variant": "faceup"})
    assert faceup.view(None)["hands"] == [["QS", "3D"], ["4D", "KC"], ["5D"]]
    assert faceup.view(2)["hands"] == faceup.view(None)["hands"]
    assert faceup.hidden_cards(None) == faceup.hidden_cards(0)  # only the stock is hidden
    standard = position(hands, "9C", FILLER)
    public = str(standard.view(None))
    assert standard.view(None)["hands"] is None
    assert not any(f"'{c}'" in public for h in hands for c in h)
    seat1 = str(standard.view(1))
    assert "'4D'" in seat1 and "'QS'" not in seat1 and "'5D'" not in seat1


def test_challenge_deals_one_card_against_five() -> None:
    for short in (0, 1):
        state = GAME.new_game(2, {"variant": "challenge", "short_hand": short}, 4)
        counts = state.view(None)["hand_counts"]
        assert counts[short] == 1 and counts[1 - short] == 5
        assert state.view(None)["short_hand"] == short
        assert words(state.opening_events()[0]) == f"Challenge: {{p{short}}} is dealt 1 card, {{p{1 - short}}} 5 cards."
    seen = {GAME.new_game(2, {"variant": "challenge"}, seed).view(None)["short_hand"] for seed in range(20)}
    assert seen == {0, 1}


# ------------------------------------------------------------------ countdown


@pytest.mark.parametrize("level", [5, 4, 3, 2])
def test_countdown_emptied_hand_draws_a_hand_one_smaller(level: int) -> None:
    state = position([["2C"], ["KD", "KH"]], "3C", FILLER, options={"variant": "countdown"}, levels=[level, 5])
    events = state.apply(0, play("2C"))
    assert texts(events)[-1] == f"{{p0}} emptied their hand and draws a new hand of {level - 1}."
    assert len(state.view(0)["hand"]) == level - 1
    assert state.view(None)["countdown"] == [level - 1, 5]
    assert not state.is_over() and state.to_act() == [1]


def test_countdown_emptying_the_one_card_hand_wins() -> None:
    state = position([["2C"], ["KD", "KH"]], "3C", FILLER, options={"variant": "countdown"}, levels=[1, 3])
    events = state.apply(0, play("2C"))
    assert texts(events)[-1] == "{p0} emptied their one-card hand and wins!"
    outcome = state.outcome()
    assert outcome.winners == (0,) and words(outcome.reason) == "{p0} emptied their one-card hand first."


def test_countdown_runs_five_four_three_two_one_in_play() -> None:
    state = GAME.new_game(2, {"variant": "countdown"}, 11)
    sizes: dict[int, list[int]] = {0: [5], 1: [5]}
    rng = Rng(1)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, GAME.ai(state, seat, rng))
        level = state.view(None)["countdown"][seat]
        if level != sizes[seat][-1]:
            sizes[seat].append(level)
    winner = state.outcome().winners[0]
    assert sizes[winner] == [5, 4, 3, 2, 1]


# ------------------------------------------------------------------ elimination match


def test_elimination_safe_players_leave_and_the_last_holder_is_out() -> None:
    state = position([["2C"], ["KD"], ["KH", "5S"]], "3C", FILLER, options={"match": "elimination"})
    events = state.apply(0, play("2C"))
    assert texts(events)[-1] == "{p0} emptied their hand and is safe this game."
    assert state.view(None)["status"] == ["safe", "playing", "playing"] and state.to_act() == [1]
    events = state.apply(1, play("KD"))
    said = texts(events)
    assert said[1:4] == ["{p1} emptied their hand and is safe this game.",
                         "{p2} is the last player holding cards and is eliminated.",
                         "Game 2: Dealt 5 cards each to {p0}, {p1}."]
    view = state.view(None)
    assert view["eliminated"] == [2] and view["game_number"] == 2
    assert view["status"] == ["playing", "playing", "out"]
    assert view["hand_counts"] == [5, 5, 0] and view["stock_count"] == 23 - 11  # 23 cards in play
    assert state.legal_actions(2) == []
    refused(state, 2, DRAW, NotYourTurn)


def test_elimination_match_ends_with_one_player_and_ranks_in_reverse_elimination_order() -> None:
    state = position([["2C"], ["KD"], []], "3C", FILLER, options={"match": "elimination"},
                     playing=[True, True, False], eliminated=[2], game_number=2)
    events = state.apply(0, play("2C"))
    assert texts(events)[-2:] == ["{p1} is the last player holding cards and is eliminated.",
                                  "{p0} is the last player standing and wins the match!"]
    outcome = state.outcome()
    assert outcome.winners == (0,)
    assert outcome.ranking == ((0,), (1,), (2,))
    assert outcome.scores == (2, 1, 0)
    assert words(outcome.reason) == "{p0} is the last player standing after 2 eliminations."
    assert state.view(None)["status"] == ["won", "out", "out"]


def test_elimination_full_match_from_a_deal() -> None:
    state = GAME.new_game(4, {"match": "elimination", "variant": "countdown"}, 2)
    rng = Rng(3)
    games_seen = {1}
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, GAME.ai(state, seat, rng))
        games_seen.add(state.view(None)["game_number"])
    outcome = state.outcome()
    assert games_seen == {1, 2, 3}
    assert sorted(s for g in outcome.ranking for s in g) == [0, 1, 2, 3]
    assert [g[0] for g in outcome.ranking[1:]] == list(reversed(state.view(None)["eliminated"]))


def test_when_the_q2_player_has_left_the_duty_comes_back_to_the_next_seat() -> None:
    state = position([["QS", "QH"], ["3D", "4D"], ["5D", "6D"]], "9C", FILLER, options={"match": "elimination"})
    events = state.apply(0, qq("QS", "QH"))
    assert texts(events) == ["{p0} played Q♠ Q♥: Q²! {p1} must play a jack or draw.",
                             "{p0} emptied their hand and is safe this game."]
    state.apply(1, DRAW)
    events = state.apply(2, DRAW)
    assert texts(events)[-1] == ("Nobody played a jack: the duty went round past {p0}, who has left, "
                                 "so {p1} may play any card or draw.")
    assert state.view(None)["duty"] == {"qq_seat": 0, "owed_by": 1, "free_play": True}
    assert len(state.legal_actions(1)) == 4


def test_single_game_ranks_losers_by_cards_left() -> None:
    state = position([["2C"], ["KD", "KH"], ["5S"], ["6S"]], "3C", FILLER)
    state.apply(0, play("2C"))
    outcome = state.outcome()
    assert outcome.ranking == ((0,), (2, 3), (1,))
    assert outcome.scores == (3, 0, 1, 1)


# ------------------------------------------------------------------ errors and the end


def test_game_over_refuses_moves() -> None:
    state = position([["2C"], ["KD"]], "3C", FILLER)
    state.apply(0, play("2C"))
    assert state.to_act() == [] and state.legal_actions(1) == []
    assert refused(state, 1, play("KD"), GameFinished) == "This game is over; no more moves can be made"


def test_wrong_seat_and_malformed_moves() -> None:
    state = position([["2C"], ["KD"]], "3C", FILLER)
    assert refused(state, 1, play("KD"), NotYourTurn) == "It's not your turn"
    refused(state, 5, DRAW, MalformedAction)
    assert "ZZ" in refused(state, 0, play("ZZ"), MalformedAction)
    assert "Unknown move 'pass'" in refused(state, 0, Action("pass"), MalformedAction)
    refused(state, 0, Action("draw", ("2C",)), MalformedAction)
    refused(state, 0, Action("play", ("2C", "3C")), MalformedAction)
    refused(state, 0, "draw", MalformedAction)  # type: ignore[arg-type]
    refused(state, 0, play("JK"), MalformedAction)


def test_action_text_forms() -> None:
    assert str(Q2JAction("play", ("7S",))) == "play 7♠"
    assert str(Q2JAction("draw")) == "draw"
    assert Q2JAction("qq", ("QS", "QH")).code() == "qq:QS,QH"
    assert GAME.action_from_json({"kind": "play", "args": ["7S"]}) == play("7S")


def test_view_keys() -> None:
    state = GAME.new_game(3, {}, 1)
    public = {"game", "variant", "match", "players", "viewer", "turn", "to_act", "top", "top_is_qq", "stock_count",
              "discard_count", "hand_counts", "hands", "duty", "status", "eliminated", "game_number", "countdown",
              "short_hand", "history", "known", "over", "outcome"}
    assert set(state.view(None)) == public
    assert set(state.view(0)) == public | {"hand", "your_turn", "legal", "penalty_cards"}
    with pytest.raises(MalformedAction):
        state.view(3)


def test_snapshot_round_trip_mid_game_continues_identically() -> None:
    state = GAME.new_game(4, {"variant": "faceup"}, 8)
    rng = Rng(8)
    for _ in range(10):  # the AI ends this game in 17 moves
        seat = state.to_act()[0]
        state.apply(seat, GAME.ai(state, seat, rng))
    copy = GAME.from_json(state.to_json())
    assert copy.to_json() == state.to_json()
    for _ in range(30):
        if state.is_over():
            break
        seat = state.to_act()[0]
        action = state.legal_actions(seat)[-1]
        assert [e.to_json() for e in copy.apply(seat, action)] == [e.to_json() for e in state.apply(seat, action)]
    assert copy.to_json() == state.to_json()
    with pytest.raises(MalformedAction):
        GAME.from_json({"game": "war"})
