"""The hard search's per-game hooks (Game.search): where QUASH searches and
which moves it compares."""

from __future__ import annotations

import games
from games.ai import choose_action, normal_action
from games.base import GameState
from games.quash import search as quash_search
from games.quash.plan import plan_action, plan_scores
from games.rng import Rng
from games.search import search_values


def _quash_positions(seed: int) -> list[tuple[GameState, int]]:
    """Every position of one QUASH game (normal against normal) where a seat places a card."""
    game = games.get_game("quash")
    state = game.new_game(2, dict(game.quick_options), seed)
    rng = Rng(seed)
    found = []
    while state.to_act():
        seat = state.to_act()[0]
        if state.phase == "play" and len(state.legal_actions(seat)) > 1:
            found.append((game.from_json(state.to_json()), seat))
        state.apply(seat, normal_action(state, seat, rng))
    return found


def test_quash_leaves_early_placements_to_its_policy() -> None:
    early = [(s, seat) for s, seat in _quash_positions(1)
             if quash_search.placements_left(s) > quash_search.SEARCH_PLACEMENTS]
    assert early
    for state, seat in early[:5]:
        assert search_values(state, seat, Rng(3), 200) == []
        assert choose_action(state, seat, Rng(3), "hard") == plan_action(state, seat, state.legal_actions(seat))


def test_quash_compares_its_policys_best_placements_late_in_a_round() -> None:
    late = [(s, seat) for s, seat in _quash_positions(2)
            if quash_search.placements_left(s) <= quash_search.SEARCH_PLACEMENTS]
    assert late
    for state, seat in late[:4]:
        legal = state.legal_actions(seat)
        weighed = search_values(state, seat, Rng(4), 200)
        assert weighed[0][0] == plan_action(state, seat, legal)
        best = sorted(plan_scores(state, seat, legal), key=lambda item: -item[0])
        top = {a for _, a in best[: quash_search.CANDIDATES]}
        assert 1 < len(weighed) <= quash_search.CANDIDATES
        assert len({a for a, _ in weighed} - top) <= 1, "only the policy's move may come from outside the best"
        assert all(0.0 <= value <= 1.0 for _, value in weighed)

