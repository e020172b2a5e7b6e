"""The ``excluded`` hook of determinization: cards a seat's view rules out of a place stay out of it."""

from __future__ import annotations

import dataclasses

import games
from games.determinize import determinized_snapshot, game_hooks
from games.rng import Rng


def _guesses(with_exclusions: bool) -> tuple[list[dict], int, frozenset[str], list[str]]:
    """30 guesses of a 2-player Q2J deal for the seat to act, a third of the unseen cards
    banned from the other hand when ``with_exclusions``; (guesses, the other seat, the
    banned cards, every unseen card)."""
    state = games.get_game("q2j").new_game(2, {}, seed=3)
    seat = state.to_act()[0]
    real = game_hooks(state)
    assert real is not None
    other = 1 - seat
    hidden = sorted(card.code for card in state.hidden_cards(seat))
    banned = frozenset(hidden[: len(hidden) // 3])

    def excluded(snap, _seat, slots):
        return [banned if container is snap["hands"][other] else None for container, _ in slots]

    hooks = dataclasses.replace(real, excluded=excluded if with_exclusions else None)
    return [determinized_snapshot(state, seat, Rng(s), hooks) for s in range(30)], other, banned, hidden


def test_excluded_cards_never_land_where_the_hook_forbids() -> None:
    guesses, other, banned, hidden = _guesses(with_exclusions=True)
    for snap in guesses:
        assert not banned & set(snap["hands"][other])
        guessed = [code for code in snap["hands"][other] if code not in snap["known"][other]]  # known: not hidden
        assert sorted(guessed + snap["stock"]) == hidden


def test_without_exclusions_the_banned_cards_do_reach_that_hand() -> None:
    """The same deals without the hook: the test above would fail without the repair."""
    guesses, other, banned, _ = _guesses(with_exclusions=False)
    assert any(banned & set(snap["hands"][other]) for snap in guesses)
