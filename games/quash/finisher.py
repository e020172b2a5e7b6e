"""The exact chain search of advanced QUASH: can the card in the air still end its swap chain?

RULINGS §6: a step of a swap chain is offered exactly when the chain can still end on an
open slot by some chain the rules allow (passing through a spot again included). One
:class:`Finisher` answers that for every step of one turn (see :mod:`games.quash.chains`).

Fitting is computed on ranks only, with masks of the ranks (bit ``r`` for rank ``r``,
2..14) a spot accepts: :func:`rank_mask` and :func:`spot_masks`, cached by the ranks involved.
"""

from __future__ import annotations

from typing import Any

from .bound import ALL, Bound, shift
from .rules import RANK, SPOT_SIZE

RANKS = range(2, 15)
_MASKS: dict[tuple[int, ...], int] = {}
_SPOT_MASKS: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}
MEMORY = 20_000
"""Positions a :class:`Finisher` keeps between listings (about 90 bytes each); more are dropped."""


def rank_mask(size: int, ranks: tuple[int, ...]) -> int:
    """Ranks ``r`` such that ``ranks`` plus ``r`` can still become a run in a spot of ``size``."""
    key = (size, *ranks)
    found = _MASKS.get(key)
    if found is None:
        found = 0 if ranks else ALL
        for r in RANKS if ranks and len(set(ranks)) == len(ranks) else ():
            if r in ranks:
                continue
            low, high = min(r, *ranks), max(r, *ranks)
            if high - low < size:
                found |= 1 << r
        _MASKS[key] = found
    return found


def spot_masks(size: int, ranks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """(ranks an open slot takes, ranks that may take each slot's place) for a spot of
    ``size`` holding ``ranks``; cached."""
    key = (size, *ranks)
    found = _SPOT_MASKS.get(key)
    if found is None:
        found = _SPOT_MASKS[key] = (rank_mask(size, ranks) if len(ranks) < size else 0,
                                    tuple(rank_mask(size, ranks[:i] + ranks[i + 1:]) for i in range(len(ranks))))
    return found


def spot_state(size: int, opened: bool, first: tuple[int, ...], code: int) -> tuple[int, tuple, bool]:
    """A spot of ``size`` whose slots first held ranks ``first`` (with an open slot if
    ``opened``), when its slots' part of a board's code is ``code``: (the ranks its open slot
    takes, 0 when it has none; by rank ``r`` in the air, the steps into the spot: ``(its
    slot, counting from 0, the slot's four bits of code then, the ranks the open slot then
    takes)``; whether a step into it changes what its open slot takes)."""
    codes = [code >> 4 * i & 15 for i in range(len(first))]
    ranks = [0 if size == 1 else c or f for c, f in zip(codes, first)]
    accept, replace = spot_masks(size, tuple(ranks))
    reshapes = opened and size > 1
    steps = []
    for r in range(15):
        row = []
        for i, c in enumerate(codes):
            if c or not replace[i] >> r & 1:
                continue
            after = spot_masks(size, tuple(ranks[:i] + [r] + ranks[i + 1:]))[0] if reshapes else accept
            row.append((i, r if size > 1 else 1, after))
        steps.append(tuple(row))
    return accept, tuple(steps), reshapes


_STATES: dict[tuple, tuple[int, tuple, bool]] = {}
STATES_KEPT = 5_000
"""Spot states (:func:`spot_state`) kept for every table, about 1 KB each."""


class Finisher:
    """Answers "can the card in the air still end the chain on an open slot?" for every
    step of one turn: built from the side as the turn began, kept until a card lands.

    A board of the turn is the side as it began with some slots *frozen*: each holds a
    card placed this turn (which may not move again) instead of its first card; the
    others hold their first card. A chain is a path through unfrozen slots, and it may
    come back to a spot with another card (RULINGS §6). What a spot accepts depends only
    on its ranks, and a single spot accepts anything and never has an open slot while
    occupied, so a board is its *code*: four bits a slot (slot ``g`` at bit ``4 g``), 0
    for an unfrozen slot, else the rank placed there (1 in a single, whose rank never
    matters). A search position is a code and the rank in the air.

    The search works on one board at a time (:attr:`states`, :attr:`lanes_frozen`,
    :attr:`lanes_held`), changed by a step and restored after it. Positions searched are
    remembered for the turn (:attr:`known`): a chain's steps share most of them. A table
    waiting for its player keeps at most :data:`MEMORY` of them.
    """

    __slots__ = ("first", "counts", "slots_of", "spot_of", "starts", "opened", "order", "states", "spot_keys",
                 "code", "bound", "lane_of", "lanes_frozen", "lanes_held", "known")

    def __init__(self, spots: list[list[int]]) -> None:
        first: list[int] = []
        self.slots_of: list[range] = []
        for cards in spots:
            self.slots_of.append(range(len(first), len(first) + len(cards)))
            first += [RANK[c] for c in cards]
        self.first = first
        """The rank of the card each slot (0.. by spot, then slot) held when the turn began."""
        self.spot_of = [t for t, slots in enumerate(self.slots_of) for _ in slots]
        self.starts = [slots.start for slots in self.slots_of]
        self.opened = [t for t, cards in enumerate(spots) if len(cards) < SPOT_SIZE[t]]
        self.order = self.opened + [t for t in range(len(spots)) if t not in self.opened]
        """The spots in the order the search tries steps into them: those with an open slot first
        (a chain that ends tends to pass through the spot it lands on: ~8 % fewer positions)."""
        self.spot_keys = [(SPOT_SIZE[t], t in self.opened, tuple(first[slots.start:slots.stop]))
                          for t, slots in enumerate(self.slots_of)]
        """What :func:`spot_state` needs to know about each spot besides its code."""
        self.counts = [len(cards) for cards in spots]
        self.bound: Bound | None = None
        """The upper bound of :mod:`games.quash.bound`, built when a search first needs it (most
        turns never do: a chain that can end is seen within two steps)."""
        self.lane_of = [shift(t, i) for t, n in enumerate(self.counts) for i in range(n)]
        """Where each slot's lane starts in :attr:`bound`'s packed masks."""
        self.code = 0
        """The code of the board searched."""
        self.states = [self._spot_state(t, 0) for t in range(len(spots))]
        """:meth:`_spot_state` of each spot of the board searched."""
        self.lanes_frozen = 0
        """The lanes of the frozen slots of the board searched."""
        self.lanes_held = sum(1 << f << at for f, at in zip(first, self.lane_of))
        """The rank each slot of the board searched holds, in its lane (its first card's in singles)."""
        self.known: dict[int, bool] = {}

    def _spot_state(self, t: int, code: int) -> tuple[int, tuple, bool]:
        """:func:`spot_state` of spot ``t`` when its slots' part of a board's code is ``code``."""
        key = (self.spot_keys[t], code)
        found = _STATES.get(key)
        if found is None:
            if len(_STATES) >= STATES_KEPT:
                _STATES.clear()
            found = _STATES[key] = spot_state(*key[0], code)
        return found

    def board(self, spots: list[list[int]], chain: list[tuple[int, int, int]]) -> int:
        """Set the board searched to ``spots``, where the open chain (``chain``: its steps) has
        placed its cards; returns its code."""
        code = 0
        starts = self.starts
        for card, s, _ in chain:  # each card placed this turn is still where its step put it
            code |= (RANK[card] if SPOT_SIZE[s] > 1 else 1) << 4 * (starts[s] + spots[s].index(card))
        self._set(code)
        return code

    def _set(self, code: int) -> None:
        """Make ``code`` the board searched (a chain's next listing changes one slot: only the
        slots whose code changed are looked at)."""
        diff = code ^ self.code
        if not diff:
            return
        self.code = code
        first, lane_of, spot_of, slots_of = self.first, self.lane_of, self.spot_of, self.slots_of
        lanes_frozen, lanes_held = self.lanes_frozen, self.lanes_held
        touched = set()
        while diff:
            g = ((diff & -diff).bit_length() - 1) >> 2
            diff &= ~(15 << 4 * g)
            c = code >> 4 * g & 15
            at = lane_of[g]
            lanes_held = lanes_held & ~(0xFFFF << at) | 1 << (c if c > 1 else first[g]) << at
            if c:
                lanes_frozen |= 0xFFFF << at
            else:
                lanes_frozen &= ~(0xFFFF << at)
            touched.add(spot_of[g])
        self.lanes_frozen, self.lanes_held = lanes_frozen, lanes_held
        for t in touched:
            slots = slots_of[t]
            self.states[t] = self._spot_state(t, code >> 4 * slots.start & (1 << 4 * len(slots)) - 1)

    def landing(self) -> int:
        """The ranks an open slot of the board searched takes."""
        land = 0
        for t in self.opened:
            land |= self.states[t][0]
        return land

    def finishing(self, code: int, r: int) -> list[int]:
        """The slots a card of rank ``r`` in the air may take on the board searched (whose code
        is ``code``), displacing the card there, such that the chain can still end; in slot order."""
        out = []
        for g, v, direct in self._steps(r, True)[1]:
            if direct or self._after(code, g, v):
                out.append(g)
        if len(self.known) > MEMORY:
            self.known.clear()
        out.sort()
        return out

    def _after(self, code: int, g: int, v: int) -> bool:
        """Whether the chain can end after the step into slot ``g`` (``v``: its code then):
        whether the card displaced there can end it from the board the step leaves."""
        code |= v << 4 * g
        r = self.first[g]
        key = code << 4 | r
        known = self.known.get(key)
        if known is not None:
            return known
        t = self.spot_of[g]
        states = self.states
        state, lanes_frozen, lanes_held = states[t], self.lanes_frozen, self.lanes_held
        slots = self.slots_of[t]
        at = self.lane_of[g]
        states[t] = self._spot_state(t, code >> 4 * slots.start & (1 << 4 * len(slots)) - 1)
        self.lanes_frozen = lanes_frozen | 0xFFFF << at
        if v > 1:  # a single's lane keeps its first card: no other lane looks at it
            self.lanes_held = lanes_held & ~(0xFFFF << at) | 1 << v << at
        known = self.known[key] = self._search(code, r)
        states[t], self.lanes_frozen, self.lanes_held = state, lanes_frozen, lanes_held
        return known

    def _steps(self, r: int, every: bool = False) -> tuple[bool, list[tuple[int, int, bool]]]:
        """(whether a card of rank ``r`` in the air lands on an open slot at once, and the
        slots it may take instead, spot by spot in :attr:`order`: (slot, its code then, whether
        the card it displaces then lands at once)). Unless ``every``, ``(True, [])`` as soon as
        the chain is seen to end within two steps."""
        states = self.states
        first = self.first
        opened = self.opened
        starts = self.starts
        land = 0
        for t in opened:
            land |= states[t][0]
        if land >> r & 1 and not every:
            return True, []
        steps: list[Any] = []
        append = steps.append
        for t in self.order:
            _, by_rank, reshapes = states[t]
            row = by_rank[r]
            if not row:
                continue
            start = starts[t]
            if reshapes:
                rest = 0
                for u in opened:
                    if u != t:
                        rest |= states[u][0]
                for i, v, after in row:
                    g = start + i
                    direct = (rest | after) >> first[g] & 1
                    if direct and not every:
                        return True, []
                    append((g, v, direct))
            else:
                for i, v, _ in row:
                    g = start + i
                    direct = land >> first[g] & 1
                    if direct and not every:
                        return True, []
                    append((g, v, direct))
        return bool(land >> r & 1), steps

    def _search(self, code: int, r: int) -> bool:
        """Whether a card of rank ``r`` in the air can end the chain from the board searched
        (whose code is ``code``)."""
        ends, steps = self._steps(r)
        if ends:  # most chains that can end do so within two steps: seen before anything costly
            return True
        if not steps:
            return False
        bound = self.bound
        if bound is None:
            bound = self.bound = Bound(self.counts, self.first)
        may_end = bound.may_end(self.lanes_frozen, self.lanes_held, r, self.landing())
        if not may_end:
            return False
        first = self.first
        for g, v, _ in steps:
            # the bound here also bounds every board after this step
            if may_end >> first[g] & 1 and self._after(code, g, v):
                return True
        return False


__all__ = ["ALL", "Finisher", "rank_mask", "spot_masks", "spot_state"]
