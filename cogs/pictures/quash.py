"""QUASH: the board as it lies, RED's nine spots facing BLACK's section by section (1–3,
4–6, 7–9) with open slots, failed and lost spots marked; an open swap chain's moved
cards ringed and the card in the air; the score track with both markers and the finish;
hands, leftovers and the tiebreak."""

from __future__ import annotations

from .base import GamePictures, View, hand_row, seat_name
from .canvas import BLACK_SIDE, FAILED, FELT_DARK, GAP, GOLD, MARGIN, MUTED, RED_SIDE, TEXT, Canvas, Row, flow
from .cards import SMALL

SIDE_COLOURS = (RED_SIDE, BLACK_SIDE)
SLOT_STEP = 30
SPOT_GAP = 14
TRACK_HEIGHT = 64


def spot_caption(spot: dict, side: str) -> tuple[str, tuple[int, int, int]]:
    """What is written under a spot, and in which colour."""
    number = str(spot["spot"])
    if spot["scored"]:
        if spot["winner"] == side:
            return f"{number} won +{spot['points']}", GOLD
        if spot["winner"] is None:
            return f"{number} no winner", FAILED
        return f"{number} lost", FAILED
    if spot["failed"]:
        return f"{number} failed", FAILED
    return number, MUTED


class Pictures(GamePictures):
    def status_text(self, view: View) -> str:
        if view["over"]:
            return "draw" if view["winner"] == "draw" else f"{view['winner']} wins"
        return f"round {view['round']} · " + super().status_text(view)

    def draw_table(self, canvas: Canvas, view: View) -> None:
        half = canvas.width // 2
        for side, name in enumerate(view["sides"]):
            x = MARGIN // 2 + side * half
            box = (x, canvas.y, x + half - MARGIN, canvas.y + 30)
            canvas.draw.rounded_rectangle(box, 8, fill=SIDE_COLOURS[side])
            seats = ", ".join(seat_name(s) for s in view["teams"][side])
            canvas.text((x + 10, canvas.y + 4), f"{name} · {seats}", 18, TEXT, bold=True)
            canvas.text((x + half - MARGIN - 10, canvas.y + 4), str(view["track"][side]), 18, TEXT, bold=True,
                        anchor="ra")
        canvas.y += 40
        chain = view.get("chain")
        for index, section in enumerate(view["sections"]):
            y = canvas.y
            if index:
                canvas.draw.line((MARGIN, y - 6, canvas.width - MARGIN, y - 6), fill=FELT_DARK, width=2)
            for side, name in enumerate(view["sides"]):
                moved = {step["card"] for step in chain["steps"]} if chain and chain["side"] == name else set()
                x = MARGIN + side * half
                for number in section:
                    x = self.draw_spot(canvas, x, y, view["board"][side][number - 1], name, moved) + SPOT_GAP
            canvas.y = y + SMALL.height + 34
        if chain:
            flow(canvas, [Row(f"{seat_name(chain['seat'])} is swapping on {chain['side']}'s side "
                              f"(moved cards ringed) · in the air:", [chain["flying"]], highlight=True)], size=SMALL)
        self.draw_track(canvas, view)
        self.draw_counts(canvas, view)

    def draw_spot(self, canvas: Canvas, x: int, y: int, spot: dict, side: str, moved: set[str]) -> int:
        """One spot: its cards in slot order (those an open chain moved this turn ringed),
        then its open slots; returns its right edge."""
        slots = list(spot["cards"]) + ["open"] * spot["open"]
        right = x
        for i, card in enumerate(slots):
            left = x + i * SLOT_STEP
            if card == "open":
                canvas.draw.rounded_rectangle((left, y, left + SMALL.width, y + SMALL.height), 6, fill=FELT_DARK,
                                              outline=MUTED, width=1)
                right = left + SMALL.width
            else:
                right = canvas.card((left, y), card, SMALL, dim=bool(spot["failed"]) or self.lost(spot, side),
                                    marked=card in moved or (spot["scored"] and spot["winner"] == side))
        text, colour = spot_caption(spot, side)
        canvas.text((x, y + SMALL.height + 4), text, 15, colour)
        return right

    @staticmethod
    def lost(spot: dict, side: str) -> bool:
        return spot["scored"] and spot["winner"] not in (None, side)

    def draw_track(self, canvas: Canvas, view: View) -> None:
        """The score track from 0 to the finish, RED's marker above it, BLACK's below."""
        finish = view["finish"]
        left, right = MARGIN + 10, canvas.width - MARGIN - 70
        y = canvas.y + TRACK_HEIGHT // 2
        canvas.draw.line((left, y, right, y), fill=TEXT, width=3)
        tick = 1 if finish <= 30 else 5
        for point in range(0, finish + 1, tick):
            tx = left + (right - left) * point // finish
            canvas.draw.line((tx, y - 4, tx, y + 4), fill=MUTED, width=1)
        canvas.draw.rectangle((right, y - 14, right + 4, y + 14), fill=GOLD)
        canvas.text((right + 10, y - 22), "finish", 14, GOLD)
        canvas.text((right + 10, y - 4), f"{finish}", 18, GOLD, bold=True)
        for side, colour in enumerate(SIDE_COLOURS):
            point = min(view["track"][side], finish)
            mx = left + (right - left) * point // finish
            my = y - 14 if side == 0 else y + 14
            canvas.draw.ellipse((mx - 9, my - 9, mx + 9, my + 9), fill=colour, outline=TEXT, width=2)
        canvas.y += TRACK_HEIGHT

    def draw_counts(self, canvas: Canvas, view: View) -> None:
        hands = " · ".join(f"{seat_name(s)} {n}" for s, n in enumerate(view["hand_counts"]))
        canvas.label(f"Hands: {hands} · pile {view['pile_count']}"
                     + (f" · set aside {view['aside_count']}" if view["aside_count"] else ""), 18, MUTED)
        if any(view["leftover_counts"]):
            canvas.label("Leftovers: " + " · ".join(f"{name} {n}" for name, n in zip(view["sides"], view["leftover_counts"])),
                         18, MUTED)
        tiebreak = view.get("tiebreak")
        if tiebreak:
            chosen = " · ".join(f"{name} {'chosen' if done else 'choosing'}"
                                for name, done in zip(view["sides"], tiebreak["chosen"]))
            canvas.label(f"Tiebreak for spot {tiebreak['spot']}: {chosen}", 18, GOLD, bold=True)
        if view["used"]:
            flow(canvas, [Row("Tiebreak cards used this round", view["used"], step=SMALL.width + GAP)], size=SMALL)

    def hand_rows(self, view: View, playable: set[str]) -> list[Row]:
        hand = list(view.get("hand") or [])
        title = "Hand" if view["phase"] == "play" else "Your side's leftover pool"
        chain = view.get("chain")
        flying = [Row("In the air: place it", [chain["flying"]], frozenset({0}), highlight=True)
                  ] if chain and chain["seat"] == view.get("viewer") else []
        rows = [*flying, hand_row(f"{title}: {len(hand)} cards", hand, playable)]
        if view.get("your_tiebreak_card"):
            rows.append(Row("Your tiebreak card", [view["your_tiebreak_card"]]))
        return rows
