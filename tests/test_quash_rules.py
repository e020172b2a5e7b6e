"""QUASH: every ruling of RULINGS.md §6 (and the gaps decided in games/quash) as an exact
case, mostly on hand-built positions (``QuashState.from_position``)."""

from __future__ import annotations

from collections import Counter

import pytest

import games
from games.ai import choose_action
from games.base import Action
from games.cards import CODE, parse_card
from games.errors import GameError, IllegalAction, MalformedAction, NotYourTurn
from games.quash import GAME, QuashState, can_become_run, is_run, score_spot
from games.quash.ai import choose
from games.quash.deal import cut_for_deal
from games.rng import Rng
from tests.contract import codes_in
from tests.words import words

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
    return [words(e) for e in events if e.private_to is None]


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
        dealer, said = cut_for_deal(2, Rng(seed))
        text = words(said)
        assert state.dealer == dealer and state.turn == 1 - dealer and state.to_act() == [1 - dealer]
        opening = texts(state.opening_events())
        assert opening[0] == "Sides — RED: {p0}; BLACK: {p1}. First to 30 points wins."
        assert opening[1] == text and text.endswith(f"{{p{dealer}}} cut the highest card and deals first.")
        assert opening[2] == (f"Round 1: {{p{dealer}}} deals 13 cards each; the draw pile holds 26 cards. "
                              f"{{p{1 - dealer}}} plays first.")
        assert all(e.private_to is None for e in state.opening_events())
        assert [len(h) for h in state.hands] == [13, 13] and len(state.pile) == 26 and not state.aside
        assert len({c for h in state.hands for c in h} | set(state.pile)) == 52


def test_equal_cuts_cut_again() -> None:
    again = [seed for seed in range(200) if "cut again" in words(cut_for_deal(2, Rng(seed))[1])]
    assert again
    dealer, said = cut_for_deal(2, Rng(again[0]))
    text = words(said)
    assert "{p0} and {p1} tie with" in text and text.endswith(f"{{p{dealer}}} cut the highest card and deals first.")
    # With 4 players only the seats tied for the highest card cut again.
    four = next(t for seed in range(200) for t in [words(cut_for_deal(4, Rng(seed))[1])] if "cut again" in t)
    assert four.count("{p") > 4


def test_the_deal_alternates_and_the_next_round_is_dealt_by_apply() -> None:
    state = QuashState.from_position(
        2, board=[RED_A, with_spot(BLACK_A, 9, "")], hands=[["2D", "3D"], ["7C", "8D"]], turn=1, dealer=0)
    assert [len(h) for h in state.hands] == [2, 2]
    events = state.apply(1, place("7C", 9))
    assert texts(events)[-2:] == [
        "Round 1 is scored: RED +6, BLACK +5 (RED 6 · BLACK 5).",
        "Round 2: {p1} deals 13 cards each; the draw pile holds 26 cards. {p0} plays first.",
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
    assert [(words(e), e.private_to) for e in events if e.private_to is not None] == [("You drew Q♥.", 0)]
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
        "Round 2: {p0} deals 13 cards each; the draw pile holds 26 cards. {p1} plays first.",
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
    assert words(outcome.reason) == "RED ({p0}) reached the finish (30) first (RED 30 · BLACK 0)."
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
