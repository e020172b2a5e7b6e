"""QUASH, the rest of RULINGS.md §6 as exact cases: tiebreakers, four players (teams, pooled
leftovers, the chooser), views and snapshots, and the AI (the helpers are in test_quash_rules.py;
advanced play's swap chains are in test_quash_chain_rules.py)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.base import Action
from games.cards import CODE, parse_card
from games.errors import GameError, GameFinished, IllegalAction, MalformedAction, NotYourTurn
from games.quash import GAME, QuashAction, QuashState
from games.quash.ai import choose
from games.rng import Rng
from tests.contract import check_views, codes_in
from tests.test_quash_rules import (
    BLACK_A,
    BLACK_Q,
    EMPTY,
    RED_A,
    RED_Q,
    place,
    refused,
    scoring,
    swap,
    texts,
    tiebreak,
    with_spot,
)
from tests.words import words

# ------------------------------------------------------------------ tiebreakers

def tied_single(left=(["2D", "6S", "AC"], ["5H", "6D", "KD"]), **kw) -> QuashState:
    """Board A with RED's Q♥ moved to spot 3 (against Q♠: a tiebreaker); RED's spot 7
    (10♣ K♣ A♦) now fails. Cards not listed are set aside, unseen."""
    red = with_spot(RED_A, 3, "QH")
    red = with_spot(red, 7, "10C KC AD")
    return scoring(red, BLACK_A, left, **kw)


def test_a_tie_pauses_scoring_with_a_simultaneous_secret_choice() -> None:
    state = tied_single()
    assert texts(state.opening_events())[-2:] == [
        "Spot 3 — single: RED Q♥ ties BLACK Q♠: tiebreaker!",
        "Tiebreaker for spot 3: {p0} and {p1} each choose a leftover card in secret.",
    ]
    assert state.phase == "tiebreak" and state.to_act() == [0, 1] and state.track == [1, 2]
    assert state.legal_actions(0) == [tiebreak("2D"), tiebreak("6S"), tiebreak("AC")]
    assert state.legal_actions(1) == [tiebreak("5H"), tiebreak("6D"), tiebreak("KD")]
    refused(state, 0, place("2D", 3), IllegalAction, "tiebreak")
    refused(state, 0, tiebreak("5H"), IllegalAction, "not among your leftover cards")
    refused(state, 0, Action("chooser", (2,)), IllegalAction, "teams")
    view = state.view(None)
    assert view["tiebreak"] == {"spot": 3, "choosers": [0, 1], "waiting": [0, 1], "chosen": [False, False],
                                "reveals": []}
    assert view["scoring"]["spot"] == 3 and len(view["scoring"]["results"]) == 2
    assert state.view(0)["hand"] == ["2D", "6S", "AC"] and state.view(1)["hand"] == ["5H", "6D", "KD"]

    events = state.apply(0, tiebreak("AC"))
    assert [(words(e), e.private_to) for e in events] == [
        ("{p0} chose RED's tiebreak card, face down.", None), ("You chose A♣ for the tiebreaker.", 0)]
    assert state.to_act() == [1] and state.legal_actions(0) == []
    refused(state, 0, tiebreak("2D"), NotYourTurn)
    for viewer in (None, 1):  # the pending card is nobody else's business
        assert "AC" not in codes_in(state.view(viewer))
        assert parse_card("AC") in state.hidden_cards(viewer)
    assert state.view(0)["your_tiebreak_card"] == "AC" and state.view(1)["your_tiebreak_card"] is None
    assert state.view(1)["tiebreak"]["chosen"] == [True, False] and state.view(1)["tiebreak"]["waiting"] == [1]
    check_views(state)

    events = state.apply(1, tiebreak("KD"))
    assert texts(events)[1:3] == [
        "Tiebreaker for spot 3: RED A♣ against BLACK K♦: RED wins the spot: +1 RED (RED 2 · BLACK 2).",
        "Spot 4 — triple: RED 2♣ 3♣ 4♣ (same suit) beats BLACK 2♥ 3♠ 4♦ — a same-suit run beats a mixed one: "
        "+1 RED (RED 3 · BLACK 2).",
    ]
    assert state.round_no == 2  # scoring went on by itself, then the next round was dealt
    assert state.last_round["spots"][2] == {"spot": 3, "winner": "RED", "points": [1, 0], "how": "tiebreak",
                                            "quash": False}


def test_equal_tiebreak_cards_are_gone_and_the_tiebreak_is_played_again() -> None:
    state = tied_single()
    state.apply(1, tiebreak("6D"))
    events = state.apply(0, tiebreak("6S"))
    assert texts(events)[1:] == [
        "Tiebreaker for spot 3: RED 6♠ against BLACK 6♦: equal ranks, so the tiebreaker is played again.",
        "Tiebreaker for spot 3: {p0} and {p1} each choose a leftover card in secret.",
    ]
    assert state.to_act() == [0, 1] and state.used == [CODE.index("6S"), CODE.index("6D")]
    assert state.view(None)["used"] == ["6S", "6D"] and state.view(None)["tiebreak"]["reveals"] == [["6S", "6D"]]
    assert state.legal_actions(0) == [tiebreak("2D"), tiebreak("AC")]
    state.apply(0, tiebreak("2D"))
    events = state.apply(1, tiebreak("5H"))
    assert texts(events)[1] == "Tiebreaker for spot 3: RED 2♦ against BLACK 5♥: BLACK wins the spot: +1 BLACK (RED 1 · BLACK 3)."
    assert state.last_round["spots"][2]["winner"] == "BLACK"


def test_tied_runs_same_suit_or_both_mixed_go_to_a_tiebreaker() -> None:
    red = with_spot(RED_A, 2, "5S 6S")
    black = with_spot(with_spot(BLACK_A, 2, "5H 6H"), 8, "6D 7H")
    state = scoring(red, black, (["2D"], ["3D"]))
    assert texts(state.opening_events())[-2:] == [
        "Spot 2 — double: RED 5♠ 6♠ (same suit) ties BLACK 5♥ 6♥ (same suit): tiebreaker!",
        "Tiebreaker for spot 2: {p0} and {p1} each choose a leftover card in secret.",
    ]
    state.apply(0, tiebreak("2D"))
    events = texts(state.apply(1, tiebreak("3D")))
    assert events[1] == "Tiebreaker for spot 2: RED 2♦ against BLACK 3♦: BLACK wins the spot: +1 BLACK (RED 1 · BLACK 1)."
    assert "Spot 8 — double: RED 6♣ 7♦ ties BLACK 6♦ 7♥: tiebreaker!" in events


def test_leftover_exhaustion_one_side_then_both_sides() -> None:
    # BLACK has no leftover card: RED wins the spot without anyone choosing.
    state = tied_single((["2D"], []))
    assert "Spot 3: BLACK has no leftover card left, so RED wins the tiebreaker: +1 RED (RED 2 · BLACK 2)." in texts(
        state.opening_events())
    assert state.last_round["spots"][2] == {"spot": 3, "winner": "RED", "points": [1, 0], "how": "no-cards",
                                            "quash": False}
    # Neither has one: nobody wins the spot.
    state = tied_single(([], []))
    assert "Spot 3: neither side has a leftover card left, so nobody wins the spot: no points (RED 1 · BLACK 2)." in texts(
        state.opening_events())
    assert state.last_round["spots"][2]["winner"] is None
    # A tie again with the last cards: the next round of the tiebreak finds one side empty.
    state = tied_single((["6S", "AC"], ["6D"]))
    state.apply(0, tiebreak("6S"))
    events = state.apply(1, tiebreak("6D"))
    assert "Spot 3: BLACK has no leftover card left, so RED wins the tiebreaker: +1 RED (RED 2 · BLACK 2)." in texts(events)
    state = tied_single((["6S"], ["6D"]))
    state.apply(0, tiebreak("6S"))
    events = state.apply(1, tiebreak("6D"))
    assert "Spot 3: neither side has a leftover card left, so nobody wins the spot: no points (RED 1 · BLACK 2)." in texts(events)


def test_a_tiebreak_win_counts_toward_a_quash_and_can_reach_the_finish() -> None:
    red = with_spot(RED_Q, 3, "QH")
    red = with_spot(red, 7, "10C KC AD")
    state = scoring(red, BLACK_Q, (["AC"], ["2D"]))
    state.apply(0, tiebreak("AC"))
    events = state.apply(1, tiebreak("2D"))
    assert texts(events)[1:3] == [
        "Tiebreaker for spot 3: RED A♣ against BLACK 2♦: RED wins the spot: +1 RED (RED 3 · BLACK 0).",
        "QUASH! RED won spots 1, 2 and 3: +2 RED (RED 5 · BLACK 0).",
    ]
    state = scoring(red, BLACK_Q, (["AC"], ["2D"]), track=(27, 0))
    state.apply(1, tiebreak("2D"))
    events = state.apply(0, tiebreak("AC"))
    assert texts(events)[-1] == "RED reaches the finish (30 of 30) on spot 3: RED ({p0}) wins the match! The rest of round 1 is not scored."
    assert state.is_over() and state.to_act() == [] and state.legal_actions(0) == []
    refused(state, 0, tiebreak("2D"), GameFinished)


# ------------------------------------------------------------------ four players: teams, pooled leftovers, chooser


def four_player_last_placement() -> QuashState:
    """Seat 3 (BLACK) makes the round's last placement; every hand keeps its leftovers."""
    red = with_spot(RED_A, 3, "QH")
    red = with_spot(red, 7, "10C KC AD")
    black = with_spot(BLACK_A, 9, "")
    hands = [["2D", "6S"], ["5H"], ["AC"], ["7C", "6D", "KD"]]
    return QuashState.from_position(4, board=[red, black], hands=hands, turn=3)


def test_four_players_pool_leftovers_per_team_and_the_first_seat_chooses() -> None:
    state = four_player_last_placement()
    assert state.view(2)["hand"] == ["AC"] and "2D" not in codes_in(state.view(2))  # partner's hand is hidden
    events = state.apply(3, place("7C", 9))
    assert ("Every spot is full. Each team pools its leftover cards for tiebreakers (RED 3, BLACK 3); "
            "{p0} chooses RED's and {p1} BLACK's. Scoring starts at spot 1.") in texts(events)
    assert [CODE[c] for c in state.leftovers[0]] == ["2D", "6S", "AC"]
    assert [CODE[c] for c in state.leftovers[1]] == ["5H", "6D", "KD"]
    assert state.hands == [[], [], [], []]
    assert state.view(0)["hand"] == state.view(2)["hand"] == ["2D", "6S", "AC"]  # both partners see the pool
    assert state.view(1)["hand"] == state.view(3)["hand"] == ["5H", "6D", "KD"]
    assert state.view(None)["leftover_counts"] == [3, 3]
    assert state.to_act() == [0, 1]
    assert state.legal_actions(0) == [tiebreak("2D"), tiebreak("6S"), tiebreak("AC"), Action("chooser", (2,))]
    assert state.legal_actions(2) == [] and state.legal_actions(3) == []
    refused(state, 2, tiebreak("AC"), NotYourTurn)
    state.apply(1, tiebreak("KD"))
    for viewer in (None, 0, 2):
        assert "KD" not in codes_in(state.view(viewer))
    assert state.view(3)["your_tiebreak_card"] == "KD"  # the partner sees the team's card
    assert parse_card("KD") not in state.hidden_cards(3)
    events = state.apply(0, tiebreak("AC"))
    assert "Tiebreaker for spot 3: RED A♣ against BLACK K♦: RED wins the spot: +1 RED (RED 2 · BLACK 2)." in texts(events)
    outcome_teams = (tuple(state.view(None)["teams"][0]), tuple(state.view(None)["teams"][1]))
    assert outcome_teams == ((0, 2), (1, 3)) and state.view(None)["seat_sides"] == ["RED", "BLACK", "RED", "BLACK"]


def test_the_team_chooser_can_hand_the_choice_to_the_partner() -> None:
    state = four_player_last_placement()
    state.apply(3, place("7C", 9))
    refused(state, 0, Action("chooser", (1,)), IllegalAction, "partner")
    refused(state, 0, Action("chooser", ("2",)), MalformedAction)
    events = state.apply(0, Action("chooser", (2,)))
    assert texts(events) == ["{p0} hands RED's tiebreak choice to {p2}."]
    assert state.to_act() == [1, 2] and state.chooser == [2, 1] and state.view(None)["chooser"] == [2, 1]
    assert state.legal_actions(0) == [] and Action("chooser", (0,)) in state.legal_actions(2)
    state.apply(2, tiebreak("6S"))
    events = state.apply(1, tiebreak("6D"))  # equal: again, and seat 2 still chooses for RED
    assert "Tiebreaker for spot 3: {p2} and {p1} each choose a leftover card in secret." in texts(events)
    assert state.to_act() == [1, 2]
    assert str(QuashAction("chooser", (2,))) == "let seat 3 choose the tiebreak card"


def test_four_player_outcome_names_the_team() -> None:
    red = with_spot(RED_Q, 9, "")
    state = QuashState.from_position(4, board=[red, BLACK_Q], hands=[["AH", "2D"], [], ["3D"], ["6D"]], turn=0,
                                     track=(25, 0))
    events = state.apply(0, place("AH", 9))
    assert texts(events)[-1].startswith("RED reaches the finish (30 of 30) on spot 3: RED ({p0} and {p2}) wins")
    outcome = state.outcome()
    assert outcome.winners == (0, 2) and outcome.ranking == ((0, 2), (1, 3)) and outcome.teams == ((0, 2), (1, 3))
    assert outcome.scores == (30, 0, 30, 0)


# ------------------------------------------------------------------ views, encoding, snapshots


def test_views_hide_what_each_seat_may_not_see() -> None:
    state = GAME.new_game(2, {}, 11)
    public = state.view(None)
    assert "hand" not in public and public["phase"] == "play" and public["pile_count"] == 26
    assert public["hand_counts"] == [13, 13] and public["track"] == [0, 0] and public["finish"] == 30
    assert public["board"][0][0] == {"spot": 1, "kind": "triple", "cards": [], "open": 3, "failed": None,
                                     "scored": False, "winner": None, "points": None}
    assert [s["kind"] for s in public["board"][1]] == ["triple", "double", "single"] * 3
    seat = state.turn
    mine = state.view(seat)
    assert mine["side"] == ("RED", "BLACK")[seat] and len(mine["hand"]) == 13 and mine["your_turn"]
    assert mine["legal"] == [a.code() for a in state.legal_actions(seat)] and mine["swap_count"] == 0
    other = state.view(1 - seat)
    assert not set(other["hand"]) & set(mine["hand"]) and other["legal"] == []
    hidden = Counter(c.code for c in state.hidden_cards(None))
    assert sum(hidden.values()) == 52
    assert sum(Counter(c.code for c in state.hidden_cards(seat)).values()) == 39
    check_views(state)
    with pytest.raises(MalformedAction):
        state.view(2)


def test_action_encoding_and_text() -> None:
    assert place("9D", 4).code() == "place:9D,4"
    assert swap("9D", 4, "6C").code() == "swap:9D,4,6C"
    assert Action.from_code("swap:10D,4,10C,7,10H,1") == swap("10D", 4, "10C", 7, "10H", 1)  # an old whole chain
    assert Action.from_code("takeback") == QuashAction("takeback")
    assert str(QuashAction("place", ("9D", 4))) == "9♦ to spot 4"
    assert str(QuashAction("swap", ("9D", 4, "6C"))) == "9♦ to spot 4 for 6♣"
    assert str(QuashAction("swap", ("9D", 4, "6C", 7))) == "9♦ to spot 4 for 6♣ → spot 7"
    assert str(QuashAction("takeback")) == "take the chain back"
    assert str(QuashAction("tiebreak", ("9H",))) == "tiebreak with 9♥"
    state = QuashState.from_position(2, board=[EMPTY, EMPTY], hands=[["9d"], ["3S"]], turn=0)
    state.apply(0, Action("place", ("9d", 4)))  # codes are case-insensitive
    assert state.board[0][3] == [CODE.index("9D")]


def test_snapshots_round_trip_mid_tiebreak() -> None:
    state = tied_single()
    state.apply(0, tiebreak("AC"))
    snap = json.loads(json.dumps(state.to_json()))
    copy = GAME.from_json(snap)
    assert copy.to_json() == state.to_json()
    assert [e.to_json() for e in copy.apply(1, tiebreak("KD"))] == [e.to_json() for e in state.apply(1, tiebreak("KD"))]
    with pytest.raises(MalformedAction):
        GAME.from_json({"game": "war"})


def test_from_position_refuses_impossible_positions() -> None:
    with pytest.raises(GameError, match="twice"):
        QuashState.from_position(2, board=[with_spot(EMPTY, 3, "AS"), with_spot(EMPTY, 3, "AS")], hands=[["2S"], ["3S"]])
    with pytest.raises(GameError, match="at most 1"):
        QuashState.from_position(2, board=[with_spot(EMPTY, 3, "AS KS"), EMPTY], hands=[["2S"], ["3S"]])
    with pytest.raises(GameError, match="full"):
        scoring(with_spot(RED_A, 9, ""), BLACK_A)
    with pytest.raises(GameError, match="can't place"):
        QuashState.from_position(2, board=[EMPTY, EMPTY], hands=[[], ["3S"]], turn=0)
    with pytest.raises(GameError, match="chooser"):
        scoring(RED_A, BLACK_A, chooser=[1, 0])
    with pytest.raises(GameError, match="2 or 4"):
        QuashState.from_position(3)


# ------------------------------------------------------------------ the AI


def test_ai_tiebreaks_lowest_sure_winner_else_lowest() -> None:
    # Every card is listed, so RED knows BLACK's pool exactly (as in a real 2-player round).
    state = tied_single((["KH", "KD", "AC", "AH", "2D", "2S", "3D", "4H"], ["5S", "6S", "7H", "5H", "6D", "8D", "9C", "QC"]))
    assert choose(state, 0, Rng(0)).args[0] in ("KH", "KD")  # the lowest card sure to beat their Q
    state = tied_single((["AC", "AH", "2D", "6S", "2S", "3D", "4H", "5S"], ["7H", "5H", "6D", "KD", "8D", "9C", "QC", "KH"]))
    assert choose(state, 0, Rng(0)).args[0] in ("AC", "AH")
    state = tied_single((["AC", "2D", "6S", "2S", "3D", "4H", "5S", "7H"], ["5H", "6D", "KD", "8D", "9C", "QC", "KH", "AH"]))
    assert choose(state, 0, Rng(0)).args[0] in ("2D", "2S")  # nothing is sure to win: give the lowest
    assert choose(state, 1, Rng(0)) == tiebreak("5H")  # BLACK's ace would only tie RED's: lowest too
    # BLACK's pool not fully known (cards set aside): the lowest, unless the spot is critical.
    state = tied_single()
    assert choose(state, 0, Rng(0)) == tiebreak("2D")
    state = tied_single(track=(28, 0))
    assert choose(state, 0, Rng(0)) == tiebreak("AC")


def test_ai_completes_runs_and_avoids_failing_them() -> None:
    red = ["9D 10D", "", "", "", "", "", "", "", ""]
    state = QuashState.from_position(2, board=[red, EMPTY], hands=[["JD", "2S", "7C"], ["3S", "4S", "5S"]], turn=0)
    assert choose(state, 0, Rng(1)) == place("JD", 1)  # a same-suit 9-10-J
    red = ["9D 10D JD", "QC KD", "AH", "2C 3C 4C", "7S 8S", "KH", "QH KC", "", ""]
    state = QuashState.from_position(2, board=[red, EMPTY], hands=[["AD", "2S", "3S"], ["3H", "4S", "5S"]], turn=0)
    action = choose(state, 0, Rng(1))
    assert action == place("AD", 7)  # Q-K-A beats leaving spot 7 to fail


def test_ai_beats_random_play() -> None:
    wins = 0
    games_played = 0
    for players in (2, 4):
        for seed in range(10):
            ai_side = seed % 2
            state = GAME.new_game(players, {}, seed)
            rng = Rng(seed)
            while not state.is_over():
                acting = state.to_act()
                seat = acting[rng.below(len(acting))]
                legal = state.legal_actions(seat)
                action = choose(state, seat, rng) if seat % 2 == ai_side else legal[rng.below(len(legal))]
                state.apply(seat, action)
            games_played += 1
            wins += ai_side in state.outcome().winners
    assert wins >= 0.85 * games_played
