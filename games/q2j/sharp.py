"""The move the hard AI starts from: ``normal`` (:mod:`games.q2j.ai`) with corrections
that beat it head to head.

It reads only what the seat's view shows: its own hand, the discard pile, the cards the
table knows are in other hands (``known``), the hand sizes and the public move history
(through the inference notes, :mod:`games.q2j.inference`). The seat it thinks about is
the *next* one, the one that must beat the card played:

- a card is chosen as ``normal`` chooses it (the weakest that will do, then the hardest
  to cover), but one that no card left in the hand beats costs :data:`STRANDED` more: if
  the next seat cannot cover it and draws, the card stays on top for this seat to beat;
- **the race**: when the next seat holds :data:`RACE` card(s), it wins as soon as it can
  cover the top. Each card is then also charged the chance that the next seat can cover
  it (from its notes), and the seat draws instead when the top already lying there is
  less likely to be covered, by :data:`DRAW_EDGE`, than anything it could play;
- **Q² is kept** while another card beats the top, the hand holds at least
  :data:`HOLD_QQ` cards and the next seat more than two: the pair is the one play that
  goes on any top but a jack, so it is saved for a top nothing else beats;
- after the Q² came back, the free card is chosen like any other (``normal`` plays the
  one hardest to cover, which keeps its strongest cards for last).

Under a Q² duty it plays as ``normal`` does (a jack when it has one). Measured head to
head against ``normal`` (2 players, standard rules, seeds 20000–59999, seats rotated):
53.3 % of the games (``normal`` against itself: 50.2 %).
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

from ..base import Action
from ..concept import CMP
from ..rng import Rng
from . import ai
from .actions import DRAW, PLAY, QQ
from .inference import notes
from .rules import IS_JACK, IS_QUEEN

if TYPE_CHECKING:
    from .state import Q2JState

RACE = 1
"""The next seat's hand size at which stopping it matters more than keeping strong cards."""
STRANDED = 0.2
"""The extra cost of a card that nothing left in the hand beats (1 = the whole deck of strength)."""
DRAW_EDGE = 0.3
"""In the race, how much less likely to be covered the top must be than every play to draw instead."""
HOLD_QQ = 3
"""From this hand size on, Q² waits while another card beats the top."""


def choose(state: "Q2JState", seat: int, rng: Rng) -> Action:
    """A legal action for ``seat`` (which must be the seat to act)."""
    hand = state.hands[seat]
    if state.duty is not None and not (state.free and hand):
        return ai.choose(state, seat, rng)
    judge = _Judge(state, seat)
    if state.duty is not None:
        return PLAY[min(hand, key=judge.cost)]
    top = state.discard[-1]
    stronger = [c for c in hand if CMP[c][top] > 0]
    if state.qq_rule and not IS_JACK[top]:
        queens = [c for c in hand if IS_QUEEN[c]]
        if len(queens) > 1 and not judge.keep_queens(stronger):
            return QQ[(queens[0], queens[1])]
    plays = stronger or [c for c in hand if CMP[c][top] == 0]
    if plays and judge.racing and len(hand) > 1:
        if judge.chance_covered(top) + DRAW_EDGE < min(judge.chance_covered(c) for c in plays):
            return DRAW
    return PLAY[min(plays, key=judge.cost)] if plays else DRAW


class _Judge:
    """What the seat to act knows, for weighing one position's moves."""

    def __init__(self, state: "Q2JState", seat: int) -> None:
        self.state, self.hand = state, state.hands[seat]
        players, playing = state.players, state.playing
        nxt = (seat + 1) % players
        while not playing[nxt]:
            nxt = (nxt + 1) % players
        self.next = nxt
        self.next_size = len(state.hands[nxt])
        self.racing = self.next_size <= RACE

    def keep_queens(self, stronger: list[int]) -> bool:
        """Whether Q² should wait: another card beats the top and neither hand is short."""
        return (len(self.hand) >= HOLD_QQ and self.next_size > 2
                and any(not IS_QUEEN[c] for c in stronger))

    def cost(self, card: int) -> float:
        """How dear playing ``card`` is (lower is better)."""
        value = ai.STRENGTH[card] / 52 + ai.cover(card, self.hand) / 1000
        if len(self.hand) > 1 and not any(CMP[c][card] > 0 for c in self.hand if c != card):
            value += STRANDED
        if self.racing:
            value += self.chance_covered(card)
        return value

    def chance_covered(self, card: int) -> float:
        """The chance that the next seat holds a card it may play on ``card``."""
        state, nxt = self.state, self.next
        if state.faceup:
            return float(any(CMP[c][card] >= 0 for c in state.hands[nxt]))
        known = state.known[nxt] if state.known else []
        if any(CMP[c][card] >= 0 for c in known):
            return 1.0
        unseen = self._unseen()
        hidden = self._notes()[nxt]
        if hidden and any(hidden):
            miss = 1.0
            for note in hidden:
                allowed = [c for c in unseen if not note >> c & 1]
                if allowed:
                    miss *= 1 - sum(1 for c in allowed if CMP[c][card] >= 0) / len(allowed)
            return 1 - miss
        size, pool = len(hidden), len(unseen)
        covering = sum(1 for c in unseen if CMP[c][card] >= 0)
        return 1 - comb(pool - covering, size) / comb(pool, size) if 0 < size <= pool else float(size > pool)

    def _unseen(self) -> list[int]:
        """The cards not in this hand, not on the pile and not known in another hand."""
        state = self.state
        seen = set(self.hand).union(state.discard, *state.known)
        return [c for c in range(52) if c not in seen]

    def _notes(self) -> list[list[int]]:
        """Per seat, the inference notes of the cards of its hand the table does not know."""
        state = self.state
        return notes({"history": state.history, "hands": state.hands, "known": state.known,
                      "options": state.options, "short_hand": state.short_hand,
                      "game_number": state.game_number})
