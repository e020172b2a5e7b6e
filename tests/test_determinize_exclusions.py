"""The ``excluded`` hook of determinization: cards a seat's view rules out of a place stay out of it."""

from __future__ import annotations

from types import SimpleNamespace

import games
from games.determinize import determinized_snapshot
from games.rng import Rng


def _guesses(with_exclusions: bool) -> tuple[list[dict], int, frozenset[str], list[str]]:
    """30 guesses of a 2-player Q2J deal for the seat to act, a third of the unseen cards
    banned from the other hand when ``with_exclusions``; (guesses, the other seat, the
    banned cards, every unseen card)."""
    state = games.get_game("q2j").new_game(2, {}, seed=3)
    seat = state.to_act()[0]
    real = games.base.game_module(state, "search")
    other = 1 - seat
    hidden = sorted(card.code for card in state.hidden_cards(seat))
    banned = frozenset(hidden[: len(hidden) // 3])

    def excluded(snap, _seat, slots):
        return [banned if container is snap["hands"][other] else None for container, _ in slots]

    hooks = SimpleNamespace(hidden_slots=real.hidden_slots, tidy=real.tidy)
    if with_exclusions:
        hooks.excluded = excluded
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



def _plausible_guesses(plausible) -> list[dict]:
    """30 guesses of a 2-player Q2J deal (seed 3) for the seat to act, with ``plausible``
    judging whole guesses."""
    state = games.get_game("q2j").new_game(2, {}, seed=3)
    real = games.base.game_module(state, "search")
    hooks = SimpleNamespace(hidden_slots=real.hidden_slots, tidy=real.tidy, plausible=plausible, PLAUSIBLE_TRIES=50)
    return [determinized_snapshot(state, state.to_act()[0], Rng(s), hooks) for s in range(30)]


def test_plausible_keeps_only_guesses_the_hook_accepts() -> None:
    """Guesses with one unseen card in the other hand are rejected: with 50 tries, every
    guess kept has it elsewhere (a third of the unseen cards sit in that hand)."""
    state = games.get_game("q2j").new_game(2, {}, seed=3)
    seat = state.to_act()[0]
    card = sorted(c.code for c in state.hidden_cards(seat))[0]
    judged = []

    def plausible(snap, seat):
        judged.append(seat)
        return card not in snap["hands"][1 - seat]

    guesses = _plausible_guesses(plausible)
    assert all(card not in snap["hands"][1 - seat] for snap in guesses)
    assert len(judged) > len(guesses)  # some guesses were dealt again
    unjudged = _plausible_guesses(lambda snap, seat: True)
    assert any(card in snap["hands"][1 - seat] for snap in unjudged)


def test_when_no_guess_is_plausible_the_last_is_kept() -> None:
    calls = []

    def never(snap, seat):
        calls.append(1)
        return False

    guesses = _plausible_guesses(never)
    assert len(calls) == 50 * len(guesses)
    assert all(snap["hands"] for snap in guesses)
