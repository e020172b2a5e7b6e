"""Q Squared Joe NG: the deck and the discard pile, then a line per seat: its name and
counts, its five stacks (the top card whole, the cards under it as edges: face-down
bottoms and earlier defences), its resource pile and, in a face-up game, its hand."""

from __future__ import annotations

from games.i18n import plural, say

from .base import STATUS, GamePictures, Names, View, hand_row
from .canvas import GAP, LABEL, LINE, MARGIN, MUTED, Canvas, Row
from .cards import SMALL

NAME_COLUMN = 118
STACK_PITCH = SMALL.width + 3
EDGE = 5
"""How much of each card under a stack's top shows (its edge: the stack's depth)."""
EDGES = 3
"""The most edges drawn under a stack's top card."""
SEAT_HEIGHT = SMALL.height + EDGES * EDGE + 12


class Pictures(GamePictures):
    title = "Q Squared Joe NG"

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        y = canvas.y
        caption = y + SMALL.height + 4
        deck_top = view["deck"][-1] if view.get("deck") else None
        canvas.pile((MARGIN, y), view["deck_count"], SMALL, top=deck_top)
        canvas.text((MARGIN, caption), self.words(say("deck {n}", n=view["deck_count"])), LABEL, MUTED)
        x = MARGIN + SMALL.width + 6 * GAP
        canvas.pile((x, y), view["discard_count"], SMALL, top=view.get("discard_top"))
        canvas.text((x, caption), self.words(say("discard {n}", n=view["discard_count"])), LABEL, MUTED)
        x += SMALL.width + 6 * GAP
        lines = [self.words(say("turns without a discard: {n} of {limit}", n=view["turns_since_discard"],
                                limit=view["stall_limit"]))]
        if view.get("faceup"):
            lines.append(self.words(say("face-up game: every card is shown")))
        for i, line in enumerate(lines):
            canvas.text((x, y + i * (LABEL + 6)), line, LABEL, MUTED, width=canvas.width - MARGIN - x)
        canvas.y = caption + LABEL + GAP
        for seat in range(view["players"]):
            self.draw_seat(canvas, view, names, seat)

    def draw_seat(self, canvas: Canvas, view: View, names: Names, seat: int) -> None:
        y = canvas.y
        status = view["status"][seat]
        self.seat_line(canvas, (MARGIN, y), names(seat), "", NAME_COLUMN, acting=seat in self.acting(view))
        hands = view.get("hands")
        count = view["hand_counts"][seat]
        details = [self.words(plural("{count} field card", "{count} field cards", view["field_counts"][seat])),
                   self.words(say("hand {n}", n=count))]
        if status != "playing":
            details.append(self.words(STATUS[status]))
        for i, line in enumerate(details):
            canvas.text((MARGIN, y + LINE + i * (LABEL + 4)), line, LABEL, MUTED, width=NAME_COLUMN)
        x = MARGIN + NAME_COLUMN + GAP
        for stack in view["fields"][seat]:
            self.draw_stack(canvas, x, y, stack)
            x += STACK_PITCH
        x += 2 * GAP
        piles = [(self.words(say("resources")), view["resources"][seat])]
        if hands:
            piles.append((self.words(say("hand")), hands[seat]))
        width = (canvas.width - MARGIN - x) // len(piles)
        for title, cards in piles:
            canvas.text((x, y), title, LABEL, MUTED, width=width - GAP)
            if cards:
                canvas.fan((x, y + LABEL + 6), cards, SMALL, step=26, width=width - GAP)
            else:
                canvas.slot((x, y + LABEL + 6), SMALL)
            x += width
        canvas.y = y + SEAT_HEIGHT

    @staticmethod
    def draw_stack(canvas: Canvas, x: int, y: int, stack: list[str | None]) -> None:
        """A stack from the bottom up: the cards under the top as edges, the top whole."""
        if not stack:
            canvas.slot((x, y), SMALL)
            return
        under = stack[:-1][-EDGES:]
        for i, card in enumerate(under):
            canvas.card((x, y + i * EDGE), card, SMALL)
        canvas.card((x, y + len(under) * EDGE), stack[-1], SMALL)

    def hand_rows(self, view: View, playable: set[str], names: Names) -> list[Row]:
        hand = list(view.get("hand") or [])
        resources = view["resources"][view["viewer"]]
        return [hand_row(self.words(plural("Hand: {count} card", "Hand: {count} cards", len(hand))), hand, playable),
                hand_row(self.words(say("Your resource pile")), resources, playable)]
