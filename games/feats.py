"""Feats: achievements a game declares from its own play, found beside the game.

A game package lists its feats in an optional ``feats`` module (``games/<package>/feats.py``)
as ``FEATS``, a tuple of :class:`Feat`; nothing outside the package names them
(:func:`feats_of` finds them). A feat says whether a seat earned it in one finished game,
given as a :class:`Played`: the outcome, the move log, the state before the first move and the
final state. What a feat reads decides what it costs: the outcome and the log are read with the
game, the start is dealt again from the seed and the final state read from its snapshot when
first asked for, and :meth:`Played.replay` plays the log again, with every move's events. So a
feat checks the cheap facts first (did the seat win?) and replays last.

Feats are computed from stored games, so they can be recomputed for a whole history
(``python -m bot achievements --recompute``) and a new feat is backfilled.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from .base import Action, Event, Game, Outcome
from .i18n import Text

T = TypeVar("T")
FEAT_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""A feat's id within its game: lower-case words joined by ``-`` (``queens-exit``)."""


@dataclass(frozen=True)
class Step:
    """One move of a replay: who played it, what, the events it caused, and the state right
    after it. The state is the replay's own, changed by the next move: read it, don't keep it."""

    seat: int
    action: Action
    events: list[Event]
    state: Any


@dataclass(frozen=True)
class Played:
    """A finished game as feats see it. The start and the final state are made when a feat
    first reads them (``deal``, ``ending``), as most feats only read the outcome first."""

    game: Game[Any]
    outcome: Outcome
    log: Sequence[tuple[int, Action]]
    """Every move, in order: ``(seat, action)``."""
    deal: Callable[[], Any]
    """Makes :attr:`start`: the game dealt again from its seed (or a built position)."""
    ending: Callable[[], Any]
    """Makes :attr:`final`: the stored snapshot read (or the log replayed)."""
    _summaries: dict[Callable[[Played], Any], Any] = field(default_factory=dict, init=False, repr=False,
                                                           compare=False)

    @cached_property
    def start(self) -> Any:
        """The state before the first move (the game's own state class)."""
        return self.deal()

    @cached_property
    def final(self) -> Any:
        """The state the game ended in (the game's own state class)."""
        return self.ending()

    def won(self, seat: int) -> bool:
        return seat in self.outcome.winners

    def summary(self, of: Callable[[Played], T]) -> T:
        """``of(self)``, worked out once for this game: what one replay finds for every seat
        and every feat of the game, instead of a replay each."""
        if of not in self._summaries:
            self._summaries[of] = of(self)
        return self._summaries[of]

    def replay(self) -> Iterator[Step]:
        """Every move again from :attr:`start`, on a copy of it, with its events."""
        state = self.game.from_json(self.start.to_json())
        for seat, action in self.log:
            events = state.apply(seat, action)
            yield Step(seat, action, events, state)

    def states(self) -> Iterator[Any]:
        """:attr:`start`, then the state after each move (the replay's own: read it, don't keep it)."""
        yield self.start
        for step in self.replay():
            yield step.state

    def moves_of(self, seat: int) -> Iterator[Action]:
        """The actions ``seat`` played, in order (from the log: no replay)."""
        return (action for by, action in self.log if by == seat)


@dataclass(frozen=True)
class Feat:
    """Something worth a badge that a player can do in one game."""

    id: str
    """Unique within the game (:data:`FEAT_ID`)."""
    name: Text
    """The badge's name, a few words (``say("Queen's exit")``)."""
    description: Text
    """How to earn it, one sentence."""
    earned: Callable[[Played, int], bool]
    """Whether ``seat`` earned it in the game."""
    secret: bool = False
    """Kept out of sight until earned: its unlock is told only to the player who earned it,
    and /stats shows it only to them."""

    def __post_init__(self) -> None:
        if not FEAT_ID.fullmatch(self.id):
            raise ValueError(f"a feat's id is lower-case words joined by '-', not {self.id!r}")


def feats_of(game: Game[Any]) -> tuple[Feat, ...]:
    """The feats ``game`` declares: ``FEATS`` of the ``feats`` module beside its state class
    (``games/<package>/feats.py``), or none."""
    package = game.state_class.__module__.rpartition(".")[0]
    name = f"{package}.feats"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return ()
    feats: tuple[Feat, ...] = tuple(getattr(module, "FEATS", ()))
    ids = [feat.id for feat in feats]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{name} declares a feat id twice: {ids}")
    return feats

