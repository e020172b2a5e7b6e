"""Q Squared Joe War: the discard pile and the last attack, then a line per seat: its name
and deck, its field beside them with tapped cards turned sideways."""

from __future__ import annotations

from collections.abc import Set

from games.i18n import Text, plural, say, say_as

from .base import STATUS, GamePictures, Names, View, hand_row
from .canvas import BODY, GAP, LABEL, LINE, MARGIN, MUTED, Canvas, Row
from .cards import SMALL

NAME_COLUMN = 150
"""The width of the seats' names beside their fields (five sideways cards fit after it)."""


def attack_result(attack: dict, names: Names) -> Text:
    """Who won the last attack, in words: after "2♥ vs A♠", a bare "won" read as if A♠ had."""
    if attack["compare"] == 0:
        return say_as("an attack's outcome", "Tie")
    return say("{player} wins", player=names(attack["seat"] if attack["compare"] > 0 else attack["target_seat"]))


def field_row(title: str, field: list[dict], playable: Set[str] = frozenset()) -> Row:
    cards = [slot["card"] for slot in field]
    row = hand_row(title, cards, set(playable), spacing="apart")
    return row._replace(tapped=frozenset(i for i, slot in enumerate(field) if slot["tapped"]))


class Pictures(GamePictures):
    title = "Q Squared Joe War"

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        y = canvas.y
        top = view["discard_top"][0] if view["discard_top"] else None
        canvas.pile((MARGIN, y), view["discard_count"], SMALL, top=top)
        discard = self.words(say("discard {n}", n=view["discard_count"]))
        canvas.text((MARGIN, y + SMALL.height + 4), discard, LABEL, MUTED)
        x = MARGIN + SMALL.width + 6 * GAP
        moves = self.words(plural("{count} move", "{count} moves", view["moves"]))
        canvas.text((canvas.width - MARGIN, y), moves, LABEL, MUTED, anchor="ra")
        attack = view.get("last_attack")
        if attack:
            canvas.text((x, y), self.words(say("last attack: {seat} on {target}", seat=names(attack["seat"]),
                                                target=names(attack["target_seat"]))),
                        LABEL, width=canvas.width - MARGIN - x - 90)
            right = canvas.card((x, y + LINE), attack["attacker"], SMALL)
            right = canvas.text((right + GAP, y + LINE + 24), self.words(say("vs")), BODY)
            right = canvas.card((right + GAP, y + LINE), attack["target"], SMALL)
            canvas.text((right + GAP, y + LINE + 24), self.words(attack_result(attack, names)), BODY, bold=True)
        canvas.y = y + SMALL.height + LABEL + 2 * GAP
        acting = set(self.acting(view))
        for seat, field in enumerate(view["fields"]):
            y = canvas.y
            self.seat_line(canvas, (MARGIN, y), names(seat), "", NAME_COLUMN, acting=seat in acting)
            details = [self.words(say("deck {n}", n=view["deck_counts"][seat]))]
            if view["status"][seat] != "playing":
                details.append(self.words(STATUS[view["status"][seat]]))
            for i, line in enumerate(details):
                canvas.text((MARGIN, y + LINE + i * (LABEL + 4)), line, LABEL, MUTED, width=NAME_COLUMN)
            x = MARGIN + NAME_COLUMN + GAP
            for slot in field:
                offset = (SMALL.height - SMALL.width) // 2 if slot["tapped"] else 0
                x = canvas.card((x, y + offset), slot["card"], SMALL, tapped=slot["tapped"]) + GAP
            canvas.y = y + SMALL.height + GAP + 2

    def hand_rows(self, view: View, playable: set[str], names: Names) -> list[Row]:
        seat = view["viewer"]
        title = self.words(say("Your field · deck {n}", n=view["deck_counts"][seat]))
        return [field_row(title, view["fields"][seat], playable)]
