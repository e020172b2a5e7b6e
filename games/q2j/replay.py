"""Whether a whole guessed hand could have played the deal's public history as ``normal`` plays.

The per-card notes of :mod:`games.q2j.inference` cannot say everything the table saw:
"this seat could have played Q² and didn't" (at most one queen), ``normal``'s choice
among equally strong cards, the card it plays when the Q² came back, a card drawn and
kept for several turns. This module checks a guessed hand exactly, under the model
that the seat plays like ``normal`` (:func:`games.q2j.ai.choose`).

The history is walked backwards from the guessed hand. Undoing a play puts the card
played back into the hand; undoing a draw takes out the card drawn, which may be any
card of the hand then but one the table saw dealt (``known``): which one is unknown,
so every choice is tried (a depth-first search, remembering the hands that failed).
Before each move the whole hand is then known, and ``normal`` must choose the move
recorded. The guess is plausible when some choice of drawn cards explains the whole
history back to the deal.

Only what the seat's view shows is read: the history, the hand counts, ``known``,
the options, plus the guess itself. When the counts cannot be explained (a draw from
an empty stock, a snapshot without history) or the search grows past
:data:`NODE_LIMIT`, the guess is not judged (plausible).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from ..base import Action
from ..cards import CODE
from ..concept import CMP
from .actions import DRAW, PLAY, QQ
from .ai import choose
from .history import DRAW_MOVE, NO_DUTY, OWED, unpack
from .state import HAND_SIZE

ID = {code: c for c, code in enumerate(CODE)}
NODE_LIMIT = 4000
"""Hands examined at most per check; past it the guess counts as plausible (a bound on
think time for histories ``normal`` can't explain, e.g. a person's or ``hard``'s)."""


class Step(NamedTuple):
    """One move of the checked seat, as the backward walk needs it."""

    action: Action
    """What the seat chose (``normal`` must choose the same)."""
    played: int
    """The mask of the cards it put on the pile."""
    drew: bool
    """A card came into the hand after the move (a draw, or an equal card's penalty)."""
    refilled: bool
    """The move emptied the hand and a new countdown hand was dealt (all its cards drawn)."""
    shown: int
    """The mask of the cards the table knew were in the hand before the move (shown at the deal)."""
    top: int
    duty: int


class _Seen:
    """The part of a position :func:`~games.q2j.ai.choose` reads, for seat 0."""

    __slots__ = ("hands", "discard", "duty", "free", "qq_rule")

    def __init__(self, qq_rule: bool) -> None:
        self.qq_rule = qq_rule
        self.hands: list[list[int]] = [[]]
        self.discard: list[int] = [0]
        self.duty: int | None = None
        self.free = False


def plausible_hand(snap: dict[str, Any], seat: int) -> bool:
    """Whether ``seat``'s hand in ``snap`` (a guess) explains its moves in the history."""
    known = snap["known"][seat] if snap["known"] else []
    hand = sorted(ID[code] for code in snap["hands"][seat])
    short = snap["short_hand"] == seat and snap["game_number"] == 1
    variant = snap["options"]["variant"]
    return _explains(tuple(snap["history"]), seat, tuple(hand), frozenset(ID[code] for code in known),
                     1 if short else HAND_SIZE, variant == "countdown", variant != "classic")


@lru_cache(maxsize=8192)
def _explains(history: tuple[int, ...], seat: int, hand: tuple[int, ...], known: frozenset[int],
              dealt: int, countdown: bool, qq_rule: bool) -> bool:
    walked = _steps(history, seat, known, dealt, countdown)
    if walked is None or len(hand) != walked[1]:
        return True  # counts the history cannot explain: nothing to judge
    steps, _, shown = walked
    seen = _Seen(qq_rule)
    failed: set[tuple[int, int]] = set()
    nodes = 0

    def back(i: int, mask: int) -> bool:
        """Whether the hand ``mask`` after move ``i`` (and every move before it) is explained."""
        nonlocal nodes
        if i < 0:
            return mask & shown == shown
        if (i, mask) in failed:
            return False
        nodes += 1
        if nodes > NODE_LIMIT:
            raise _GaveUp
        step = steps[i]
        for before in _before(step, 0 if step.refilled else mask):
            if _chooses(seen, before, step) and back(i - 1, before):
                return True
        failed.add((i, mask))
        return False

    try:
        return back(len(steps) - 1, sum(1 << c for c in hand))
    except _GaveUp:
        return True


class _GaveUp(Exception):
    """The search passed :data:`NODE_LIMIT`."""


def _before(step: Step, mask: int) -> list[int]:
    """The hands the seat may have held before ``step``, given ``mask`` after it: the card
    drawn (any card of the hand but those shown at the deal and still held) out, the
    cards played back in."""
    if not step.drew:
        return [mask | step.played]
    options = mask & ~step.shown & ~step.played
    out = []
    while options:
        low = options & -options
        out.append((mask ^ low) | step.played)
        options ^= low
    return out


def _chooses(seen: _Seen, mask: int, step: Step) -> bool:
    """Whether ``normal`` holding ``mask`` chooses ``step``'s move."""
    seen.hands[0] = [c for c in range(52) if mask >> c & 1]
    seen.discard[0] = step.top
    seen.duty = None if step.duty == NO_DUTY else 0
    seen.free = step.duty not in (NO_DUTY, OWED)
    return choose(seen, 0, None) == step.action  # type: ignore[arg-type]  # choose reads no rng


@lru_cache(maxsize=256)
def _steps(history: tuple[int, ...], seat: int, known: frozenset[int], dealt: int,
           countdown: bool) -> tuple[list[Step], int, int] | None:
    """The seat's moves, the hand size they leave and the mask of the cards shown at the
    deal (``known`` now, or played since); ``None`` when a count goes below zero."""
    moves = [move for move in map(unpack, history) if move.seat == seat]
    shown = sum(1 << c for c in known)
    for move in moves:
        for card, was_known in zip(move.queens or (move.move,), move.known):
            shown |= was_known << card
    steps: list[Step] = []
    count, level, held = dealt, HAND_SIZE, shown
    for move in moves:
        if move.move == DRAW_MOVE:
            steps.append(Step(DRAW, 0, True, False, held, move.top, move.duty))
            count += 1
            continue
        cards = move.queens or (move.move,)
        before = held
        for card, was_known in zip(cards, move.known):
            held &= ~(was_known << card)
        penalty = move.duty == NO_DUTY and move.card is not None and CMP[move.move][move.top] == 0
        count += penalty - len(cards)
        if count < 0:
            return None
        refilled = count == 0 and countdown and level > 1
        if refilled:
            level -= 1
            count = level
        action = QQ[move.queens] if move.queens else PLAY[move.move]
        steps.append(Step(action, sum(1 << c for c in cards), penalty, refilled, before, move.top, move.duty))
    return steps, count, shown
