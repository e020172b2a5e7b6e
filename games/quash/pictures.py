"""QUASH: a bar per side (its players, its score of the finish and its track to it), then
the board as it lies, RED's nine spots facing BLACK's section by section (1–3, 4–6, 7–9)
with open slots; hands and leftovers; then an open swap chain (its moved cards ringed, the
card in the air) or the tiebreak and the cards it used. A hand picture shows the seat's own side of the board, the
one it places on, over its hand.

A spot's state has one look each: a spot won is ringed in gold with its points under it
("3 +2"), a spot lost greyed, a failed run greyed and struck through, a tie marked "=".
The message around the picture says the round, the score and the pile."""

from __future__ import annotations

from ..i18n import plural, say
from ..pictures.base import GamePictures, Names, View, fitted_flow, hand_row
from ..pictures.canvas import (
    BLACK_SIDE,
    FELT_DARK,
    GAP,
    GOLD,
    LABEL,
    LABEL_LINE,
    MARGIN,
    MAX_HEIGHT,
    MUTED,
    RED_SIDE,
    TEXT,
    Canvas,
    Colour,
    Row,
    flow,
    frozen,
    text_width,
)
from ..pictures.cards import CARD, SMALL, CardSize, rank_right
from .scoring import side_name

SIDE_COLOURS = (RED_SIDE, BLACK_SIDE)
NBSP = "\u00a0"
TRACK = 6
"""The height of a side's score track under its bar."""
BAR_HEIGHT = LABEL + 8
CAPTION = LABEL + 8
"""The height of a spot's caption under it."""
SPOT_GAP = 8
SIDE_GAP = 12
"""Between RED's half of the table and BLACK's."""


def unbroken(text: str) -> str:
    """``text`` kept on one line when a list of such is wrapped."""
    return text.replace(" ", NBSP)


def slot_step(size: CardSize) -> int:
    """How far apart a spot's slots are: the widest rank ("10") still shows whole."""
    return rank_right("10H", size) + 1


def spot_width(slots: int, size: CardSize) -> int:
    return size.width + (slots - 1) * slot_step(size)


class Pictures(GamePictures):

    def spot_caption(self, spot: dict, side: str) -> list[tuple[str, Colour]]:
        """What is written by a spot: its number, then its points in gold when won, "=" when tied."""
        caption = [(str(spot["spot"]), MUTED)]
        if spot["scored"] and spot["winner"] == side:
            caption.append((f"+{spot['points']}", GOLD))
        elif spot["scored"] and spot["winner"] is None:
            caption.append(("=", MUTED))
        return caption

    # The table picture.

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        self.draw_bars(canvas, view, names)
        chain = view.get("chain")
        half = (canvas.width - 2 * MARGIN - SIDE_GAP) // 2
        moved = [{step["card"] for step in chain["steps"]} if chain and chain["side"] == name else set()
                 for name in view["sides"]]
        for section in view["sections"]:
            spots = [[view["board"][side][number - 1] for number in section] for side in range(len(view["sides"]))]

            def draw(top: int, spots: list[list[dict]] = spots) -> None:
                for side, name in enumerate(view["sides"]):
                    x = MARGIN + side * (half + SIDE_GAP)
                    for spot in spots[side]:
                        right = self.draw_spot(canvas, x, top, spot, name, moved[side], SMALL)
                        self.draw_caption(canvas, x, top + SMALL.height + 2, spot, name)
                        x = right + SPOT_GAP

            # A line of spots is kept drawn: a move changes one spot of the board at most.
            key = ("quash table section", tuple(view["sides"]), frozen(spots),
                   tuple(tuple(card for spot in side for card in spot["cards"] if card in moved[i])
                         for i, side in enumerate(spots)))
            canvas.band(SMALL.height + CAPTION, key, draw)
        self.draw_counts(canvas, view, names)
        if chain:
            swapping = say("{seat} is swapping on {side}'s side", seat=names(chain["seat"]),
                           side=side_name(chain["side"]))
            self.strip(canvas, [self.words(swapping), self.words(say("in the air:"))], [chain["flying"]], ring=True)
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

    def draw_bars(self, canvas: Canvas, view: View, names: Names) -> None:
        """A bar per side in its colour: its name and players, its score on the right, and
        under it the side's way to the finish (the score track, a side each). Kept drawn:
        they change with the score."""
        half = (canvas.width - 2 * MARGIN - SIDE_GAP) // 2

        def draw(top: int) -> None:
            for side in range(len(view["sides"])):
                x = MARGIN + side * (half + SIDE_GAP)
                canvas.draw.rounded_rectangle((x, top, x + half, top + BAR_HEIGHT), 8, fill=SIDE_COLOURS[side])
                self.bar_text(canvas, x, half, view, names, side, str(view["track"][side]))
                track = top + BAR_HEIGHT + 4
                done = half * min(view["track"][side], view["finish"]) // view["finish"]
                canvas.draw.rounded_rectangle((x, track, x + half, track + TRACK), 3, fill=FELT_DARK)
                if done:
                    canvas.draw.rounded_rectangle((x, track, x + done, track + TRACK), 3, fill=TEXT)

        key = ("quash bars", tuple(view["sides"]), tuple(names.listed(team) for team in view["teams"]),
               tuple(view["track"]), view["finish"])
        canvas.band(BAR_HEIGHT + 4 + TRACK + GAP, key, draw)

    def bar_text(self, canvas: Canvas, x: int, width: int, view: View, names: Names, side: int, score: str) -> None:
        """A side's bar's words: its name in bold, its players (cut short to leave the score
        whole), its score on the right."""
        y = canvas.y + 2
        right = x + width - 10
        if score:
            right = canvas.text((right, y), score, LABEL, TEXT, bold=True, anchor="ra") - text_width(score, LABEL, True)
        left = canvas.text((x + 10, y), self.words(side_name(view["sides"][side])), LABEL, TEXT, bold=True)
        left += text_width(" ", LABEL)
        canvas.text((left, y), f"· {names.listed(view['teams'][side])}", LABEL, TEXT, width=right - GAP - left)

    def strip(self, canvas: Canvas, lines: list[str], cards: list[str], ring: bool = False) -> None:
        """Lines of text in gold (wrapped) with cards beside them on the right."""
        y = canvas.y
        right = canvas.width - MARGIN
        left = right - len(cards) * (SMALL.width + GAP) + GAP
        for i, card in enumerate(cards):
            canvas.card((left + i * (SMALL.width + GAP), y), card, SMALL, marked=ring)
        bottom = y
        for i, line in enumerate(lines):
            bottom = canvas.paragraph((MARGIN, bottom), line, LABEL, GOLD, width=left - MARGIN - 2 * GAP, bold=i == 0)
        canvas.y = max(y + SMALL.height, bottom) + GAP

    def draw_spot(self, canvas: Canvas, x: int, y: int, spot: dict, side: str, moved: set[str],
                  size: CardSize) -> int:
        """One spot: its cards in slot order (those an open chain moved this turn ringed),
        then its open slots; returns its right edge."""
        slots = list(spot["cards"]) + [None] * spot["open"]
        step = slot_step(size)
        won = spot["scored"] and spot["winner"] == side
        lost = spot["scored"] and spot["winner"] not in (None, side)
        for i, card in enumerate(slots):
            left = x + i * step
            if card is None:
                canvas.slot((left, y), size, fill=FELT_DARK)
            else:
                canvas.card((left, y), card, size, dim=bool(spot["failed"]) or lost, marked=card in moved or won)
        right = x + spot_width(len(slots), size)
        if spot["failed"]:
            canvas.draw.line((x + 4, y + size.height - 6, right - 4, y + 6), fill=BLACK_SIDE, width=4)
        return right

    def draw_caption(self, canvas: Canvas, x: int, y: int, spot: dict, side: str) -> int:
        """A spot's caption from ``x``; returns its right edge."""
        for text, colour in self.spot_caption(spot, side):
            x = canvas.text((x, y), text, LABEL, colour, bold=colour == GOLD) + 6
        return x

    def draw_counts(self, canvas: Canvas, view: View, names: Names) -> None:
        counts = [self.words(say("{name}: {n}", name=names(seat), n=n)) for seat, n in enumerate(view["hand_counts"])]
        if view["aside_count"]:
            counts.append(self.words(say("set aside {n}", n=view["aside_count"])))
        counts = [unbroken(count) for count in counts]
        canvas.label(self.words(say("hands: {counts}", counts=" · ".join(counts))), LABEL, MUTED)
        if any(view["leftover_counts"]):
            counts = [unbroken(self.words(say("{name}: {n}", name=side_name(name), n=n)))
                      for name, n in zip(view["sides"], view["leftover_counts"])]
            canvas.label(self.words(say("leftovers: {counts}", counts=" · ".join(counts))), LABEL, MUTED)

    # The hand picture.

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

    def draw_hand(self, canvas: Canvas, view: View, rows: list[Row], names: Names) -> None:
        """The seat's side of the board (under a bar in its colour), a section a line, each
        spot's number before it; the hand under it. Cards as large as the square has room for;
        when even small ones leave no room, the card in the air goes on the board's right."""
        side = view["sides"].index(view["side"])
        flying = rows[0] if rows[0].highlight else None
        for size, beside in ((CARD, False), (SMALL, False), (SMALL, flying is not None)):
            below = [row for row in rows if not (beside and row is flying)]
            height = BAR_HEIGHT + GAP + 3 * (size.height + GAP) + flow(None, below, size=SMALL, top=0,
                                                                        language=canvas.language)
            if canvas.y + height + MARGIN <= MAX_HEIGHT:
                break
        canvas.draw.rounded_rectangle((MARGIN, canvas.y, canvas.width - MARGIN, canvas.y + BAR_HEIGHT), 8,
                                      fill=SIDE_COLOURS[side])
        self.bar_text(canvas, MARGIN, canvas.width - 2 * MARGIN, view, names, side, "")
        canvas.y += BAR_HEIGHT + GAP
        top, right = canvas.y, MARGIN
        number_width = max(text_width(f"+{n}", LABEL, True) for n in range(1, 10))
        for section in view["sections"]:
            spots = [view["board"][side][number - 1] for number in section]

            def draw(y: int, spots: list[dict] = spots) -> None:
                x = MARGIN
                for spot in spots:
                    for line, (text, colour) in enumerate(self.spot_caption(spot, view["side"])):
                        canvas.text((x, y + line * LABEL_LINE), text, LABEL, colour, bold=colour == GOLD)
                    x = self.draw_spot(canvas, x + number_width + 4, y, spot, view["side"], set(), size) + 3 * GAP

            # Kept drawn, as on the table.
            canvas.band(size.height + GAP, ("quash hand section", view["side"], size, frozen(spots)), draw)
            right = max(right, MARGIN + sum(number_width + 4 + spot_width(len(spot["cards"]) + spot["open"], size)
                                            for spot in spots) + 3 * GAP * (len(spots) - 1))
        if flying is not None and flying not in below:
            x = right + 3 * GAP
            y = canvas.paragraph((x, top), flying.title, LABEL, GOLD, width=canvas.width - MARGIN - x, bold=True)
            canvas.card((x, y + 2), flying.cards[0], SMALL, marked=True)
        fitted_flow(canvas, below, (CARD, SMALL) if size == CARD else (SMALL,))
