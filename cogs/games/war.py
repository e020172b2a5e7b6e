"""Q2J War on Discord: the fields on the table; attack (card, then target), recover, draw."""

from __future__ import annotations

from typing import Any

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card
from games.q2j import compare

from ..ui import LOSES, NEUTRAL, WINS, GameUI, seat_heading
from ..words import Word, Words

WORDS: dict[str, Word] = {
    "start": "Open a Q2J War table in this channel (2–4 players)",
    "attack_with": "Attack with…",
    "attack_hint": "Attack: choose an untapped card, then its target.",
    "tapped": "↷ {card} tapped",
    "empty_field": "_(empty field)_",
    "deck": "deck {n}",
    "out": "out",
    "won": "🏆 won",
    "tied": "tied",
    "discard": "**Discard pile:** {n}",
    "discard_latest": "**Discard pile:** {n} (latest {card})",
    "your_field": "**Your field:** {field} · deck {n}",
    "their_field": "**{name}:** {field}",
    "in_play": "{name} **{n}**",
    "cards_in_play": "Cards in play: {counts}",
    "target": "{verdict} · {card} ({owner})",
    "wins": "Wins",
    "tie": "Tie",
    "loses": "Loses",
    "targets_of": "{owner}'s cards…",
    "recover": "Recover {card}",
    "draw": "Draw to your field",
    "cards_left": ("{n} card left", "{n} cards left"),
}
WORD = Words(WORDS)
STATUS_WORDS = {"out": "out", "won": "won", "tied": "tied"}
NBSP = "\u00a0"  # keeps a name and its count on one line
VERDICT = {1: "wins", 0: "tie", -1: "loses"}


def field_text(field: list[dict[str, Any]]) -> str:
    if not field:
        return WORD("empty_field")
    return "  ".join(WORD("tapped", card=parse_card(slot["card"]).pretty) if slot["tapped"]
                     else f"**{parse_card(slot['card']).pretty}**" for slot in field)


def owner_of(card: str, view: dict[str, Any]) -> int:
    return next(s for s, field in enumerate(view["fields"]) if any(slot["card"] == card for slot in field))


class WarUI(GameUI):
    start_description = WORD("start")
    colour = 0xE53935
    steps = {"attack": WORD("attack_with")}
    hints = {"attack": WORD("attack_hint")}

    def options_text(self, options: dict[str, Any]) -> str:
        return self.option_label("loss", options["loss"])

    def facts(self, table: TableSnapshot) -> list[str]:
        view = table.view or {}
        counts = " · ".join(WORD("in_play", name=name.replace(" ", NBSP), n=view["card_counts"][seat])
                            for seat, name in enumerate(table.names) if view["status"][seat] == "playing")
        return [WORD("cards_in_play", counts=counts)] if counts else []

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        lines = []
        for seat in range(len(table.names)):
            status = STATUS_WORDS.get(view["status"][seat])
            mark = f" · {WORD(status)}" if status else ""
            lines.append(f"{seat_heading(table, seat)} — {WORD('deck', n=view['deck_counts'][seat])}{mark}")
            lines.append(field_text(view["fields"][seat]))
        top = view.get("discard_top") or []
        discard = (WORD("discard_latest", n=view["discard_count"], card=parse_card(top[0]).pretty) if top
                   else WORD("discard", n=view["discard_count"]))
        return "\n".join([*lines, "", discard])

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        lines = [WORD("your_field", field=field_text(view["fields"][hand.seat]), n=view["deck_counts"][hand.seat])]
        lines += [WORD("their_field", name=name, field=field_text(view["fields"][seat]))
                  for seat, name in enumerate(hand.table.names) if seat != hand.seat and view["status"][seat] == "playing"]
        return "\n".join(lines)

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "attack":
            attacker, target = map(str, action.args)
            owner = hand.table.typed_names[owner_of(target, hand.view)]
            return WORD("target", verdict=WORD(VERDICT[compare(attacker, target)]), card=parse_card(target).pretty,
                        owner=owner)
        if action.kind == "recover":
            return WORD("recover", card=parse_card(str(action.args[0])).pretty)
        return WORD("draw") if action.kind == "draw" else str(action)

    def move_group(self, action: Action, hand: HandSnapshot) -> str | None:
        if action.kind != "attack":
            return None
        return WORD("targets_of", owner=hand.table.typed_names[owner_of(str(action.args[1]), hand.view)])

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        # A tie discards both cards: the attacker loses theirs too.
        if action.kind == "attack":
            attacker, target = map(str, action.args)
            return WINS if compare(attacker, target) > 0 else LOSES
        return NEUTRAL

    def standing(self, table: TableSnapshot, seat: int) -> str:
        scores = (table.row.outcome or {}).get("scores") or []
        return WORD.count("cards_left", scores[seat]) if seat < len(scores) else ""


UI = WarUI
