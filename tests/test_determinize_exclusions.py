"""The ``excluded`` hook of determinization: cards a seat's view rules out of a place stay out of it."""

from __future__ import annotations

from types import SimpleNamespace

import games
from games.determinize import determinized_snapshot
from games.rng import Rng


def _q2j_two_players():
    state = games.get_game("q2j").new_game(2, {}, seed=3)
    return state, state.to_act()[0]


def test_excluded_cards_never_land_where_the_hook_forbids() -> None:
    state, seat = _q2j_two_players()
    real = games.base.game_module(state, "search")
    other = 1 - seat
    hidden = sorted(card.code for card in state.hidden_cards(seat))
    banned = frozenset(hidden[: len(hidden) // 3])

    def excluded(snap, _seat, slots):
        return [banned if container is snap["hands"][other] else None for container, _ in slots]

    hooks = SimpleNamespace(hidden_slots=real.hidden_slots, tidy=real.tidy, excluded=excluded)
    for s in range(30):
        snap = determinized_snapshot(state, seat, Rng(s), hooks)
        assert not banned & set(snap["hands"][other])
        assert sorted(snap["hands"][other] + snap["stock"]) == hidden


def test_without_exclusions_the_banned_cards_do_reach_that_hand() -> None:
    """The same deals without the hook: the test above would fail without the repair."""
    state, seat = _q2j_two_players()
    real = games.base.game_module(state, "search")
    other = 1 - seat
    hidden = sorted(card.code for card in state.hidden_cards(seat))
    banned = frozenset(hidden[: len(hidden) // 3])
    hooks = SimpleNamespace(hidden_slots=real.hidden_slots, tidy=real.tidy)
    assert any(banned & set(determinized_snapshot(state, seat, Rng(s), hooks)["hands"][other]) for s in range(30))
