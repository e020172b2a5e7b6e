"""Q2J War on Discord: the fields on the table; attack (card, then target), recover, draw."""

from __future__ import annotations

from typing import Any


from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card
from games.q2j import compare

from ..ui import LOSES, NEUTRAL, WINS, GameUI, hint_line, seat_heading

STATUS_MARKS = {"out": " · out", "won": " · 🏆 won", "tied": " · tied"}
HINTS = {"attack": "Attack: choose an untapped card, then its target.", "recover": "Recover a tapped card.",
         "draw": "Draw to your field."}
OUTCOME_WORDS = {1: "wins", 0: "tie: both are discarded", -1: "loses: only your card is discarded"}


def field_text(field: list[dict[str, Any]]) -> str:
    if not field:
        return "_(empty field)_"
    return "  ".join(f"↷ {parse_card(slot['card']).pretty} tapped" if slot["tapped"]
                     else f"**{parse_card(slot['card']).pretty}**" for slot in field)


class WarUI(GameUI):
    start_description = "Open a Q2J War table in this channel (2–4 players)"
    steps = {"attack": "Attack with…"}

    def options_text(self, options: dict[str, Any]) -> str:
        return self.option_label("loss", options["loss"])

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        lines = []
        for seat in range(len(table.names)):
            lines.append(f"{seat_heading(table, seat)} — deck {view['deck_counts'][seat]}{STATUS_MARKS.get(view['status'][seat], '')}")
            lines.append(field_text(view["fields"][seat]))
        top = view.get("discard_top") or []
        discard = f"**Discard pile:** {view['discard_count']}" + (f" (latest {parse_card(top[0]).pretty})" if top else "")
        return "\n".join([*lines, "", discard])

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        lines = [f"**Your field:** {field_text(view['fields'][hand.seat])} · deck {view['deck_counts'][hand.seat]}"]
        lines += [f"**{name}:** {field_text(view['fields'][seat])}" for seat, name in enumerate(hand.table.names)
                  if seat != hand.seat and view["status"][seat] == "playing"]
        return "\n".join(lines + hint_line(hand.actions, HINTS))

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "attack":
            attacker, target = action.args
            owner = next(s for s, field in enumerate(hand.view["fields"]) if any(x["card"] == target for x in field))
            verdict = OUTCOME_WORDS[compare(attacker, target)]
            return f"{parse_card(target).pretty} ({hand.table.typed_names[owner]}) — {parse_card(attacker).pretty} {verdict}"
        if action.kind == "recover":
            return f"Recover {parse_card(action.args[0]).pretty}"
        return "Draw to your field" if action.kind == "draw" else str(action)

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        # A tie discards both cards: the attacker loses theirs too.
        if action.kind == "attack":
            return WINS if compare(*action.args) > 0 else LOSES
        return NEUTRAL


UI = WarUI
