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

from collections.abc import Sequence

from ..cards import DECK
from ..i18n import Text, say
from .actions import PLACE, SWAPS, swap_step
from .finisher import ALL, Finisher, rank_mask
from .rules import RANK, SPOTS

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


def turn_moves(finisher: Finisher, spots: list[list[int]], hand: Sequence[int]) -> tuple[list, bool]:
    """Advanced play at the start of a turn (``finisher`` built from this board): (legal
    placements, free). Placements that keep their spot able to become a run (hand order,
    then spot), then the first steps of swap chains that can finish (hand order, spot,
    displaced card); when there is none at all, every hand card onto every open slot,
    with ``free`` True."""
    code = finisher.board(spots, [])
    states = finisher.states
    ranks = 0
    for c in hand:
        ranks |= 1 << RANK[c]
    where = [0] * 15  # by rank, the spots (a bit each) whose open slot takes it
    for t in finisher.opened:
        for r in _ranks(states[t][0] & ranks):
            where[r] |= 1 << t
    out: list = []
    extend = out.extend
    for c in hand:
        mask = where[RANK[c]]
        if mask:
            extend(_place_rows(mask)[c])
    by_rank: dict[int, list[int]] = {}  # by rank, the (spot, displaced card) of its first steps
    spot_of, starts = finisher.spot_of, finisher.starts
    for r in _ranks(ranks):
        found = finisher.finishing(code, r)
        if found:
            by_rank[r] = [spot_of[g] * 52 + spots[spot_of[g]][g - starts[spot_of[g]]] for g in found]
    if by_rank:
        append = out.append
        for c in hand:
            steps = by_rank.get(RANK[c])
            if steps:
                k = c * SPOTS * 52
                for step in steps:
                    append(SWAPS[k + step] or swap_step(c, step // 52, step % 52))
    if out:
        return out, False
    return open_placements(spots, hand), True


def flying_moves(finisher: Finisher, spots: list[list[int]], chain: list[tuple[int, int, int]]) -> list:
    """The placements of the card in the air (``chain``: the open chain's steps; ``finisher``:
    the turn's): onto an open slot that takes it (spot order), then onto an occupied slot,
    displacing a card that hasn't moved this turn, when the displaced card can then finish
    the chain."""
    code = finisher.board(spots, chain)
    flying = chain[-1][2]
    r = RANK[flying]
    row = PLACE[flying]
    states = finisher.states
    out = [row[t] for t in finisher.opened if states[t][0] >> r & 1]
    found = finisher.finishing(code, r)
    if found:
        spot_of, starts = finisher.spot_of, finisher.starts
        for g in found:
            t = spot_of[g]
            out.append(swap_step(flying, t, spots[t][g - starts[t]]))
    return out


_RANKS_IN: dict[int, tuple[int, ...]] = {}


def _ranks(mask: int) -> tuple[int, ...]:
    """The ranks in a rank mask, low to high (shared tuples: at most 2**13 masks)."""
    found = _RANKS_IN.get(mask)
    if found is None:
        found = _RANKS_IN[mask] = tuple(r for r in range(2, 15) if mask >> r & 1)
    return found


_PLACE_ROWS: dict[int, list[tuple]] = {}


def _place_rows(mask: int) -> list[tuple]:
    """By card, its placements onto the spots of ``mask`` (a bit each), in spot order; shared."""
    rows = _PLACE_ROWS.get(mask)
    if rows is None:
        rows = _PLACE_ROWS[mask] = [tuple(row[t] for t in _RANGE if mask >> t & 1) for row in PLACE]
    return rows


def open_placements(spots: list[list[int]], hand: Sequence[int]) -> list:
    """Every hand card onto every spot with an open slot (hand order, then spot): basic
    play, and free placement. Rows of actions are shared per set of open spots."""
    a, b, c, d, e, f, g, h, i = map(len, spots)  # sizes 3 2 1 3 2 1 3 2 1
    mask = ((a < 3) | (b < 2) << 1 | (c < 1) << 2 | (d < 3) << 3 | (e < 2) << 4 | (f < 1) << 5
            | (g < 3) << 6 | (h < 2) << 7 | (i < 1) << 8)
    rows = _place_rows(mask)
    out: list = []
    extend = out.extend
    for card in hand:
        extend(rows[card])
    return out


def chain_text(cards: list[int], where: list[int]) -> Text:
    """A placement or chain as arrows, each card to its spot: ``9♦→4 ⇒ 6♣→7`` (9♦ onto spot 4,
    displacing 6♣, which went onto spot 7): short enough for a phone's line."""
    text = say("{card}→{number}", card=DECK[cards[-1]], number=where[-1] + 1)
    for card, spot in zip(reversed(cards[:-1]), reversed(where[:-1])):
        text = say("{card}→{number} ⇒ {chain}", card=DECK[card], number=spot + 1, chain=text)
    return text


__all__ = ["Finisher", "accepts", "chain_text", "flying_moves", "open_placements", "replaces", "turn_moves"]
