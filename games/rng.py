"""A small deterministic random generator whose whole state is one integer.

Engines keep an :class:`Rng` inside their state, so a game's snapshot holds its
random position and ``(seed, action log)`` replays a game exactly. SplitMix64 is
used because its state fits in a JSON number and it is fast in pure Python.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64. ``Rng(seed)`` for a new stream; ``rng.state`` to save it."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``; ``n`` must be positive."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        return (self.next64() * n) >> 64

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place: position ``i`` swapped with ``below(i + 1)``, written out
        (a deal draws fifty numbers)."""
        next64 = self.next64
        for i in range(len(items) - 1, 0, -1):
            j = (next64() * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
