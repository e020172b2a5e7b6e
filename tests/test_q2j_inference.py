"""What the Q2J hard AI infers from the table: the public move history and shown cards
(games/q2j/history.py) and the notes drawn from them (games/q2j/inference.py)."""

from __future__ import annotations

import pytest

from games.ai import choose_action, normal_action
from games.cards import CODE
from games.determinize import determinized_snapshot
from games.q2j import GAME, Q2JState
from games.q2j import search as q2j_search
from games.q2j.history import DRAW_MOVE, NO_DUTY, OWED, move_text, unpack
from games.q2j.inference import JACK_MASK, PLAYABLE_MASK, notes
from games.rng import Rng

STOCK = ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"]
ID = {code: c for c, code in enumerate(CODE)}


def _unknown(state: Q2JState, seat: int) -> list[int]:
    """The cards of a hand the table does not know."""
    return [c for c in state.hands[seat] if not state.known or c not in state.known[seat]]


def _fits(cards: list[int], held: list[int]) -> bool:
    """Whether the cards can be matched one to one with notes that allow them."""
    matched: dict[int, int] = {}

    def place(card: int, tried: set[int]) -> bool:
        for i, note in enumerate(held):
            if note >> card & 1 or i in tried:
                continue
            tried.add(i)
            if i not in matched or place(matched[i], tried):
                matched[i] = card
                return True
        return False

    return len(cards) == len(held) and all(place(c, set()) for c in cards)


def _normal_game(players: int, options: dict, seed: int):
    """Every position of a game ``normal`` plays against itself."""
    state = GAME.new_game(players, options, seed)
    rng = Rng(seed)
    while state.to_act():
        yield state
        seat = state.to_act()[0]
        state.apply(seat, normal_action(state, seat, rng))
    yield state


@pytest.mark.parametrize("options", [{}, {"variant": "classic"}, {"variant": "countdown"},
                                     {"variant": "challenge"}, {"match": "elimination"}],
                         ids=["standard", "classic", "countdown", "challenge", "elimination"])
def test_the_notes_never_rule_out_a_card_a_normal_player_really_holds(options: dict) -> None:
    """Against players who play as ``normal`` does, what the notes rule out is true:
    the real hand always fits them, and they do rule things out."""
    ruled_out = 0
    for seed in range(12):
        players = 2 if options.get("variant") == "challenge" else 2 + seed % 3
        for state in _normal_game(players, options, seed):
            held = notes(state.to_json())
            for seat in range(players):
                assert _fits(_unknown(state, seat), held[seat]), (seed, seat, state.history)
                ruled_out += sum(note.bit_count() for note in held[seat])
    assert ruled_out > 0


def test_a_draw_rules_out_every_card_that_could_have_been_played() -> None:
    state = Q2JState.from_position([["KC", "2H"], ["4C", "5S"]], "9C", STOCK)
    state.apply(0, choose_action(state, 0, Rng(0)))  # nothing beats 9C: draw
    move = unpack(state.history[-1])
    assert (move.seat, move.move, move.top, move.duty) == (0, DRAW_MOVE, ID["9C"], NO_DUTY)
    *old, drawn = sorted(notes(state.to_json())[0], key=int.bit_count, reverse=True)
    assert old == [PLAYABLE_MASK[ID["9C"]]] * 2 and drawn == 0
    assert state.view(1)["history"] == ["0 draw on 9C"]


def test_a_draw_under_the_duty_rules_out_jacks() -> None:
    state = Q2JState.from_position([["3C", "KH"], ["4C", "QH", "QS"]], "9C", STOCK, turn=1)
    state.apply(1, choose_action(state, 1, Rng(0)))  # Q²: seat 0 owes a jack
    state.apply(0, choose_action(state, 0, Rng(0)))  # no jack: draw
    assert unpack(state.history[-1]).duty == OWED
    assert state.view(None)["history"] == ["1 qq:QS,QH on 9C", "0 draw under Q² (owed a jack)"]
    held = notes(state.to_json())[0]
    assert sorted(note & JACK_MASK for note in held) == [0, JACK_MASK, JACK_MASK]


def test_cards_shown_at_the_deal_stay_known_until_played_and_a_new_deal_starts_afresh() -> None:
    state = GAME.new_game(3, {"match": "elimination"}, 4)
    assert all(state.known) and state.view(None)["known"] == [[CODE[c] for c in cards] for cards in state.known]
    for seat, cards in enumerate(state.known):
        assert set(cards) <= set(state.hands[seat])
        hidden = {card.code for card in state.hidden_cards((seat + 1) % 3)}
        assert not hidden & {CODE[c] for c in cards}
        assert len(notes(state.to_json())[seat]) == len(state.hands[seat]) - len(cards)
    game_number = state.game_number
    rng = Rng(1)
    played_known = False
    while state.game_number == game_number:
        seat = state.to_act()[0]
        before = list(state.known[seat])
        state.apply(seat, normal_action(state, seat, rng))
        if state.game_number == game_number and state.known[seat] != before:
            played_known = True
            gone = CODE[next(c for c in before if c not in state.known[seat])]
            last = state.view(None)["history"][-1]
            assert gone in last and "known" in last and any(unpack(state.history[-1]).known)
    assert played_known
    assert state.history == [] and state.view(None)["history"] == []
    assert all(set(cards) <= set(state.hands[s]) for s, cards in enumerate(state.known))


def test_guesses_keep_ruled_out_cards_out_of_a_hand() -> None:
    """The hard search's guesses respect the notes: a seat that drew on 9C is never
    dealt, in a guess, two cards that could have been played on it."""
    state = Q2JState.from_position([["KC", "2H", "10H"], ["4C", "5S"]], "9C", STOCK + ["AC", "10C", "2C", "3S"],
                                   turn=1)
    state.apply(1, choose_action(state, 1, Rng(0)))  # 4C beats 9C (same suit, lower)
    state.apply(0, choose_action(state, 0, Rng(0)))  # nothing beats 4C: draw
    rng = Rng(3)
    for _ in range(50):
        guess = determinized_snapshot(state, 1, rng, q2j_search.SEARCH)
        playable = [code for code in guess["hands"][0] if PLAYABLE_MASK[ID["4C"]] >> ID[code] & 1]
        assert len(playable) <= 1  # at most the card just drawn


def test_hard_plays_from_the_view_alone_with_inference() -> None:
    """Two positions with the same view (same history and known cards, other hidden
    cards) give the same hard choice for a fixed seed."""
    state = GAME.new_game(2, {}, 11)
    rng = Rng(2)
    for _ in range(4):
        seat = state.to_act()[0]
        state.apply(seat, normal_action(state, seat, rng))
    seat = state.to_act()[0]
    snap = state.to_json()
    twin = Q2JState.from_json(determinized_snapshot(state, seat, Rng(5), q2j_search.SEARCH))
    assert twin.view(seat) == state.view(seat) and twin.to_json() != snap
    for seed in range(3):
        assert choose_action(state, seat, Rng(seed), "hard", budget=400) == \
            choose_action(twin, seat, Rng(seed), "hard", budget=400)


def test_the_views_history_stays_exact_through_new_deals():
    """Views keep the history's words between moves; over a random elimination match
    (several deals) every view's history equals the record worded afresh."""
    state = GAME.new_game(3, {"match": "elimination"}, seed=11)
    rng = Rng(5)
    deals = 0
    while state.to_act():
        seat = state.to_act()[0]
        before = len(state.history)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        deals += len(state.history) < before
        for viewer in (None, *range(3)):
            assert state.view(viewer)["history"] == [move_text(entry) for entry in state.history]
    assert deals >= 1
