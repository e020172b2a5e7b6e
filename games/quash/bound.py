"""The upper bound that spares QUASH's chain search (:mod:`games.quash.finisher`) most
hopeless searches, computed for every slot at once.

The rank masks (bit ``r`` for rank ``r``, 2..14) of a side's slots are packed in one
integer, sixteen bits a *lane*: spot ``t``'s ``i``-th card is lane ``3 t + i``, and the lane
just past a spot's cards stands for its open slot. Python's integers then do for every slot
at once what a loop would do for each: shifting masks by a rank or two, rotating the lanes
of each spot to see its other slots, finding the lanes that hold some rank. Ranks never use
bits 0, 1 or 15 of a lane, so shifting by one or two ranks mixes no lanes once the result is
masked with :data:`LANE_RANKS`.
"""

from __future__ import annotations

from .rules import SPOT_SIZE

WIDTH = 16
LANES = 32
"""Room for the 27 lanes (three a spot), a power of two for :func:`fold`."""
ONES = sum(1 << WIDTH * i for i in range(LANES))
ALL = sum(1 << r for r in range(2, 15))
"""Every rank: what a single spot (or a spot's only card) accepts."""
LANE_RANKS = ALL * ONES
"""Every rank in every lane."""
_SPOT_STARTS = sum(0xFFFF << WIDTH * 3 * t for t in range(9))
_FIRST, _SECOND, _THIRD = _SPOT_STARTS, _SPOT_STARTS << WIDTH, _SPOT_STARTS << 2 * WIDTH
_ADD = 0x7FFF * ONES
_TOP = 0x8000 * ONES
"""``((m + _ADD & _TOP) >> 15) * 0xFFFF`` is all ones in each lane of ``m`` holding some rank (bits
2..14 at most, so the sum carries into bit 15 and never further) and zeros elsewhere."""


def shift(t: int, i: int) -> int:
    """Where spot ``t``'s ``i``-th lane starts."""
    return WIDTH * (3 * t + i)


def fold(m: int) -> int:
    """The ranks in any lane of ``m``."""
    m |= m >> 256
    m |= m >> 128
    m |= m >> 64
    m |= m >> 32
    m |= m >> 16
    return m & 0xFFFF


def _closure(found: int, firsts: int, fits: int) -> int:
    """``found`` and, until none is added, the ranks that may take the place (lanes of ``fits``)
    of a card whose rank is in it (lanes of ``firsts``)."""
    while True:
        m = fits & (((firsts & found * ONES) + _ADD & _TOP) >> 15) * 0xFFFF
        m |= m >> 256  # fold, written out: this loop and the one in may_end are the hot spots
        m |= m >> 128
        m |= m >> 64
        m |= m >> 32
        m |= m >> 16
        if not m & ~found & 0xFFFF:
            return found
        found |= m & 0xFFFF


class Bound:
    """The lanes of one side as a turn began, and the bound (:meth:`may_end`)."""

    __slots__ = ("firsts", "occupied", "singles", "reshaping", "open_lanes", "next_other", "after_other",
                 "near", "wide", "pair", "free")
    firsts: int
    occupied: int
    singles: int
    reshaping: int
    open_lanes: int
    next_other: int
    after_other: int
    near: int
    wide: int
    pair: int
    free: int

    def __init__(self, counts: list[int], first: list[int]) -> None:
        """``counts``: the cards in each spot; ``first``: each slot's rank (by spot, then card)."""
        lanes = {name: 0 for name in self.__slots__}
        g = 0
        for t, n in enumerate(counts):
            size = SPOT_SIZE[t]
            for i in range(min(n + 1, size)):
                bits = 0xFFFF << shift(t, i)
                others = n - (i < n)  # the cards beside this slot, or beside a card put on it
                if i < n:
                    lanes["firsts"] |= 1 << first[g] << shift(t, i)
                    lanes["occupied"] |= bits
                    if size == 1:
                        lanes["singles"] |= bits
                    elif n < size:
                        lanes["reshaping"] |= bits
                    g += 1
                else:
                    lanes["open_lanes"] |= bits
                if size == 1 or not others:
                    lanes["free"] |= ALL << shift(t, i)
                elif others == 2:
                    lanes["pair"] |= bits
                else:  # the other card is the next lane's for a spot's first slot, else the first's
                    lanes["next_other" if i == 0 else "after_other"] |= bits
                    lanes["near" if size == 2 else "wide"] |= bits
        for name, bits in lanes.items():
            setattr(self, name, bits)

    def fits(self, may: int) -> int:
        """By lane, the ranks that fit beside some ranks the spot's other lanes may hold (``may``)."""
        a = (may >> WIDTH) & (_FIRST | _SECOND) | (may << 2 * WIDTH) & _THIRD  # the next lane's
        b = (may >> 2 * WIDTH) & _FIRST | (may << WIDTH) & (_SECOND | _THIRD)  # the lane after
        one = a & self.next_other | b & self.after_other
        near = one << 1 | one >> 1
        return (near & self.near | (near | one << 2 | one >> 2) & self.wide
                | (a >> 1 & b >> 2 | a >> 2 & b >> 1 | a << 1 & b >> 1 | a >> 1 & b << 1
                   | a << 2 & b << 1 | a << 1 & b << 2) & self.pair) & LANE_RANKS | self.free

    def may_end(self, frozen: int, may: int, r: int, land: int) -> int:
        """The ranks that might end the chain if in the air (0 when ``r``, the rank in the air,
        can't): a rank not in it can't, here or on any board a chain from here leads to
        (freezing slots only takes choices away). ``frozen``: the lanes of the frozen slots;
        ``may``: the rank each occupied lane holds; ``land``: the ranks that land now.

        Forwards: a slot may come to hold its card, or (unfrozen) a rank that may be in the
        air and fits beside some ranks the spot's other slots may hold; a slot's first card
        may be in the air when some rank that may be in the air fits in its place. Backwards
        from the ranks that may land on an open slot, the ranks that may displace a card of
        such a rank; then again from the ranks that land on a spot as it is now and the first
        cards found so far of the slots of spots with an open slot: a chain landing on a
        spot it changed flew such a card."""
        unfrozen = self.occupied & ~frozen
        firsts = self.firsts & unfrozen
        movable = unfrozen & ~self.singles
        air = 1 << r | fold(firsts & self.singles)
        fits = self.fits
        while True:
            fit = fits(may)
            grown = fit & air * ONES & movable
            m = firsts & ((grown + _ADD & _TOP) >> 15) * 0xFFFF  # first cards of the lanes grown
            m |= m >> 256
            m |= m >> 128
            m |= m >> 64
            m |= m >> 32
            m |= m >> 16
            wider = air | m & 0xFFFF
            if not grown & ~may and wider == air:
                break
            may |= grown
            air = wider
        fit &= unfrozen | self.open_lanes
        found = _closure(fold(fit & self.open_lanes), firsts, fit)
        if not found >> r & 1:
            return 0
        found = _closure(land | found & fold(firsts & self.reshaping), firsts, fit)
        return found if found >> r & 1 else 0
