"""Q Squared Joe NG: each field's five stacks (face-down bottoms as backs, defence cards
on top), resource piles, hand sizes, the deck and the discard pile."""

from __future__ import annotations

from .base import GamePictures, View, hand_row, seat_name
from .canvas import GAP, GOLD, MARGIN, MUTED, TEXT, Canvas, Row
from .cards import SMALL

STACK_STEP = 22
"""How far each card on a stack sits below the one under it (its rank stays visible)."""
STACK_PITCH = SMALL.width + 10


class Pictures(GamePictures):
    def draw_table(self, canvas: Canvas, view: View) -> None:
        y = canvas.y
        deck_top = view["deck"][-1] if view.get("deck") else None
        x = canvas.pile((MARGIN, y), view["deck_count"], "deck", top=deck_top) + 3 * GAP
        x = canvas.pile((x, y), view["discard_count"], "discard", top=view.get("discard_top")) + 3 * GAP
        canvas.text((x, y), f"turns without a discard: {view['turns_since_discard']} of {view['stall_limit']}", 18, MUTED)
        if view.get("faceup"):
            canvas.text((x, y + 26), "face-up game: every card is shown", 18, MUTED)
        canvas.y = y + 122
        for seat in range(view["players"]):
            self.draw_seat(canvas, view, seat)

    def draw_seat(self, canvas: Canvas, view: View, seat: int) -> None:
        y = canvas.y
        acting = seat in self.acting(view)
        status = view["status"][seat]
        canvas.text((MARGIN, y), f"{seat_name(seat)}: {view['field_counts'][seat]} field cards"
                    + ("" if status == "playing" else f" · {status}"), 18, GOLD if acting else TEXT, bold=acting)
        bottom = y + 26 + SMALL.height
        for k, stack in enumerate(view["fields"][seat]):
            x = MARGIN + k * STACK_PITCH
            if not stack:
                canvas.draw.rounded_rectangle((x, y + 26, x + SMALL.width, y + 26 + SMALL.height), 6,
                                              outline=MUTED, width=1)
            for j, card in enumerate(stack):
                canvas.card((x, y + 26 + j * STACK_STEP), card, SMALL)
            bottom = max(bottom, y + 26 + max(0, len(stack) - 1) * STACK_STEP + SMALL.height)
        x = MARGIN + 5 * STACK_PITCH + 2 * GAP
        half = (canvas.width - MARGIN - x) // 2
        resources = view["resources"][seat]
        canvas.text((x, y + 4), f"resources {len(resources)}", 16, MUTED)
        canvas.cards((x, y + 26), resources, SMALL, step=26, width=half - 2 * GAP)
        hands = view.get("hands")
        count = view["hand_counts"][seat]
        canvas.text((x + half, y + 4), f"hand {count}", 16, MUTED)
        hand = hands[seat] if hands else [None] * count
        canvas.cards((x + half, y + 26), hand, SMALL, step=26 if hands else 12, width=half)
        canvas.y = bottom + 2 * GAP

    def hand_rows(self, view: View, playable: set[str]) -> list[Row]:
        hand = list(view.get("hand") or [])
        resources = view["resources"][view["viewer"]]
        return [hand_row(f"Hand: {len(hand)} cards", hand, playable),
                hand_row("Your resource pile", resources, playable, step=30)]
