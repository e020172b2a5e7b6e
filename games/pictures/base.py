"""What every game's pictures share, and the look of a game without its own drawer.

A game's ``pictures.py`` (``games/<package>/pictures.py``) defines ``Pictures``, a subclass of
:class:`GamePictures` overriding what it draws differently. A drawer writes in one language
(:attr:`GamePictures.language`, see :func:`games.pictures.pictures_for`).
Drawers read views only: the table picture the public view (``state.view(None)``), the
hand picture one seat's view; the seats' names come beside the view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from math import ceil
from typing import Any

from games.base import Action, Game
from games.cards import parse_card
from games.errors import MalformedAction
from games.i18n import SOURCE, Text, plural, render_value, say

from .canvas import (
    BODY,
    GAP,
    GOLD,
    LABEL,
    MARGIN,
    MAX_HEIGHT,
    MIN_HEIGHT,
    MUTED,
    TEXT,
    Canvas,
    Row,
    clipped,
    drawable,
    flow,
    text_width,
)
from .cards import CARD, LARGE, SMALL, TINY, CardSize

View = Mapping[str, Any]


STATUS: dict[str, Text] = {"safe": say("safe"), "out": say("out"), "won": say("won"), "lost": say("lost"),
                           "tied": say("tied")}
"""A seat's status in a view ("out", "won"…) as pictures write it."""

NAME_WIDTH = 150
"""The most a seat's name takes in a picture (about 14 letters), cut short with "…" beyond."""


def is_card(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parse_card(value)
    except MalformedAction:
        return False
    return True


class Names:
    """The seats as a picture names them: the names given (what the font can draw of
    them, cut to :data:`NAME_WIDTH`), "You" for the viewer of a hand picture, and
    "Seat 3" for a seat without a drawable name."""

    def __init__(self, names: Sequence[str] | None, language: str = SOURCE, you: int | None = None) -> None:
        self.names = list(names or [])
        self.language = language
        self.you = you

    def __call__(self, seat: int) -> str:
        if seat == self.you:
            return say("You").render(self.language)
        name = drawable(self.names[seat]) if seat < len(self.names) else ""
        return clipped(name, BODY, False, NAME_WIDTH) if name else say("Seat {n}", n=seat + 1).render(self.language)

    def listed(self, seats: Iterable[int]) -> str:
        return ", ".join(self(seat) for seat in seats)


def marked_positions(cards: Sequence[str | None], playable: Iterable[str]) -> frozenset[int]:
    playable = set(playable)
    return frozenset(i for i, card in enumerate(cards) if card in playable)


def hand_row(title: str, cards: Sequence[str | None], playable: set[str], **more: Any) -> Row:
    """A row of the viewer's own cards: the playable ones marked, the others greyed when
    anything is playable."""
    return Row(title, cards, marked_positions(cards, playable), dim_unmarked=bool(playable), **more)


def fitted_flow(canvas: Canvas, rows: Sequence[Row], sizes: Sequence[CardSize] = (LARGE, CARD, SMALL), *,
                below: int = 0) -> None:
    """``rows`` at the cursor with the largest card size whose lines, and ``below`` pixels
    more, fit in a landscape picture (11:7, :data:`MIN_HEIGHT`), else in the square (the
    smallest size when none does)."""
    bottoms = [flow(None, rows, size=size, top=canvas.y, language=canvas.language) + below + MARGIN
               for size in sizes]
    fits = [size for size, bottom in zip(sizes, bottoms) if bottom <= MIN_HEIGHT]
    fits = fits or [size for size, bottom in zip(sizes, bottoms) if bottom <= MAX_HEIGHT] or [sizes[-1]]
    canvas.y = flow(canvas, rows, size=fits[0], top=canvas.y)


def seat_grid(canvas: Canvas, seats: int, columns: int, height: int,
              draw: Callable[[int, int, int, int], None]) -> None:
    """A cell ``height`` tall for each seat, ``columns`` to a line, in seat order;
    ``draw(seat, x, y, width)`` fills one."""
    width = (canvas.width - 2 * MARGIN - (columns - 1) * 2 * GAP) // columns
    for seat in range(seats):
        line, column = divmod(seat, columns)
        draw(seat, MARGIN + column * (width + 2 * GAP), canvas.y + line * height, width)
    canvas.y += ceil(seats / columns) * height


def hand_fan(canvas: Canvas, xy: tuple[int, int], width: int, hand: Sequence[str] | None, count: int) -> None:
    """A seat's hand: its faces (``hand``), or ``count`` small backs."""
    if hand is not None:
        canvas.fan(xy, hand, SMALL, step=SMALL.width - 8, width=width)
    elif width >= TINY.width:
        canvas.fan(xy, [None] * count, TINY, step=8, width=width)


SEAT_ROW = TINY.height + 2
"""The height of a seat's line in :func:`seat_rows`."""


def seat_rows(canvas: Canvas, names: Names, details: Sequence[str], counts: Sequence[int], acting: set[int]) -> None:
    """A line per seat: its name (gold when it is to act), then its hand as ``counts`` card
    backs and its ``details`` in a column after the longest name."""
    right = canvas.width - MARGIN
    names_end = MARGIN + max((text_width(names(seat), BODY, seat in acting) for seat in range(len(details))), default=0)
    for seat, detail in enumerate(details):
        y = canvas.y
        detail_width = text_width(detail, LABEL)
        column = min(names_end, right - detail_width - TINY.width - 3 * GAP)
        canvas.text((MARGIN, y + 2), names(seat), BODY, GOLD if seat in acting else TEXT, bold=seat in acting,
                    width=column - MARGIN)
        x = column + 2 * GAP
        backs = min(TINY.width + 8 * (counts[seat] - 1), right - detail_width - GAP - x) if counts[seat] else 0
        hand_fan(canvas, (x, y), backs, None, counts[seat])
        canvas.text((x + backs + GAP if backs else x, y + 4), detail, LABEL, MUTED)
        canvas.y = y + SEAT_ROW


class GamePictures:
    """How one game is drawn. The generic look: each seat with its hand as card backs and
    any public list of cards in the view; the hand as one row.

    Pictures carry no heading: the message around them names the game, the table and whose
    turn it is, and the picture keeps its room for cards and for words at a size a phone reads."""

    def __init__(self, game: Game, language: str = SOURCE) -> None:
        self.game = game
        self.language = language

    def words(self, text: Any) -> str:
        """``text`` (a :class:`~games.i18n.Text`, or a value such as a number) in the drawer's language."""
        return render_value(text, self.language)

    def names(self, names: Sequence[str] | None, you: int | None = None) -> Names:
        return Names(names, self.language, you)

    # The table picture.

    def table(self, view: View, names: Sequence[str] | None = None) -> Canvas:
        canvas = Canvas(language=self.language)
        self.draw_table(canvas, view, self.names(names))
        return canvas

    def acting(self, view: View) -> list[int]:
        """The seats whose turn the picture shows (in gold)."""
        return list(view.get("to_act") or [])

    def seat_line(self, canvas: Canvas, xy: tuple[int, int], name: str, detail: str, width: int, *,
                  acting: bool = False) -> None:
        """A seat's name (gold when it is to act) and ``detail`` after it, within ``width``:
        the name is cut short to leave the detail whole."""
        x, y = xy
        name_width = width - text_width(detail, LABEL) - GAP if detail else width
        right = canvas.text((x, y), name, BODY, GOLD if acting else TEXT, bold=acting, width=name_width)
        if detail:
            canvas.text((right + GAP, y + BODY - LABEL), detail, LABEL, MUTED, width=x + width - right - GAP)

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        counts = view.get("hand_counts") or []
        details = [self.words(plural("{count} card", "{count} cards", count)) for count in counts]
        seat_rows(canvas, names, details, counts, set(self.acting(view)))
        for key, value in view.items():
            if isinstance(value, list) and value and all(is_card(v) for v in value):
                right = canvas.text((MARGIN, canvas.y + 4), key.replace("_", " "), LABEL, MUTED) + 2 * GAP
                canvas.fan((right, canvas.y), value, SMALL, step=30, width=canvas.width - MARGIN - right)
                canvas.y += SMALL.height + GAP

    # The hand picture.

    def hand(self, view: View, legal: Sequence[str], names: Sequence[str] | None = None) -> Canvas | None:
        """The hand picture, as tall as what it draws; None when there is nothing to draw (no
        card of the seat's own yet, or none left)."""
        seat = view.get("viewer")
        seats = self.names(names, seat if isinstance(seat, int) else None)
        rows = self.hand_rows(view, self.playable(view, [Action.from_code(code) for code in legal]), seats)
        if not any(row.cards for row in rows if not row.reference):
            return None
        canvas = Canvas(language=self.language, min_height=0)
        self.draw_hand(canvas, view, rows, seats)
        return canvas

    def draw_hand(self, canvas: Canvas, view: View, rows: list[Row], names: Names) -> None:
        """Draw the hand's rows, as large as the picture has room for."""
        fitted_flow(canvas, rows)

    def playable(self, view: View, legal: Sequence[Action]) -> set[str]:
        """The cards to mark: those a legal action names first."""
        return {str(action.args[0]) for action in legal if action.args and is_card(action.args[0])}

    def hand_rows(self, view: View, playable: set[str], names: Names) -> list[Row]:
        hand = list(view.get("hand") or [])
        return [hand_row(self.words(plural("hand: {count} card", "hand: {count} cards", len(hand))), hand, playable)]
