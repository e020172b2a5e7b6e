"""The public record of a Q2J deal: every move since the cards were last dealt.

Each move is one integer (cheap to keep in every simulated game of the hard AI),
packing what the whole table saw:

- the seat that moved;
- the move: a card id (``play``), :data:`DRAW_MOVE`, or :data:`QQ_BASE` plus the
  index of the queen pair in :data:`~games.q2j.actions.QQ_PAIRS` (``qq``);
- the top of the pile before the move (the upper queen of a Q² pair);
- the duty then: :data:`NO_DUTY`, :data:`OWED` (a jack or a draw was owed) or
  :data:`FREE` (the Q² came back: any card);
- which of the cards played the table knew were in that hand (``known``: shown at
  the deal): a bit for the card, or for each queen of the pair.

Views show the moves as text (:func:`move_text`), e.g. ``"1 draw on 9H"``,
``"0 play:7S on 6S"``, ``"0 play:KD (known) on 9H"``, ``"1 draw under Q² (owed a jack)"``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ..cards import CODE
from .actions import DRAW, PLAY, QQ, QQ_PAIRS

NO_DUTY, OWED, FREE = 0, 1, 2
DRAW_MOVE = 52
QQ_BASE = 53
QQ_MOVE: dict[tuple[int, int], int] = {pair: QQ_BASE + i for i, pair in enumerate(QQ_PAIRS)}
"""The move number of each queen pair (canonical order)."""

_SEAT_BITS, _MOVE_SHIFT, _TOP_SHIFT, _DUTY_SHIFT, _KNOWN_SHIFT = 15, 4, 10, 16, 18


class Move(NamedTuple):
    """One recorded move, unpacked."""

    seat: int
    move: int
    top: int
    duty: int
    known: tuple[bool, bool] = (False, False)
    """Whether the card played (for a pair: each queen) was known to be in the hand."""

    @property
    def card(self) -> int | None:
        """The card played, for a ``play`` move."""
        return self.move if self.move < DRAW_MOVE else None

    @property
    def queens(self) -> tuple[int, int] | None:
        """The two queens of a ``qq`` move."""
        return QQ_PAIRS[self.move - QQ_BASE] if self.move >= QQ_BASE else None


def record(seat: int, move: int, top: int, duty: int, known: tuple[bool, bool] = (False, False)) -> int:
    """The packed form of a move (see the module docstring)."""
    return (seat | move << _MOVE_SHIFT | top << _TOP_SHIFT | duty << _DUTY_SHIFT
            | known[0] << _KNOWN_SHIFT | known[1] << _KNOWN_SHIFT + 1)


def unpack(entry: int) -> Move:
    return Move(entry & _SEAT_BITS, entry >> _MOVE_SHIFT & 63, entry >> _TOP_SHIFT & 63, entry >> _DUTY_SHIFT & 3,
                (bool(entry >> _KNOWN_SHIFT & 1), bool(entry >> _KNOWN_SHIFT + 1 & 1)))


@lru_cache(maxsize=4096)
def move_text(entry: int) -> str:
    """A recorded move as the views show it."""
    seat, move, top, duty, known = unpack(entry)
    if move == DRAW_MOVE:
        action = DRAW
    elif move >= QQ_BASE:
        action = QQ[QQ_PAIRS[move - QQ_BASE]]
    else:
        action = PLAY[move]
    if move >= QQ_BASE and any(known):
        pair = QQ_PAIRS[move - QQ_BASE]
        action_text = f"{action.code()} ({', '.join(CODE[q] for q, k in zip(pair, known) if k)} known)"
    else:
        action_text = action.code() + (" (known)" if known[0] else "")
    if duty == NO_DUTY:
        return f"{seat} {action_text} on {CODE[top]}"
    return f"{seat} {action_text} under Q² ({'owed a jack' if duty == OWED else 'any card'})"
