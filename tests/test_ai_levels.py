"""The AI levels (games.ai.choose_action): legal moves at every level, a reproducible
``hard`` search, and a search that reads only what its seat may see."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import games
from games.ai import LEVELS, choose_action
from games.base import GameState
from games.determinize import determinized_snapshot, game_hooks
from games.errors import GameError
from games.rng import Rng
from games.search import search_values
from tests.contract import contract_cases

SMALL_BUDGET = 40
"""Simulated moves per hard decision in these tests: enough to search, quick to run."""


def _cases() -> list[Any]:
    """Every registered game and variant, at 2 and 4 players where the game allows them."""
    return [
        pytest.param(g.id, players, options, id=f"{g.id}-{players}p-{options}")
        for g in games.all_games()
        for players, options in contract_cases(g)
        if players in (2, 4)
    ]


def _positions(game_id: str, players: int, options: dict[str, Any], seed: int, every: int) -> list[GameState]:
    """Snapshots of one random game, every ``every`` moves, while someone may act."""
    game = games.get_game(game_id)
    state = game.new_game(players, options, seed)
    rng = Rng(seed + 1000)
    found = []
    for step in range(2000):
        acting = state.to_act()
        if not acting:
            break
        if step % every == 0:
            found.append(game.from_json(state.to_json()))
        seat = acting[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


def _thinking_positions(game_id: str, players: int, seed: int) -> list[tuple[GameState, int]]:
    """Positions where the seat to act has a real choice and some cards are hidden from it."""
    game = games.get_game(game_id)
    found = []
    for state in _positions(game_id, players, dict(game.quick_options), seed, 5):
        seat = state.to_act()[0]
        if len(state.legal_actions(seat)) > 1 and state.hidden_cards(seat):
            found.append((state, seat))
    return found


@pytest.mark.parametrize("game_id,players,options", _cases())
def test_every_level_plays_only_legal_actions(game_id: str, players: int, options: dict[str, Any]) -> None:
    for state in _positions(game_id, players, options, seed=players, every=9)[:8]:
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            before = state.to_json()
            for level in LEVELS:
                action = choose_action(state, seat, Rng(len(legal)), level, budget=SMALL_BUDGET)
                assert action in legal, (level, action)
            assert state.to_json() == before, "choosing a move must not change the game"


def test_an_unknown_level_is_refused_clearly() -> None:
    state = games.get_game("q2j").new_game(2, {}, 0)
    with pytest.raises(GameError, match="Unknown AI level 'expert'; levels are: easy, normal, hard"):
        choose_action(state, state.to_act()[0], Rng(0), "expert")


def test_easy_sometimes_leaves_the_normal_move() -> None:
    state, seat = _thinking_positions("ng", 2, 1)[0]
    normal = choose_action(state, seat, Rng(0), "normal")
    easy = [choose_action(state, seat, Rng(s), "easy") for s in range(60)]
    assert normal in easy and any(a != normal for a in easy)


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_hard_is_reproducible_with_a_fixed_seed(game_id: str) -> None:
    for state, seat in _thinking_positions(game_id, 2, 3)[:4]:
        first = [choose_action(state, seat, Rng(s), "hard", budget=SMALL_BUDGET) for s in range(3)]
        again = [choose_action(state, seat, Rng(s), "hard", budget=SMALL_BUDGET) for s in range(3)]
        assert first == again


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_a_determinization_keeps_the_view_and_moves_the_hidden_cards(game_id: str) -> None:
    state, seat = _thinking_positions(game_id, 2, 5)[0]
    hooks = game_hooks(state)
    guesses = [type(state).from_json(determinized_snapshot(state, seat, Rng(s), hooks)) for s in range(5)]
    for guess in guesses:
        assert guess.view(seat) == state.view(seat)
        assert Counter(guess.hidden_cards(seat)) == Counter(state.hidden_cards(seat))
        assert guess.seed != state.seed
    assert any(guess.zones() != state.zones() for guess in guesses), "the hidden cards are dealt again"


def _twin(state: GameState, seat: int, rng: Rng) -> GameState:
    """The same game with the cards ``seat`` cannot see moved around its hidden places, and
    another seed and rng: built here, apart from the code under test."""
    hooks = game_hooks(state)
    snap = state.to_json()
    slots = hooks.hidden_slots(snap, seat)
    cards = [container[key] for container, key in slots]
    rng.shuffle(cards)
    for (container, key), card in zip(slots, cards):
        container[key] = card
    if hooks.tidy is not None:
        hooks.tidy(snap)
    snap["seed"], snap["rng"] = snap["seed"] + 1, rng.next64()
    return type(state).from_json(snap)


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_hard_sees_only_the_view(game_id: str) -> None:
    """Two states that look the same to the seat (hidden cards elsewhere, another seed
    and rng) give hard the same choice, and the same value for every move it weighed,
    for every fixed search seed (in positions where it searches: QUASH leaves a round's
    early placements to the heuristic)."""
    checked = 0
    searched = [(state, seat) for state, seat in _thinking_positions(game_id, 2, 7)
                if search_values(state, seat, Rng(0), SMALL_BUDGET)]
    for index, (state, seat) in enumerate(searched[:3]):
        twin = _twin(state, seat, Rng(99 + index))
        assert twin.view(seat) == state.view(seat)
        assert twin.to_json() != state.to_json()
        for seed in range(3):
            mine = choose_action(state, seat, Rng(seed), "hard", budget=SMALL_BUDGET)
            theirs = choose_action(twin, seat, Rng(seed), "hard", budget=SMALL_BUDGET)
            assert mine == theirs
            weighed = search_values(state, seat, Rng(seed), SMALL_BUDGET)
            assert len(weighed) > 1 and weighed == search_values(twin, seat, Rng(seed), SMALL_BUDGET)
        checked += 1
    assert checked
