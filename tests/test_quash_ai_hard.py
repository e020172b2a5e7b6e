"""QUASH's ``hard`` placement policy (games.quash.plan): it weighs the sections a side
may sweep, plays its own choice where it does not search, and reads only the view."""

from __future__ import annotations

import games
from games.ai import choose_action, normal_action
from games.base import GameState
from games.quash import search as quash_search
from games.quash.ai import placement_scores
from games.quash.plan import plan_action, plan_scores
from games.quash.state import QuashState
from games.rng import Rng
from games.search import search_values
from tests.test_ai_levels import _twin


def _early_placements(players: int, seed: int) -> list[tuple[GameState, int]]:
    """Placements with a real choice, before the search takes over, in one game of normal play."""
    game = games.get_game("quash")
    state = game.new_game(players, dict(game.quick_options), seed)
    rng = Rng(seed)
    found = []
    while state.to_act():
        seat = state.to_act()[0]
        if (state.phase == "play" and len(state.legal_actions(seat)) > 1
                and quash_search.placements_left(state) > quash_search.SEARCH_PLACEMENTS):
            found.append((game.from_json(state.to_json()), seat))
        state.apply(seat, normal_action(state, seat, rng))
    return found


def _sweep_position() -> QuashState:
    """RED has won spots 1 and 2 (section 2 is split) and holds a 10 that beats BLACK's 9 on
    spot 3 and on spot 6: only on spot 3 does it complete a sweep."""
    board = [
        ["QH KH AH", "KD AD", [], "2S 3S 4S", "9H 10H", [], [], [], []],
        ["2C 3D 4C", "2D 3C", "9C", "5S 6S 7S", "4H 5H", "9S", [], [], []],
    ]
    return QuashState.from_position(board=board, hands=["10D 5C 6C", "JC QC KC"], turn=0)


def test_hard_sends_a_card_where_it_completes_a_sweep() -> None:
    state = _sweep_position()
    legal = state.legal_actions(0)
    on_spot = {a.args[1]: a for a in legal if a.args[0] == "10D"}
    normal = dict((a, v) for v, a in placement_scores(state, 0, legal))
    assert abs(normal[on_spot[3]] - normal[on_spot[6]]) < 1e-9, "normal sees no difference"
    planned = dict((a, v) for v, a in plan_scores(state, 0, legal))
    assert planned[on_spot[3]] > planned[on_spot[6]] + 1
    assert plan_action(state, 0, legal) == on_spot[3]


def test_hard_places_with_its_own_policy_where_it_does_not_search() -> None:
    for players in (2, 4):
        early = _early_placements(players, 5)
        assert early
        differs = 0
        for state, seat in early[::3]:
            legal = state.legal_actions(seat)
            assert search_values(state, seat, Rng(1), 100) == []
            chosen = choose_action(state, seat, Rng(1), "hard")
            assert chosen == plan_action(state, seat, legal)
            differs += chosen != normal_action(state, seat, Rng(1))
        assert differs, "the policy is not normal under another name"


def test_hard_early_placements_see_only_the_view() -> None:
    for index, (state, seat) in enumerate(_early_placements(4, 6)[::4]):
        twin = _twin(state, seat, Rng(50 + index))
        assert twin.view(seat) == state.view(seat) and twin.to_json() != state.to_json()
        assert choose_action(twin, seat, Rng(2), "hard") == choose_action(state, seat, Rng(2), "hard")
