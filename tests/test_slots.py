"""Frozen value types that fill their slots directly (:mod:`games.slots`) stay frozen
dataclasses: words, seats and events compare, hash, print and refuse changes as before."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from games.base import Event
from games.i18n import Seat, Text, say
from games.slots import slot_setters


@dataclasses.dataclass(frozen=True, slots=True, init=False)
class Pair:
    left: int
    right: str

    def __init__(self, left: int, right: str = "") -> None:
        _set_left(self, left)
        _set_right(self, right)


_set_left, _set_right = slot_setters(Pair, "left", "right")


def test_slot_setters_fill_a_frozen_dataclass() -> None:
    pair = Pair(1, "a")
    assert (pair.left, pair.right) == (1, "a") and Pair(2).right == ""
    assert pair == Pair(1, "a") and hash(pair) == hash(Pair(1, "a")) and pair != Pair(1, "b")
    assert repr(pair) == "Pair(left=1, right='a')"
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.left = 2  # type: ignore[misc]
    assert dataclasses.replace(pair, right="b") == Pair(1, "b")


def test_words_seats_and_events_stay_frozen_values() -> None:
    text = say("{player} drew a card.", player=Seat(0))
    event = Event("draw", text, 0)
    for value, name in ((Seat(0), "number"), (text, "source"), (event, "kind")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, 1)
    assert text == say("{player} drew a card.", player=Seat(0)) and {Seat(0), Seat(0)} == {Seat(0)}
    assert event == Event("draw", text, 0, None) and event.private_to is None
    assert dataclasses.replace(event, seat=1) == Event("draw", text, 1)
    assert Text("Hello").args == {} and Text("Hello").to_json() == {"say": "Hello"}
    assert Text("Hello") == Text("Hello", {}) and repr(Seat(2)) == "Seat(number=2)"


def test_words_and_events_pickle() -> None:
    """As values sent to the AI's worker processes are."""
    event = Event("draw", say("{player} drew a card.", player=Seat(0)), 0, private_to=0)
    for value in (event, Text("Hello"), Seat(3)):
        assert pickle.loads(pickle.dumps(value)) == value
