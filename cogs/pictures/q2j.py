"""Q Squared Joe: the stock, the pile's top (a Q-squared pair as a pair) and the Q² duty,
then every seat with its hand as backs and its count (faces in Face-up), two or three
seats to a line so that ten players fit."""

from __future__ import annotations

from math import ceil

from .base import GamePictures, Names, View, hand_fan, hand_height, hand_row, seat_grid
from .canvas import GAP, LABEL, LINE, MARGIN, MAX_HEIGHT, MUTED, TEXT, Canvas, Row
from .cards import CARD, SMALL, CardSize
from ..words import Word

WORDS: dict[str, Word] = {
    "title": "Q Squared Joe",
    "stock": "stock {n}",
    "top": "top",
    "top_qq": "top: Q squared pair",
    "discard": ("discard pile: {n} card", "discard pile: {n} cards"),
    "standard": "standard",
    "classic": "classic",
    "faceup": "face-up",
    "challenge": "challenge",
    "countdown": "countdown",
    "single": "single game",
    "elimination": "elimination",
    "game_number": "game {n}",
    "duty": "Q squared duty:",
    "owes": "{owed} owes {qq}",
    "free_play": "{owed} owes {qq} (free play)",
    "hand_of": "hand of {n}",
    "hand_title": ("Hand: {n} card", "Hand: {n} cards"),
    "penalty": "dimmed ones cost a penalty draw",
}


class Pictures(GamePictures):
    WORDS = WORDS

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        players = view["players"]
        hands = view.get("hands")
        columns = 2 if players <= 6 else 3
        seats_height = ceil(players / columns) * (LINE + hand_height(hands is not None))
        # Ten seats with their faces showing leave room only for small piles.
        room = MAX_HEIGHT - MARGIN - canvas.y - seats_height - LABEL - GAP - 4
        size = CARD if room >= CARD.height else SMALL
        self.draw_piles(canvas, view, names, size)
        acting = set(self.acting(view))
        statuses, countdown = view["status"], view.get("countdown")

        def seat(seat: int, x: int, y: int, width: int) -> None:
            status = statuses[seat]
            detail = [self.words.count("cards", view["hand_counts"][seat]),
                      "" if status == "playing" else self.words(status),
                      self.words("hand_of", n=countdown[seat]) if countdown else ""]
            self.seat_line(canvas, (x, y), names(seat), " · ".join(filter(None, detail)), width,
                           acting=seat in acting)
            hand_fan(canvas, (x, y + LINE), width, hands[seat] if hands else None, view["hand_counts"][seat])

        seat_grid(canvas, players, columns, LINE + hand_height(hands is not None), seat)

    def draw_piles(self, canvas: Canvas, view: View, names: Names, size: CardSize) -> None:
        """The stock and the top card(s) with their captions, the match and the duty beside them."""
        y = canvas.y
        caption = y + size.height + 4
        x = canvas.pile((MARGIN, y), view["stock_count"], size)
        canvas.text((MARGIN + size.width // 2, caption), self.words("stock", n=view["stock_count"]), LABEL, MUTED,
                    anchor="ma")
        x += 3 * GAP
        top = list(view["top"])
        for i, card in enumerate(top):
            canvas.card((x + i * (size.width + 4), y), card, size)
        canvas.text((x, caption), self.words("top_qq" if view["top_is_qq"] else "top"), LABEL, MUTED)
        x += max(1, len(top)) * (size.width + 4) + 2 * GAP
        width = canvas.width - MARGIN - x
        game = view.get("game_number", 1)
        lines = [(self.words.count("discard", view["discard_count"]), TEXT),
                 (" · ".join([self.words(view["variant"]), self.words(view["match"])]
                             + ([self.words("game_number", n=game)] if game > 1 else [])), MUTED)]
        duty = view.get("duty")
        if duty:
            owes = self.words("free_play" if duty.get("free_play") else "owes", owed=names(duty["owed_by"]),
                              qq=names(duty["qq_seat"]))
            lines += [(self.words("duty"), MUTED), (owes, TEXT)]
        for i, (line, colour) in enumerate(lines):
            canvas.text((x, y + i * (LABEL + 6)), line, LABEL, colour, width=width)
        canvas.y = caption + LABEL + GAP

    def hand_rows(self, view: View, playable: set[str], names: Names) -> list[Row]:
        hand = list(view.get("hand") or [])
        penalty = set(view.get("penalty_cards") or [])
        title = self.words.count("hand_title", len(hand))
        if penalty:
            title += " · " + self.words("penalty")
        return [Row(self.words("top"), list(view["top"])), hand_row(title, hand, playable - penalty)]
