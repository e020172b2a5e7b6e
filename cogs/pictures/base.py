"""What every game's pictures share, and the look of a game without its own drawer.

A game's module ``cogs/pictures/<package>.py`` defines ``Pictures``, a subclass of
:class:`GamePictures` overriding what it draws differently. A drawer writes in one language
(:attr:`GamePictures.language`, see :func:`cogs.pictures.pictures_for`).
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
    LINE,
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


def fitted_flow(canvas: Canvas, rows: Sequence[Row], sizes: Sequence[CardSize] = (LARGE, CARD, SMALL)) -> None:
    """``rows`` at the cursor with the largest card size whose lines fit in the picture's
    least height (a short hand fills the room it has), else in the square (the smallest
    size when none does)."""
    bottoms = [flow(None, rows, size=size, top=canvas.y) + MARGIN for size in sizes]
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
    """A seat's hand under its line: its faces (``hand``), or ``count`` small backs."""
    if hand is not None:
        canvas.fan(xy, hand, SMALL, step=26, width=width)
    else:
        canvas.fan(xy, [None] * count, TINY, step=8, width=width)


def hand_height(faces: bool) -> int:
    """How tall :func:`hand_fan` draws a hand, with a small gap below."""
    return (SMALL if faces else TINY).height + GAP - 2


class GamePictures:
    """How one game is drawn. The generic look: each seat with its hand as card backs and
    any public list of cards in the view; the hand as one row."""

    title: str | None = None
    """The picture's heading; None: the game's name."""

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
        seats = self.names(names)
        canvas = Canvas(language=self.language)
        canvas.heading(self.title or self.game.name, self.status_text(view, seats))
        self.draw_table(canvas, view, seats)
        return canvas

    def status_text(self, view: View, names: Names) -> str:
        """The heading's right side: whose turn, or that the game is over."""
        if view.get("over"):
            return self.words(say("game over"))
        to_act = self.acting(view)
        return self.words(say("to play: {names}", names=names.listed(to_act))) if to_act else ""

    def acting(self, view: View) -> list[int]:
        """The seats whose turn the picture shows (in gold)."""
        return list(view.get("to_act") or [])

    def seat_line(self, canvas: Canvas, xy: tuple[int, int], name: str, detail: str, width: int, *,
                  acting: bool = False) -> None:
        """A seat's name (gold when it is to act) and ``detail`` after it, cut to ``width``;
        the name gives way to the detail down to half the width."""
        x, y = xy
        name_width = max(width // 2, width - text_width(detail, LABEL) - GAP) if detail else width
        right = canvas.text((x, y), name, BODY, GOLD if acting else TEXT, bold=acting, width=name_width)
        if detail:
            canvas.text((right + GAP, y + 2), detail, LABEL, MUTED, width=x + width - right - GAP)

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        counts = view.get("hand_counts") or []
        acting = set(self.acting(view))

        def seat(seat: int, x: int, y: int, width: int) -> None:
            cards = self.words(plural("{count} card", "{count} cards", counts[seat]))
            self.seat_line(canvas, (x, y), names(seat), cards, width, acting=seat in acting)
            hand_fan(canvas, (x, y + LINE), width, None, counts[seat])

        seat_grid(canvas, len(counts), 2, LINE + hand_height(False), seat)
        for key, value in view.items():
            if isinstance(value, list) and value and all(is_card(v) for v in value):
                canvas.text((MARGIN, canvas.y), key.replace("_", " "), LABEL, MUTED)
                canvas.fan((MARGIN, canvas.y + LABEL + 4), value, SMALL, step=30,
                           width=canvas.width - 2 * MARGIN)
                canvas.y += LABEL + 4 + SMALL.height + GAP

    # The hand picture.

    def hand(self, view: View, legal: Sequence[str], names: Sequence[str] | None = None) -> Canvas:
        seat = view.get("viewer")
        seats = self.names(names, seat if isinstance(seat, int) else None)
        canvas = Canvas(language=self.language)
        canvas.heading(self.words(say("You") if isinstance(seat, int) else say("Hand")),
                       self.words(say("your turn")) if view.get("your_turn") else "")
        rows = self.hand_rows(view, self.playable(view, [Action.from_code(code) for code in legal]), seats)
        fitted_flow(canvas, rows)
        return canvas

    def playable(self, view: View, legal: Sequence[Action]) -> set[str]:
        """The cards to mark: those a legal action names first."""
        return {str(action.args[0]) for action in legal if action.args and is_card(action.args[0])}

    def hand_rows(self, view: View, playable: set[str], names: Names) -> list[Row]:
        hand = list(view.get("hand") or [])
        return [hand_row(self.words(plural("hand: {count} card", "hand: {count} cards", len(hand))), hand, playable)]

