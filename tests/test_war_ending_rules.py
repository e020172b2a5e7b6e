"""Q Squared Joe War, the rest of RULINGS.md §3 as exact cases: the forced pass, refusals and
the end, views, actions and snapshots, termination, and the AI (the helpers are in test_war_rules.py)."""

from __future__ import annotations

import json

import pytest

from games.base import Action
from games.errors import GameError, GameFinished, MalformedAction, NotYourTurn
from games.rng import Rng
from games.war import GAME, WarAction, compare
from games.war.actions import ATTACK, DRAW, RECOVER, card_id
from games.war.ai import choose
from tests.test_war_rules import FIELD_EMPTY, attack, field, pos, recover, refused, texts
from tests.words import words

# ------------------------------------------------------------------ the forced pass


def test_a_seat_with_no_legal_action_passes_automatically() -> None:
    # Seat 0 trades its last field card with seat 2's: both keep decks, so both stay in.
    # Seat 1 then has one untapped card, no deck, and nothing to attack: it passes.
    state = pos([["7H"], ["9S"], ["7C"]], [["2D"], [], ["3D"]])
    events = state.apply(0, attack("7H", "7C"))
    assert [e.kind for e in events] == ["attack", "pass"]
    assert events[1].seat == 1
    assert words(events[1]) == (
        "{p1} has no legal move (every card of theirs is untapped, no opponent has a field card to attack, "
        "and their deck is empty), so the turn passes."
    )
    assert state.to_act() == [2]
    assert state.legal_actions(1) == []
    assert state.view(1)["your_turn"] is False
    state.apply(2, DRAW)
    assert state.to_act() == [0]  # seat 1 can attack 3♦ now, but seat 0 comes first
    state.apply(0, DRAW)
    assert state.to_act() == [1] and state.legal_actions(1) == [attack("9S", "2D"), attack("9S", "3D")]


def test_a_full_field_with_nothing_to_attack_passes_too() -> None:
    state = pos([["7H"], ["9S", "2S", "3S", "4S", "5S"], ["7C"]], [["2D"], ["6S"], ["3D"]])
    events = state.apply(0, attack("7H", "7C"))
    assert "and their field is full), so the turn passes." in words(events[1])


def test_a_hand_set_position_whose_seat_to_act_is_stuck_passes_at_once() -> None:
    state = pos([[], ["9S"], []], [["2D"], [], ["3D"]], turn=1)
    assert state.to_act() == [2]
    assert [e.kind for e in state.opening_events()] == ["pass"]


def test_field_empty_rule_never_needs_a_pass() -> None:
    # Under field-empty every seat still in has field cards, so a seat with untapped cards can attack.
    for seed in range(40):
        state = GAME.new_game(3, FIELD_EMPTY, seed)
        rng = Rng(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            events = state.apply(seat, legal[rng.below(len(legal))])
            assert all(e.kind != "pass" for e in events)


# ------------------------------------------------------------------ refusals and the end


def test_malformed_moves_are_refused_without_change() -> None:
    state = pos([["9S", "2C"], ["JH", "4D"]], [["5C"], ["6C"]])
    assert "Unknown move 'play'" in refused(state, 0, Action("play", ("9S",)), MalformedAction)
    assert "attack takes your card and the target card" in refused(state, 0, Action("attack", ("9S",)), MalformedAction)
    assert "recover takes exactly one card" in refused(state, 0, Action("recover", ()), MalformedAction)
    assert refused(state, 0, Action("draw", ("QS",)), MalformedAction) == "draw takes no arguments"
    assert "'XX' is not a card" in refused(state, 0, Action("attack", ("9S", "XX")), MalformedAction)
    assert "is not a card code" in refused(state, 0, Action("attack", (0, 2)), MalformedAction)
    refused(state, 0, Action("attack", ("JK", "JH")), MalformedAction)
    refused(state, 0, Action("attack", (["9S"], "JH")), MalformedAction)  # type: ignore[arg-type]
    refused(state, 0, "draw", MalformedAction)  # type: ignore[arg-type]


def test_a_joker_is_refused_in_war_words() -> None:
    state = pos([["9S", "2C"], ["JH", "4D"]], [["5C"], ["6C"]])
    for action in (Action("attack", ("JK", "JH")), Action("attack", ("9S", "jk")), Action("recover", ("JK",))):
        message = refused(state, 0, action, MalformedAction)
        assert message == "Q Squared Joe War is played without jokers"


def test_codes_are_case_insensitive() -> None:
    state = pos([["9S", "2C"], ["4D"]], [["5C"], ["6C"]])
    state.apply(0, Action("attack", ("9s", "4d")))
    assert field(state, 1) == []


def test_moves_out_of_turn_are_refused() -> None:
    state = pos([["9S"], ["4D"]], [["5C"], ["6C"]])
    assert state.legal_actions(1) == []
    assert refused(state, 1, attack("4D", "9S"), NotYourTurn) == "It's not your turn"
    refused(state, 2, DRAW, MalformedAction)


def test_a_finished_game_refuses_every_move() -> None:
    state = pos([["KS"], ["9H"]])
    state.apply(0, attack("KS", "9H"))
    for seat in (0, 1):
        assert state.legal_actions(seat) == []
        refused(state, seat, recover("KS"), GameFinished)
        refused(state, seat, DRAW, GameFinished)
    assert state.view(0)["legal"] == [] and state.view(None)["turn"] is None


def test_bad_positions_are_refused() -> None:
    with pytest.raises(GameError, match="twice"):
        pos([["9S"], ["9S"]])
    with pytest.raises(GameError, match="at most 5"):
        pos([["2S", "3S", "4S", "5S", "6S", "7S"], ["9H"]])
    with pytest.raises(GameError, match="Only field cards"):
        pos([["9S"], ["9H"]], [["2C"], []], tapped=["2C"])
    with pytest.raises(GameError, match="at least two"):
        pos([["9S"], []])
    with pytest.raises(GameError, match="can't be the seat to act"):
        pos([["9S"], [], ["9H"]], turn=1)


# ------------------------------------------------------------------ views, actions, snapshots


def test_views_show_every_field_card_and_only_deck_counts() -> None:
    state = pos([["9S", "2C"], ["JH"], ["4D"]], [["5C", "8C"], ["6C"], []], tapped=["2C"], discard=["3H", "AS"])
    state.apply(0, attack("9S", "4D"))
    public = state.view(None)
    assert public == {
        "game": "war", "players": 3, "viewer": None, "loss": "no-cards", "turn": 1, "to_act": [1], "moves": 1,
        "fields": [[{"card": "9S", "tapped": True}, {"card": "2C", "tapped": True}], [{"card": "JH", "tapped": False}], []],
        "deck_counts": [2, 1, 0], "card_counts": [4, 2, 0], "discard_count": 3, "discard_top": ["4D", "AS", "3H"],
        "status": ["playing", "playing", "out"], "out_order": [[2]],
        "last_attack": {"seat": 0, "attacker": "9S", "target_seat": 2, "target": "4D", "compare": 1,
                        "discarded": ["target"], "move": 1},
        "over": False, "outcome": None,
    }
    seat1 = state.view(1)
    assert seat1 == {**public, "viewer": 1, "hand": [], "your_turn": True,
                     "legal": ["attack:JH,9S", "attack:JH,2C", "draw"]}
    assert state.view(0)["legal"] == [] and state.view(0)["hand"] == []
    shown = json.dumps([state.view(s) for s in (None, 0, 1, 2)])
    for hidden in ("5C", "8C", "6C"):
        assert f'"{hidden}"' not in shown
    assert sorted(c.code for c in state.hidden_cards(0)) == ["5C", "6C", "8C"]
    assert state.hidden_cards(None) == state.hidden_cards(1)
    with pytest.raises(MalformedAction):
        state.view(3)


def test_discard_top_lists_the_latest_five_newest_first() -> None:
    state = pos([["KS"], ["QS"]], [["2S"], ["3S"]], discard=["2H", "3H", "4H", "5H", "6H", "7H"])
    assert state.view(None)["discard_top"] == ["7H", "6H", "5H", "4H", "3H"]


def test_action_encoding_is_short_stable_and_reads_well() -> None:
    a = WarAction("attack", ("10S", "10H"))
    assert a.code() == "attack:10S,10H" and len(a.code()) == 14
    assert WarAction.from_code("attack:10S,10H") == a == ATTACK[card_id("10S")][card_id("10H")]
    assert WarAction.from_code("recover:9S") == RECOVER[card_id("9S")]
    assert WarAction.from_code("draw") == DRAW
    assert str(a) == "attack 10♥ with 10♠"
    assert str(RECOVER[card_id("9S")]) == "recover 9♠" and str(DRAW) == "draw"
    assert GAME.action_from_json(a.to_json()) == a
    assert max(len(x.code()) for row in ATTACK for x in row) == 14


def test_snapshots_round_trip_mid_game() -> None:
    state = pos([["9S", "2C"], ["JH", "4D"]], [["5C"], ["6C"]], tapped=["2C"], discard=["3H"])
    state.apply(0, attack("9S", "4D"))
    data = json.loads(json.dumps(state.to_json()))
    copy = GAME.from_json(data)
    assert copy.to_json() == state.to_json()
    assert copy.view(1) == state.view(1)
    assert texts(copy.apply(1, attack("JH", "9S"))) == texts(state.apply(1, attack("JH", "9S")))
    with pytest.raises(MalformedAction):
        GAME.from_json({**data, "game": "q2j"})
    with pytest.raises(MalformedAction):
        GAME.from_json({k: v for k, v in data.items() if k != "fields"})


def test_replay_from_seed_and_log() -> None:
    state = GAME.new_game(3, {}, 11)
    rng, log = Rng(5), []
    while not state.is_over():
        seat = state.to_act()[0]
        action = choose(state, seat, rng)
        log.append((seat, action))
        state.apply(seat, action)
    assert GAME.replay(3, {}, 11, log).to_json() == state.to_json()


# ------------------------------------------------------------------ termination


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", [{}, FIELD_EMPTY])
def test_every_game_ends_within_the_proven_bound(players: int, options: dict) -> None:
    """At most 52 attacks, one recover per winning attack, and 52 - 5 × players draws."""
    bound = 52 + 52 + (52 - 5 * players)
    for seed in range(60):
        state = GAME.new_game(players, options, seed)
        rng = Rng(seed)
        ai_seats = {seed % players} if seed % 3 else set(range(players))
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            action = choose(state, seat, rng) if seat in ai_seats else legal[rng.below(len(legal))]
            assert action in legal
            state.apply(seat, action)
            assert state.moves <= bound
        assert state.outcome() is not None


def test_recovering_cannot_loop_it_needs_a_tapped_card() -> None:
    # Both sides only recover and draw whenever they can: the game still ends, by attacks.
    state = GAME.new_game(2, {}, 3)
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        calm = [a for a in legal if a.kind != "attack"]
        state.apply(seat, (calm or legal)[0])
    assert state.moves <= 52 + 52 + 42


# ------------------------------------------------------------------ the AI


def test_ai_prefers_a_winning_attack_on_the_biggest_threat() -> None:
    # 9♥ beats both of seat 0's cards and is untapped; 8♦ is tapped and beats only 2♣.
    state = pos([["KS", "2C"], ["9H", "8D", "QS"]], [["3C"], ["3D"]], tapped=["8D"])
    assert choose(state, 0, Rng(0)) == attack("KS", "9H")


def test_ai_recovers_a_useful_tapped_card_rather_than_losing_one() -> None:
    # The untapped clubs lose to both targets; the tapped A♥ beats both (an ace beats face cards).
    state = pos([["AH", "2C", "3C", "4C", "5C"], ["QS", "KD"]], [["6C"], ["3D"]], tapped=["AH"])
    assert all(compare(c, t) < 0 for c in ("2C", "3C", "4C", "5C") for t in ("QS", "KD"))
    assert choose(state, 0, Rng(0)) == recover("AH")


def test_ai_draws_to_survive_under_field_empty() -> None:
    # Seat 0's only card can be taken by J♥ next turn; it has no winning attack: it draws.
    state = pos([["9S"], ["JH", "QH"]], [["2C"], ["3D"]], options=FIELD_EMPTY)
    assert choose(state, 0, Rng(0)) == DRAW
