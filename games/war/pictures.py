"""Q Squared Joe War: the discard pile and the last attack (its two cards, then who attacked
whom and who won, in words), then a line per seat: its name and deck, its field beside them,
tapped cards laid sideways with their ranks upright."""

from __future__ import annotations

from collections.abc import Set

from ..i18n import Text, say
from ..pictures.base import STATUS, GamePictures, Names, View, hand_row
from ..pictures.canvas import GAP, GOLD, LABEL, LABEL_LINE, LINE, MARGIN, MUTED, Canvas, Row
from ..pictures.cards import SMALL

NAME_COLUMN = 150
"""The width of the seats' names beside their fields (five sideways cards fit after it)."""
SEAT_HEIGHT = max(SMALL.height, LINE + LABEL_LINE) + GAP + 2


def field_row(title: str, field: list[dict], playable: Set[str] = frozenset()) -> Row:
    cards = [slot["card"] for slot in field]
    row = hand_row(title, cards, set(playable), spacing="apart")
    return row._replace(tapped=frozenset(i for i, slot in enumerate(field) if slot["tapped"]))


class Pictures(GamePictures):

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        y = canvas.y
        top = view["discard_top"][0] if view["discard_top"] else None
        canvas.pile((MARGIN, y + 4), view["discard_count"], SMALL, top=top)
        bottom = y + 4 + SMALL.height
        attack = view.get("last_attack")
        if attack:
            x = MARGIN + SMALL.width + 5 * GAP
            x = canvas.card((x, y + 4), attack["attacker"], SMALL) + GAP
            mid = y + 4 + SMALL.height // 2
            canvas.draw.line((x, mid, x + 18, mid), fill=MUTED, width=3)
            canvas.draw.polygon([(x + 24, mid), (x + 14, mid - 7), (x + 14, mid + 7)], fill=MUTED)
            x += 24 + GAP
            x = canvas.card((x, y + 4), attack["target"], SMALL) + 2 * GAP
            width = canvas.width - MARGIN - x
            who = say("{seat} attacked {target}", seat=names(attack["seat"]), target=names(attack["target_seat"]))
            below = canvas.paragraph((x, y), self.words(who), LABEL, MUTED, width=width)
            bottom = max(bottom, canvas.paragraph((x, below), self.words(self.verdict(attack, names)), LABEL, GOLD,
                                                  width=width, bold=True))
        canvas.y = bottom + 2 * GAP
        acting = set(self.acting(view))
        for seat, field in enumerate(view["fields"]):
            y = canvas.y
            self.seat_line(canvas, (MARGIN, y), names(seat), "", NAME_COLUMN, acting=seat in acting)
            status = view["status"][seat]
            detail = (say("deck {n}", n=view["deck_counts"][seat]) if status == "playing"
                      else STATUS.get(status, say("out")))
            canvas.text((MARGIN, y + LINE), self.words(detail), LABEL, MUTED, width=NAME_COLUMN)
            x = MARGIN + NAME_COLUMN + GAP
            for slot in field:
                offset = (SMALL.height - SMALL.width) // 2 if slot["tapped"] else 0
                x = canvas.card((x, y + offset), slot["card"], SMALL, tapped=slot["tapped"]) + GAP
            canvas.y = y + SEAT_HEIGHT

    @staticmethod
    def verdict(attack: dict, names: Names) -> Text:
        """Who won the attack, in words."""
        if attack["compare"] == 0:
            return say("equal: both cards discarded")
        return say("{seat} won", seat=names(attack["seat"] if attack["compare"] > 0 else attack["target_seat"]))

    def hand_rows(self, view: View, playable: set[str], names: Names) -> list[Row]:
        seat = view["viewer"]
        title = self.words(say("Your field · deck {n}", n=view["deck_counts"][seat]))
        return [field_row(title, view["fields"][seat], playable)]

