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
:func:`replaces` for one occupied slot. The search for the steps that can still
end is :class:`games.quash.finisher.Finisher`.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ..cards import PRETTY
from .actions import PLACE, swap_step
from .finisher import ALL, Finisher, rank_mask
from .rules import RANK, SPOT_SIZE, SPOTS

_RANGE = range(SPOTS)


def accepts(cards: Sequence[int], size: int) -> int:
    """The rank mask an open slot of this spot accepts (0 when the spot is full)."""
    if len(cards) >= size:
        return 0
    if size == 1:
        return ALL
    return rank_mask(size, tuple(RANK[c] for c in cards))


def replaces(cards: Sequence[int], i: int, size: int) -> int:
    """The rank mask that may take the place of ``cards[i]``."""
    if size == 1:
        return ALL
    return rank_mask(size, tuple(RANK[c] for j, c in enumerate(cards) if j != i))


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
    code = finisher.board(spots, set())
    movable = 0  # hand ranks that may displace some card
    for _, slots in infos:
        for _, _, ok in slots:
            movable |= ok
    for r in _ranks(movable & ranks):
        found = finisher.finishing(code, r)
        if found:
            by_rank[r] = found
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
    code = finisher.board(spots, {step[0] for step in chain})
    flying = chain[-1][2]
    r = RANK[flying]
    row = PLACE[flying]
    states = finisher.states
    out = [row[t] for t in finisher.opened if states[t][0] >> r & 1]
    where = [(t, z) for t, cards in enumerate(spots) for z in cards]
    for g in finisher.finishing(code, r):
        out.append(swap_step(flying, *where[g]))
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
