"""What the table's moves tell about the cards in each hand (the hard AI's inference).

Read from public data only: the deal's move history (:mod:`games.q2j.history`),
the hand counts and the options. Each card in a hand is a *note*: a bit mask of the
card ids it cannot be. The notes come from assuming every player plays as
``normal`` does (:mod:`games.q2j.ai`):

- a seat that drew with nothing owed had no card it could play on that top;
- a seat that drew while a jack was owed held no jack;
- a seat that played a card stronger than the top held no cheaper card (by
  :data:`~games.q2j.ai.STRENGTH`) that beats the top; one that played an equal card
  held none that beats it;
- a card drawn (a draw, a penalty, a new countdown hand) starts with no note.

The cards the table knows are in a hand (``known``: shown at the deal) are not
guessed at all, so they have no note, and playing one takes no note away.

When a seat plays a card, the note it came from is unknown: the most telling note
that allows the card is dropped, and every other note that allows it keeps only
what both rule out (whichever note the card really was, what is left is then no
stronger than the truth). A play no note allows means the seat does not play
like that: its notes are forgotten.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..cards import CODE
from ..concept import CMP
from .ai import STRENGTH
from .history import DRAW_MOVE, FREE, NO_DUTY, unpack
from .rules import IS_JACK
from .state import HAND_SIZE

JACK_MASK = sum(1 << c for c in range(52) if IS_JACK[c])
PLAYABLE_MASK: tuple[int, ...] = tuple(sum(1 << c for c in range(52) if CMP[c][t] >= 0) for t in range(52))
"""``PLAYABLE_MASK[t]``: the cards that may be played on ``t``."""
STRONGER_MASK: tuple[int, ...] = tuple(sum(1 << c for c in range(52) if CMP[c][t] > 0) for t in range(52))
"""``STRONGER_MASK[t]``: the cards stronger than ``t``."""
_BELOW_STRENGTH: tuple[int, ...] = tuple(sum(1 << c for c in range(52) if STRENGTH[c] < STRENGTH[d]) for d in range(52))


def cheaper_beaters(top: int, card: int) -> int:
    """The cards ``normal`` would have played on ``top`` rather than ``card``."""
    return STRONGER_MASK[top] & _BELOW_STRENGTH[card] if CMP[card][top] > 0 else STRONGER_MASK[top]


def notes(snap: dict[str, Any]) -> list[list[int]]:
    """Per seat, one note (a mask of the card ids it cannot be) per card of its hand
    that is not ``known``."""
    known = [len(cards) for cards in snap["known"]] or [0] * len(snap["hands"])
    return [list(seat_notes) for seat_notes in _notes(
        tuple(snap["history"]), tuple(len(hand) - k for hand, k in zip(snap["hands"], known)), tuple(known),
        snap["options"]["variant"] == "countdown", snap["short_hand"] if snap["game_number"] == 1 else None)]


@lru_cache(maxsize=256)
def _notes(history: tuple[int, ...], counts: tuple[int, ...], known: tuple[int, ...],
           countdown: bool, short: int | None) -> tuple[tuple[int, ...], ...]:
    """The notes of the ``counts[s]`` cards of each hand not known; ``known[s]``: how
    many of its cards are still known."""
    players = len(counts)
    steps = [unpack(entry) for entry in history]
    known_left = list(known)  # known cards in the hand, replayed from the deal
    for step in steps:
        known_left[step.seat] += sum(step.known)
    held = [[0] * ((1 if seat == short else HAND_SIZE) - known_left[seat]) for seat in range(players)]
    levels = [HAND_SIZE] * players
    for step in steps:
        seat, move, top, duty, was_known = step
        hand = held[seat]
        if move == DRAW_MOVE:
            if duty != FREE:
                _rule_out(hand, PLAYABLE_MASK[top] if duty == NO_DUTY else JACK_MASK)
            hand.append(0)
            continue
        for card, card_known in zip(step.queens or (move,), was_known):
            if card_known:
                known_left[seat] -= 1
            else:
                _remove(hand, card)
        if duty == NO_DUTY and step.card is not None:
            _rule_out(hand, cheaper_beaters(top, move))
            if CMP[move][top] == 0:
                hand.append(0)
        if not hand and not known_left[seat] and countdown and levels[seat] > 1:
            levels[seat] -= 1
            hand.extend([0] * levels[seat])
    return tuple(_fit(hand, count) for hand, count in zip(held, counts))


def _rule_out(hand: list[int], mask: int) -> None:
    for i, note in enumerate(hand):
        hand[i] = note | mask


def _remove(hand: list[int], card: int) -> None:
    """Take the note of a played card out of ``hand`` (see the module docstring)."""
    allowing = [i for i, note in enumerate(hand) if not note >> card & 1]
    if not allowing:
        hand[:] = [0] * max(0, len(hand) - 1)
        return
    best = max(allowing, key=lambda i: hand[i].bit_count())
    dropped = hand[best]
    for i in allowing:
        hand[i] &= dropped
    del hand[best]


def _fit(hand: list[int], count: int) -> tuple[int, ...]:
    """``count`` notes: the least telling ones, padded with empty notes (a draw from an
    empty stock, an old snapshot without history)."""
    kept = sorted(hand, key=int.bit_count)[:count]
    return tuple(kept + [0] * (count - len(kept)))


@lru_cache(maxsize=4096)
def codes_of(mask: int) -> frozenset[str] | None:
    """The card codes of a note (``None`` for an empty one)."""
    return frozenset(CODE[c] for c in range(52) if mask >> c & 1) or None


def excluded_codes(snap: dict[str, Any], hands: Sequence[int]) -> list[frozenset[str] | None]:
    """The notes of the hidden hands ``hands`` (seats, in order) as card codes, one per card."""
    held = notes(snap)
    return [codes_of(note) for s in hands for note in held[s]]
