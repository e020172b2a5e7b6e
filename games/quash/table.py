"""What a QUASH match holds: the stored fields of :class:`QuashTable`, below the rules
(:mod:`games.quash.state`), the scoring (:mod:`games.quash.scoring`) and the views
(:mod:`games.quash.view`), which all read and change them.

Representation (card ids of :data:`games.cards.DECK`; codes once serialised):

- ``hands[seat]``: a seat's hand, kept sorted by rank (A high) then suit;
- ``pile``: the 2-player draw pile (top last); ``aside``: cards out of play
  this round, unseen by everyone (advanced 2-player play sets 6 aside; a
  hand-set position puts every card it does not list there);
- ``board[side][spot]``: the cards on a side's spot (side 0 RED, 1 BLACK),
  in slot order; a displaced card's slot takes the card that displaced it;
- ``phase``: ``play`` (placing), ``tiebreak`` (scoring waits for secret
  cards), ``over``; scoring itself runs inside ``apply``;
- ``spot``: the spot being scored (0-based; 0 during play); ``results``:
  this round's scored spots, in order; ``reveals``: the current spot's
  tiebreak reveals so far; ``pending[side]``: a side's face-down tiebreak card
  (-1 none); ``leftovers[side]``: the side's leftover cards (pooled per team
  with 4 players), sorted; ``used``: this round's revealed tiebreak cards;
- ``chooser[side]``: the seat that plays the side's tiebreak cards;
- ``chain``: the open swap chain of the placing seat (advanced play), one
  ``(card, spot, displaced)`` per step so far; the card in the air is the last
  step's displaced card; ``[]`` when no card is in the air. Snapshots of format
  1 (before chains were played step by step) had none and load with ``[]``;
- ``track[side]``, ``round_points[side]``, ``round_no``, ``dealer``, ``turn``,
  ``winner`` (side, -1 for a draw, ``None`` while playing), ``moves``.

See ``games/quash/__init__.py`` for the rulings.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from ..base import Action, GameState
from ..cards import CODE
from ..codec import PLAIN, CardIds, ListOf, Record, Row, stored
from .chains import Finisher

_CARDS = CardIds(CODE)
_CARD = CardIds(CODE, depth=0)
_SPOT_RESULT = Record({"winner": PLAIN, "points": PLAIN, "how": PLAIN,
                       "reveals": CardIds(CODE, depth=2), "quash": PLAIN})


@dataclass(eq=False, kw_only=True)
class QuashTable(GameState):
    """A QUASH match's data; :class:`~games.quash.state.QuashState` adds the rules."""

    snapshot_format = 2

    round_no: int = stored(key="round")
    dealer: int
    hands: list[list[int]] = stored(CardIds(CODE, depth=2))
    pile: list[int] = stored(_CARDS)
    aside: list[int] = stored(_CARDS)
    board: list[list[list[int]]] = stored(CardIds(CODE, depth=3))
    turn: int
    track: list[int]
    phase: str = "play"
    spot: int = 0
    results: list[dict[str, Any]] = stored(ListOf(_SPOT_RESULT), default_factory=list)
    reveals: list[list[int]] = stored(CardIds(CODE, depth=2), default_factory=list)
    pending: list[int] = stored(CardIds(CODE, missing=-1), default_factory=lambda: [-1, -1])
    leftovers: list[list[int]] = stored(CardIds(CODE, depth=2), default_factory=lambda: [[], []])
    used: list[int] = stored(_CARDS, default_factory=list)
    chooser: list[int] = stored(default_factory=lambda: [0, 1])
    round_points: list[int] = stored(default_factory=lambda: [0, 0])
    winner: int | None = None
    moves: int = 0
    last_round: dict[str, Any] | None = None
    chain: list[tuple[int, int, int]] = stored(ListOf(Row((_CARD, PLAIN, _CARD))), default_factory=list)
    advanced: bool = field(init=False)
    finish: int = field(init=False)
    _legal: tuple[int, int, list[Action], bool] | None = field(init=False, repr=False, default=None)
    _turn: tuple[int, Finisher, list[Action], bool] | None = field(init=False, repr=False, default=None)
    """Advanced play: (seat, the turn's :class:`Finisher`, its legal placements as the turn
    began, free): kept while a chain is open and after a take-back, dropped when a card lands."""

    def __post_init__(self) -> None:
        self.advanced = bool(self.options["advanced"])
        self.finish = self.options["finish"]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """A stored match; format 1 (whole swap chains, no card ever in the air) is upgraded."""
        if isinstance(data, Mapping) and data.get("game") == cls.game_id and data.get("format") == 1:
            data = {**data, "format": 2, "chain": []}
        return super().from_json(data)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def flying(self) -> int | None:
        """The card in the air (displaced by the last step of an open chain), else ``None``."""
        return self.chain[-1][2] if self.chain else None

    def finish_match(self, winner: int) -> None:
        """End the match: ``winner`` is a side, or -1 for a draw."""
        self.winner = winner
        self.phase = "over"
        self.pending = [-1, -1]
        self._legal = None

    @abstractmethod
    def places_freely(self, seat: int) -> bool:
        """Whether ``seat``'s placements now use advanced free placement (no placement or
        chain keeps a run possible, so any card may go on any open slot)."""
