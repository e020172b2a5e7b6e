"""Placements and advanced-play swap chains: listing them, checking one, and the
step-by-step helper the Discord layer builds chains with.

A chain (``swap:9D,4,6C,7``) puts a hand card on an occupied slot of a spot;
the card it displaces moves to another spot, onto an open slot or displacing
again, until a card lands on an open slot. Rulings (see the package docs):

- a chain enters each spot at most once, so it is cycle-free: every card
  moves at most once and never back to the hand, and a displaced card always
  goes to another spot than the one it left;
- a chain displaces at most :data:`MAX_DISPLACED` (2) cards, so it touches
  at most three spots. That is the source's own longest example (9♦ displaces
  6♣, 6♣ displaces another card, which lands on an open slot) and keeps the
  list of legal moves enumerable: unbounded chains reach millions of moves
  in an early advanced position (measured: 2.1 million), while with two
  displacements random 2-player games peak near 3,000 and average ~850;
- every step must leave the spot it changes able to become a run
  (:func:`games.quash.rules.fits`); single spots take anything.

Because a chain never revisits a spot, each step sees that spot as it was at
the start of the turn, so whether a card may land or displace depends only on
that spot and the card's rank: :func:`_tables` precomputes it per spot and rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

# States are typed as the base GameState (a QuashState at run time): state.py imports this module.
from ..base import GameState
from ..cards import CODE, PRETTY
from ..errors import IllegalAction, MalformedAction
from .actions import PLACE, QuashAction, card_arg, spot_arg
from .rules import KIND, RANK, SPOT_SIZE, SPOTS, fits, pretty

_RANGE = range(SPOTS)
MAX_DISPLACED = 2
"""A swap chain displaces at most this many cards (so it touches at most 3 spots).
:func:`runnable_moves` is written out for exactly this bound (two nested levels)."""


def plain_placements(spots: Sequence[Sequence[int]], hand: Sequence[int]) -> list[QuashAction]:
    """Every hand card onto every spot with an open slot (free placement)."""
    open_spots = [s for s in _RANGE if len(spots[s]) < SPOT_SIZE[s]]
    return [PLACE[c][s] for c in hand for s in open_spots]


_BY_RANK = tuple((r - 1) if r < 14 else 0 for r in range(15))
"""A card id of each QUASH rank 2..14 (placement rules only read ranks)."""


def _tables(spots: Sequence[Sequence[int]]) -> tuple[list[tuple[bool, ...]], list[list[tuple[int, tuple[bool, ...]]]]]:
    """Per spot, by incoming rank: can it land on an open slot (``land[s][r]``), and
    for each card ``d`` there, can it take ``d``'s place (``swap[s] = [(d, ok[r])…]``),
    keeping the spot able to become a run."""
    land, swap = [], []
    for s in _RANGE:
        cards = list(spots[s])
        size = SPOT_SIZE[s]
        if len(cards) < size:
            land.append(tuple(r >= 2 and fits([*cards, _BY_RANK[r]], size) for r in range(15)))
        else:
            land.append((False,) * 15)
        row = []
        for d in cards:
            rest = [c for c in cards if c != d]
            row.append((d, tuple(r >= 2 and fits([*rest, _BY_RANK[r]], size) for r in range(15))))
        swap.append(row)
    return land, swap


def runnable_moves(spots: Sequence[Sequence[int]], hand: Sequence[int]) -> list[QuashAction]:
    """Advanced play: every plain placement, and every swap chain of at most
    :data:`MAX_DISPLACED` displaced cards, that keeps each spot it changes able
    to become a run. Plain placements come first (hand order, then spot), then
    chains (by hand card, first spot, displaced card, next spot…)."""
    land, swap = _tables(spots)
    out: list[QuashAction] = []
    for h in hand:
        r = RANK[h]
        row = PLACE[h]
        for s in _RANGE:
            if land[s][r]:
                out.append(row[s])
    for h in hand:
        r = RANK[h]
        code = CODE[h]
        for s in _RANGE:
            for d, ok in swap[s]:
                if not ok[r]:
                    continue
                head = (code, s + 1, CODE[d])
                rd = RANK[d]
                for s2 in _RANGE:
                    if s2 == s:
                        continue
                    if land[s2][rd]:
                        out.append(QuashAction("swap", head + (s2 + 1,)))
                    for d2, ok2 in swap[s2]:
                        if not ok2[rd]:
                            continue
                        head2 = head + (s2 + 1, CODE[d2])
                        rd2 = RANK[d2]
                        for s3 in _RANGE:
                            if s3 != s and s3 != s2 and land[s3][rd2]:
                                out.append(QuashAction("swap", head2 + (s3 + 1,)))
    return out


def advanced_moves(spots: Sequence[Sequence[int]], hand: Sequence[int]) -> tuple[list[QuashAction], bool]:
    """(legal placements and chains, free): the runnable moves, or, when there is
    none at all, every plain placement with ``free`` True (a failed sequence is
    then unavoidable, and the turn can't be passed)."""
    moves = runnable_moves(spots, hand)
    if moves:
        return moves, False
    return plain_placements(spots, hand), True


def check_chain(spots: Sequence[Sequence[int]], hand: Sequence[int], cards: list[int], where: list[int],
                advanced: bool) -> bool:
    """Validate a placement (``len(cards) == 1``) or chain against one side's spots.

    Returns whether it keeps every changed spot able to become a run; raises
    :class:`IllegalAction` (with a message for the player) when it breaks a rule
    that holds in every mode. The caller decides whether a placement that does
    not keep its spot runnable is allowed (basic play, or no runnable move).
    """
    h = cards[0]
    if h not in hand:
        raise IllegalAction(f"You don't hold {PRETTY[h]}")
    if len(cards) > 1 and not advanced:
        raise IllegalAction("Swap chains are only allowed in advanced play")
    if len(cards) - 1 > MAX_DISPLACED:
        raise IllegalAction(f"A swap chain displaces at most {MAX_DISPLACED} cards")
    if len(set(where)) != len(where):
        raise IllegalAction("A swap chain enters each spot at most once")
    runnable = True
    moving = h
    last = len(where) - 1
    for i, s in enumerate(where):
        spot_cards = spots[s]
        size = SPOT_SIZE[s]
        if i < last:
            d = cards[i + 1]
            if d not in spot_cards:
                raise IllegalAction(f"{PRETTY[d]} is not in your spot {s + 1}, so {PRETTY[moving]} can't displace it")
            after = [c for c in spot_cards if c != d] + [moving]
            if not fits(after, size):
                raise IllegalAction(
                    f"{PRETTY[moving]} can't take {PRETTY[d]}'s place in spot {s + 1}: "
                    f"{pretty(after)} could never become a run"
                )
            moving = d
        else:
            if len(spot_cards) >= size:
                what = "displaced card" if i else "card"
                raise IllegalAction(
                    f"Spot {s + 1} ({KIND[s]}) is full: the {what} {PRETTY[moving]} needs a spot with an open slot"
                    + ("" if not advanced else ", or name a card there to displace")
                )
            runnable = fits([*spot_cards, moving], size)
            if not runnable and i:
                raise IllegalAction(
                    f"{PRETTY[moving]} can't go to spot {s + 1}: "
                    f"{pretty([*spot_cards, moving])} could never become a run"
                )
    return runnable


@dataclass(frozen=True)
class ChainOptions:
    """What may come next in a placement being built step by step.

    ``chain`` is the partial chain (normalised: card codes upper-case, spots as
    ints). ``expects`` says what the next element is: ``"card"`` (the hand card
    to play, when ``chain`` is empty), ``"spot"`` (where ``moving`` goes), or
    ``"displace"`` (a card of the spot just named for ``moving`` to displace).
    ``choices`` are exactly the next elements that lead to at least one legal
    move (card codes, or spot numbers 1–9). ``action`` is the complete legal
    action when the chain may end here (a ``place`` or ``swap``), else ``None``.
    """

    chain: tuple[str | int, ...]
    expects: str
    moving: str | None
    choices: tuple[str | int, ...]
    action: QuashAction | None

    @property
    def can_end(self) -> bool:
        return self.action is not None


def chain_options(state: GameState, seat: int, chain: Sequence[str | int] = ()) -> ChainOptions:
    """The legal next steps after the partial placement ``chain`` for ``seat``.

    ``chain`` uses the action's argument order: ``[]``, ``["9D"]``,
    ``["9D", 4]``, ``["9D", 4, "6C"]``, ``["9D", 4, "6C", 7]``… Every choice
    offered leads to at least one action of ``state.legal_actions(seat)``, and
    ``action`` is one of them, so a UI built on this never dead-ends. A chain
    that is no prefix of a legal move raises :class:`IllegalAction`; a
    malformed element :class:`MalformedAction`; a seat that may not place now
    the usual turn errors.
    """
    if not isinstance(chain, (list, tuple)):
        raise MalformedAction(f"A chain is a list of cards and spots, not {chain!r}")
    norm: list[str | int] = []
    for i, part in enumerate(chain):
        norm.append(CODE[card_arg(part)] if i % 2 == 0 else spot_arg(part) + 1)
    key = tuple(norm)
    legal = state.legal_actions(seat)
    if not legal:
        state.check_turn(seat)
    moves = [a for a in legal if a.kind in ("place", "swap")]
    if not moves:
        raise IllegalAction("There is nothing to place now")
    n = len(key)
    following: dict[str | int, None] = {}
    action = None
    for a in moves:
        args = a.args
        if args[:n] != key:
            continue
        if len(args) == n:
            action = a
        else:
            following.setdefault(args[n], None)
    if action is None and not following:
        shown = ",".join(str(p) for p in key)
        raise IllegalAction(f"No legal placement starts with {shown}")
    choices: tuple[str | int, ...] = tuple(following)
    if n % 2:
        choices = tuple(sorted(choices))  # spots in board order
    if n == 0:
        expects, moving = "card", None
    elif n % 2:
        expects, moving = "spot", key[-1]
    else:
        expects, moving = "displace", key[-2]
    return ChainOptions(key, expects, moving, choices, action)


def chain_text(cards: list[int], where: list[int]) -> str:
    """Words for a placement or chain: ``9♦ to spot 4 in place of 6♣, which moved to spot 7``."""
    text = f"{PRETTY[cards[0]]} to spot {where[0] + 1}"
    for i in range(1, len(cards)):
        text += f" in place of {PRETTY[cards[i]]}, which moved to spot {where[i] + 1}"
    return text


__all__ = [
    "MAX_DISPLACED", "ChainOptions", "advanced_moves", "chain_options", "check_chain", "plain_placements",
    "runnable_moves",
]
