"""Determinization: one guess at the cards a seat cannot see, consistent with its view.

The hard AI (:mod:`games.search`) plays out guesses of the hidden cards. A guess
is built on the state's snapshot: the game's hook ``hidden_slots(snapshot, seat)``
(its ``Game.search``, a :class:`~games.base.SearchHooks`) lists every place holding a
card the seat cannot see, as ``(container, key)`` pairs into the snapshot; the cards
found there must be exactly ``state.hidden_cards(seat)``. An optional hook ``tidy(snapshot)`` restores
an order the engine keeps (sorted hands) after the cards are dealt back. Those cards are sorted, shuffled with the
search's own :class:`~games.rng.Rng` and dealt back into the same places, so every
count stays as it was and every card the seat can see stays where it is.

Sorting first makes the guess depend only on *which* cards are unseen, never on
where they really are: two states that look the same to the seat give the same
guesses for the same rng. The snapshot's ``seed`` and ``rng`` are replaced too,
so what the real deck would do next (a reshuffle, a deal) is guessed, not read.

What the table saw can rule cards out of places (a player who drew instead of
beating a card holds nothing that beats it): the optional hook
``excluded(snapshot, seat, slots)`` gives, for each slot, the codes that can't be
there (or ``None``). The shuffled deal is then repaired by swapping cards between
slots until no card sits where it is excluded, when such swaps exist. The hook
must read only what the seat's view shows, like everything else here.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import get_game
from .base import GameState, SearchHooks, Slot
from .rng import Rng

__all__ = ["Slot", "determinized_snapshot", "game_hooks", "hidden_places", "repair"]


def game_hooks(state: GameState) -> SearchHooks[Any] | None:
    """What the hard AI needs to know about the state's game (``Game.search``), if it says."""
    return get_game(state.game_id).search


def hidden_places(state: GameState, seat: int | None,
                  hooks: SearchHooks[Any]) -> tuple[dict[str, Any], list[Slot], list[Any]]:
    """A snapshot of ``state``, the slots in it that ``seat`` cannot see, and their cards
    sorted (checked to be exactly ``state.hidden_cards(seat)``): what every guess starts from."""
    snap = state.to_json()
    slots: list[Slot] = hooks.hidden_slots(snap, seat)
    unseen = sorted(container[key] for container, key in slots)
    expected = sorted(card.code for card in state.hidden_cards(seat))
    if Counter(unseen) != Counter(expected):
        raise RuntimeError(f"{state.game_id}: hidden_slots disagree with hidden_cards for seat {seat}")
    return snap, slots, unseen


def determinized_snapshot(state: GameState, seat: int, rng: Rng, hooks: SearchHooks[Any]) -> dict[str, Any]:
    """A snapshot of ``state`` with the cards ``seat`` cannot see dealt again at random."""
    snap, slots, unseen = hidden_places(state, seat, hooks)
    rng.shuffle(unseen)
    if hooks.excluded is not None:
        repair(unseen, hooks.excluded(snap, seat, slots), rng)
    for (container, key), code in zip(slots, unseen, strict=True):
        container[key] = code
    if hooks.tidy is not None:
        hooks.tidy(snap)
    snap["seed"] = rng.next64() >> 1
    snap["rng"] = rng.next64()
    return snap


def repair(cards: list[Any], excluded: list[frozenset[str] | None], rng: Rng) -> None:
    """Swap ``cards`` (one per slot) so that no card sits in a slot that excludes it,
    as far as single swaps can: each misplaced card goes to a slot, chosen starting at a
    random place, that takes it and whose card may take its place."""
    count = len(cards)
    for i in range(count):
        banned = excluded[i]
        if not banned or cards[i] not in banned:
            continue
        start = rng.below(count)
        for step in range(count):
            j = (start + step) % count
            other = excluded[j]
            if (other is None or cards[i] not in other) and cards[j] not in banned:
                cards[i], cards[j] = cards[j], cards[i]
                break
