"""Placements and advanced play's swap chains, one placement at a time (RULINGS §6).

A swap chain is played step by step within one turn: a hand card goes onto an
occupied slot of the side's spot, naming the card it displaces; that card is
then *in the air* and must be placed in turn, onto an open slot (the turn
ends) or onto another occupied slot (displacing again). Rulings:

- a card moves at most once a turn and never back to the hand: a card placed
  this turn can't be displaced again. Nothing else limits a chain: it may be
  as long as the board allows and pass through a spot again with another card,
  and a displaced card may even go to an open slot of the spot it left;
- every placement keeps its spot able to become a run
  (:func:`games.quash.rules.fits`); single spots take anything;
- a step is offered (and accepted) only when the chain can still end on an
  open slot from there (:class:`Finisher`), so a chain never dead-ends;
- when no placement or chain keeps a run possible, any hand card may go on
  any open slot (free placement), and no chain is allowed that turn.

Fitting is computed on ranks only, with masks of the ranks (bit ``r`` for rank
``r``, 2..14) a spot accepts: :func:`accepts` for an open slot and
:func:`replaces` for one occupied slot. Both are cached by the ranks involved.
"""

from __future__ import annotations

from typing import Sequence

from ..cards import PRETTY
from .actions import PLACE, swap_step
from .rules import RANK, SPOT_SIZE, SPOTS

_RANGE = range(SPOTS)
_ACCEPT: dict[tuple[int, ...], int] = {}
_RANKS = range(2, 15)
_ALL = sum(1 << r for r in _RANKS)


def _mask(size: int, ranks: tuple[int, ...]) -> int:
    """Ranks ``r`` such that ``ranks`` plus ``r`` can still become a run in a spot of ``size``."""
    key = (size, *ranks)
    found = _ACCEPT.get(key)
    if found is None:
        found = 0 if ranks else _ALL
        for r in _RANKS if ranks else ():
            if r in ranks:
                continue
            low, high = min(r, *ranks), max(r, *ranks)
            if high - low < size:
                found |= 1 << r
        _ACCEPT[key] = found
    return found


def accepts(cards: Sequence[int], size: int) -> int:
    """The rank mask an open slot of this spot accepts (0 when the spot is full)."""
    if len(cards) >= size:
        return 0
    if size == 1:
        return _ALL
    return _mask(size, tuple(RANK[c] for c in cards))


def replaces(cards: Sequence[int], i: int, size: int) -> int:
    """The rank mask that may take the place of ``cards[i]``."""
    if size == 1:
        return _ALL
    return _mask(size, tuple(RANK[c] for j, c in enumerate(cards) if j != i))


_SPOT_INFO: dict[tuple[int, ...], tuple[int, tuple[tuple[int, int, int], ...]]] = {}
_SPOT_INFO_LIMIT = 100_000


def spot_info(t: int, cards: list[int]) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """(the rank mask an open slot of spot ``t`` accepts, ``(t, card, ranks that may take
    its place)`` for each card there); cached, as a spot's cards change rarely."""
    key = (t, *cards)
    found = _SPOT_INFO.get(key)
    if found is None:
        if len(_SPOT_INFO) >= _SPOT_INFO_LIMIT:
            _SPOT_INFO.clear()
        size = SPOT_SIZE[t]
        found = _SPOT_INFO[key] = (accepts(cards, size),
                                   tuple((t, z, replaces(cards, i, size)) for i, z in enumerate(cards)))
    return found


class Finisher:
    """Answers "can the card in the air still end the chain on an open slot?" for the
    steps of one turn that start from the same board.

    The look-ahead enters each spot at most once (a chain actually played may come back
    to a spot: the look-ahead starts again from the board after every step). Then every
    spot it may enter still holds its cards of the board it started from, so whether a
    card may land on or displace into a spot is known in advance, and a search position
    is just (the spots entered, the card in the air): at most 512 × 18 of them, each
    searched once for all the steps of the turn.
    """

    __slots__ = ("accept", "slots", "paths", "hopeful", "failed", "landings", "bounds")

    def __init__(self, spots: list[list[int]], moved: set[int]) -> None:
        infos = [spot_info(t, cards) for t, cards in enumerate(spots)]
        self.accept = accept = [info[0] for info in infos]
        self.slots = slots = [slot for info in infos for slot in info[1] if slot[1] not in moved]
        # Ranks that could finish if entering a spot twice were allowed: a quick upper bound.
        hopeful = 0
        for mask in accept:
            hopeful |= mask
        grown = True
        while grown:
            grown = False
            for _, z, ok in slots:
                if hopeful >> RANK[z] & 1 and ok & ~hopeful:
                    hopeful |= ok
                    grown = True
        self.hopeful = hopeful
        self.paths = [slot for slot in slots if hopeful >> RANK[slot[1]] & 1]
        self.failed: set[tuple[int, int]] = set()
        self.landings: dict[int, int] = {}
        self.bounds: dict[int, int] = {}

    def elsewhere(self, t: int, flying: int) -> bool:
        """Whether ``flying``, just displaced from spot ``t``, can end the chain without
        coming back to spot ``t``. (Back onto an open slot of spot ``t`` it fits exactly
        when the card that displaced it could have gone there: the caller checks that.)"""
        r = RANK[flying]
        entered = 1 << t
        return bool(self._landing(entered) >> r & 1) or self._finish(flying, r, entered)

    def _finish(self, flying: int, r: int, entered: int) -> bool:
        if not self._hopeful(entered) >> r & 1:
            return False
        key = (entered, flying)
        if key in self.failed:
            return False
        for t, z, ok in self.paths:
            if ok >> r & 1 and not entered >> t & 1:
                next_entered = entered | 1 << t
                rz = RANK[z]
                if self._landing(next_entered) >> rz & 1 or self._finish(z, rz, next_entered):
                    return True
        self.failed.add(key)
        return False

    def _landing(self, entered: int) -> int:
        """Ranks an open slot of a spot not yet entered takes."""
        found = self.landings.get(entered)
        if found is None:
            found = 0
            for t, mask in enumerate(self.accept):
                if not entered >> t & 1:
                    found |= mask
            self.landings[entered] = found
        return found

    def _hopeful(self, entered: int) -> int:
        """Ranks that could finish through spots not yet entered if each could be entered
        again: an upper bound, per set of spots entered, that prunes hopeless searches."""
        found = self.bounds.get(entered)
        if found is None:
            found = self._landing(entered)
            if found:
                paths = [(RANK[z], ok) for t, z, ok in self.paths if not entered >> t & 1]
                grown = True
                while grown:
                    grown = False
                    for rz, ok in paths:
                        if found >> rz & 1 and ok & ~found:
                            found |= ok
                            grown = True
            self.bounds[entered] = found
        return found


def turn_moves(spots: list[list[int]], hand: Sequence[int]) -> tuple[list, bool]:
    """Advanced play at the start of a turn: (legal placements, free). Placements that keep
    their spot able to become a run (hand order, then spot), then the first steps of swap
    chains that can finish (hand order, spot, displaced card); when there is none at all,
    every hand card onto every open slot, with ``free`` True."""
    finisher = Finisher(spots, ())
    accept = finisher.accept
    opened = [t for t in _RANGE if len(spots[t]) < SPOT_SIZE[t]]
    out = []
    append = out.append
    for c in hand:
        r = RANK[c]
        row = PLACE[c]
        for t in opened:
            if accept[t] >> r & 1:
                append(row[t])
    ranks = 0
    for c in hand:
        ranks |= 1 << RANK[c]
    by_rank: dict[int, list[tuple[int, int]]] = {}
    for t, y, ok in finisher.slots:
        ok &= ranks
        if not ok:
            continue
        if ok & ~accept[t] and not finisher.elsewhere(t, y):
            ok &= accept[t]  # y can only go back onto an open slot of its own spot
        r = 2
        while ok >> r:
            if ok >> r & 1:
                by_rank.setdefault(r, []).append((t, y))
            r += 1
    if by_rank:
        for c in hand:
            for t, y in by_rank.get(RANK[c], ()):
                append(swap_step(c, t, y))
    if out:
        return out, False
    return open_placements(spots, hand), True


def flying_moves(spots: list[list[int]], moved: set[int], flying: int) -> list:
    """The placements of the card in the air: onto an open slot that takes it (spot order),
    then onto an occupied slot, displacing a card that hasn't moved this turn, when the
    displaced card can then finish the chain."""
    finisher = Finisher(spots, moved)
    r = RANK[flying]
    row = PLACE[flying]
    accept = finisher.accept
    out = [row[t] for t in _RANGE if accept[t] >> r & 1]
    for t, z, ok in finisher.slots:
        if ok >> r & 1 and (accept[t] >> r & 1 or finisher.elsewhere(t, z)):
            out.append(swap_step(flying, t, z))
    return out


_PLACE_ROWS: dict[int, list[tuple]] = {}


def open_placements(spots: list[list[int]], hand: Sequence[int]) -> list:
    """Every hand card onto every spot with an open slot (hand order, then spot): basic
    play, and free placement. Rows of actions are shared per set of open spots."""
    a, b, c, d, e, f, g, h, i = map(len, spots)  # sizes 3 2 1 3 2 1 3 2 1
    mask = ((a < 3) | (b < 2) << 1 | (c < 1) << 2 | (d < 3) << 3 | (e < 2) << 4 | (f < 1) << 5
            | (g < 3) << 6 | (h < 2) << 7 | (i < 1) << 8)
    rows = _PLACE_ROWS.get(mask)
    if rows is None:
        rows = _PLACE_ROWS[mask] = [tuple(row[t] for t in _RANGE if mask >> t & 1) for row in PLACE]
    out: list = []
    extend = out.extend
    for card in hand:
        extend(rows[card])
    return out


def chain_text(cards: list[int], where: list[int]) -> str:
    """Words for a placement or chain: ``9♦ to spot 4 in place of 6♣, which moved to spot 7``."""
    text = f"{PRETTY[cards[0]]} to spot {where[0] + 1}"
    for i in range(1, len(cards)):
        text += f" in place of {PRETTY[cards[i]]}, which moved to spot {where[i] + 1}"
    return text


__all__ = ["Finisher", "accepts", "chain_text", "flying_moves", "open_placements", "replaces", "turn_moves"]
