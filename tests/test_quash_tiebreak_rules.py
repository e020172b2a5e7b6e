"""QUASH, the rest of RULINGS.md §6 as exact cases: tiebreakers, four players (teams, pooled
leftovers, the chooser), advanced play's swap chains, views and snapshots, and the AI (the helpers
are in test_quash_rules.py)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.ai import choose_action
from games.base import Action
from games.cards import CODE, parse_card
from games.errors import GameError, GameFinished, IllegalAction, MalformedAction, NotYourTurn
from games.quash import GAME, MAX_DISPLACED, QuashAction, QuashState, chain_options
from games.quash.ai import choose
from games.rng import Rng
from tests.contract import check_views, codes_in
from tests.test_quash_rules import (
    BLACK_A, BLACK_Q, EMPTY, RED_A, RED_Q, place, refused, scoring, swap, texts, tiebreak, with_spot,
)


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
    assert [(e.text, e.private_to) for e in events] == [
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


# ------------------------------------------------------------------ advanced play: swap chains


def advanced(red: list[str], hand: list[str], black_hand: tuple[str, ...] = ("2H",)) -> QuashState:
    """Advanced 2-player play, RED (seat 0) to place on ``red``; BLACK's side is empty."""
    return QuashState.from_position(2, board=[red, EMPTY], hands=[hand, list(black_hand)], turn=0, advanced=True)


def test_swap_examples_from_the_source() -> None:
    # Example 2: 9♦ takes 6♣'s place in 6♣ 7♦ 8♦; 6♣ must go to another spot.
    state = advanced(with_spot(EMPTY, 1, "6C 7D 8D"), ["9D", "2S"])
    legal = state.legal_actions(0)
    assert swap("9D", 1, "6C", 9) in legal and swap("9D", 1, "6C", 2) in legal
    assert swap("9D", 1, "7D", 9) not in legal  # 6 8 9 could never be a run
    events = state.apply(0, swap("9D", 1, "6C", 9))
    assert texts(events) == ["{p0} swapped on RED's side: 9♦ to spot 1 in place of 6♣, which moved to spot 9."]
    assert [CODE[c] for c in state.board[0][0]] == ["9D", "7D", "8D"] and [CODE[c] for c in state.board[0][8]] == ["6C"]
    assert [CODE[c] for c in state.hands[0]] == ["2S"]  # no draw pile in advanced 2-player play
    # … and 6♣ may displace again, but never beside a 10 and a J.
    red = with_spot(with_spot(EMPTY, 1, "6C 7D 8D"), 4, "10H JC QS")
    state = advanced(red, ["9D", "2S"])
    assert "could never become a run" in refused(state, 0, swap("9D", 1, "6C", 4, "QS", 9))
    assert not any(a.args[:4] == ("9D", 1, "6C", 4) for a in state.legal_actions(0))
    red = with_spot(with_spot(EMPTY, 1, "6C 7D 8D"), 4, "5H 7S")
    state = advanced(red, ["9D", "2S"])
    state.apply(0, swap("9D", 1, "6C", 4, "7S", 9))
    assert [[CODE[c] for c in spot] for spot in state.board[0][:4:3]] == [["9D", "7D", "8D"], ["5H", "6C"]]
    # Example 3: a 10-J double can't trade its 10 for a 9, only for a Q.
    state = advanced(with_spot(EMPTY, 2, "10H JC"), ["9D", "QD", "2S"])
    assert refused(state, 0, swap("9D", 2, "10H", 3)) == (
        "9♦ can't take 10♥'s place in spot 2: 9♦ J♣ could never become a run")
    state.apply(0, swap("QD", 2, "10H", 3))
    assert [CODE[c] for c in state.board[0][1]] == ["QD", "JC"]
    # Example 1: J-Q double, K in hand: K takes the J's place and the J moves on.
    state = advanced(with_spot(EMPTY, 2, "JH QH"), ["KD", "2S"])
    assert swap("KD", 2, "JH", 6) in state.legal_actions(0)
    # A single spot takes anything, and its card may be swapped out by anything.
    state = advanced(with_spot(EMPTY, 3, "AS"), ["2D", "9S"])
    assert swap("2D", 3, "AS", 6) in state.legal_actions(0)


def test_chains_are_cycle_free_bounded_and_end_on_an_open_slot() -> None:
    red = ["6C 7D 8D", "JH QH", "AS", "5H 7S", "", "KC", "", "", ""]
    state = advanced(red, ["9D", "2S", "3D"])
    legal = state.legal_actions(0)
    assert all(len(a.args) <= 2 + 2 * MAX_DISPLACED for a in legal)
    assert all(len(set(a.args[1::2])) == len(a.args[1::2]) for a in legal)  # no spot twice
    assert "at most once" in refused(state, 0, swap("9D", 1, "6C", 1))  # back into the spot it left
    assert "at most once" in refused(state, 0, swap("9D", 1, "6C", 3, "AS", 1))  # a cycle through spot 1
    assert f"at most {MAX_DISPLACED}" in refused(state, 0, swap("9D", 1, "6C", 3, "AS", 6, "KC", 9))
    assert "Spot 3 (single) is full" in refused(state, 0, swap("9D", 1, "6C", 3))  # blocked: must displace
    assert "not in your spot 3" in refused(state, 0, swap("9D", 1, "6C", 3, "KC", 9))
    assert "don't hold" in refused(state, 0, swap("KD", 1, "6C", 9))
    assert "could never become a run" in refused(state, 0, swap("9D", 1, "6C", 2, "JH", 9))  # 6 beside a Q
    assert "at least one displaced card" in refused(state, 0, Action("swap", ("9D", 5)), MalformedAction)
    refused(state, 0, Action("swap", ("9D", 1, "6C")), MalformedAction)
    state.apply(0, swap("9D", 1, "6C", 3, "AS", 9))
    assert [CODE[c] for c in state.board[0][2]] == ["6C"] and [CODE[c] for c in state.board[0][8]] == ["AS"]


def test_advanced_placements_must_keep_a_run_possible_unless_nothing_can() -> None:
    state = advanced(with_spot(EMPTY, 1, "10H JC"), ["6C", "9D"])
    assert "could never become a run" in refused(state, 0, place("6C", 1))
    assert place("9D", 1) in state.legal_actions(0) and place("6C", 3) in state.legal_actions(0)
    assert state.view(0)["free_placement"] is False


def test_free_placement_when_no_move_keeps_a_run_possible() -> None:
    # RED's only open slot is beside the 6♣ of spot 8; the hand's 2♠ can't join it, and no chain
    # can bring a 5 or a 7 there (there is none on the board). So any placement is allowed: here one.
    red = ["9D 10D JD", "3S 4S", "KH", "2C 3C 4C", "QS KS", "AH", "QH KC AD", "6C", "8H"]
    black = ["8C 9H 10S", "5C 6H", "QD", "2H 3D 4D", "7S 8S", "AS", "JC QC KD", "10H JS", ""]
    state = QuashState.from_position(2, board=[red, black], hands=[["2S"], ["7C"]], turn=0, advanced=True)
    assert state.legal_actions(0) == [place("2S", 8)] and state.view(0)["free_placement"] is True
    events = state.apply(0, place("2S", 8))
    assert texts(events) == ["{p0} placed 2♠ on RED's spot 8 (double) (no move could keep a run possible, "
                             "so the spot will fail)."]
    assert place("7C", 9) in state.legal_actions(1) and state.view(1)["free_placement"] is False
    state.apply(1, place("7C", 9))
    assert state.last_round["spots"][7]["how"] == "failed"
    # With a 7 in hand instead, the free placement is refused: 6♣ 7♦ keeps the run.
    state = QuashState.from_position(2, board=[red, black], hands=[["2S", "7D"], ["7C"]], turn=0, advanced=True)
    assert "could never become a run" in refused(state, 0, place("2S", 8))


def test_the_chain_helper_lists_exactly_the_legal_next_steps() -> None:
    red = with_spot(with_spot(EMPTY, 1, "6C 7D 8D"), 4, "5H 7S")
    state = advanced(red, ["9D", "2S"])
    first = chain_options(state, 0)
    assert first.expects == "card" and first.choices == ("2S", "9D") and first.action is None and not first.can_end
    step = chain_options(state, 0, ["9d"])
    assert step.expects == "spot" and step.moving == "9D" and step.choices == tuple(range(1, 10))
    step = chain_options(state, 0, ["9D", 1])
    assert step.expects == "displace" and step.choices == ("6C",) and step.action is None  # spot 1 is full
    step = chain_options(state, 0, ["9D", 1, "6C"])
    assert step.expects == "spot" and step.moving == "6C" and step.choices == (2, 3, 4, 5, 6, 7, 8, 9)
    step = chain_options(state, 0, ["9D", 1, "6C", 4])
    assert step.can_end and step.action == swap("9D", 1, "6C", 4) and step.choices == ("5H", "7S")
    step = chain_options(state, 0, ["9D", 1, "6C", 4, "7S"])
    assert step.choices == (2, 3, 5, 6, 7, 8, 9) and step.moving == "7S"
    step = chain_options(state, 0, ["9D", 1, "6C", 4, "7S", 9])
    assert step.action == swap("9D", 1, "6C", 4, "7S", 9) and step.choices == ()  # the bound: no deeper
    step = chain_options(state, 0, ["9D", 5])
    assert step.action == place("9D", 5) and step.choices == ()
    with pytest.raises(IllegalAction, match="No legal placement starts with 9D,1,7D"):
        chain_options(state, 0, ["9D", 1, "7D"])
    with pytest.raises(MalformedAction):
        chain_options(state, 0, ["9D", "one"])
    with pytest.raises(NotYourTurn):
        chain_options(state, 1, [])
    # Walking every prefix reproduces legal_actions exactly, in a real advanced game.
    for seed in range(3):
        game = GAME.new_game(2, {"advanced": True}, seed)
        rng = Rng(seed)
        for _ in range(12 + seed * 5):
            seat = game.to_act()[0]
            game.apply(seat, choose_action(game, seat, rng))
        seat = game.to_act()[0]
        found = set()
        stack = [()]
        while stack:
            chain = stack.pop()
            options = chain_options(game, seat, chain)
            if options.action is not None:
                found.add(options.action)
            stack.extend(chain + (c,) for c in options.choices)
        assert found == set(game.legal_actions(seat))


def test_chain_helper_in_basic_play_and_during_a_tiebreak() -> None:
    state = QuashState.from_position(2, board=[with_spot(EMPTY, 3, "AS"), EMPTY], hands=[["9D"], ["3S"]], turn=0)
    assert chain_options(state, 0, ["9D"]).choices == (1, 2, 4, 5, 6, 7, 8, 9)
    assert chain_options(state, 0, ["9D", 4]).action == place("9D", 4)
    with pytest.raises(IllegalAction):
        chain_options(state, 0, ["9D", 3])
    with pytest.raises(IllegalAction, match="nothing to place"):
        chain_options(tied_single(), 0, [])


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
    assert swap("9D", 4, "6C", 7).code() == "swap:9D,4,6C,7"
    assert Action.from_code("swap:10D,4,10C,7,10H,1") == swap("10D", 4, "10C", 7, "10H", 1)
    assert len(swap("10D", 1, "10C", 4, "10H", 7).code()) <= 30
    assert str(QuashAction("place", ("9D", 4))) == "9♦ to spot 4"
    assert str(QuashAction("swap", ("9D", 4, "6C", 7))) == "9♦ to spot 4 for 6♣ → spot 7"
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
