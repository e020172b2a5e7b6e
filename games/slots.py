"""Frozen value types an engine makes several times a move, made cheaply.

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__`` by name,
three to four times what setting the slot directly costs; engines make a few
:class:`~games.i18n.Text`, :class:`~games.i18n.Seat` and :class:`~games.base.Event` values
every move, and that difference was a fifth of QUASH's random play (``bench/RESULTS.md``,
Engines). Such a class is a ``@dataclass(frozen=True, slots=True, init=False)`` whose own
``__init__`` fills its slots with the setters :func:`slot_setters` returns: still frozen
(assigning a field raises), compared, hashed and printed as the dataclass is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SlotSetter = Callable[[Any, Any], None]


def slot_setters(cls: type, *names: str) -> tuple[SlotSetter, ...]:
    """The setters of ``cls``'s slots ``names``, in that order (each ``setter(instance, value)``)."""
    return tuple(vars(cls)[name].__set__ for name in names)
