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

from typing import Iterator, Sequence

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
        for r in _RANKS if ranks and len(set(ranks)) == len(ranks) else ():
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


_SPOT_MASKS: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}


def _spot_masks(size: int, ranks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """(ranks an open slot takes, ranks that may take each slot's place) for a spot of
    ``size`` holding ``ranks``; cached."""
    key = (size, *ranks)
    found = _SPOT_MASKS.get(key)
    if found is None:
        found = _SPOT_MASKS[key] = (_mask(size, ranks) if len(ranks) < size else 0,
                                    tuple(_mask(size, ranks[:i] + ranks[i + 1:]) for i in range(len(ranks))))
    return found


def _shape(g: int, size: int, slots: range) -> tuple[int, int, int, int]:
    """Slot ``g`` of a spot of ``size`` whose slots are ``slots``, for :attr:`Finisher.shapes`."""
    others = [h for h in slots if h != g]
    shape = 0 if size == 1 else 4 if not others else len(others) + (size == 3)
    return (g, shape, *others, -1, -1)[:4]


def _span(t: int, slots: range, first: list[int], opened: bool) -> tuple:
    """Spot ``t`` for :attr:`Finisher.spans`; ``first`` holds the ranks as the turn began."""
    size = SPOT_SIZE[t]
    masks = _spot_masks(size, tuple(0 if size == 1 else first[g] for g in slots))
    key = (slots.start, masks[1])
    takers = _TAKERS.get(key)
    if takers is None:
        if len(_TAKERS) >= _SPOT_INFO_LIMIT:
            _TAKERS.clear()
        takers = _TAKERS[key] = tuple(tuple(g for g, ok in zip(slots, masks[1]) if ok >> r & 1) for r in range(15))
    return size, slots.start, slots.stop, opened, sum(1 << g for g in slots), masks, takers


_TAKERS: dict[tuple, tuple[tuple[int, ...], ...]] = {}
"""Shared by every table: the slots a rank may take, by a spot's first slot and masks."""


class Finisher:
    """Answers "can the card in the air still end the chain on an open slot?" for every
    step of one turn: built from the side as the turn began, kept until a card lands.

    A board of the turn is the side as it began with some slots *frozen*: each holds a
    card placed this turn (which may not move again) instead of its first card; the
    others hold their first card. A chain is a path through unfrozen slots, and it may
    come back to a spot with another card (RULINGS §6). What a spot accepts depends only
    on its ranks, and a single spot accepts anything and never has an open slot while
    occupied, so a search position is (the frozen slots, the ranks placed in frozen
    double and triple slots, the rank in the air). Positions searched are remembered
    while one listing of moves is built, then dropped (:attr:`known`): there may be
    thousands, and a table waiting for its player should hold none of them.
    """

    __slots__ = ("first", "slots_of", "shapes", "opened", "spans", "known")

    def __init__(self, spots: list[list[int]]) -> None:
        first: list[int] = []
        self.slots_of: list[range] = []
        for cards in spots:
            self.slots_of.append(range(len(first), len(first) + len(cards)))
            first += [RANK[c] for c in cards]
        self.first = first
        """The rank of the card each slot (0.. by spot, then slot) held when the turn began."""
        self.shapes = [_shape(g, SPOT_SIZE[t], slots) for t, slots in enumerate(self.slots_of) for g in slots]
        """(slot, what fits there depends on: 0 nothing (a single), 1 a double's other slot, 2 a
        triple's one other slot, 3 a triple's two other slots, 4 nothing (alone in its spot),
        then those other slots, -1 for none) for every slot."""
        self.opened = [t for t in _RANGE if len(spots[t]) < SPOT_SIZE[t]]
        self.spans = [_span(t, slots, first, t in self.opened) for t, slots in enumerate(self.slots_of)]
        """(size, first slot, end slot, whether it has an open slot, its slots as bits, its
        :func:`_spot_masks` as the turn began, and by rank the slots a card of that rank may
        then take) for every spot."""
        self.known: dict[tuple, bool] = {}

    def board(self, spots: list[list[int]], moved: set[int]) -> tuple[int, list[int]]:
        """(frozen slots as bits, the ranks the search sees in each slot) of the board ``spots``,
        ``moved`` holding the cards placed this turn. Single slots show 0: their rank never matters."""
        frozen = 0
        held = []
        g = 0
        for t, cards in enumerate(spots):
            single = SPOT_SIZE[t] == 1
            for c in cards:
                if c in moved:
                    frozen |= 1 << g
                held.append(0 if single else RANK[c])
                g += 1
        return frozen, held

    def masks(self, t: int, held: list[int]) -> tuple[int, tuple[int, ...]]:
        """:func:`_spot_masks` of spot ``t`` on the board ``held``."""
        slots = self.slots_of[t]
        return _spot_masks(SPOT_SIZE[t], tuple(held[slots.start:slots.stop]))

    def finishing(self, frozen: int, held: list[int], r: int) -> list[int]:
        """The slots a card of rank ``r`` in the air may take (displacing the card there) such
        that the chain can still end, in slot order. ``held`` is changed while searching and
        restored. Positions searched are remembered until the caller clears :attr:`known`."""
        first = self.first
        out = []
        for g, h, direct in self._scan(frozen, held, r, True)[1]:
            if not direct:
                held[g] = h
                direct = self.finishes(frozen | 1 << g, held, first[g])
                held[g] = h and first[g]
            if direct:
                out.append(g)
        return out

    def _scan(self, frozen: int, held: list[int], r: int,
              every: bool = False) -> tuple[bool, list[tuple[int, int, bool]]]:
        """(whether a card of rank ``r`` in the air lands on an open slot at once, and the
        slots it may take instead: (slot, what the board then shows there, whether the card
        it displaces then lands at once)). Unless ``every``, ``(True, [])`` as soon as the
        chain is seen to end within two steps.
        A spot no step has touched (no frozen slot) shows its first cards: its masks are
        the turn's."""
        first = self.first
        spans = self.spans
        accepts = []  # (spot, what its open slots take) for each spot with an open slot
        land = 0
        for t in self.opened:
            size, start, stop, _, bits, m, _ = spans[t]
            accept = _spot_masks(size, tuple(held[start:stop]))[0] if frozen & bits else m[0]
            accepts.append((t, accept))
            land |= accept
        if land >> r & 1 and not every:
            return True, []
        steps = []
        append = steps.append
        for t, (size, start, stop, opened, bits, m, takers) in enumerate(spans):
            if frozen & bits:
                replace = _spot_masks(size, tuple(held[start:stop]))[1]
                slots = [g for g, ok in zip(range(start, stop), replace) if ok >> r & 1 and not frozen >> g & 1]
            else:
                slots = takers[r]
            if not slots:
                continue
            if opened and size > 1:
                rest = 0
                for u, accept in accepts:
                    if u != t:
                        rest |= accept
                for g in slots:
                    held[g] = r
                    after = rest | _spot_masks(size, tuple(held[start:stop]))[0]
                    held[g] = first[g]
                    if after >> first[g] & 1 and not every:
                        return True, []
                    append((g, r, bool(after >> first[g] & 1)))
            else:  # the spot's open slots (if any) are not affected: a single never has one while occupied
                shown = 0 if size == 1 else r  # and a single's rank never matters
                for g in slots:
                    if land >> first[g] & 1 and not every:
                        return True, []
                    append((g, shown, bool(land >> first[g] & 1)))
        return bool(land >> r & 1), steps

    def finishes(self, frozen: int, held: list[int], r: int) -> bool:
        """Whether a card of rank ``r`` in the air can end the chain from this board.
        ``held`` is changed while searching and restored."""
        key = (frozen, r, *held)
        known = self.known.get(key)
        if known is None:
            known = self.known[key] = self._search(frozen, held, r)
        return known

    def _search(self, frozen: int, held: list[int], r: int) -> bool:
        ends, steps = self._scan(frozen, held, r)
        if ends:  # most chains that can end do so within two steps: seen before anything costly
            return True
        may_end = self._may_end(frozen, held, r) if steps else 0
        if not may_end:
            return False
        first = self.first
        finishes = self.finishes
        for g, h, _ in steps:
            if may_end >> first[g] & 1:  # the bound here also bounds every board after this step
                held[g] = h
                found = finishes(frozen | 1 << g, held, first[g])
                held[g] = h and first[g]
                if found:
                    return True
        return False

    def _may_end(self, frozen: int, held: list[int], r: int) -> int:
        """An upper bound for :meth:`finishes` that spares it most hopeless searches: the ranks
        that might end the chain if in the air on this board, when the rank ``r`` is in the
        air now (0 when ``r`` itself can't): a rank not in it can't, here or on any board a
        chain from here leads to (freezing slots only takes choices away). A slot may come to
        hold its card, or (unfrozen) a rank that may be in the air and fits beside some
        ranks the spot's other slots may hold; a slot's first card may be in the air when
        some rank that may be in the air fits in its place. Then, backwards from the ranks
        that may land on an open slot, the ranks that may displace a card of such a rank."""
        first = self.first
        may = [1 << (h or f) for h, f in zip(held, first)]
        air = 1 << r
        layout = []
        displacing = []  # (bit of a slot's first rank, ranks that may ever take its place)
        for slot in self.shapes:
            g = slot[0]
            if not frozen >> g & 1:
                if slot[1]:
                    layout.append(slot)
                else:  # a single slot takes any rank in the air: its card may fly at once
                    air |= 1 << first[g]
                    displacing.append((1 << first[g], _ALL))
        fit = [0] * len(may)
        grown = True
        while grown:
            grown = False
            for g, shape, x, y in layout:  # _fits_any, written out: this loop is the hot spot
                if shape == 1:
                    m = may[x]
                    ok = m << 1 | m >> 1
                elif shape == 2:
                    m = may[x]
                    ok = m << 1 | m >> 1 | m << 2 | m >> 2
                elif shape == 3:
                    a = may[x]
                    b = may[y]
                    ok = (a >> 1 & b >> 2 | a >> 2 & b >> 1 | a << 1 & b >> 1 | a >> 1 & b << 1
                          | a << 2 & b << 1 | a << 1 & b << 2)
                else:
                    ok = _ALL
                fit[g] = ok
                ok &= air
                if ok & ~may[g] or ok and not air >> first[g] & 1:
                    may[g] |= ok
                    air |= 1 << first[g]
                    grown = True
        found = 0
        for t in self.opened:
            found |= _fits_any(SPOT_SIZE[t], [may[h] for h in self.slots_of[t]])
        # the last pass above changed nothing, so its fits are final
        displacing += [(1 << first[g], fit[g]) for g, _, _, _ in layout]
        grown = True
        while grown:
            grown = False
            for bit, ok in displacing:
                if found & bit and ok & ~found:
                    found |= ok
                    grown = True
        return found if found >> r & 1 else 0


def _fits_any(size: int, held: list[int]) -> int:
    """Ranks that fit in a spot of ``size`` beside some choice of one rank from each mask in ``held``
    (at most two masks: a triple's other slots). By shifts: with one mask, a rank one away (two
    in a triple) on either side; with two, the three ranks must be consecutive and distinct."""
    if not held:
        return _ALL
    if len(held) == 1:
        m = held[0]
        near = m << 1 | m >> 1
        if size == 3:
            near |= m << 2 | m >> 2
        return near & _ALL
    a, b = held
    return (a >> 1 & b >> 2 | a >> 2 & b >> 1 | a << 1 & b >> 1 | a >> 1 & b << 1
            | a << 2 & b << 1 | a << 1 & b << 2) & _ALL


def turn_moves(finisher: Finisher, spots: list[list[int]], hand: Sequence[int]) -> tuple[list, bool]:
    """Advanced play at the start of a turn (``finisher`` built from this board): (legal
    placements, free). Placements that keep their spot able to become a run (hand order,
    then spot), then the first steps of swap chains that can finish (hand order, spot,
    displaced card); when there is none at all, every hand card onto every open slot,
    with ``free`` True."""
    infos = [spot_info(t, cards) for t, cards in enumerate(spots)]
    opened = [t for t in _RANGE if len(spots[t]) < SPOT_SIZE[t]]
    out = []
    append = out.append
    ranks = 0
    for c in hand:
        r = RANK[c]
        ranks |= 1 << r
        row = PLACE[c]
        for t in opened:
            if infos[t][0] >> r & 1:
                append(row[t])
    by_rank: dict[int, list[int]] = {}
    _, held = finisher.board(spots, set())
    movable = 0  # hand ranks that may displace some card
    for _, slots in infos:
        for _, _, ok in slots:
            movable |= ok
    for r in _ranks(movable & ranks):
        found = finisher.finishing(0, held, r)
        if found:
            by_rank[r] = found
    finisher.known.clear()
    if by_rank:
        where = [(t, y) for t, cards in enumerate(spots) for y in cards]
        for c in hand:
            for g in by_rank.get(RANK[c], ()):
                append(swap_step(c, *where[g]))
    if out:
        return out, False
    return open_placements(spots, hand), True


def flying_moves(finisher: Finisher, spots: list[list[int]], chain: list[tuple[int, int, int]]) -> list:
    """The placements of the card in the air (``chain``: the open chain's steps; ``finisher``:
    the turn's): onto an open slot that takes it (spot order), then onto an occupied slot,
    displacing a card that hasn't moved this turn, when the displaced card can then finish
    the chain."""
    frozen, held = finisher.board(spots, {step[0] for step in chain})
    flying = chain[-1][2]
    r = RANK[flying]
    row = PLACE[flying]
    out = [row[t] for t in finisher.opened if finisher.masks(t, held)[0] >> r & 1]
    where = [(t, z) for t, cards in enumerate(spots) for z in cards]
    for g in finisher.finishing(frozen, held, r):
        out.append(swap_step(flying, *where[g]))
    finisher.known.clear()
    return out


def _ranks(mask: int) -> Iterator[int]:
    """The ranks in a rank mask, low to high."""
    r = 2
    while mask >> r:
        if mask >> r & 1:
            yield r
        r += 1


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
