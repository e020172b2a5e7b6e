"""Q Squared Joe NG: the deck and the discard pile when there is room (the message says their
counts), then two lines per seat: its name and hand size, then its five stacks (the top card
whole, the cards under it as edges: face-down bottoms and earlier defences), its resource pile
and, in a face-up game, its hand."""

from __future__ import annotations

from ..i18n import plural, say
from ..pictures.base import STATUS, GamePictures, Names, View, hand_row
from ..pictures.canvas import BODY, GAP, LABEL, LINE, MARGIN, MAX_HEIGHT, MUTED, Canvas, Row
from ..pictures.cards import SMALL

STACK_PITCH = SMALL.width + 3
EDGE = 5
"""How much of each card under a stack's top shows (its edge: the stack's depth)."""
EDGES = 3
"""The most edges drawn under a stack's top card."""
STACKS = 5
SEAT_HEIGHT = LINE + SMALL.height + EDGES * EDGE + GAP
PILES_HEIGHT = SMALL.height + 2 * GAP


class Pictures(GamePictures):

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        if canvas.y + PILES_HEIGHT + view["players"] * SEAT_HEIGHT + MARGIN <= MAX_HEIGHT:
            y = canvas.y + 4
            deck_top = view["deck"][-1] if view.get("deck") else None
            x = canvas.pile((MARGIN, y), view["deck_count"], SMALL, top=deck_top) + 5 * GAP
            canvas.pile((x, y), view["discard_count"], SMALL, top=view.get("discard_top"))
            canvas.y = y + PILES_HEIGHT
        for seat in range(view["players"]):
            self.draw_seat(canvas, view, names, seat)

    def draw_seat(self, canvas: Canvas, view: View, names: Names, seat: int) -> None:
        """The seat's name and hand size over its stacks; its resources (and hand in a face-up
        game) after them, each under its title."""
        y = canvas.y
        status = view["status"][seat]
        piles = [(self.words(say("resources")), view["resources"][seat])]
        hands = view.get("hands")
        if hands:
            piles.append((self.words(say("hand")), hands[seat]))
        x = MARGIN + STACKS * STACK_PITCH + 2 * GAP
        width = (canvas.width - MARGIN - x) // len(piles)
        detail = self.words(say("hand {n}", n=view["hand_counts"][seat]) if status == "playing"
                            else STATUS.get(status, say("out")))
        self.seat_line(canvas, (MARGIN, y), names(seat), detail, x - MARGIN - 2 * GAP,
                       acting=seat in self.acting(view))
        stacks_top = y + LINE
        for i, stack in enumerate(view["fields"][seat]):
            self.draw_stack(canvas, MARGIN + i * STACK_PITCH, stacks_top, stack)
        for title, cards in piles:
            canvas.text((x, y + BODY - LABEL), title, LABEL, MUTED, width=width - GAP)
            if cards:
                canvas.fan((x, stacks_top), cards, SMALL, step=SMALL.width - 8, width=width - GAP)
            else:
                canvas.slot((x, stacks_top), SMALL)
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

