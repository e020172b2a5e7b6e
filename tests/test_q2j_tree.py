"""Q2J's own-move tree search (games/q2j/tree.py), which ``hard`` plays through the
``search_action`` hook: the same guesses as the generic determinization, legal moves in
every variant, a reproducible choice, and a choice that depends only on the seat's view."""

from __future__ import annotations

from typing import Any

import pytest

import games
from games.ai import choose_action, normal_action
from games.determinize import determinized_snapshot, game_hooks
from games.q2j import GAME, Q2JState
from games.q2j import search as q2j_search
from games.q2j.tree import Dealer, tree_action
from games.rng import Rng

BUDGET = 300
"""Simulated moves per decision here: a few rounds of the search, quick to run."""

CASES = [(variant, match, players)
         for variant in ("standard", "classic", "faceup", "challenge", "countdown")
         for match in ("single", "elimination")
         for players in ((2,) if variant == "challenge" else (2, 3, 5))]


def _positions(variant: str, match: str, players: int, seed: int) -> list[tuple[Q2JState, int]]:
    """Every position of one normal-vs-normal game where the seat to act has a choice."""
    state = GAME.new_game(players, {"variant": variant, "match": match}, seed)
    rng = Rng(seed)
    found = []
    while not state.is_over():
        seat = state.to_act()[0]
        if len(state.legal_actions(seat)) > 1:
            found.append((Q2JState.from_json(state.to_json()), seat))
        state.apply(seat, normal_action(state, seat, rng))
    return found


@pytest.mark.parametrize("variant,match,players", CASES)
def test_the_dealer_deals_the_determinizations_guesses(variant: str, match: str, players: int) -> None:
    for state, seat in _positions(variant, match, players, 11)[::3]:
        hooks = game_hooks(state)
        dealer = Dealer(state, seat, hooks)
        for s in range(2):
            expected = Q2JState.from_json(determinized_snapshot(state, seat, Rng(s), hooks)).to_json()
            assert dealer.deal(Rng(s)).to_json() == expected


@pytest.mark.parametrize("variant,match,players", CASES)
def test_hard_plays_only_legal_moves_and_leaves_the_game_alone(variant: str, match: str, players: int) -> None:
    for state, seat in _positions(variant, match, players, 5)[:6]:
        before = state.to_json()
        action = choose_action(state, seat, Rng(1), "hard", budget=BUDGET)
        assert action in state.legal_actions(seat)
        assert state.to_json() == before


def test_hard_plays_the_tree_searchs_choice_reproducibly() -> None:
    for state, seat in _positions("standard", "single", 2, 3)[:5]:
        chosen = [choose_action(state, seat, Rng(s), "hard", budget=BUDGET) for s in range(3)]
        assert chosen == [choose_action(state, seat, Rng(s), "hard", budget=BUDGET) for s in range(3)]
        tree = [tree_action(state, seat, Rng(s), BUDGET, normal_action, q2j_search.SEARCH) for s in range(3)]
        assert chosen == tree


def test_a_single_legal_move_is_not_searched() -> None:
    state = Q2JState.from_position([["3C"], ["4C"]], ["QD", "QC"], ["2D", "3D"], duty=1)
    assert tree_action(state, 0, Rng(0), BUDGET, normal_action, q2j_search.SEARCH) is None
    assert choose_action(state, 0, Rng(0), "hard", budget=BUDGET).kind == "draw"


def _twin(state: Q2JState, seat: int, rng: Rng) -> Q2JState:
    """The same game with the cards ``seat`` cannot see moved around, another seed and rng."""
    hooks = game_hooks(state)
    snap: dict[str, Any] = state.to_json()
    slots = hooks.hidden_slots(snap, seat)
    cards = [container[key] for container, key in slots]
    rng.shuffle(cards)
    for (container, key), card in zip(slots, cards):
        container[key] = card
    hooks.tidy(snap)
    snap["seed"], snap["rng"] = snap["seed"] + 1, rng.next64()
    return Q2JState.from_json(snap)


@pytest.mark.parametrize("variant,players", [("standard", 2), ("countdown", 3), ("challenge", 2)])
def test_the_choice_depends_only_on_the_seats_view(variant: str, players: int) -> None:
    checked = 0
    for index, (state, seat) in enumerate(_positions(variant, "single", players, 7)[:4]):
        twin = _twin(state, seat, Rng(99 + index))
        assert twin.view(seat) == state.view(seat)
        if twin.to_json() == state.to_json():
            continue
        checked += 1
        for s in range(3):
            assert (choose_action(state, seat, Rng(s), "hard", budget=BUDGET)
                    == choose_action(twin, seat, Rng(s), "hard", budget=BUDGET))
    assert checked


def test_only_q2j_replaces_the_flat_search() -> None:
    for game in games.all_games():
        state = game.new_game(2, dict(game.quick_options), 0)
        hooks = game_hooks(state)
        assert (hooks is not None and hooks.search_action is not None) == (game.id == "q2j")
