"""Q Squared Joe: the stock, the pile's top (a Q-squared pair as a pair) and the Q² duty,
then every seat with its hand as backs and its count (faces in Face-up), two or three
seats to a line so that ten players fit."""

from __future__ import annotations

from math import ceil

from games.i18n import plural, say

from .base import STATUS, GamePictures, Names, View, hand_fan, hand_height, hand_row, seat_grid
from .canvas import GAP, LABEL, LINE, MARGIN, MAX_HEIGHT, MUTED, TEXT, Canvas, Row
from .cards import CARD, SMALL, CardSize

OPTIONS = {"standard": say("standard"), "classic": say("classic"), "faceup": say("face-up"),
           "challenge": say("challenge"), "countdown": say("countdown"), "single": say("single game"),
           "elimination": say("elimination")}
"""The variant and match options as the picture names them."""


class Pictures(GamePictures):
    title = "Q Squared Joe"

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
            detail = [self.words(plural("{count} card", "{count} cards", view["hand_counts"][seat])),
                      "" if status == "playing" else self.words(STATUS.get(status, status)),
                      self.words(say("hand of {n}", n=countdown[seat])) if countdown else ""]
            self.seat_line(canvas, (x, y), names(seat), " · ".join(filter(None, detail)), width,
                           acting=seat in acting)
            hand_fan(canvas, (x, y + LINE), width, hands[seat] if hands else None, view["hand_counts"][seat])

        seat_grid(canvas, players, columns, LINE + hand_height(hands is not None), seat)

    def draw_piles(self, canvas: Canvas, view: View, names: Names, size: CardSize) -> None:
        """The stock and the top card(s) with their captions, the match and the duty beside them."""
        y = canvas.y
        caption = y + size.height + 4
        x = canvas.pile((MARGIN, y), view["stock_count"], size)
        stock = self.words(say("stock {n}", n=view["stock_count"]))
        canvas.text((MARGIN + size.width // 2, caption), stock, LABEL, MUTED, anchor="ma")
        x += 3 * GAP
        top = list(view["top"])
        for i, card in enumerate(top):
            canvas.card((x + i * (size.width + 4), y), card, size)
        top_label = say("top: Q squared pair") if view["top_is_qq"] else say("top")
        canvas.text((x, caption), self.words(top_label), LABEL, MUTED)
        x += max(1, len(top)) * (size.width + 4) + 2 * GAP
        width = canvas.width - MARGIN - x
        game = view.get("game_number", 1)
        discard = plural("discard pile: {count} card", "discard pile: {count} cards", view["discard_count"])
        lines = [(self.words(discard), TEXT),
                 (" · ".join([self.words(OPTIONS[view["variant"]]), self.words(OPTIONS[view["match"]])]
                             + ([self.words(say("game {n}", n=game))] if game > 1 else [])), MUTED)]
        duty = view.get("duty")
        if duty:
            owed, qq = names(duty["owed_by"]), names(duty["qq_seat"])
            owes = (say("{owed} owes {qq} (free play)", owed=owed, qq=qq) if duty.get("free_play")
                    else say("{owed} owes {qq}", owed=owed, qq=qq))
            lines += [(self.words(say("Q squared duty:")), MUTED), (self.words(owes), TEXT)]
        for i, (line, colour) in enumerate(lines):
            canvas.text((x, y + i * (LABEL + 6)), line, LABEL, colour, width=width)
        canvas.y = caption + LABEL + GAP

    def hand_rows(self, view: View, playable: set[str], names: Names) -> list[Row]:
        hand = list(view.get("hand") or [])
        penalty = set(view.get("penalty_cards") or [])
        title = self.words(plural("Hand: {count} card", "Hand: {count} cards", len(hand)))
        if penalty:
            title += " · " + self.words(say("dimmed ones cost a penalty draw"))
        return [Row(self.words(say("top")), list(view["top"])), hand_row(title, hand, playable - penalty)]
