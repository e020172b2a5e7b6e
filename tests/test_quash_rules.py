"""QUASH: every ruling of RULINGS.md §6 (and the gaps decided in games/quash) as an exact
case, mostly on hand-built positions (``QuashState.from_position``)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import games
from games.ai import choose_action
from games.base import Action
from games.cards import parse_card
from games.errors import GameError, GameFinished, IllegalAction, MalformedAction, NotYourTurn
from games.quash import (
    GAME, MAX_DISPLACED, QuashAction, QuashState, can_become_run, chain_options, is_run, score_spot,
)
from games.quash.ai import choose
from games.quash.deal import cut_for_deal
from games.cards import CODE
from games.rng import Rng
from tests.contract import check_views, codes_in

EMPTY = [""] * 9

# A full board where every rule but ties and QUASH shows up once (RED 6, BLACK 5).
RED_A = ["9D 10D JD", "4S 9S", "KH", "2C 3C 4C", "7S JH", "5D", "QH KC AD", "6C 7D", "8H"]
BLACK_A = ["8C 9H 10S", "5C 6H", "QS", "2H 3S 4D", "8S 3H", "AS", "JC QD KS", "10H JS", "7C"]
# RED sweeps spots 1-3 and 7-9, BLACK sweeps 4-6: three QUASHes.
RED_Q = ["9D 10D JD", "QC KD", "KH", "2C 3H 4C", "7H 8D", "5D", "QH KC AD", "10H JS", "AH"]
BLACK_Q = ["8C 9H 10S", "5C 6H", "QS", "5S 6S 7S", "JC QD", "AS", "2H 3S 4D", "8S 9S", "7C"]


def place(card: str, spot: int) -> Action:
    return Action("place", (card, spot))


def swap(*args) -> Action:
    return Action("swap", tuple(args))


def tiebreak(card: str) -> Action:
    return Action("tiebreak", (card,))


def texts(events) -> list[str]:
    return [e.text for e in events if e.private_to is None]


def refused(state: QuashState, seat: int, action: Action, error: type = IllegalAction, match: str | None = None) -> str:
    """Apply ``action`` expecting ``error``; nothing may change."""
    before = state.to_json()
    with pytest.raises(error, match=match) as info:
        state.apply(seat, action)
    assert state.to_json() == before
    return str(info.value)


def scoring(red, black, left=([], []), **kw) -> QuashState:
    """A scoring position: both boards full; scoring runs at once (see opening_events)."""
    return QuashState.from_position(kw.pop("players", 2), board=[red, black], leftovers=list(left), **kw)


def with_spot(board: list[str], spot: int, cards: str) -> list[str]:
    out = list(board)
    out[spot - 1] = cards
    return out


# ------------------------------------------------------------------ registration and options


def test_registration_options_and_player_counts() -> None:
    game = games.get_game("quash")
    assert game is GAME and game.id == "quash" and game.name == "QUASH"
    assert game.allowed_player_counts() == (2, 4)
    assert game.normalize_options(None) == {"advanced": False, "finish": 30}
    assert game.normalize_options({"advanced": True, "finish": 5}) == {"advanced": True, "finish": 5}
    assert game.normalize_options({"finish": 100})["finish"] == 100
    for bad in (4, 101, 0, -3, True, "30", 30.0):
        with pytest.raises(GameError, match="finish"):
            game.new_game(2, {"finish": bad})
    for bad in ("yes", 1, None):
        with pytest.raises(GameError, match="advanced"):
            game.new_game(2, {"advanced": bad})
    with pytest.raises(GameError, match="Unknown option"):
        game.new_game(2, {"teams": True})
    for bad in (1, 3, 5):
        with pytest.raises(GameError):
            game.new_game(bad)
    assert game.ai is choose


# ------------------------------------------------------------------ is_run, score_spot, can_become_run


def test_is_run_aces_high_only_any_suits_any_order() -> None:
    assert is_run(["9D", "10D", "JD"]) and is_run(["JC", "10H", "QD"]) and is_run(["QS", "KH", "AC"])
    assert is_run(["KS", "AH"]) and is_run(["2C", "3D"]) and is_run(["2C", "3D", "4H"])
    assert not is_run(["AS", "2H"]) and not is_run(["AS", "2H", "3C"]) and not is_run(["KS", "AH", "2C"])
    assert not is_run(["7H", "7S"]) and not is_run(["6C", "10H", "JC"]) and not is_run(["9S", "JS"])
    assert is_run(["7H"]) and is_run(["AS"])  # a single card is a run
    assert not is_run([])
    assert is_run([parse_card("9s"), "10s", "js"])  # cards and codes, any case
    assert is_run(["5H", "6H", "7H", "8H"])  # any length
    with pytest.raises(MalformedAction):
        is_run(["XX"])
    with pytest.raises(MalformedAction, match="jokers"):
        is_run(["JK"])


def test_score_spot_every_rule() -> None:
    # Singles: the higher rank wins 1, aces high; equal ranks need a tiebreaker.
    assert score_spot(["AS"], ["KS"]) == (1, 0)
    assert score_spot(["2S"], ["AH"]) == (0, 1)
    assert score_spot(["QS"], ["QH"]) is None
    # Run against run: the higher top card wins 1, whatever the suits.
    assert score_spot(["9D", "10D", "JD"], ["8C", "9H", "10S"]) == (1, 0)
    assert score_spot(["2S", "3S", "4S"], ["3C", "4H", "5D"]) == (0, 1)  # the source's tip
    assert score_spot(["QH", "KC", "AD"], ["JC", "QD", "KS"]) == (1, 0)
    # Same ranks: a same-suit run beats a mixed one (the source's J♥ Q♥ K♥ example) …
    assert score_spot(["JH", "QH", "KH"], ["JS", "QD", "KS"]) == (1, 0)
    assert score_spot(["10C", "JD"], ["10S", "JS"]) == (0, 1)
    # … both same-suit or both mixed: tiebreaker.
    assert score_spot(["JH", "QH", "KH"], ["JS", "QS", "KS"]) is None
    assert score_spot(["10H", "JC"], ["10S", "JD"]) is None
    # Run against failed: the spot and 1 bonus; both failed: 1 each.
    assert score_spot(["5C", "6H"], ["4S", "9S"]) == (2, 0)
    assert score_spot(["2D", "7H", "9C"], ["3C", "4C", "5C"]) == (0, 2)
    assert score_spot(["7S", "JH"], ["8S", "3H"]) == (1, 1)
    assert score_spot(["AS", "2S", "3S"], ["KS", "AH", "2C"]) == (1, 1)  # no wrap-around runs
    with pytest.raises(GameError):
        score_spot(["AS"], ["KS", "QS"])
    with pytest.raises(GameError):
        score_spot([], [])


def test_can_become_run_the_sources_examples() -> None:
    assert not can_become_run(["10H", "JC", "6C"], 3)  # no 6 beside 10-J
    assert can_become_run(["10H", "JC", "9S"], 3) and can_become_run(["10H", "JC", "QS"], 3)
    assert can_become_run(["10H", "QC"], 3)  # the J can still come
    assert not can_become_run(["9S", "JC"], 2)  # a 10-J double can't trade its 10 for a 9 …
    assert can_become_run(["QS", "JC"], 2)  # … but can for a Q
    assert not can_become_run(["KS", "AH", "2C"], 3) and can_become_run(["KS", "AH"], 3)
    assert can_become_run(["2S", "3H"], 3) and not can_become_run(["7S", "7H"], 3)
    assert can_become_run(["2S"], 1) and can_become_run([], 2) and not can_become_run(["2S", "3S"], 1)


# ------------------------------------------------------------------ the cut, the deal, who plays


def test_cut_deal_and_first_player_two_players() -> None:
    for seed in range(30):
        state = GAME.new_game(2, {}, seed)
        dealer, text = cut_for_deal(2, Rng(seed))
        assert state.dealer == dealer and state.turn == 1 - dealer and state.to_act() == [1 - dealer]
        opening = texts(state.opening_events())
        assert opening[0] == "Sides — RED: {p0}; BLACK: {p1}. First to 30 points wins."
        assert opening[1] == text and text.endswith(f"{{p{dealer}}} cut the highest card and deals first.")
        assert opening[2] == (f"Round 1: {{p{dealer}}} deals 13 cards each; 26 cards form the draw pile. "
                              f"{{p{1 - dealer}}} plays first.")
        assert all(e.private_to is None for e in state.opening_events())
        assert [len(h) for h in state.hands] == [13, 13] and len(state.pile) == 26 and not state.aside
        assert len({c for h in state.hands for c in h} | set(state.pile)) == 52


def test_equal_cuts_cut_again() -> None:
    again = [seed for seed in range(200) if "cut again" in cut_for_deal(2, Rng(seed))[1]]
    assert again
    dealer, text = cut_for_deal(2, Rng(again[0]))
    assert "{p0} and {p1} tie with" in text and text.endswith(f"{{p{dealer}}} cut the highest card and deals first.")
    # With 4 players only the seats tied for the highest card cut again.
    four = next(t for seed in range(200) for t in [cut_for_deal(4, Rng(seed))[1]] if "cut again" in t)
    assert four.count("{p") > 4


def test_the_deal_alternates_and_the_next_round_is_dealt_by_apply() -> None:
    state = QuashState.from_position(
        2, board=[RED_A, with_spot(BLACK_A, 9, "")], hands=[["2D", "3D"], ["7C", "8D"]], turn=1, dealer=0)
    assert [len(h) for h in state.hands] == [2, 2]
    events = state.apply(1, place("7C", 9))
    assert texts(events)[-2:] == [
        "Round 1 is scored: RED +6, BLACK +5 (RED 6 · BLACK 5).",
        "Round 2: {p1} deals 13 cards each; 26 cards form the draw pile. {p0} plays first.",
    ]
    assert (state.round_no, state.dealer, state.turn, state.phase) == (2, 1, 0, "play")
    assert state.last_round["points"] == [6, 5] and state.last_round["dealer"] == 0
    assert [len(h) for h in state.hands] == [13, 13] and len(state.pile) == 26
    assert all(not spot for side in state.board for spot in side)


def test_four_players_deal_turn_order_and_rotation() -> None:
    for seed in range(6):
        state = GAME.new_game(4, {}, seed)
        d = state.dealer
        assert [len(h) for h in state.hands] == [13] * 4 and not state.pile and not state.aside
        assert texts(state.opening_events())[0] == "Sides — RED: {p0} and {p2}; BLACK: {p1} and {p3}. First to 30 points wins."
        assert texts(state.opening_events())[2] == (
            f"Round 1: {{p{d}}} deals 13 cards to each player; there is no draw pile. {{p{(d + 1) % 4}}} plays first.")
        order = []
        for _ in range(8):  # dealer's left, dealer's partner, the other opponent, the dealer, again
            seat = state.to_act()[0]
            order.append(seat)
            state.apply(seat, state.legal_actions(seat)[0])
        assert order == [(d + k) % 4 for k in range(1, 9)]
    # Rounds rotate the deal clockwise.
    state = GAME.new_game(4, {}, 2)
    rng = Rng(2)
    dealers = [state.dealer]
    while not state.is_over() and len(dealers) < 4:
        seat = state.to_act()[0]
        state.apply(seat, choose_action(state, seat, rng))
        if state.dealer != dealers[-1]:
            dealers.append(state.dealer)
            assert state.turn == (state.dealer + 1) % 4
    assert all(b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:]))


def test_advanced_deals() -> None:
    state = GAME.new_game(2, {"advanced": True}, 3)
    assert [len(h) for h in state.hands] == [23, 23] and len(state.aside) == 6 and not state.pile
    assert "sets 6 cards aside unseen and deals 23 cards each; there is no draw pile" in texts(state.opening_events())[2]
    view = state.view(None)
    assert view["aside_count"] == 6 and not (codes_in(view) & Counter(CODE[c] for c in state.aside))
    state = GAME.new_game(4, {"advanced": True}, 3)
    assert [len(h) for h in state.hands] == [13] * 4 and not state.aside and not state.pile


# ------------------------------------------------------------------ placing and drawing


def test_place_then_draw_while_the_pile_lasts() -> None:
    state = QuashState.from_position(
        2, board=[EMPTY, EMPTY], hands=[["9D", "2S"], ["3S", "4S"]], pile=["KS", "QH"], turn=0)
    events = state.apply(0, place("9D", 4))
    assert texts(events) == ["{p0} placed 9♦ on RED's spot 4 (triple) and drew a card (1 left in the pile)."]
    assert [(e.text, e.private_to) for e in events if e.private_to is not None] == [("You drew Q♥.", 0)]
    assert state.hands[0] == [CODE.index("2S"), CODE.index("QH")] and state.board[0][3] == [CODE.index("9D")]
    assert state.view(1)["hand_counts"] == [2, 2] and state.view(1)["pile_count"] == 1
    assert "QH" not in codes_in(state.view(1)) and "QH" in state.view(0)["hand"]
    events = state.apply(1, place("3S", 3))
    assert texts(events) == [
        "{p1} placed 3♠ on BLACK's spot 3 (single) and drew a card (0 left in the pile).",
        "The draw pile is empty: the rest of the round is played from the hands.",
    ]
    events = state.apply(0, place("2S", 3))
    assert texts(events) == ["{p0} placed 2♠ on RED's spot 3 (single)."] and len(events) == 1
    assert state.hands[0] == [CODE.index("QH")]


def test_placement_refusals() -> None:
    state = QuashState.from_position(
        2, board=[with_spot(EMPTY, 3, "AS"), EMPTY], hands=[["9D", "2S"], ["3S", "4S"]], turn=0)
    refused(state, 1, place("3S", 1), NotYourTurn)
    assert "don't hold" in refused(state, 0, place("3S", 1))
    assert "Spot 3 (single) is full" in refused(state, 0, place("9D", 3))
    assert "only allowed in advanced play" in refused(state, 0, swap("9D", 3, "AS", 1))
    refused(state, 0, place("9D", 10), MalformedAction)
    refused(state, 0, place("9D", 0), MalformedAction)
    refused(state, 0, place("9D", "4"), MalformedAction)
    refused(state, 0, place("XX", 4), MalformedAction)
    refused(state, 0, Action("place", ("9D", 4, "2S", 5)), MalformedAction)
    refused(state, 0, Action("place", ("9D",)), MalformedAction)
    refused(state, 0, tiebreak("9D"), IllegalAction, "no tiebreaker")
    refused(state, 0, Action("chooser", (2,)), IllegalAction)
    refused(state, 0, Action("jump"), MalformedAction)
    # Basic play places freely: a 6 beside 10-J is just a failed sequence later.
    state = QuashState.from_position(
        2, board=[with_spot(EMPTY, 1, "10H JC"), EMPTY], hands=[["6C", "2S"], ["3S", "4S"]], turn=0)
    assert place("6C", 1) in state.legal_actions(0)
    state.apply(0, place("6C", 1))


def test_a_full_dealt_round_leaves_eight_leftovers_each_in_two_player_play() -> None:
    for seed in range(5):
        state = GAME.new_game(2, {}, seed)
        rng = Rng(seed)
        while state.phase == "play":
            seat = state.to_act()[0]
            assert seat == state.turn
            events = state.apply(seat, state.legal_actions(seat)[rng.below(len(state.legal_actions(seat)))])
        start = [t for t in texts(events) if t.startswith("Every spot is full")]
        assert start == ["Every spot is full. The cards left in hand are kept for tiebreakers (RED 8, BLACK 8). "
                         "Scoring starts at spot 1."]


# ------------------------------------------------------------------ scoring


def test_scoring_every_plain_rule_in_spot_order() -> None:
    state = scoring(RED_A, BLACK_A)
    assert texts(state.opening_events()) == [
        "Spot 1 — triple: RED 9♦ 10♦ J♦ (same suit) beats BLACK 8♣ 9♥ 10♠ — higher top card: +1 RED (RED 1 · BLACK 0).",
        "Spot 2 — double: BLACK 5♣ 6♥ beats RED 4♠ 9♠ (failed) — a run against a failed sequence, the spot plus 1 "
        "bonus: +2 BLACK (RED 1 · BLACK 2).",
        "Spot 3 — single: RED K♥ beats BLACK Q♠ — higher card: +1 RED (RED 2 · BLACK 2).",
        "Spot 4 — triple: RED 2♣ 3♣ 4♣ (same suit) beats BLACK 2♥ 3♠ 4♦ — a same-suit run beats a mixed one: "
        "+1 RED (RED 3 · BLACK 2).",
        "Spot 5 — double: RED 7♠ J♥ (failed) and BLACK 3♥ 8♠ (failed) both failed, nobody wins the spot: "
        "+1 RED, +1 BLACK (RED 4 · BLACK 3).",
        "Spot 6 — single: BLACK A♠ beats RED 5♦ — higher card: +1 BLACK (RED 4 · BLACK 4).",
        "Spot 7 — triple: RED Q♥ K♣ A♦ beats BLACK J♣ Q♦ K♠ — higher top card: +1 RED (RED 5 · BLACK 4).",
        "Spot 8 — double: BLACK 10♥ J♠ beats RED 6♣ 7♦ — higher top card: +1 BLACK (RED 5 · BLACK 5).",
        "Spot 9 — single: RED 8♥ beats BLACK 7♣ — higher card: +1 RED (RED 6 · BLACK 5).",
        "Round 1 is scored: RED +6, BLACK +5 (RED 6 · BLACK 5).",
        "Round 2: {p0} deals 13 cards each; 26 cards form the draw pile. {p1} plays first.",
    ]
    spots = state.last_round["spots"]
    assert [(s["winner"], s["points"], s["how"]) for s in spots] == [
        ("RED", [1, 0], "top"), ("BLACK", [0, 2], "failed"), ("RED", [1, 0], "rank"), ("RED", [1, 0], "suit"),
        (None, [1, 1], "both-failed"), ("BLACK", [0, 1], "rank"), ("RED", [1, 0], "top"),
        ("BLACK", [0, 1], "top"), ("RED", [1, 0], "rank"),
    ]
    assert state.track == [6, 5] and not any(s["quash"] for s in spots)


def test_quash_in_each_section_is_credited_right_after_its_third_spot() -> None:
    state = scoring(RED_Q, BLACK_Q)
    events = texts(state.opening_events())
    assert events[2:4] == [
        "Spot 3 — single: RED K♥ beats BLACK Q♠ — higher card: +1 RED (RED 3 · BLACK 0).",
        "QUASH! RED won spots 1, 2 and 3: +2 RED (RED 5 · BLACK 0).",
    ]
    assert events[6:8] == [
        "Spot 6 — single: BLACK A♠ beats RED 5♦ — higher card: +1 BLACK (RED 5 · BLACK 3).",
        "QUASH! BLACK won spots 4, 5 and 6: +2 BLACK (RED 5 · BLACK 5).",
    ]
    assert events[10:12] == [
        "Spot 9 — single: RED A♥ beats BLACK 7♣ — higher card: +1 RED (RED 8 · BLACK 5).",
        "QUASH! RED won spots 7, 8 and 9: +2 RED (RED 10 · BLACK 5).",
    ]
    assert [s["quash"] for s in state.last_round["spots"]] == [False, False, True] * 3
    assert state.track == [10, 5]


def test_a_both_failed_spot_or_a_lost_spot_breaks_the_quash() -> None:
    red = with_spot(RED_Q, 2, "QC 4S")  # failed, against BLACK's run: BLACK wins spot 2
    state = scoring(red, BLACK_Q)
    assert not any("QUASH! RED won spots 1, 2" in t for t in texts(state.opening_events()))
    black = with_spot(BLACK_Q, 2, "5C 7D")  # both failed: nobody wins spot 2
    state = scoring(red, black)
    spots = state.last_round["spots"]
    assert spots[1]["how"] == "both-failed" and not spots[2]["quash"] and spots[5]["quash"]


def test_finish_reached_in_mid_scoring_ends_the_match_and_the_rest_is_not_scored() -> None:
    # The QUASH bonus after spot 3 carries RED from 28 to 30.
    state = scoring(RED_Q, BLACK_Q, track=(25, 0))
    assert texts(state.opening_events())[-2:] == [
        "QUASH! RED won spots 1, 2 and 3: +2 RED (RED 30 · BLACK 0).",
        "RED reaches the finish (30 of 30) on spot 3: RED ({p0}) wins the match! The rest of round 1 is not scored.",
    ]
    assert state.is_over() and state.track == [30, 0] and len(state.results) == 3 and state.to_act() == []
    outcome = state.outcome()
    assert outcome.winners == (0,) and outcome.ranking == ((0,), (1,)) and outcome.scores == (30, 0)
    assert outcome.teams == ((0,), (1,))
    assert outcome.reason == "RED ({p0}) reached the finish (30) first (RED 30 · BLACK 0)."
    view = state.view(None)
    assert view["phase"] == "over" and view["winner"] == "RED" and view["scoring"]["spot"] is None
    assert [s["scored"] for s in view["board"][0]] == [True] * 3 + [False] * 6
    # Reaching the finish on spot 3 itself: the bonus is never credited.
    state = scoring(RED_Q, BLACK_Q, track=(27, 0))
    assert texts(state.opening_events())[-1].startswith("RED reaches the finish (30 of 30) on spot 3")
    assert state.track == [30, 0] and not state.results[-1]["quash"]
    # BLACK can win before RED's earlier lead matters: order is spot order.
    state = scoring(RED_Q, BLACK_Q, track=(29, 24), finish=30)
    assert state.outcome().winners == (0,)  # spot 1 comes first
    state = scoring(RED_Q, BLACK_Q, track=(20, 25), finish=30)
    assert state.outcome().winners == (1,) and len(state.results) == 6  # BLACK's QUASH at spot 6
    # The finish option is honoured.
    state = scoring(RED_Q, BLACK_Q, finish=5)
    assert state.outcome().winners == (0,) and state.track == [5, 0]


def test_both_sides_reaching_the_finish_on_one_spot_is_a_draw() -> None:
    state = scoring(RED_A, BLACK_A, track=(26, 27))  # after spot 4: 29 each; spot 5 both failed
    assert texts(state.opening_events())[-1] == (
        "Both sides reach the finish (30) on spot 5: the match is a draw. The rest of round 1 is not scored.")
    outcome = state.outcome()
    assert outcome.winners == () and outcome.ranking == ((0, 1),) and outcome.scores == (30, 30)
    assert state.view(None)["winner"] == "draw"


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
