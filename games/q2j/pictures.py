"""Q Squared Joe: the stock and the pile's top (a Q-squared pair as a pair), then every seat:
a line each with its hand as backs and its count, or, in Face-up, its faces under its name,
two or three seats to a line so that ten players fit. The message around the picture says
the counts of the piles, the Q² duty and the options."""

from __future__ import annotations

from ..i18n import plural, say
from ..pictures.base import (
    SEAT_ROW,
    STATUS,
    GamePictures,
    Names,
    View,
    fitted_flow,
    hand_fan,
    hand_row,
    seat_grid,
    seat_rows,
)
from ..pictures.canvas import GAP, LABEL, LABEL_LINE, LINE, MARGIN, MIN_HEIGHT, MUTED, Canvas, Row, wrapped
from ..pictures.cards import CARD, LARGE, SMALL, CardSize

FACES_CELL = LINE + SMALL.height + GAP
"""How tall a seat is drawn when its faces show."""


def columns(players: int) -> int:
    """Seats to a line when their faces show."""
    return 3 if players > 6 else 2


class Pictures(GamePictures):

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        players = view["players"]
        hands = view.get("hands")
        seats = players * SEAT_ROW if hands is None else -(-players // columns(players)) * FACES_CELL
        room = MIN_HEIGHT - 2 * MARGIN - 2 * GAP - seats
        sizes = [size for size in (LARGE, CARD) if size.height <= room]
        self.draw_piles(canvas, view, sizes[0] if sizes else SMALL)
        acting = set(self.acting(view))
        statuses, countdown, counts = view["status"], view.get("countdown"), view["hand_counts"]

        def detail(seat: int) -> str:
            parts = [self.words(plural("{count} card", "{count} cards", counts[seat])) if counts[seat] else "",
                     "" if statuses[seat] == "playing" else self.words(STATUS.get(statuses[seat], statuses[seat])),
                     self.words(say("hand of {n}", n=countdown[seat])) if countdown else ""]
            return " · ".join(filter(None, parts))

        if hands is None:
            seat_rows(canvas, names, [detail(seat) for seat in range(players)], counts, acting)
            return

        def seat(seat: int, x: int, y: int, width: int) -> None:
            # The faces show the count; a seat's status stays beside its name.
            status = "" if statuses[seat] == "playing" else self.words(STATUS.get(statuses[seat], statuses[seat]))
            self.seat_line(canvas, (x, y), names(seat), status, width, acting=seat in acting)
            hand_fan(canvas, (x, y + LINE), width, hands[seat], counts[seat])

        seat_grid(canvas, players, columns(players), FACES_CELL, seat)

    def draw_piles(self, canvas: Canvas, view: View, size: CardSize) -> None:
        """The stock and the top card(s), as large as the picture has room for."""
        y = canvas.y + 4
        x = canvas.pile((MARGIN, y), view["stock_count"], size) + 3 * GAP
        for card in view["top"]:
            x = canvas.card((x, y), card, size) + 4
        canvas.y = y + size.height + 2 * GAP

    def hand_rows(self, view: View, playable: set[str], names: Names) -> list[Row]:
        hand = list(view.get("hand") or [])
        penalty = set(view.get("penalty_cards") or [])
        title = self.words(plural("Hand: {count} card", "Hand: {count} cards", len(hand)))
        row = hand_row(title, hand, playable)
        return [Row(self.words(say("top")), list(view["top"]), reference=True),
                row._replace(penalty=frozenset(i for i, card in enumerate(hand) if card in penalty))]

    def draw_hand(self, canvas: Canvas, view: View, rows: list[Row], names: Names) -> None:
        """The rows, and under them what "+1" means when a card wears it."""
        if not view.get("penalty_cards"):
            fitted_flow(canvas, rows)
            return
        legend = self.words(say("+1: playing this card costs a penalty draw"))
        lines = wrapped(legend, LABEL, canvas.width - 2 * MARGIN)
        fitted_flow(canvas, rows, below=len(lines) * LABEL_LINE)
        canvas.y = canvas.paragraph((MARGIN, canvas.y - GAP + 2), legend, LABEL, MUTED,
                                    width=canvas.width - 2 * MARGIN) - GAP + 2

