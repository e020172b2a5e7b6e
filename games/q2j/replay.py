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
NODE_LIMIT = 1000
"""New hands examined at most per check; past it the guess is not judged (a bound on
think time for long histories with many draws)."""
MEMORY = 50_000
"""Hands remembered at most per seat's history (about 5 MB) before they are forgotten."""


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

    def __init__(self, hand: list[int], top: int, duty: int, qq_rule: bool) -> None:
        self.hands = [hand]
        self.discard = [top]
        self.duty = None if duty == NO_DUTY else 0
        self.free = duty not in (NO_DUTY, OWED)
        self.qq_rule = qq_rule


@lru_cache(maxsize=65536)
def normal_move(mask: int, top: int, duty: int, qq_rule: bool) -> Action:
    """What ``normal`` plays holding the cards of ``mask`` with ``top`` on the pile and
    ``duty`` (as :mod:`games.q2j.history` records it)."""
    hand = []
    while mask:
        low = mask & -mask
        hand.append(low.bit_length() - 1)
        mask ^= low
    return choose(_Seen(hand, top, duty, qq_rule), 0, None)  # type: ignore[arg-type]  # choose reads no rng


class Replay:
    """One seat's moves since the deal, and in how many ways hands explain them.

    The ways of the hands before each move are remembered: the guesses of one search
    share most of them."""

    def __init__(self, steps: list[Step], count: int, shown: int, qq_rule: bool) -> None:
        self.steps = steps
        self.count = count
        """The hand size the moves leave."""
        self.shown = shown
        self.qq_rule = qq_rule
        self.ways: dict[tuple[int, int], int] = {}
        self.budget = 0

    def weight(self, mask: int) -> int | None:
        """The ways the hand ``mask`` explains every move (``None``: not judged)."""
        if mask.bit_count() != self.count:
            return None  # counts the moves cannot explain (a draw from an empty stock)
        if len(self.ways) > MEMORY:
            self.ways.clear()
        self.budget = NODE_LIMIT
        try:
            return self._back(len(self.steps) - 1, mask)
        except _GaveUp:
            return None

    def _back(self, i: int, mask: int) -> int:
        """The ways the hand ``mask`` after move ``i`` explains that move and every one before."""
        if i < 0:
            return 1 if mask & self.shown == self.shown else 0
        key = (i, mask)
        found = self.ways.get(key)
        if found is None:
            self.budget -= 1
            if self.budget < 0:
                raise _GaveUp
            step = self.steps[i]
            found = self.ways[key] = sum(
                self._back(i - 1, before) for before in _before(step, 0 if step.refilled else mask)
                if normal_move(before, step.top, step.duty, self.qq_rule) == step.action)
        return found


def plausible_hand(snap: dict[str, Any], seat: int) -> bool:
    """Whether ``seat``'s hand in ``snap`` (a guess) explains its moves in the history."""
    return hand_weight(snap, seat) != 0


def hand_weight(snap: dict[str, Any], seat: int) -> int | None:
    """In how many ways ``seat``'s hand in ``snap`` (a guess) explains its moves: the
    choices of which card each draw brought that make ``normal`` choose every move
    recorded. Every such way is one deal and draw order, all equally likely, so a hand
    is as likely as its number of ways. ``None``: not judged (see the module docstring)."""
    known = snap["known"][seat] if snap["known"] else []
    short = snap["short_hand"] == seat and snap["game_number"] == 1
    variant = snap["options"]["variant"]
    replay = _replay(tuple(snap["history"]), seat, frozenset(ID[code] for code in known),
                     1 if short else HAND_SIZE, variant == "countdown", variant != "classic")
    return None if replay is None else replay.weight(sum(1 << ID[code] for code in snap["hands"][seat]))


class _GaveUp(Exception):
    """The search passed :data:`NODE_LIMIT`."""


def _before(step: Step, mask: int) -> list[int]:
    """The hands the seat may have held before ``step``, given ``mask`` after it: the card
    drawn (any card of the hand but those shown at the deal and still held) out, the
    cards played back in (none when the hand after still holds a card played: one card
    can't be in two places)."""
    if mask & step.played:
        return []
    if not step.drew:
        return [mask | step.played]
    options = mask & ~step.shown
    out = []
    while options:
        low = options & -options
        out.append((mask ^ low) | step.played)
        options ^= low
    return out


@lru_cache(maxsize=8)
def _replay(history: tuple[int, ...], seat: int, known: frozenset[int], dealt: int,
            countdown: bool, qq_rule: bool) -> Replay | None:
    """The seat's moves, with the cards shown at the deal (``known`` now, or played
    since); ``None`` when a hand count goes below zero."""
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
    return Replay(steps, count, shown, qq_rule)
