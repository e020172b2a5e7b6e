"""The Q2J hard AI's check of whole guessed hands (games/q2j/replay.py): a guess is
kept only if the seat, playing as ``normal``, could have made every move the table saw."""

from __future__ import annotations

import pytest

from games.ai import choose_action, normal_action
from games.cards import CODE
from games.determinize import determinized_snapshot
from games.q2j import GAME, Q2JState
from games.q2j import replay
from games.q2j import search as q2j_search
from games.rng import Rng

STOCK = ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"]


def _guess(state: Q2JState, seat: int, codes: list[str]) -> dict:
    """The state's snapshot with ``seat``'s hand replaced by ``codes``."""
    snap = state.to_json()
    snap["hands"][seat] = list(codes)
    return snap


@pytest.mark.parametrize("options", [{}, {"variant": "classic"}, {"variant": "countdown"},
                                     {"variant": "challenge"}, {"match": "elimination"}],
                         ids=["standard", "classic", "countdown", "challenge", "elimination"])
def test_a_normal_players_real_hand_is_always_plausible(options: dict) -> None:
    """Over games ``normal`` plays against itself, the real hands explain the history
    (reshuffles, penalties, countdown hands and new deals included), and random
    guesses often do not."""
    rejected = 0
    for seed in range(10):
        players = 2 if options.get("variant") == "challenge" else 2 + seed % 3
        state = GAME.new_game(players, options, seed)
        rng = Rng(seed)
        while state.to_act():
            seat = state.to_act()[0]
            snap = state.to_json()
            assert all(replay.plausible_hand(snap, s) for s in range(players)), (seed, state.history)
            rejected += not q2j_search.plausible(_shuffled(state, seat, rng), seat)
            state.apply(seat, normal_action(state, seat, rng))
    assert rejected > 0


def _shuffled(state: Q2JState, seat: int, rng: Rng) -> dict:
    """A uniformly random guess of what ``seat`` cannot see, not yet judged."""
    snap = state.to_json()
    slots = q2j_search.hidden_slots(snap, seat)
    cards = [container[key] for container, key in slots]
    rng.shuffle(cards)
    for (container, key), code in zip(slots, cards):
        container[key] = code
    return snap


def test_a_seat_that_drew_instead_of_playing_q2_held_at_most_one_queen_then() -> None:
    """Seat 1 had nothing to play on KC and drew: after that draw, a hand with three
    queens is impossible (two were there before and ``normal`` plays Q²), two queens
    are possible (one may be the card drawn), and so is the real hand."""
    hands = [["KD", "2H", "10H", "JS", "4H"], ["5H", "6H", "7H", "2S", "3S"]]
    state = Q2JState.from_position(hands, "KC", STOCK, turn=1)
    state.apply(1, choose_action(state, 1, Rng(0)))
    assert sorted(CODE[c] for c in state.hands[1]) == sorted(["5H", "6H", "7H", "2S", "3S", "9D"])
    assert replay.plausible_hand(state.to_json(), 1)
    assert replay.plausible_hand(_guess(state, 1, ["QH", "QS", "7H", "2S", "3S", "9D"]), 1)
    assert not replay.plausible_hand(_guess(state, 1, ["QH", "QS", "QD", "2S", "3S", "9D"]), 1)
    # A card that beats KC can only be the one drawn: one is possible, two are not.
    assert replay.plausible_hand(_guess(state, 1, ["2C", "6H", "7H", "2S", "3S", "9D"]), 1)
    assert not replay.plausible_hand(_guess(state, 1, ["2C", "3C", "7H", "2S", "3S", "9D"]), 1)


def test_a_hand_weighs_as_many_ways_as_it_explains_the_history() -> None:
    """After one draw on KC, a hand none of whose cards could be played on KC may have
    drawn any of its six cards (six ways); one holding 2C must have drawn it (one way)."""
    hands = [["KD", "2H", "10H", "JS", "4H"], ["5H", "6H", "7H", "2S", "3S"]]
    state = Q2JState.from_position(hands, "KC", STOCK, turn=1)
    state.apply(1, choose_action(state, 1, Rng(0)))
    assert replay.hand_weight(state.to_json(), 1) == 6
    assert replay.hand_weight(_guess(state, 1, ["2C", "6H", "7H", "2S", "3S", "9D"]), 1) == 1
    assert replay.hand_weight(_guess(state, 1, ["2C", "3C", "7H", "2S", "3S", "9D"]), 1) == 0


def test_normals_choice_among_equally_strong_cards_is_checked() -> None:
    """A play tells the whole hand then: ``normal`` plays the weakest card that beats
    the top, so a hand that held a weaker beater than the card played is impossible,
    even when the notes (one per card) would have to guess which card is which."""
    hands = [["KC", "2H", "10H", "3S", "4S"], ["8C", "5H", "6H", "7H", "AD"]]
    state = Q2JState.from_position(hands, "9C", STOCK, turn=1)
    state.apply(1, choose_action(state, 1, Rng(0)))  # 8C: the only card that beats 9C
    assert replay.plausible_hand(state.to_json(), 1)
    assert not replay.plausible_hand(_guess(state, 1, ["7C", "5H", "6H", "7H"]), 1)


def test_a_history_normal_cannot_explain_judges_nothing_it_cannot_and_hard_still_plays() -> None:
    """A seat that drew with a playable card (a person, say) fits no hand; the guesses
    are then still dealt (the last one is kept) and hard returns a legal move."""
    hands = [["KC", "2H", "10H", "3S", "4S"], ["8C", "5H", "6H", "7H", "AD"]]
    state = Q2JState.from_position(hands, "9C", STOCK, turn=1)
    state.apply(1, ("draw", ()))
    assert not replay.plausible_hand(state.to_json(), 1)
    action = choose_action(state, 0, Rng(1), "hard", budget=300)
    assert action in state.legal_actions(0)


def test_guesses_are_plausible_hands() -> None:
    """The hard search's guesses are checked: over a game, nearly every guess dealt is
    plausible (the few tries that all failed keep their last guess)."""
    state = GAME.new_game(2, {}, 3)
    rng = Rng(4)
    kept = total = 0
    while state.to_act() and len(state.history) < 30:
        seat = state.to_act()[0]
        for _ in range(5):
            guess = determinized_snapshot(state, seat, rng, q2j_search)
            kept += q2j_search.plausible(guess, seat)
            total += 1
        state.apply(seat, normal_action(state, seat, rng))
    assert kept >= 0.95 * total
