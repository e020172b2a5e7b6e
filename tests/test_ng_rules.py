"""Q Squared Joe NG: every ruling of RULINGS.md §4 (and the gaps decided in games/ng) as an
exact case, mostly on hand-built positions (``NGState.from_position``)."""

from __future__ import annotations

from collections import Counter

import pytest

import games
from games.base import Action
from games.cards import CODE, deal
from games.errors import GameError, IllegalAction, MalformedAction
from games.ng import GAME, NGState
from games.q2j import compare
from games.rng import Rng
from tests.contract import codes_in
from tests.words import words

DRAW = Action("draw")


def pick(card: str) -> Action:
    return Action("pick", (card,))


def defend(card: str, seat: int, slot: int) -> Action:
    return Action("defend", (card, seat, slot))


def sacrifice(slot: int) -> Action:
    return Action("sacrifice", (slot,))


def attack(card: str, where: str, seat: int, index: int | None = None) -> Action:
    return Action("attack", (card, where, seat) if index is None else (card, where, seat, index))


def public(events: list) -> list[str]:
    return [words(e) for e in events if e.private_to is None]


def refused(state: NGState, seat: int, action: Action, error: type = IllegalAction, match: str | None = None) -> str:
    """Apply ``action`` expecting ``error`` (message matching ``match``); nothing may change."""
    before = state.to_json()
    with pytest.raises(error, match=match) as info:
        state.apply(seat, action)
    assert state.to_json() == before
    return str(info.value)


def two_player(**kw) -> NGState:
    """Seat 0 to act. Seat 0: hand 7H AS 4C, field [~9S] [~3D QH], resource 2S 8D.
    Seat 1: hand KS 2D 7C, field [~JC] [~5C 8H] [~6D], resource 10C 3S. Deck: 6H on top of 6S."""
    args = dict(
        hands=[["7H", "AS", "4C"], ["KS", "2D", "7C"]],
        fields=[[["~9S"], ["~3D", "QH"]], [["~JC"], ["~5C", "8H"], ["~6D"]]],
        resources=[["2S", "8D"], ["10C", "3S"]],
        deck=["6S", "6H"],
    )
    args.update(kw)
    return NGState.from_position(**args)


def with_hand(state: NGState, seat: int, *cards: str) -> NGState:
    """The same position with ``cards`` added to ``seat``'s hand (they must be unused)."""
    used = {c.code for zone in state.zones().values() for c in zone}
    assert not used & set(cards), "with_hand needs unused cards"
    data = state.to_json()
    data["hands"][seat] += list(cards)
    return GAME.from_json(data)


# ------------------------------------------------------------------ registration and deal


def test_registration_and_options() -> None:
    game = games.get_game("ng")
    assert game is GAME
    assert (game.id, game.name, game.allowed_player_counts()) == ("ng", "Q Squared Joe NG", (2, 3, 4))
    assert game.normalize_options(None) == {"faceup": False}
    assert game.new_game(2, {"faceup": True}, 0).faceup
    for bad in ("yes", 1, None):
        with pytest.raises(GameError, match="faceup"):
            game.new_game(2, {"faceup": bad}, 0)
    for players in (1, 5):
        with pytest.raises(GameError, match="2–4 players"):
            game.new_game(players, {}, 0)


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 5), (4, 11)])
def test_deal_5_hand_5_face_down_stacks_1_resource_rest_is_the_deck(players: int, seed: int) -> None:
    rng = Rng(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = deal(deck, players, 5)
    field_cards = deal(deck, players, 5)
    resources = deal(deck, players, 1)
    first = rng.below(players)

    state = GAME.new_game(players, {}, seed)
    view = state.view(None)
    assert view["deck_count"] == 52 - 11 * players == len(deck)
    assert view["hand_counts"] == [5] * players
    assert view["fields"] == [[[None]] * 5] * players
    assert view["face_down"] == [[True] * 5] * players
    assert view["field_counts"] == [5] * players
    assert view["resources"] == [[CODE[r[0]]] for r in resources]
    assert view["discard_count"] == 0 and view["discard_top"] is None
    assert view["turn"] == first and view["to_act"] == [first]
    assert view["status"] == ["playing"] * players and view["turns_since_discard"] == 0
    for seat in range(players):
        assert state.view(seat)["hand"] == [CODE[c] for c in sorted(hands[seat])]  # own hand, sorted (S H D C, A..K)
        assert [st for st in state.fields[seat]] == [[c] for c in field_cards[seat]]
    assert state.deck == deck
    texts = [words(e) for e in state.opening_events()]
    assert f"{{p{first}}} starts (drawn by lot)." in texts
    assert any(f"The deck holds {len(deck)} cards" in t for t in texts)
    # Seeded: the same seed deals the same game.
    assert GAME.new_game(players, {}, seed).to_json() == state.to_json()


def test_first_player_is_seeded_and_varies() -> None:
    firsts = {GAME.new_game(3, {}, seed).turn for seed in range(40)}
    assert firsts == {0, 1, 2}


# ------------------------------------------------------------------ draw and pick


def test_draw_takes_the_deck_top_with_a_private_event() -> None:
    state = two_player()
    events = state.apply(0, DRAW)
    assert "6H" in state.view(0)["hand"] and state.view(None)["deck_count"] == 1
    assert public(events) == ["{p0} drew a card."]
    private = [e for e in events if e.private_to is not None]
    assert [(e.private_to, words(e)) for e in private] == [(0, "You drew 6♥.")]
    assert state.turn == 1 and state.stall == 1


def test_draw_refused_when_the_deck_is_empty() -> None:
    state = two_player(deck=[])
    assert DRAW not in state.legal_actions(0)
    refused(state, 0, DRAW, IllegalAction, "deck is empty")


def test_pick_any_card_of_own_resource_pile_not_only_the_top() -> None:
    state = two_player()
    events = state.apply(0, pick("2S"))  # the bottom card of 2S 8D
    assert state.view(0)["resources"][0] == ["8D"]
    assert "2S" in state.view(0)["hand"]
    assert public(events) == ["{p0} picked 2♠ from their resource pile into their hand."]
    state = two_player()
    assert pick("3S") not in state.legal_actions(0)
    assert "3♠ is not in your resource pile (it holds 2♠ 8♦)" in refused(state, 0, pick("3S"))


# ------------------------------------------------------------------ defend


def test_defend_own_face_down_stack_keeps_the_card_below_hidden() -> None:
    state = two_player()
    events = state.apply(0, defend("7H", 0, 0))
    assert state.view(None)["fields"][0][0] == [None, "7H"]
    assert state.view(0)["fields"][0][0] == [None, "7H"]  # the owner doesn't see it either
    assert state.view(None)["face_down"][0][0] is True
    assert public(events) == ["{p0} defended their own stack 1 with 7♥, on a face-down card."]
    assert state.view(None)["field_counts"] == [4, 4]


def test_defend_an_opponents_stack() -> None:
    state = two_player()
    events = state.apply(0, defend("4C", 1, 1))
    assert state.view(None)["fields"][1][1] == [None, "8H", "4C"]
    assert public(events) == ["{p0} defended {p1}'s stack 2 with 4♣, on 8♥."]
    assert "4C" not in state.view(0)["hand"]


def test_defend_refusals() -> None:
    state = two_player()
    assert "You don't hold Q♠" in refused(state, 0, defend("QS", 0, 0))
    assert "Seat 2's stack 4 is gone" in refused(state, 0, defend("7H", 1, 3))
    refused(state, 0, defend("7H", 2, 0), MalformedAction, "no seat 3")
    refused(state, 0, defend("7H", 1, 5), MalformedAction, "numbered 1 to 5")
    refused(state, 0, Action("defend", ("7H", "1", 0)), MalformedAction, "whole number")
    refused(state, 0, Action("defend", ("7H", 1)), MalformedAction, "defend takes 3 arguments")


# ------------------------------------------------------------------ sacrifice


def test_sacrifice_takes_only_the_top_card() -> None:
    state = two_player()
    events = state.apply(0, sacrifice(1))  # [~3D QH]: QH comes back, 3D stays hidden
    assert state.view(None)["fields"][0][1] == [None]
    assert "QH" in state.view(0)["hand"]
    assert public(events) == ["{p0} sacrificed Q♥ from their stack 2 into their hand."]


def test_sacrifice_emptying_a_stack_the_stack_is_gone() -> None:
    state = two_player()
    events = state.apply(0, sacrifice(0))  # [~9S]: a face-down card, told only to its owner
    assert state.view(None)["fields"][0] == [[], [None, "QH"], [], [], []]
    assert state.view(None)["face_down"][0][0] is False
    assert public(events) == ["{p0} took the face-down card of their stack 1 into their hand. Their stack 1 is gone."]
    assert [(e.private_to, words(e)) for e in events if e.private_to is not None] == [(0, "It was 9♠.")]
    assert "9S" in state.view(0)["hand"]
    assert "9S" not in codes_in(state.view(1)) and "9S" not in codes_in(state.view(None))
    # A gone stack can't be used any more, by anyone.
    state.apply(1, DRAW)
    assert sacrifice(0) not in state.legal_actions(0)
    assert all(a.args[1:] != (0, 0) for a in state.legal_actions(0) if a.kind == "defend")
    assert "Your stack 1 is gone" in refused(state, 0, sacrifice(0))
    assert "Your stack 1 is gone" in refused(state, 0, attack("7H", "stack", 0, 0))
    assert "Your stack 1 is gone" in refused(state, 0, defend("7H", 0, 0))


def test_sacrificing_the_last_field_card_eliminates_on_your_own_turn() -> None:
    state = two_player(fields=[[["~9S"]], [["~JC"], ["~6D"]]])
    events = state.apply(0, sacrifice(0))
    assert state.is_over() and state.outcome().winners == (1,)
    assert state.view(None)["status"] == ["out", "won"]
    assert state.hands[0] == [] and state.resources[0] == []
    # The sacrificed card went into the hand, and the hand then to the discard pile.
    assert Counter(CODE[c] for c in state.discard) == Counter(["7H", "AS", "4C", "9S", "2S", "8D"])
    assert state.view(None)["discard_top"] == "8D"  # hand (sorted) first, then the resource pile
    assert public(events)[1:] == [
        "{p0}'s field is empty: {p0} is eliminated. Their hand (A♠ 9♠ 7♥ 4♣) and their resource pile "
        "(2♠ 8♦) are discarded.",
        "{p1} is the last player standing and wins!",
    ]
    assert words(state.outcome().reason) == "{p1} is the last player standing."
    assert state.outcome().ranking == ((1,), (0,))


# ------------------------------------------------------------------ attacks on stacks


def test_attack_turns_a_face_down_card_up_and_it_stays_face_up() -> None:
    state = with_hand(two_player(), 0, "10D")
    # 10♦ vs J♣: different suits, the higher rank (J) is stronger → 10♦ loses.
    assert compare("10D", "JC") == -1
    events = state.apply(0, attack("10D", "stack", 1, 0))
    assert state.view(None)["fields"][1][0] == ["JC"]
    assert state.view(None)["face_down"][1][0] is False
    assert state.view(None)["discard_top"] == "10D"
    assert public(events) == [
        "{p0} attacked {p1}'s stack 1 with 10♦, turning up the face-down card: J♣. 10♦ loses to J♣ "
        "(different suits, higher is stronger): 10♦ is discarded and J♣ stays face up."
    ]
    # It stays face up: the next attack sees it, and the owner can't hide it again.
    state.apply(1, DRAW)
    assert state.view(1)["fields"][1][0] == ["JC"]


def test_attack_face_down_card_all_three_outcomes() -> None:
    # Seat 1's stack 3 holds the face-down 6♦.
    cases = {
        "5D": ("stronger", ["5D"], ["6D"]),  # same suit: the lower card is stronger
        "9D": ("weaker", [], ["9D"]),  # same suit, higher: weaker
        "6C": ("equal", [], ["6C", "6D"]),
    }
    for card, (what, resource_gain, discarded) in cases.items():
        state = with_hand(two_player(), 0, card)
        expected = {"stronger": 1, "weaker": -1, "equal": 0}[what]
        assert compare(card, "6D") == expected
        events = state.apply(0, attack(card, "stack", 1, 2))
        view = state.view(None)
        assert view["resources"][0] == ["2S", "8D", *resource_gain]
        assert [CODE[c] for c in state.discard] == discarded
        if what == "weaker":
            assert view["fields"][1][2] == ["6D"] and view["face_down"][1][2] is False
            assert words(events[0]).endswith("9♦ is discarded and 6♦ stays face up.")
        else:
            assert view["fields"][1][2] == [] and view["face_down"][1][2] is False
            assert words(events[0]).endswith("{p1}'s stack 3 is gone.")
        if what == "stronger":
            assert "6♦ is discarded and 5♦ goes to {p0}'s resource pile" in words(events[0])
        if what == "equal":
            assert "6♣ and 6♦ are equal (same rank, equal strength): both are discarded." in words(events[0])
        assert state.stall == 0 and not state.is_over() and state.turn == 1
        assert card not in state.view(0)["hand"]


def test_attack_face_up_top_three_outcomes_and_the_face_down_card_below_stays_hidden() -> None:
    # Seat 1's stack 2 is [~5C 8H].
    for card, expected in (("3H", 1), ("9H", -1), ("8S", 0)):
        assert compare(card, "8H") == expected
        state = with_hand(two_player(), 0, card)
        events = state.apply(0, attack(card, "stack", 1, 1))
        view = state.view(None)
        if expected >= 0:
            assert view["fields"][1][1] == [None]  # 5♣ is the top again, still face down
            assert view["face_down"][1][1] is True
            assert "5C" not in codes_in(view) and "5C" not in codes_in(state.view(0))
        else:
            assert view["fields"][1][1] == [None, "8H"]
        assert view["resources"][0][-1] == ("3H" if expected > 0 else "8D")
        assert "turning up" not in words(events[0])
        assert words(events[0]).startswith("{p0} attacked {p1}'s stack 2 (8♥) with ")


def test_attack_own_stack_is_allowed_and_can_eliminate_yourself() -> None:
    state = two_player(hands=[["2S"], ["KS"]], resources=[[], []], fields=[[["~9S"]], [["~JC"]]])
    # 2♠ vs 9♠: same suit, the lower card is stronger.
    events = state.apply(0, attack("2S", "stack", 0, 0))
    assert state.is_over() and state.winners == [1]
    assert public(events)[0].startswith("{p0} attacked their own stack 1 with 2♠, turning up the face-down card: 9♠.")
    assert "Their stack 1 is gone." in public(events)[0]
    # The winning attacker went to the resource pile, then was discarded with it.
    assert Counter(CODE[c] for c in state.discard) == Counter(["9S", "2S"])


# ------------------------------------------------------------------ attacks on hands


def test_attack_hand_by_position_three_outcomes() -> None:
    # Seat 1's hand in position order: KS 2D 7C; position 2 (index 1) is 2♦.
    for card, expected in (("AD", 1), ("5D", -1), ("2H", 0)):
        assert compare(card, "2D") == expected
        state = with_hand(two_player(), 0, card)
        events = state.apply(0, attack(card, "hand", 1, 1))
        text = public(events)[0]
        pretty = {"AD": "A♦", "5D": "5♦", "2H": "2♥"}[card]
        assert text.startswith(f"{{p0}} attacked {{p1}}'s hand (card 2 of 3) with {pretty}: it is 2♦. ")
        hand1 = sorted(CODE[c] for c in state.hands[1])
        if expected > 0:
            assert hand1 == ["7C", "KS"]
            assert state.view(None)["resources"][0] == ["2S", "8D", "AD"]
            assert [CODE[c] for c in state.discard] == ["2D"]
        elif expected < 0:
            assert hand1 == ["2D", "7C", "KS"] and [CODE[c] for c in state.discard] == ["5D"]
            assert "5♦ is discarded and 2♦ stays." in text
        else:
            assert hand1 == ["7C", "KS"] and [CODE[c] for c in state.discard] == ["2H", "2D"]


def test_attack_hand_refusals() -> None:
    state = two_player()
    assert "can't attack your own hand" in refused(state, 0, attack("7H", "hand", 0, 0))
    assert "holds 3 cards: choose a position from 1 to 3, not 4" in refused(state, 0, attack("7H", "hand", 1, 3))
    refused(state, 0, attack("7H", "hand", 1, -1), IllegalAction, "from 1 to 3")
    empty = two_player(hands=[["7H"], []])
    assert "Seat 2's hand is empty" in refused(empty, 0, attack("7H", "hand", 1, 0))


def test_hand_positions_say_nothing_about_the_cards() -> None:
    # A card everyone saw going into the hand (picked from the resource pile) lands at a
    # seeded random position: over many seeds every position occurs.
    where = Counter()
    for seed in range(200):
        state = two_player(seed=seed)
        state.apply(0, pick("8D"))
        where[[CODE[c] for c in state.hands[0]].index("8D")] += 1
    assert set(where) == {0, 1, 2, 3} and min(where.values()) > 25
    # A card revealed by a failed hand attack stays, but its hand is reshuffled.
    where.clear()
    for seed in range(200):
        state = with_hand(two_player(seed=seed), 0, "5D")
        state.apply(0, attack("5D", "hand", 1, 1))
        where[[CODE[c] for c in state.hands[1]].index("2D")] += 1
    assert set(where) == {0, 1, 2} and min(where.values()) > 30
    # Views never tell positions: a seat sees its own hand sorted, others only counts.
    state = two_player(hands=[["7H", "AS", "4C"], ["7C", "2D", "KS"]])
    assert state.view(1)["hand"] == ["KS", "2D", "7C"]
    assert state.view(0)["hands"] is None and state.view(0)["hand_counts"] == [3, 3]


def test_faceup_hands_are_sorted_and_shown_in_position_order() -> None:
    state = two_player(faceup=True)
    assert state.view(None)["hands"] == [["AS", "7H", "4C"], ["KS", "2D", "7C"]]  # suit-major: S H D C
    state.apply(0, pick("8D"))
    assert state.view(None)["hands"][0] == ["AS", "7H", "8D", "4C"]
    state.apply(1, DRAW)
    assert state.view(None)["hands"][1] == ["KS", "6H", "2D", "7C"]


# ------------------------------------------------------------------ attacks on resource piles


def test_attack_resource_pile_top_three_outcomes() -> None:
    # Seat 1's resource pile is 10C 3S: the top is 3♠.
    for card, expected in (("4D", 1), ("4S", -1), ("3H", 0)):
        assert compare(card, "3S") == expected
        state = with_hand(two_player(), 0, card)
        events = state.apply(0, attack(card, "resource", 1))
        view = state.view(None)
        if expected > 0:
            assert view["resources"] == [["2S", "8D", card], ["10C"]]
            assert [CODE[c] for c in state.discard] == ["3S"]
        elif expected < 0:
            assert view["resources"] == [["2S", "8D"], ["10C", "3S"]]
            assert [CODE[c] for c in state.discard] == [card]
        else:
            assert view["resources"] == [["2S", "8D"], ["10C"]]
            assert [CODE[c] for c in state.discard] == [card, "3S"]
        assert public(events)[0].startswith("{p0} attacked {p1}'s resource pile (3♠) with ")


def test_attack_own_resource_pile_and_empty_piles() -> None:
    state = with_hand(two_player(), 0, "5D")
    state.apply(0, attack("5D", "resource", 0))  # 5♦ vs 8♦: same suit, lower is stronger
    assert state.view(None)["resources"][0] == ["2S", "5D"]
    empty = two_player(resources=[["2S"], []])
    assert "Seat 2's resource pile is empty" in refused(empty, 0, attack("7H", "resource", 1))
    empty = two_player(resources=[[], ["3S"]])
    assert "Your resource pile is empty" in refused(empty, 0, attack("7H", "resource", 0))
