"""Q Squared Joe NG, the rest of RULINGS.md §4 as exact cases: elimination and winning, the
anti-stall end, views and hidden information, legal moves, refusals and encoding (the helpers are
in test_ng_rules.py)."""

from __future__ import annotations

import json

import pytest

from games.base import Action
from games.cards import CODE
from games.errors import GameError, GameFinished, IllegalAction, MalformedAction, NotYourTurn
from games.ng import GAME, STALL_LIMIT, NGAction, NGState
from games.rng import Rng
from tests.contract import codes_in
from tests.test_ng_rules import DRAW, attack, defend, pick, public, refused, sacrifice, two_player, with_hand
from tests.words import words

# ------------------------------------------------------------------ elimination, winning


def test_attack_on_the_last_field_card_eliminates_and_discards_hand_and_resources() -> None:
    state = two_player(fields=[[["~9S"]], [["~JC"]]], hands=[["2C"], ["KS", "2D"]])
    events = state.apply(0, attack("2C", "stack", 1, 0))  # same suit: 2♣ beats J♣
    assert state.is_over() and state.winners == [0]
    assert [CODE[c] for c in state.discard] == ["JC", "KS", "2D", "10C", "3S"]
    assert state.hands[1] == [] and state.resources[1] == []
    assert state.view(None)["resources"][0] == ["2S", "8D", "2C"]
    assert public(events)[1:] == [
        "{p1}'s field is empty: {p1} is eliminated. Their hand (K♠ 2♦) and their resource pile (10♣ 3♠) are discarded.",
        "{p0} is the last player standing and wins!",
    ]
    outcome = state.outcome()
    assert (outcome.winners, outcome.ranking, outcome.scores) == ((0,), ((0,), (1,)), (1, 0))
    assert state.view(None)["status"] == ["won", "out"]


def test_three_players_eliminated_seat_is_skipped_and_untargetable_last_standing_wins() -> None:
    state = NGState.from_position(
        hands=[["10C", "4D"], ["KS"], ["2H", "QD"]],
        fields=[[["~9S"]], [["~JC"]], [["~5H"], ["~8C"]]],
        resources=[[], ["3S"], []],
        deck=["6S"],
        turn=0,
    )
    state.apply(0, attack("10C", "stack", 1, 0))
    assert not state.is_over()
    assert state.eliminated == [1] and state.turn == 2  # seat 1 is skipped
    assert state.view(None)["status"] == ["playing", "out", "playing"]
    assert "Seat 2 is out of the game" in refused(state, 2, attack("2H", "stack", 1, 0))
    assert "Seat 2 is out of the game" in refused(state, 2, defend("2H", 1, 0))
    assert all(a.args[2] != 1 for a in state.legal_actions(2) if a.kind == "attack")
    assert all(a.args[1] != 1 for a in state.legal_actions(2) if a.kind == "defend")
    # 2♥ vs 9♠ (face down): different suits, higher is stronger → weaker. Then seat 0 is next.
    state.apply(2, attack("2H", "stack", 0, 0))
    assert state.turn == 0 and state.view(None)["fields"][0][0] == ["9S"]
    assert "Seat 3's resource pile is empty" in refused(state, 0, attack("4D", "resource", 2))


def test_last_player_standing_in_three_players() -> None:
    state = NGState.from_position(
        hands=[["10C", "4D"], [], ["QD"]],
        fields=[[["~9S"]], [], [["JC"]]],
        resources=[[], [], ["2H"]],
        turn=0,
        eliminated=[1],
    )
    state.apply(0, attack("10C", "stack", 2, 0))
    assert state.is_over() and state.winners == [0]
    outcome = state.outcome()
    assert outcome.ranking == ((0,), (2,), (1,))  # the last eliminated ranks higher
    assert outcome.scores == (2, 0, 1)
    for seat in range(3):
        assert state.legal_actions(seat) == []
        assert state.view(seat)["legal"] == [] and state.view(seat)["your_turn"] is False
    assert state.to_act() == [] and state.view(None)["turn"] is None


def test_game_over_refuses_every_move() -> None:
    state = two_player(fields=[[["~9S"]], [["~JC"]]], hands=[["2C"], ["KS"]])
    state.apply(0, attack("2C", "stack", 1, 0))
    for seat, action in [(0, DRAW), (1, DRAW), (0, pick("2S")), (0, sacrifice(0))]:
        refused(state, seat, action, GameFinished, "over")


# ------------------------------------------------------------------ anti-stall


def test_anti_stall_ends_the_game_at_exactly_40_turns_without_a_discard() -> None:
    assert STALL_LIMIT == 40
    state = two_player(stall=38)
    state.apply(0, DRAW)
    assert state.stall == 39 and not state.is_over()
    assert state.view(None)["turns_since_discard"] == 39
    events = state.apply(1, DRAW)
    assert state.is_over() and state.end == "stall"
    assert state.field_counts() == [3, 4] and state.winners == [1]
    assert public(events)[-1] == (
        "40 turns in a row without a discard: the game ends. Field cards: {p0} 3, {p1} 4. {p1} wins."
    )
    outcome = state.outcome()
    assert outcome.ranking == ((1,), (0,)) and outcome.scores == (0, 1)
    assert words(outcome.reason) == "40 turns passed without a discard; {p1} has the most field cards (4)."
    assert state.view(None)["status"] == ["lost", "won"]


def test_anti_stall_tie_is_a_shared_result() -> None:
    state = NGState.from_position(
        hands=[["7H"], ["KS"], ["2D"]],
        fields=[[["~9S"], ["~3D", "QH"]], [["~JC"]], [["~6D"], ["~5C"]]],
        deck=["6H"],
        stall=39,
    )
    state.apply(0, defend("7H", 1, 0))  # the 40th quiet turn; seat 0 stays ahead with 3
    assert state.field_counts() == [3, 2, 2]
    assert state.is_over() and state.winners == [0]
    state = NGState.from_position(
        hands=[["7H"], ["KS"], ["2D"]],
        fields=[[["~9S"], ["~3D"]], [["~JC"]], [["~6D"], ["~5C"]]],
        deck=["6H"],
        stall=39,
    )
    events = state.apply(0, DRAW)
    assert state.field_counts() == [2, 1, 2]
    assert state.is_over() and state.winners == [0, 2]
    outcome = state.outcome()
    assert outcome.winners == (0, 2) and outcome.ranking == ((0, 2), (1,)) and outcome.scores == (1, 0, 1)
    assert words(outcome.reason) == "40 turns passed without a discard; {p0} and {p2} share the most field cards (2)."
    assert public(events)[-1].endswith("Field cards: {p0} 2, {p1} 1, {p2} 2. {p0} and {p2} share the win.")
    assert state.view(None)["status"] == ["won", "lost", "won"]


def test_a_discard_resets_the_anti_stall_count() -> None:
    state = with_hand(two_player(stall=39), 0, "9D")
    state.apply(0, attack("9D", "stack", 1, 2))  # 9♦ vs 6♦: same suit, higher → weaker, 9♦ discarded
    assert not state.is_over() and state.stall == 0
    # Counting restarts: 39 more quiet turns are fine, the 40th ends it.
    for _ in range(39):  # each seat defends its first stack, then takes the card back, and so on
        seat = state.turn
        slot = next(i for i in range(5) if state.fields[seat][i])
        stack = state.fields[seat][slot]
        state.apply(seat, sacrifice(slot) if len(stack) > 1 else defend(CODE[state.hands[seat][0]], seat, slot))
        assert not state.is_over()
    assert state.stall == 39
    seat = state.turn
    state.apply(seat, DRAW)
    assert state.is_over() and state.end == "stall"


# ------------------------------------------------------------------ views and hidden information


def test_faceup_view_shows_everything_deck_order_included() -> None:
    state = two_player(faceup=True)
    assert state.hidden_cards(None) == [] and state.hidden_cards(1) == []
    view = state.view(None)
    assert view["faceup"] is True
    assert view["fields"] == [
        [["9S"], ["3D", "QH"], [], [], []],
        [["JC"], ["5C", "8H"], ["6D"], [], []],
    ]
    assert view["face_down"] == [[True, True, False, False, False], [True, True, True, False, False]]
    assert view["deck"] == ["6S", "6H"] and view["deck_count"] == 2  # top last
    assert view["hands"] == [["AS", "7H", "4C"], ["KS", "2D", "7C"]]
    every = {"7H", "AS", "4C", "KS", "2D", "7C", "9S", "3D", "QH", "JC", "5C", "8H", "6D", "2S", "8D", "10C", "3S", "6S", "6H"}
    assert set(codes_in(view)) == every
    events = state.apply(0, DRAW)
    assert public(events) == ["{p0} drew 6♥."]


def test_hidden_views_never_show_hidden_cards() -> None:
    state = two_player()
    hidden_everywhere = {"9S", "3D", "JC", "5C", "6D", "6S", "6H"}  # face-down cards and the deck
    hands = [{"7H", "AS", "4C"}, {"KS", "2D", "7C"}]
    public_view = state.view(None)
    assert not set(codes_in(public_view)) & (hidden_everywhere | hands[0] | hands[1])
    assert public_view["fields"] == [
        [[None], [None, "QH"], [], [], []],
        [[None], [None, "8H"], [None], [], []],
    ]
    assert public_view["deck"] is None and public_view["hands"] is None
    for seat in (0, 1):
        shown = set(codes_in(state.view(seat)))
        assert not shown & hidden_everywhere  # not even one's own face-down cards
        assert not shown & hands[1 - seat]
        assert hands[seat] <= shown
        assert {c.code for c in state.hidden_cards(seat)} == hidden_everywhere | hands[1 - seat]
    assert {c.code for c in state.hidden_cards(None)} == hidden_everywhere | hands[0] | hands[1]


def test_view_keys_and_seat_view() -> None:
    state = two_player()
    view = state.view(0)
    assert set(view) == {
        "game", "players", "viewer", "faceup", "turn", "to_act", "status", "fields", "face_down", "field_counts",
        "resources", "hand_counts", "hands", "deck_count", "deck", "discard_count", "discard_top",
        "turns_since_discard", "stall_limit", "eliminated", "over", "outcome", "hand", "your_turn", "legal",
    }
    assert view["hand"] == ["AS", "7H", "4C"] and view["your_turn"] is True
    assert view["legal"] == [a.code() for a in state.legal_actions(0)]
    assert state.view(1)["legal"] == [] and state.view(1)["your_turn"] is False
    assert json.loads(json.dumps(view)) == view
    with pytest.raises(MalformedAction):
        state.view(2)


# ------------------------------------------------------------------ legal moves, refusals, encoding


def test_legal_actions_are_exactly_the_rules() -> None:
    state = two_player()
    legal = state.legal_actions(0)
    assert len(set(legal)) == len(legal)
    codes = {a.code() for a in legal}
    stacks = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]
    expected = {"draw", "pick:2S", "pick:8D", "sacrifice:0", "sacrifice:1"}
    for card in ("7H", "AS", "4C"):
        expected |= {f"attack:{card},stack,{s},{i}" for s, i in stacks}
        expected |= {f"attack:{card},resource,{s}" for s in (0, 1)}
        expected |= {f"attack:{card},hand,1,{p}" for p in range(3)}
        expected |= {f"defend:{card},{s},{i}" for s, i in stacks}
    assert codes == expected
    assert state.legal_actions(1) == []
    refused(state, 1, DRAW, NotYourTurn, "not your turn")


def test_illegal_and_malformed_moves_leave_the_state_unchanged() -> None:
    state = two_player(deck=[])
    cases = [
        (DRAW, IllegalAction, "deck is empty"),
        (Action("draw", ("QS",)), MalformedAction, "no arguments"),
        (Action("fly"), MalformedAction, "Unknown move 'fly'"),
        (pick("XX"), MalformedAction, "not a card"),
        (pick("JK"), MalformedAction, "^Q Squared Joe NG is played without jokers$"),
        (Action("pick", (3,)), MalformedAction, "not a card code"),
        (Action("pick"), MalformedAction, "pick takes 1 arguments"),
        (sacrifice(4), IllegalAction, "Your stack 5 is gone"),
        (sacrifice(9), MalformedAction, "numbered 1 to 5"),
        (attack("KS", "stack", 1, 0), IllegalAction, "You don't hold K♠"),
        (attack("7H", "table", 1, 0), MalformedAction, "stack, a hand or a resource pile"),
        (attack("7H", "stack", 1), MalformedAction, "attack takes 4 arguments"),
        (attack("7H", "resource", 1, 0), MalformedAction, "attack takes 3 arguments"),
        (Action("attack", ("7H",)), MalformedAction, "attack takes 3 or 4 arguments"),
        (attack("7H", "stack", True, 0), MalformedAction, "whole number"),
        (attack("7H", "stack", 1, 4), IllegalAction, "Seat 2's stack 5 is gone"),
        (attack("7H", "stack", 7, 0), MalformedAction, "no seat 8"),
        (("attack",), MalformedAction, "Not an NG move"),
    ]
    for action, error, match in cases:
        refused(state, 0, action, error, match)  # type: ignore[arg-type]
    refused(state, True, DRAW, MalformedAction, "no seat")  # type: ignore[arg-type]
    refused(state, 5, DRAW, MalformedAction, "no seat")


def test_action_encoding_is_compact_and_round_trips() -> None:
    examples = {
        NGAction("draw"): ("draw", "draw"),
        NGAction("pick", ("10H",)): ("pick:10H", "pick 10♥ from your resource pile"),
        NGAction("defend", ("7H", 1, 2)): ("defend:7H,1,2", "defend seat 2's stack 3 with 7♥"),
        NGAction("sacrifice", (4,)): ("sacrifice:4", "sacrifice the top of your stack 5"),
        NGAction("attack", ("7H", "stack", 1, 2)): ("attack:7H,stack,1,2", "attack seat 2's stack 3 with 7♥"),
        NGAction("attack", ("AS", "hand", 3, 0)): ("attack:AS,hand,3,0", "attack card 1 of seat 4's hand with A♠"),
        NGAction("attack", ("10H", "resource", 3)): ("attack:10H,resource,3", "attack seat 4's resource pile with 10♥"),
    }
    for action, (code, text) in examples.items():
        assert action.code() == code and str(action) == text
        assert NGAction.from_code(code) == action
        assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    # Legal actions are the same values, whatever class builds them.
    assert Action("attack", ("7H", "stack", 1, 2)) in two_player().legal_actions(0)
    # The longest possible code stays far below Discord's 100-character custom_id.
    state = GAME.new_game(4, {}, 3)
    assert max(len(a.code()) for a in state.legal_actions(state.turn)) <= 22


def test_snapshots_and_replay_mid_game() -> None:
    state = GAME.new_game(3, {}, 42)
    rng = Rng(1)
    log = []
    for _ in range(25):
        if state.is_over():
            break
        seat = state.turn
        legal = state.legal_actions(seat)
        action = legal[rng.below(len(legal))]
        state.apply(seat, action)
        log.append((seat, action))
    snap = json.loads(json.dumps(state.to_json()))
    assert GAME.from_json(snap).to_json() == state.to_json()
    assert GAME.replay(3, {}, 42, log).to_json() == state.to_json()
    with pytest.raises(MalformedAction):
        GAME.from_json({**snap, "game": "q2j"})
    with pytest.raises(MalformedAction):
        GAME.from_json({k: v for k, v in snap.items() if k != "fields"})


def test_from_position_checks_its_input() -> None:
    with pytest.raises(GameError, match="twice"):
        two_player(deck=["7H"])
    with pytest.raises(GameError, match="bottom card"):
        two_player(fields=[[["9S", "~3D"]], [["~JC"]]])
    with pytest.raises(GameError, match="eliminated"):
        two_player(fields=[[], [["~JC"]]])
    with pytest.raises(GameError, match="turn"):
        two_player(turn=2)


def test_the_ai_plays_legal_moves_and_takes_a_sure_elimination() -> None:
    from games.ai import choose_action

    # Seat 1 has one field card left, face up: J♣. 2♣ beats it (same suit, lower).
    state = two_player(hands=[["7H", "2C"], ["KS"]], fields=[[["~9S"], ["~3D"]], [["JC"]]])
    for seed in range(5):
        assert choose_action(state, 0, Rng(seed)) == attack("2C", "stack", 1, 0)
    # Whole games: always legal, never harms itself (no attack on its own cards, no defence
    # of an opponent's stack, no sacrifice of its last field card).
    for seed in range(30):
        game = GAME.new_game(2 + seed % 3, {"faceup": seed % 2 == 1}, seed)
        rng = Rng(seed)
        while not game.is_over():
            seat = game.turn
            action = choose_action(game, seat, rng)
            assert action in game.legal_actions(seat)
            if action.kind == "attack":
                assert action.args[2] != seat
            if action.kind == "defend":
                assert action.args[1] == seat
            if action.kind == "sacrifice":
                assert game.field_counts()[seat] > 1
            game.apply(seat, action)
