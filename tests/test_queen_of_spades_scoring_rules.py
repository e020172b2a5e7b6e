"""Queen of Spades, the rest of RULINGS.md §5 as exact cases: the end of a round and scoring,
the anti-stall ruling, encoding, legality and views, and the AI (the helpers are in test_queen_of_spades_rules.py)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.base import Action
from games.errors import GameError, GameFinished, MalformedAction, NotYourTurn
from games.queen_of_spades import GAME, STALL_LIMIT, QoSAction, QoSState
from games.queen_of_spades.actions import PARSED
from games.queen_of_spades.ai import choose
from games.queen_of_spades.points import CODE, full_deck
from games.rng import Rng
from tests.contract import card_counts, check_views, codes_in
from tests.test_queen_of_spades_rules import act, hand, laid, lay_pos, legal, play, pos, refused, texts
from tests.words import words

# ------------------------------------------------------------------ ends of rounds, scoring


def test_going_out_with_a_discard_scores_100_and_ends_the_round() -> None:
    state = pos([["QS", "QH", "QD", "5C", "3D"], ["KH", "JK"]], sets=[[], [["AS", "AH", "AD"]]],
                phase="lay", draw=["9C", "7C"], discard=["4C"], dealer=1, scores=[10, 20])
    play(state, 0, "lay:Q,3", "discard:5C")
    assert state.phase == "take" and state.to_act() == [1]  # still a card: not out
    state = pos([["QS", "QH", "QD", "5C"], ["KH", "JK"]], sets=[[], [["AS", "AH", "AD"]]],
                phase="lay", draw=["9C", "7C"], discard=["4C"], dealer=1, scores=[10, 20])
    events = play(state, 0, "lay:Q,3", "discard:5C")
    assert texts(events)[2:4] == [
        "{p0} discarded their last card and went out: +100!",
        "Round 1 scores: {p0} +220 (laid 120, went out +100), {p1} -15 (laid 45, 60 left in hand). "
        "Match totals: {p0} 230, {p1} 5.",
    ]
    record = state.history[-1]
    assert record["end"] == "out" and record["out"] == 0
    assert record["rows"] == [
        {"laid": 120, "hand": 0, "out_bonus": 100, "cut_bonus": 0, "round": 220, "total": 230},
        {"laid": 45, "hand": 60, "out_bonus": 0, "cut_bonus": 0, "round": -15, "total": 5},
    ]
    assert state.scores == [230, 5]


def test_exhausted_draw_pile_ends_the_round_without_a_bonus() -> None:
    state = pos([["5C", "9D"], ["KH", "JK"]], draw=["7H"], discard=["4C"])
    events = play(state, 0, "take:draw", "discard:9D")
    assert texts(events)[-3:-1] == [
        "The draw pile is empty: round 1 ends with no going-out bonus.",
        "Round 1 scores: {p0} -10 (laid 0, 10 left in hand), {p1} -60 (laid 0, 60 left in hand). Match totals: {p0} -10, {p1} -60.",
    ]
    assert state.history[-1]["end"] == "exhausted" and state.history[-1]["out"] is None
    assert all(row["out_bonus"] == 0 for row in state.history[-1]["rows"])
    assert state.phase == "round_over"


def test_between_rounds_every_seat_acknowledges_then_the_next_dealer_cuts() -> None:
    state = pos([["5C"], ["KH"], ["3D"]], phase="lay", dealer=2, draw=["7H", "8H"], discard=["4C"], scores=[0, 0, 0])
    play(state, 0, "discard:5C")
    view = state.view(None)
    assert (view["phase"], view["to_act"], view["turn"], view["ready"]) == ("round_over", [0, 1, 2], None, [False] * 3)
    assert view["hands"] == [[], ["KH"], ["3D"]]
    assert view["last_round"]["rows"][0]["round"] == 100
    assert [legal(state, s) for s in range(3)] == [["next"]] * 3
    assert "press Continue" in refused(state, 1, "take:draw")
    assert texts(play(state, 1, "next")) == ["{p1} is ready for round 2."]
    assert state.to_act() == [0, 2] and legal(state, 1) == []
    refused(state, 1, "next", NotYourTurn)
    play(state, 2, "next")
    events = play(state, 0, "next")
    assert texts(events) == ["{p0} is ready for round 2.", "Round 2: {p0} deals. {p0}, cut the deck (a cut of 39 or "
                                                            "40 cards scores 100) or deal without a cut."]
    assert (state.phase, state.round_no, state.dealer, state.to_act()) == ("cut", 2, 0, [0])
    # The next round is dealt from the full decks, set-aside cards included.
    assert sum(card_counts(state).values()) == 108 and len(state.draw) == 108
    play(state, 0, "deal")
    assert state.size == [13, 13, 13] and state.turn == 1 and state.history[0]["rows"][0]["total"] == 100


def test_target_ends_the_match_after_the_round_without_next() -> None:
    state = pos([["5C"], ["KH"]], phase="lay", scores=[950, 990], discard=["4C"])
    events = play(state, 0, "discard:5C")
    assert state.is_over() and state.to_act() == [] and state.phase == "match_over"
    outcome = state.outcome()
    assert outcome.winners == (0,) and outcome.scores == (1050, 980) and outcome.ranking == ((0,), (1,))
    assert texts(events)[-1] == words(outcome.reason) == "{p0} reached the target of 1000 with 1050 points."
    for seat in (0, 1):
        assert legal(state, seat) == []
        refused(state, seat, "next", GameFinished)
    assert state.view(None)["phase"] == "match_over" and state.view(None)["hands"] == [[], ["KH"]]


def test_ties_at_the_target_go_to_the_higher_total_then_are_shared() -> None:
    sets = [[], [["QS", "QH", "QD"]]]
    state = pos([["5C"], ["3C"]], sets=sets, phase="lay", scores=[950, 970], discard=["4C"])
    play(state, 0, "discard:5C")  # 0 goes out: 1050; 1: +115 -> 1085
    assert state.outcome().winners == (1,)
    assert words(state.outcome().reason) == "{p1} reached the target of 1000 and the highest total with 1085 points."
    state = pos([["5C"], ["3C"]], sets=sets, phase="lay", scores=[950, 935], discard=["4C"])
    play(state, 0, "discard:5C")
    outcome = state.outcome()
    assert outcome.winners == (0, 1) and outcome.ranking == ((0, 1),) and outcome.scores == (1050, 1050)
    assert "share the win" in words(outcome.reason)


def test_rounds_option_ends_the_match_highest_total_wins() -> None:
    state = pos([["5C"], ["KH"], ["3D"]], phase="lay", options={"rounds": 2}, round_no=2, scores=[-40, 30, 30],
                discard=["4C"])
    play(state, 0, "discard:5C")
    outcome = state.outcome()
    assert state.end == "rounds"
    assert outcome.scores == (60, 20, 25) and outcome.winners == (0,) and outcome.ranking == ((0,), (2,), (1,))
    assert words(outcome.reason) == "After 2 rounds, {p0} has the most points (60)."
    state = pos([["5C"], ["KH"], ["3D"]], phase="lay", options={"rounds": 3}, round_no=2, discard=["4C"])
    play(state, 0, "discard:5C")
    assert state.phase == "round_over"


def test_endless_target_zero_keeps_going_past_1000() -> None:
    state = pos([["5C"], ["KH"]], phase="lay", options={"target": 0}, scores=[5000, -3000], discard=["4C"])
    play(state, 0, "discard:5C")
    assert not state.is_over() and state.phase == "round_over" and state.outcome() is None


# ------------------------------------------------------------------ anti-stall


def test_stall_limit_forces_a_draw_after_ten_turns_without_one() -> None:
    state = pos([["5C", "6C"], ["KH", "KD"]], discard=["9S"], draw=["3C", "4C", "5D"], stall=STALL_LIMIT - 1)
    play(state, 0, "take:discard")
    assert state.stall == STALL_LIMIT
    events = play(state, 0, "discard:9S")
    assert texts(events)[-1] == ("10 turns in a row without a draw from the draw pile: {p1} can't take the lone "
                                 "discard and must draw.")
    assert legal(state, 1) == ["take:draw"]
    assert "10 turns in a row" in refused(state, 1, "take:discard")
    play(state, 1, "take:draw")
    assert state.stall == 0 and state.view(None)["turns_without_draw"] == 0


def test_the_stall_counter_counts_pile_pickups_too() -> None:
    state = pos([["QH", "QD", "5C"], ["KH"]], discard=["3C", "QS"], stall=4)
    play(state, 0, "take:pile,2")
    assert state.stall == 5 and state.view(None)["turns_without_draw"] == 5


# ------------------------------------------------------------------ encoding, legality, views


def test_action_codes_are_compact_and_survive_the_discord_round_trip() -> None:
    longest = max(len(a.code()) for a in PARSED)
    assert longest <= 17
    for action in PARSED:
        assert Action.from_code(action.code()) == action
        assert QoSAction.from_code(action.code()) == action
        assert str(action)
    assert str(QoSAction("lay", ("Q", 2, "w"))) == "lay 2 queens + a wild 2"
    assert str(QoSAction("extend", ("Q", 0, "w"))) == "add a wild 2 to your queens"
    assert str(QoSAction("take", ("pile", 2))) == "take the pile: its top card and 2 from your hand as a new set"


def test_ranks_and_counts_parse_leniently_and_malformed_moves_are_refused() -> None:
    state = lay_pos(["10S", "10H", "10D", "5C"])
    assert "lay:10,3" in legal(state, 0)
    assert act("lay:10,3") == Action("lay", (10, 3)) in state.legal_actions(0)
    play(lay_pos(["10S", "10H", "10D", "5C"]), 0, "lay:10,3")
    lay_pos(["10S", "10H", "10D", "5C"]).apply(0, Action("lay", ("10", 3)))
    lay_pos(["QS", "QH", "QD", "5C"]).apply(0, Action("LAY", ("q", 3)))
    for bad in ("lay:X,3", "lay:Q", "lay:Q,3,x", "lay:1,3", "discard:XX", "discard", "take:foo", "take:pile",
                "cut:abc", "deal:1", "play:QS", "extend:Q,-1"):
        refused(state, 0, bad, MalformedAction)
    refused(state, 0, Action("lay", (["Q"], 3)), MalformedAction)


@pytest.mark.parametrize("build", [
    lambda: lay_pos(["QS", "QH", "QD", "QC", "2S", "2H", "JK", "JK", "5C", "5C", "AS"], sets=[["KS", "KH", "KC"]]),
    lambda: lay_pos(["KD", "2S", "2H", "2D", "9C"], sets=[["KS", "KH", "KC"], ["4S", "4H", "4D", "2C"]]),
    lambda: pos([["QH", "QD", "QC", "5C"], ["KH"]], discard=["3C", "QS"]),
    lambda: pos([["QH", "5C"], ["KH"]], discard=["QS"]),
    lambda: pos([["QH", "5C"], ["KH"]], discard=["QS"], stall=STALL_LIMIT),
])
def test_legal_actions_are_exactly_what_apply_accepts(build) -> None:
    state = build()
    seat = state.to_act()[0]
    legal_set = set(state.legal_actions(seat))
    snapshot = state.to_json()
    for action in PARSED:  # every well-formed move there is
        copy = GAME.from_json(snapshot)
        try:
            copy.apply(seat, action)
        except GameError:
            assert action not in legal_set, action
        else:
            assert action in legal_set, action


def test_a_forty_card_hand_has_a_reasonable_number_of_moves() -> None:
    cards = [c for c in full_deck(2) if CODE[c] not in ("QS",)][:40]
    state = lay_pos([CODE[c] for c in cards])
    moves = state.legal_actions(0)
    assert 40 < len(moves) < 300
    assert len(set(moves)) == len(moves)
    snapshot = state.to_json()
    for action in moves:
        GAME.from_json(snapshot).apply(0, action)


def _mid_round_three() -> QoSState:
    return pos(
        [["QS", "5C", "9D", "JK"], ["KH", "KD", "7S"], ["3C", "3D", "AH", "10S", "8C"]],
        sets=[[["AS", "AD", "AC", "2C"]], [], [["JS", "JH", "JD"]]],
        draw=["6S", "6H", "7H"], discard=["4C", "8H", "10D"], turn=1, dealer=0, scores=[120, -30, 45], round_no=3,
        cut={"aimed": 40, "landed": 38, "bonus": False},
    )


def test_views_mid_round_show_public_facts_and_only_the_viewers_hand() -> None:
    state = _mid_round_three()
    public = state.view(None)
    assert public == {
        "game": "queen-of-spades", "players": 3, "viewer": None, "target": 1000, "rounds": 0, "round": 3,
        "dealer": 0, "phase": "take", "turn": 1, "to_act": [1], "deck_size": 108, "cut_bonus_at": [39, 40],
        "cut": {"dealer": 0, "aimed": 40, "landed": 38, "bonus": False},
        "draw_count": 3, "discard_count": 3, "discard_top": "10D", "discard_pile": ["4C", "8H", "10D"],
        "laid": [[{"rank": "A", "cards": ["AS", "AD", "AC"], "wild": "2C", "points": 65}], [],
                 [{"rank": "J", "cards": ["JS", "JH", "JD"], "wild": None, "points": 30}]],
        "laid_points": [65, 0, 30], "hand_counts": [4, 3, 5], "hands": None, "scores": [120, -30, 45],
        "known": [[], [], []], "let_go": [[], [], []], "passed": [[], [], []],
        "turns_without_draw": 0, "stall_limit": STALL_LIMIT, "ready": None, "last_round": None, "history": [],
        "over": False, "outcome": None,
    }
    seat1 = state.view(1)
    assert seat1["hand"] == ["7S", "KH", "KD"] and seat1["your_turn"] and seat1["legal"] == ["take:draw"]
    seat0 = state.view(0)
    assert seat0["hand"] == ["5C", "9D", "QS", "JK"] and not seat0["your_turn"] and seat0["legal"] == []
    others = Counter(CODE[c] for c in state.draw + state.aside + state.hand_ids(1) + state.hand_ids(2))
    assert Counter(c.code for c in state.hidden_cards(0)) == others
    assert Counter(c.code for c in state.hidden_cards(None)) == others + Counter(hand(state, 0))
    assert not set(codes_in(public["laid"])) & {"KH", "QS"}
    check_views(state)
    assert json.loads(json.dumps(seat0)) == seat0


def test_views_at_round_over_show_every_hand_and_the_breakdown() -> None:
    state = _mid_round_three()
    play(state, 1, "take:draw", "discard:7S")
    play(state, 2, "take:draw", "discard:8C")
    play(state, 0, "take:draw", "discard:5C")  # the draw pile is empty: round 3 ends
    view = state.view(2)
    assert view["phase"] == "round_over" and view["to_act"] == [0, 1, 2] and view["legal"] == ["next"]
    assert view["hands"] == [["6S", "9D", "QS", "JK"], ["7H", "KH", "KD"], ["AH", "3D", "3C", "6H", "10S"]]
    last = view["last_round"]
    assert last == view["history"][-1] and last["round"] == 3 and last["end"] == "exhausted" and last["dealer"] == 0
    assert [row["laid"] for row in last["rows"]] == [65, 0, 30]
    assert [row["hand"] for row in last["rows"]] == [160, 25, 40]
    assert [row["total"] for row in last["rows"]] == [120 + 65 - 160, -30 - 25, 45 + 30 - 40]
    assert codes_in(last) == Counter()
    check_views(state)


def test_snapshots_keep_the_match_history_across_rounds() -> None:
    state = GAME.new_game(3, {"target": 0}, 21)
    rng = Rng(2)
    while len(state.history) < 2 or state.phase != "take":
        seat = state.to_act()[0]
        state.apply(seat, choose(state, seat, rng))
    data = json.loads(json.dumps(state.to_json()))
    restored = GAME.from_json(data)
    assert restored.to_json() == state.to_json()
    assert restored.view(None)["history"] == state.view(None)["history"]
    assert restored.scores == [r["total"] for r in state.history[-1]["rows"]]
    with pytest.raises(MalformedAction):
        GAME.from_json({**data, "phase": "nap"})
    with pytest.raises(MalformedAction):
        GAME.from_json({**data, "game": "q2j"})


def test_from_position_refuses_impossible_positions() -> None:
    with pytest.raises(GameError, match="More copies"):
        pos([["QS", "QS", "QS"], ["KH"]])
    with pytest.raises(GameError, match="at most one wild"):
        pos([["5C"], ["KH"]], sets=[[["QS", "2H", "2D"]], []])
    with pytest.raises(GameError, match="at least three"):
        pos([["5C"], ["KH"]], sets=[[["QS", "QH"]], []])
    with pytest.raises(GameError, match="one rank"):
        pos([["5C"], ["KH"]], sets=[[["QS", "QH", "KD"]], []])
    with pytest.raises(GameError, match="Every hand"):
        pos([[], ["KH"]])
    with pytest.raises(GameError, match="draw pile"):
        pos([["5C"], ["KH"]], draw=[])
    with pytest.raises(GameError, match="phase"):
        pos([["5C"], ["KH"]], phase="cut")


# ------------------------------------------------------------------ the AI


def test_ai_cuts_for_the_bonus_and_acknowledges() -> None:
    for players in (2, 5, 8):
        state = GAME.new_game(players, {}, 0)
        assert choose(state, state.dealer, Rng(0)) == act(f"cut:{13 * players}")


LONG_DRAW = [f"{r}{s}" for r in ("4", "6", "7", "10", "J") for s in "SHDC"] * 2


def test_ai_takes_the_pile_for_a_set_and_lays_it() -> None:
    state = pos([["QH", "QD", "5C", "9D"], ["KH"]], discard=["3C", "8D", "QS"], draw=LONG_DRAW)
    assert choose(state, 0, Rng(0)) == act("take:pile,2")
    state = pos([["QH", "QD", "5C", "9D"], ["KH"]], discard=["3C", "8D", "KS"], draw=LONG_DRAW)
    assert choose(state, 0, Rng(0)) == act("take:draw")
    state = pos([["QH", "QD", "5C", "9D"], ["KH"]], discard=["QS"], draw=LONG_DRAW)
    assert choose(state, 0, Rng(0)) == act("take:discard")


def test_ai_lays_sets_and_goes_out_when_it_can() -> None:
    state = lay_pos(["QS", "QH", "QD", "5C"])
    rng = Rng(0)
    play(state, 0, choose(state, 0, rng).code())
    assert laid(state, 0)[0]["cards"] == ["QS", "QH", "QD"]
    assert choose(state, 0, rng) == act("discard:5C")


def test_ai_dumps_the_queen_of_spades_late_and_keeps_pairs() -> None:
    late = pos([["QS", "5C", "5D", "9D"], ["KH"]], phase="lay", draw=["4D"], discard=["3C"])
    assert choose(late, 0, Rng(0)) == act("discard:QS")
    early = pos([["QS", "5C", "5D", "9D"], ["KH"]], phase="lay", draw=LONG_DRAW, discard=["3C"])
    assert choose(early, 0, Rng(0)) == act("discard:9D")


def test_ai_beats_random_play() -> None:
    wins = 0.0
    games_played = 30
    for seed in range(games_played):
        state = GAME.new_game(2, {"rounds": 2}, seed)
        ai_seat = seed % 2
        rng = Rng(seed)
        while not state.is_over():
            acting = state.to_act()
            seat = acting[rng.below(len(acting))]
            if seat == ai_seat:
                action = choose(state, seat, rng)
            else:
                moves = state.legal_actions(seat)
                action = moves[rng.below(len(moves))]
            state.apply(seat, action)
        winners = state.outcome().winners
        if ai_seat in winners:
            wins += 1 / len(winners)
    assert wins / games_played >= 0.8
