"""Q2J War on Discord: the fields on the table; attack (card, then target), recover, draw."""

from __future__ import annotations

from typing import Any

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.i18n import Text, plural, say, say_as
from games.q2j import compare

from ..ui import LOSES, NEUTRAL, WINS, GameUI, seat_heading, shown

STATUS_WORDS = {"out": say("out"), "won": say("🏆 won"), "tied": say("tied")}
NBSP = "\u00a0"  # keeps a name and its count on one line
# "Wins" is also the leaderboard's order, which other languages word otherwise.
VERDICT = {1: say_as("an attack's outcome", "Wins"), 0: say_as("an attack's outcome", "Tie"),
           -1: say_as("an attack's outcome", "Loses")}


def field_text(field: list[dict[str, Any]], language: str) -> str:
    if not field:
        return say("_(empty field)_").render(language)
    return "  ".join(say("↷ {card} tapped", card=shown(slot["card"], language)).render(language) if slot["tapped"]
                     else f"**{shown(slot['card'], language)}**" for slot in field)


def owner_of(card: str, view: dict[str, Any]) -> int:
    return next(s for s, field in enumerate(view["fields"]) if any(slot["card"] == card for slot in field))


class WarUI(GameUI):
    start_description = say("Open a Q2J War table in this channel (2–4 players)")
    colour = 0xE95652
    steps = {"attack": say("Attack with…")}
    hints = {"attack": say("Attack: choose an untapped card, then its target.")}
    menus = {"recover": say("Recover a card…")}

    def options_text(self, options: dict[str, Any]) -> str:
        return self.option_label("loss", options["loss"])

    def facts(self, table: TableSnapshot) -> list[str]:
        view = table.view or {}
        counts = " · ".join(self.words(say("{name} **{n}**", name=name.replace(" ", NBSP), n=view["card_counts"][seat]))
                            for seat, name in enumerate(table.names) if view["status"][seat] == "playing")
        return [self.words(say("Cards in play: {counts}", counts=counts))] if counts else []

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        lines = []
        for seat in range(len(table.names)):
            status: Text | None = STATUS_WORDS.get(view["status"][seat])
            mark = f" · {self.words(status)}" if status else ""
            deck = self.words(say("deck {n}", n=view["deck_counts"][seat]))
            lines.append(f"{seat_heading(table, seat)} — {deck}{mark}")
            lines.append(field_text(view["fields"][seat], self.language))
        top = view.get("discard_top") or []
        count = view["discard_count"]
        discard = (say("**Discard pile:** {n} (latest {card})", n=count, card=shown(top[0], self.language)) if top
                   else say("**Discard pile:** {n}", n=count))
        return "\n".join([*lines, "", self.words(discard)])

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        own = field_text(view["fields"][hand.seat], self.language)
        lines = [self.words(say("**Your field:** {field} · deck {n}", field=own, n=view["deck_counts"][hand.seat]))]
        lines += [self.words(say("**{name}:** {field}", name=name,
                                 field=field_text(view["fields"][seat], self.language)))
                  for seat, name in enumerate(hand.table.names)
                  if seat != hand.seat and view["status"][seat] == "playing"]
        return "\n".join(lines)

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "attack":
            attacker, target = map(str, action.args)
            owner = hand.table.typed_names[owner_of(target, hand.view)]
            return self.words(say("{verdict} · {card} ({owner})", verdict=VERDICT[compare(attacker, target)],
                                  card=shown(target, self.language), owner=owner))
        if action.kind == "recover":
            return self.words(say("Recover {card}", card=shown(action.args[0], self.language)))
        return self.words(say("Draw to your field")) if action.kind == "draw" else super().action_label(action, hand)

    def move_group(self, action: Action, hand: HandSnapshot) -> str | None:
        if action.kind != "attack":
            return None
        owner = hand.table.typed_names[owner_of(str(action.args[1]), hand.view)]
        return self.words(say("{owner}'s cards…", owner=owner))

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        # A tie discards both cards: the attacker loses theirs too.
        if action.kind == "attack":
            attacker, target = map(str, action.args)
            return WINS if compare(attacker, target) > 0 else LOSES
        return NEUTRAL

    def standing(self, table: TableSnapshot, seat: int) -> str:
        scores = (table.row.outcome or {}).get("scores") or []
        return self.words(plural("{count} card left", "{count} cards left", scores[seat])) if seat < len(scores) else ""


UI = WarUI
