"""What a Queen of Spades match holds: the stored fields of :class:`QoSTable` and the
hand, set and what-the-table-saw helpers on them, below the rules
(:mod:`games.queen_of_spades.state`) and the views (:mod:`games.queen_of_spades.view`).

Representation (card ids from :mod:`games.queen_of_spades.points`; codes once
serialised):

- ``cnt[s]``: seat ``s``'s hand as counts per card id (53 entries); ``rc[s]``
  the same per rank index (14 entries) and ``size[s]`` the number of cards;
- ``sets[s]``: seat ``s``'s laid sets in the order laid, each
  ``[rank, naturals, wild]`` (naturals sorted ids, ``wild`` the id of its wild
  2 or ``-1``); ``where[s][rank]`` is the index of the seat's set of that rank,
  or ``-1`` (derived, not stored);
- ``draw``: the draw pile, top last (during the cut phase: the whole shuffled
  deck); ``discard``: the discard pile, top last; ``aside``: cards a hand-built
  position leaves out of play until the next deal (always empty in real games);
- ``phase``: ``cut`` (the dealer cuts or deals), ``take`` and ``play`` (the
  seat ``turn`` takes, then lays / extends / discards), ``round_over`` (every
  seat acknowledges with ``next``; ``ready[s]``), ``match_over``;
- ``round_no`` (from 1), ``dealer``, ``cut`` (this round's cut: ``aimed``,
  ``landed``, ``bonus``), ``stall`` (turns in a row without a draw from the
  draw pile), ``scores`` (match totals), ``history`` (one record per scored
  round, see :func:`~games.queen_of_spades.scoring.breakdown_row`), ``end``
  (``target`` / ``rounds`` once over);
- what the table saw this round (public, so the hard AI may infer from it):
  ``known[s]``, the cards of seat ``s``'s hand it took from the discard pile
  and has not laid or discarded since (counts per card id), and ``let_go[s]``,
  a flag per rank index: ``s`` discarded a card of that rank and has taken none
  from the discard pile since, and ``passed[s]``, the same for ranks ``s`` drew
  from the draw pile instead of taking (the discard pile's top, when it could be
  taken). All three are empty lists until the state fills them per seat
  (snapshots of format 1 had none of them).

See ``games/queen_of_spades/__init__.py`` for the rulings.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from ..base import GameState
from ..codec import CardCounts, CardIds, ListOf, OneOf, flags_of, stored
from .points import CODE, IDS_OF_RANK, KINDS, POINTS, RANK_COUNT, RANK_NAME, RANK_OF

PHASES = ("cut", "take", "play", "round_over", "match_over")

_CARDS = CardIds(CODE)
_WILD = CardIds(CODE, depth=0, missing=-1)


class _LaidSet:
    """One laid set, ``[rank, naturals, wild]`` in memory (wild ``-1``: none), stored as
    ``[natural codes, wild code or None]`` (the rank is the naturals')."""

    def dump(self, value: list[Any]) -> list[Any]:
        return [_CARDS.dump(value[1]), _WILD.dump(value[2])]

    def load(self, data: Any) -> list[Any]:
        codes, wild = data
        naturals = _CARDS.load(codes)
        return [RANK_OF[naturals[0]], naturals, _WILD.load(wild)]


class _RankFlags:
    """A flag per rank index, stored as the names of the flagged ranks (``A``, ``2`` … ``joker``)."""

    def dump(self, value: list[bool]) -> list[str]:
        return [RANK_NAME[r] for r, flag in enumerate(value) if flag]

    def load(self, data: Any) -> list[bool]:
        return flags_of(RANK_COUNT, [RANK_NAME.index(name) for name in data])


@dataclass(eq=False, kw_only=True)
class QoSTable(GameState):
    """A Queen of Spades match's data; :class:`~games.queen_of_spades.state.QoSState` adds the rules."""

    snapshot_format = 2

    phase: str = stored(OneOf(PHASES))
    round_no: int = stored(key="round")
    dealer: int
    turn: int
    draw: list[int] = stored(_CARDS)
    discard: list[int] = stored(_CARDS)
    aside: list[int] = stored(_CARDS, default_factory=list)
    cnt: list[list[int]] = stored(ListOf(CardCounts(CODE)), key="hands")
    sets: list[list[list[Any]]] = stored(ListOf(ListOf(_LaidSet())))
    ready: list[bool]
    scores: list[int]
    history: list[dict[str, Any]] = stored(default_factory=list)
    cut: dict[str, Any] | None = None
    stall: int = 0
    end: str | None = None
    moves: int = 0
    known: list[list[int]] = stored(ListOf(CardCounts(CODE)), default_factory=list)
    let_go: list[list[bool]] = stored(ListOf(_RankFlags()), default_factory=list)
    passed: list[list[bool]] = stored(ListOf(_RankFlags()), default_factory=list)
    target: int = field(init=False)
    rounds: int = field(init=False)
    rc: list[list[int]] = field(init=False, repr=False)
    size: list[int] = field(init=False, repr=False)
    where: list[list[int]] = field(init=False, repr=False)
    over: bool = field(init=False)

    def __post_init__(self) -> None:
        self.target = self.options["target"]
        self.rounds = self.options["rounds"]
        self.rc = [[0] * RANK_COUNT for _ in range(self.players)]
        for counts, ranks in zip(self.cnt, self.rc):
            for c, n in enumerate(counts):
                if n:
                    ranks[RANK_OF[c]] += n
        self.size = [sum(counts) for counts in self.cnt]
        self.where = [[-1] * RANK_COUNT for _ in range(self.players)]
        for s, seat_sets in enumerate(self.sets):
            for i, st in enumerate(seat_sets):
                self.where[s][st[0]] = i
        self.over = self.phase == "match_over"
        if not self.known:
            self._forget_seen()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """A stored match; format 1 (nothing recorded of what the table saw) is upgraded."""
        if isinstance(data, Mapping) and data.get("game") == cls.game_id and data.get("format") == 1:
            data = {**data, "format": 2, "known": [], "let_go": [], "passed": []}
        return super().from_json(data)

    # ----------------------------------------------------------- what the table saw

    def _forget_seen(self) -> None:
        """A new round: nothing is known of any hand."""
        self.known = [[0] * KINDS for _ in range(self.players)]
        self.let_go = [[False] * RANK_COUNT for _ in range(self.players)]
        self.passed = [[False] * RANK_COUNT for _ in range(self.players)]

    def _seen_taking(self, seat: int, cards: Iterable[int]) -> None:
        """``seat`` took these cards from the discard pile into its hand, in sight of the table."""
        known, let_go, passed = self.known[seat], self.let_go[seat], self.passed[seat]
        for c in cards:
            known[c] += 1
            let_go[RANK_OF[c]] = passed[RANK_OF[c]] = False

    def _seen_leaving(self, seat: int, naturals: Iterable[int], wild: int = -1) -> None:
        """Cards left ``seat``'s hand face up (laid, or discarded): each was a known one, if
        any of it was known (the table can't tell two copies of a card apart)."""
        known = self.known[seat]
        for c in naturals:
            if known[c]:
                known[c] -= 1
        if wild >= 0 and known[wild]:
            known[wild] -= 1

    def unknown_ids(self, seat: int) -> list[int]:
        """Seat ``seat``'s hand without its ``known`` cards, as sorted card ids."""
        cnt, known = self.cnt[seat], self.known[seat]
        return [c for c in range(KINDS) for _ in range(cnt[c] - known[c])]

    # ----------------------------------------------------------- hand and set helpers

    def _gain(self, seat: int, cards: Iterable[int]) -> None:
        cnt, rc = self.cnt[seat], self.rc[seat]
        n = 0
        for c in cards:
            cnt[c] += 1
            rc[RANK_OF[c]] += 1
            n += 1
        self.size[seat] += n

    def _lose(self, seat: int, card: int) -> None:
        self.cnt[seat][card] -= 1
        self.rc[seat][RANK_OF[card]] -= 1
        self.size[seat] -= 1

    def _remove_rank(self, seat: int, rank: int, n: int) -> list[int]:
        """Take ``n`` cards of ``rank`` out of the hand in suit order (♠ first: Q♠ before other queens)."""
        cnt = self.cnt[seat]
        out: list[int] = []
        for c in IDS_OF_RANK[rank]:
            while cnt[c] and len(out) < n:
                cnt[c] -= 1
                out.append(c)
            if len(out) == n:
                break
        self.rc[seat][rank] -= n
        self.size[seat] -= n
        return out

    def _add_to_set(self, seat: int, rank: int, naturals: list[int], wild: int) -> bool:
        """Add cards to the seat's set of ``rank``, creating it if needed; True if it existed."""
        i = self.where[seat][rank]
        if i < 0:
            self.where[seat][rank] = len(self.sets[seat])
            self.sets[seat].append([rank, sorted(naturals), wild])
            return False
        st = self.sets[seat][i]
        st[1] = sorted(st[1] + naturals)
        if wild >= 0:
            st[2] = wild
        return True

    def _set_size(self, seat: int, rank: int) -> int:
        st = self.sets[seat][self.where[seat][rank]]
        return len(st[1]) + (st[2] >= 0)

    def hand_ids(self, seat: int) -> list[int]:
        """Seat ``seat``'s hand as sorted card ids (by rank, then suit; jokers last)."""
        cnt = self.cnt[seat]
        return [c for c in range(KINDS) for _ in range(cnt[c])]

    def laid_points(self, seat: int) -> int:
        return sum(POINTS[c] for st in self.sets[seat] for c in st[1]) + sum(
            POINTS[st[2]] for st in self.sets[seat] if st[2] >= 0)

    @abstractmethod
    def has_set_actions(self, seat: int) -> bool:
        """Whether ``seat`` (in the lay phase) may lay or extend anything now."""
