"""Q Squared Joe War: every field with tapped cards turned sideways, deck counts, the
discard pile's top."""

from __future__ import annotations

from .base import GamePictures, View, hand_row, seat_name
from .canvas import GAP, MARGIN, Canvas, Row
from .cards import SMALL


def field_row(title: str, field: list[dict], playable: set[str] = frozenset(), **more) -> Row:
    cards = [slot["card"] for slot in field]
    row = hand_row(title, cards, set(playable), step=SMALL.width + GAP, **more)
    return row._replace(tapped=frozenset(i for i, slot in enumerate(field) if slot["tapped"]))


class Pictures(GamePictures):
    def draw_table(self, canvas: Canvas, view: View) -> None:
        y = canvas.y
        top = view["discard_top"][0] if view["discard_top"] else None
        x = canvas.pile((MARGIN, y), view["discard_count"], "discard", top=top) + 3 * GAP
        attack = view.get("last_attack")
        if attack:
            result = {1: "won", 0: "tied", -1: "lost"}[attack["compare"]]
            canvas.text((x, y), f"Last attack: {seat_name(attack['seat'])} on {seat_name(attack['target_seat'])}", 18)
            right = canvas.card((x, y + 26), attack["attacker"], SMALL)
            canvas.text((right + GAP, y + 50), "vs", 18)
            right = canvas.card((right + 3 * GAP + 8, y + 26), attack["target"], SMALL)
            canvas.text((right + GAP, y + 50), result, 18, bold=True)
        canvas.text((canvas.width - MARGIN, y), f"moves played: {view['moves']}", 18, anchor="ra")
        canvas.y = y + 120
        rows = []
        for seat, field in enumerate(view["fields"]):
            status = view["status"][seat]
            title = f"{seat_name(seat)}: deck {view['deck_counts'][seat]}" + ("" if status == "playing" else f" · {status}")
            rows.append(field_row(title, field))
        self.seat_lines(canvas, view, [[row] for row in rows], share=False)

    def hand_rows(self, view: View, playable: set[str]) -> list[Row]:
        seat = view["viewer"]
        deck = view["deck_counts"][seat]
        return [field_row(f"Your field (deck {deck})", view["fields"][seat], playable)]
