"""QUASH: the board as it lies, RED's nine spots facing BLACK's section by section (1–3,
4–6, 7–9) with open slots, failed and lost spots marked; the score track with both
markers and the finish; hands and leftovers; then an open swap chain (its moved cards
ringed, the card in the air) or the tiebreak and the cards it used."""

from __future__ import annotations

from games.i18n import plural, say

from ..games.quash import side_name
from .base import GamePictures, Names, View, hand_row
from .canvas import (
    BLACK_SIDE,
    BODY,
    FAILED,
    FELT_DARK,
    GAP,
    GOLD,
    LABEL,
    MARGIN,
    MUTED,
    RED_SIDE,
    TEXT,
    Canvas,
    Row,
    text_width,
)
from .cards import SMALL

SIDE_COLOURS = (RED_SIDE, BLACK_SIDE)
SLOT_STEP = 30
SPOT_GAP = 14
TRACK_HEIGHT = 40
BAR_HEIGHT = 28


class Pictures(GamePictures):

    def status_text(self, view: View, names: Names) -> str:
        if view["over"]:
            if view["winner"] == "draw":
                return self.words(say("draw"))
            return self.words(say("{side} wins", side=side_name(view["winner"])))
        return f"{self.words(say('round {n}', n=view['round']))} · " + super().status_text(view, names)

    def spot_caption(self, spot: dict, side: str) -> tuple[str, tuple[int, int, int]]:
        """What is written under a spot, and in which colour."""
        number = spot["spot"]
        if spot["scored"]:
            if spot["winner"] == side:
                return f"{number} +{spot['points']}", GOLD
            lost = say("{n} tied", n=number) if spot["winner"] is None else say("{n} lost", n=number)
            return self.words(lost), FAILED
        if spot["failed"]:
            return self.words(say("{n} failed", n=number)), FAILED
        return str(number), MUTED

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        half = canvas.width // 2
        for side, name in enumerate(view["sides"]):
            x = MARGIN // 2 + side * half
            box = (x, canvas.y, x + half - MARGIN, canvas.y + BAR_HEIGHT)
            canvas.draw.rounded_rectangle(box, 8, fill=SIDE_COLOURS[side])
            score = str(view["track"][side])
            score_right = x + half - MARGIN - 10
            canvas.text((score_right, canvas.y + 3), score, BODY, TEXT, bold=True, anchor="ra")
            team = f"{self.words(side_name(name))} · {names.listed(view['teams'][side])}"
            canvas.text((x + 10, canvas.y + 3), team, BODY, TEXT, bold=True,
                        width=score_right - x - 20 - text_width(score, BODY, True))
        canvas.y += BAR_HEIGHT + GAP
        chain = view.get("chain")
        for index, section in enumerate(view["sections"]):
            y = canvas.y
            if index:
                canvas.draw.line((MARGIN, y - 4, canvas.width - MARGIN, y - 4), fill=FELT_DARK, width=2)
            for side, name in enumerate(view["sides"]):
                moved = {step["card"] for step in chain["steps"]} if chain and chain["side"] == name else set()
                x = MARGIN + side * half
                for number in section:
                    x = self.draw_spot(canvas, x, y, view["board"][side][number - 1], name, moved) + SPOT_GAP
            canvas.y = y + SMALL.height + LABEL + 10
        self.draw_track(canvas, view)
        self.draw_counts(canvas, view, names)
        if chain:
            swapping = say("{seat} is swapping on {side}'s side", seat=names(chain["seat"]),
                           side=side_name(chain["side"]))
            self.strip(canvas, [self.words(swapping), self.words(say("moved cards ringed · in the air:"))],
                       [chain["flying"]], ring=True)
        tiebreak = view.get("tiebreak")
        lines = []
        if tiebreak:
            lines += [self.words(say("Tiebreak for spot {spot}:", spot=tiebreak["spot"])),
                      " · ".join(self.words(say("{side} chosen", side=side_name(name)) if done
                                            else say("{side} choosing", side=side_name(name)))
                                 for name, done in zip(view["sides"], tiebreak["chosen"]))]
        if view["used"]:
            lines.append(self.words(say("tiebreak cards used:")))
        if lines:
            self.strip(canvas, lines, view["used"])

    def strip(self, canvas: Canvas, lines: list[str], cards: list[str], ring: bool = False) -> None:
        """Lines of text in gold with cards beside them on the right."""
        y = canvas.y
        right = canvas.width - MARGIN
        left = right - len(cards) * (SMALL.width + GAP) + GAP
        for i, card in enumerate(cards):
            canvas.card((left + i * (SMALL.width + GAP), y), card, SMALL, marked=ring)
        for i, line in enumerate(lines):
            canvas.text((MARGIN, y + i * (LABEL + 4)), line, LABEL, GOLD, bold=i == 0, width=left - MARGIN - GAP)
        canvas.y = y + max(SMALL.height, len(lines) * (LABEL + 4)) + GAP

    def draw_spot(self, canvas: Canvas, x: int, y: int, spot: dict, side: str, moved: set[str]) -> int:
        """One spot: its cards in slot order (those an open chain moved this turn ringed),
        then its open slots; returns its right edge."""
        slots = list(spot["cards"]) + [None] * spot["open"]
        right = x
        lost = spot["scored"] and spot["winner"] not in (None, side)
        for i, card in enumerate(slots):
            left = x + i * SLOT_STEP
            if card is None:
                canvas.slot((left, y), SMALL, fill=FELT_DARK)
                right = left + SMALL.width
            else:
                right = canvas.card((left, y), card, SMALL, dim=bool(spot["failed"]) or lost,
                                    marked=card in moved or (spot["scored"] and spot["winner"] == side))
        text, colour = self.spot_caption(spot, side)
        canvas.text((x, y + SMALL.height + 3), text, LABEL, colour)
        return right

    def draw_track(self, canvas: Canvas, view: View) -> None:
        """The score track from 0 to the finish, RED's marker above it, BLACK's below."""
        finish = view["finish"]
        label = self.words(say("finish {n}", n=finish))
        left, right = MARGIN + 10, canvas.width - MARGIN - text_width(label, LABEL, True) - 2 * GAP
        y = canvas.y + TRACK_HEIGHT // 2
        canvas.draw.line((left, y, right, y), fill=TEXT, width=3)
        tick = 1 if finish <= 30 else 5
        for point in range(0, finish + 1, tick):
            tx = left + (right - left) * point // finish
            canvas.draw.line((tx, y - 4, tx, y + 4), fill=MUTED, width=1)
        canvas.draw.rectangle((right, y - 12, right + 4, y + 12), fill=GOLD)
        canvas.text((right + GAP + 2, y - LABEL // 2 - 2), label, LABEL, GOLD, bold=True)
        for side, colour in enumerate(SIDE_COLOURS):
            point = min(view["track"][side], finish)
            mx = left + (right - left) * point // finish
            my = y - 11 if side == 0 else y + 11
            canvas.draw.ellipse((mx - 8, my - 8, mx + 8, my + 8), fill=colour, outline=TEXT, width=2)
        canvas.y += TRACK_HEIGHT + 4

    def draw_counts(self, canvas: Canvas, view: View, names: Names) -> None:
        counts = [f"{names(s)}: {self.words(n)}" for s, n in enumerate(view["hand_counts"])]
        counts.append(self.words(say("pile {n}", n=view["pile_count"])))
        if view["aside_count"]:
            counts.append(self.words(say("set aside {n}", n=view["aside_count"])))
        canvas.label(self.words(say("hands: {counts}", counts=" · ".join(counts))), LABEL, MUTED)
        if any(view["leftover_counts"]):
            counts = [f"{self.words(side_name(name))}: {self.words(n)}"
                      for name, n in zip(view["sides"], view["leftover_counts"])]
            canvas.label(self.words(say("leftovers: {counts}", counts=" · ".join(counts))), LABEL, MUTED)

    def hand_rows(self, view: View, playable: set[str], names: Names) -> list[Row]:
        hand = list(view.get("hand") or [])
        title = self.words(plural("Hand: {count} card", "Hand: {count} cards", len(hand)) if view["phase"] == "play"
                           else plural("Your side's leftover pool: {count} card",
                                       "Your side's leftover pool: {count} cards", len(hand)))
        chain = view.get("chain")
        flying = [Row(self.words(say("In the air: place it")), [chain["flying"]], frozenset({0}), highlight=True)
                  ] if chain and chain["seat"] == view.get("viewer") else []
        rows = [*flying, hand_row(title, hand, playable)]
        if view.get("your_tiebreak_card"):
            rows.append(Row(self.words(say("Your tiebreak card")), [view["your_tiebreak_card"]]))
        return rows
