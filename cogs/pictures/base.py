"""What every game's pictures share, and the look of a game without its own drawer.

A game's module ``cogs/pictures/<package>.py`` defines ``Pictures``, a subclass of
:class:`GamePictures` overriding what it draws differently. Drawers read views only: the
table picture the public view (``state.view(None)``), the hand picture one seat's view.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from games.base import Action, Game
from games.cards import parse_card
from games.errors import MalformedAction

from .canvas import MARGIN, WIDTH, Canvas, Row, flow
from .cards import CARD, SMALL

HAND_MIN_STEP = 36
"""The closest a hand's cards overlap (a "10" still shows whole) before the row wraps."""

View = Mapping[str, Any]


def is_card(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parse_card(value)
    except MalformedAction:
        return False
    return True


def seat_name(seat: int) -> str:
    return f"Seat {seat + 1}"


def marked_positions(cards: Sequence[str | None], playable: Iterable[str]) -> frozenset[int]:
    playable = set(playable)
    return frozenset(i for i, card in enumerate(cards) if card in playable)


def hand_row(title: str, cards: Sequence[str | None], playable: set[str], **more: Any) -> Row:
    """A row of the viewer's own cards: the playable ones marked, the others greyed when
    anything is playable."""
    if "step" not in more and len(cards) > 1:
        # Squeeze a long hand onto one line while its ranks stay readable; longer ones wrap.
        more["step"] = max(HAND_MIN_STEP, min(CARD.width - 8, (WIDTH - 2 * MARGIN - CARD.width) // (len(cards) - 1)))
    return Row(title, cards, marked_positions(cards, playable), dim_unmarked=bool(playable), **more)


class GamePictures:
    """How one game is drawn. The generic look: each seat with its hand as card backs and
    any public list of cards in the view; the hand as one row."""

    def __init__(self, game: Game) -> None:
        self.game = game

    # The table picture.

    def table(self, view: View) -> Canvas:
        canvas = Canvas()
        canvas.heading(self.game.name, self.status_text(view))
        self.draw_table(canvas, view)
        return canvas

    def status_text(self, view: View) -> str:
        """The heading's right side: whose turn, or that the game is over."""
        if view.get("over"):
            return "game over"
        to_act = self.acting(view)
        return "to play: " + ", ".join(seat_name(s) for s in to_act) if to_act else ""

    def acting(self, view: View) -> list[int]:
        """The seats whose turn the picture shows (in gold)."""
        return list(view.get("to_act") or [])

    def draw_table(self, canvas: Canvas, view: View) -> None:
        counts = view.get("hand_counts") or []
        self.seat_lines(canvas, view, [[Row(f"{seat_name(s)}: {n} cards", [None] * n)] for s, n in enumerate(counts)])
        public = [Row(key.replace("_", " "), value) for key, value in view.items()
                  if isinstance(value, list) and value and all(is_card(v) for v in value)]
        flow(canvas, public, size=SMALL, step=30)

    def seat_lines(self, canvas: Canvas, view: View, lines: Sequence[Sequence[Row]], step: int = 14,
                   share: bool = True) -> None:
        """Each seat's rows of small cards, the titles of the seats to act in gold. With
        ``share``, seats with one row each share lines as they fit; otherwise (or when a seat
        has more rows) each seat starts a line."""
        to_act = set(self.acting(view))
        lines = [[row._replace(highlight=seat in to_act) for row in rows] for seat, rows in enumerate(lines)]
        if share and all(len(rows) == 1 for rows in lines):
            flow(canvas, [rows[0] for rows in lines], size=SMALL, step=step)
            return
        for rows in lines:
            flow(canvas, rows, size=SMALL, step=step)
            canvas.y -= 4

    # The hand picture.

    def hand(self, view: View, legal: Sequence[str]) -> Canvas:
        canvas = Canvas()
        seat = view.get("viewer")
        title = seat_name(seat) if isinstance(seat, int) else "Hand"
        canvas.heading(title, "your turn" if view.get("your_turn") else "")
        flow(canvas, self.hand_rows(view, self.playable(view, [Action.from_code(code) for code in legal])))
        return canvas

    def playable(self, view: View, legal: Sequence[Action]) -> set[str]:
        """The cards to mark: those a legal action names first."""
        return {str(action.args[0]) for action in legal if action.args and is_card(action.args[0])}

    def hand_rows(self, view: View, playable: set[str]) -> list[Row]:
        hand = list(view.get("hand") or [])
        return [hand_row(f"Hand: {len(hand)} cards", hand, playable)]


