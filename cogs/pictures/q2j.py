"""Q Squared Joe: the pile's top (a Q-squared pair as a pair), the stock and discard counts,
every hand as backs with its count (faces in Face-up), the Q² duty."""

from __future__ import annotations

from .base import GamePictures, View, hand_row, seat_name
from .canvas import GAP, MARGIN, MUTED, Canvas, Row
from .cards import CARD

STATUS_TEXT = {"playing": "", "safe": " · safe", "out": " · out", "won": " · won", "lost": " · lost"}


class Pictures(GamePictures):
    def draw_table(self, canvas: Canvas, view: View) -> None:
        y = canvas.y
        x = canvas.pile((MARGIN, y), view["stock_count"], "stock") + 3 * GAP
        top = list(view["top"])
        for i, card in enumerate(top):
            canvas.card((x + i * (CARD.width + 4), y), card)
        label = "top: Q squared pair" if view["top_is_qq"] else "top"
        canvas.text((x, y + CARD.height + 4), label, 16, MUTED)
        x += max(1, len(top)) * (CARD.width + 4) + 3 * GAP
        canvas.text((x, y), f"discard pile: {view['discard_count']}", 20)
        game = view.get("game_number", 1)
        details = [f"{view['variant']} · {view['match']}" + (f" · game {game}" if game > 1 else "")]
        duty = view.get("duty")
        if duty:
            details.append(f"Q squared duty: {seat_name(duty['owed_by'])} owes {seat_name(duty['qq_seat'])}"
                           + (" (free play)" if duty.get("free_play") else ""))
        for i, line in enumerate(details):
            canvas.text((x, y + 30 + 26 * i), line, 18, MUTED)
        canvas.y = y + CARD.height + 32
        hands = view.get("hands")
        countdown = view.get("countdown")
        rows = []
        for seat, count in enumerate(view["hand_counts"]):
            title = f"{seat_name(seat)}: {count} cards{STATUS_TEXT.get(view['status'][seat], '')}"
            if countdown:
                title += f" · hand of {countdown[seat]}"
            cards = hands[seat] if hands else [None] * count
            rows.append(Row(title, cards, step=26 if hands else 14))
        self.seat_lines(canvas, view, [[row] for row in rows])

    def hand_rows(self, view: View, playable: set[str]) -> list[Row]:
        hand = list(view.get("hand") or [])
        penalty = set(view.get("penalty_cards") or [])
        title = f"Hand: {len(hand)} cards" + (" (dimmed ones cost a penalty draw)" if penalty else "")
        return [Row("Top", list(view["top"])), hand_row(title, hand, playable - penalty)]
