"""Q Squared Joe on Discord: the top card, the duty after a Q², and hands sorted by suit."""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card
from games.i18n import plural, say

from ..ui import NEUTRAL, WINS, GameUI, cards_text, seat_heading

STATUS_WORDS = {"safe": say("safe"), "out": say("eliminated"), "won": say("🏆 won")}
SUIT_ORDER = {"S": 0, "H": 1, "D": 2, "C": 3, "": 4}


@cache  # a few dozen card codes, sorted on every hand and board shown
def sort_key(code: str) -> tuple[int, int]:
    """Hands are shown by suit, then rank."""
    card = parse_card(code)
    return (SUIT_ORDER[card.suit], card.value)


def sorted_cards(codes: list[str], language: str) -> str:
    return cards_text(sorted(codes, key=sort_key), language) if codes else "—"


class Q2JUI(GameUI):
    start_description = say("Open a Q Squared Joe table in this channel")
    colour = 0x43A047
    menus = {"play": say("Play a card…"), "qq": say("Play a Q²…")}

    def options_text(self, options: dict[str, Any]) -> str:
        variant = self.option_label("variant", options["variant"]).split(" (")[0]
        match = self.option_label("match", options["match"])
        text = self.words(say("{variant} · {match}", variant=variant, match=match))
        if options["variant"] == "challenge" and options.get("short_hand") not in (None, "random"):
            text += " · " + self.words(say("seat {seat} gets the 1-card hand", seat=int(options["short_hand"]) + 1))
        return text

    def _duty(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """What a Q² obliges the next player to."""
        duty = view.get("duty")
        if duty and duty["free_play"]:
            return [self.words(say("Q² came back round: **{who}** may play any card or draw.",
                                   who=names[duty["owed_by"]]))]
        if duty:
            return [self.words(say("Q² by {by}: **{who}** must play a jack or draw.", by=names[duty["qq_seat"]],
                                   who=names[duty["owed_by"]]))]
        return []

    def _top(self, view: dict[str, Any]) -> str:
        top = view["top"]
        if not top:
            return self.words(say("Top —"))
        cards = cards_text(top, self.language)
        return self.words(say("Top **{top}** (Q²)", top=cards) if view["top_is_qq"]
                          else say("Top **{top}**", top=cards))

    def facts(self, table: TableSnapshot) -> list[str]:
        view = table.view or {}
        line = " · ".join([self._top(view), self.words(say("stock {n}", n=view["stock_count"])),
                           self.words(say("discard {n}", n=view["discard_count"]))])
        if view.get("match") == "elimination":
            line += " · " + self.words(say("Elimination match · game {n}", n=view["game_number"]))
        return [line, *self._duty(view, table.names)]

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        lines = []
        for seat in range(len(table.names)):
            parts = [self.words(plural("{count} card", "{count} cards", view["hand_counts"][seat]))]
            if view.get("countdown"):
                parts.append(self.words(say("hand of {n}", n=view["countdown"][seat])))
            status = STATUS_WORDS.get(view["status"][seat])
            if status:
                parts.append(self.words(status))
            line = f"{seat_heading(table, seat)} — {' · '.join(parts)}"
            if view.get("hands") is not None:
                line += f"\n  {sorted_cards(view['hands'][seat], self.language)}"
            lines.append(line)
        return "\n".join(lines)

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        lines = [self.words(say("**Your cards ({n}):** {cards}", n=len(view["hand"]),
                                cards=sorted_cards(view["hand"], self.language))),
                 " · ".join([self._top(view), self.words(say("stock {n}", n=view["stock_count"]))]),
                 *self._duty(view, hand.table.names)]
        if view.get("penalty_cards"):
            lines.append(self.words(say("Equal strength: playing {cards} costs a penalty draw.",
                                        cards=cards_text(view["penalty_cards"], self.language))))
        return "\n".join(lines)

    def prompt(self, hand: HandSnapshot) -> str:
        if hand.table.row.status != "running" or not hand.actions:
            return super().prompt(hand)
        duty = hand.view.get("duty") or {}
        owed, free = duty.get("owed_by") == hand.seat, duty.get("free_play", False)
        if all(action.kind == "draw" for action in hand.actions):  # nothing to play: say so, offer only the draw
            return self.words(say("Q²: you have no jack, so draw.") if owed and not free
                              else say("No card of yours beats the top card: draw."))
        if owed:
            return self.words(say("Q² came back to you: play any card or draw.") if free
                              else say("Q²: play a jack or draw."))
        return self.words(say("Play a card that beats the top card, or draw; a card marked +1 costs a penalty draw.")
                          if hand.view.get("penalty_cards") else say("Play a card that beats the top card, or draw."))

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "draw":
            return self.words(say("Draw a card"))
        cards = cards_text(action.args, self.language)
        if action.kind == "qq":
            return self.words(say("Q² {cards}", cards=cards))
        penalty = action.args[0] in hand.view.get("penalty_cards", [])
        return self.words(say("Play {cards} (+1 draw)", cards=cards) if penalty else say("Play {cards}", cards=cards))

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        return WINS if action.kind == "qq" else NEUTRAL  # a Q² puts the next player on duty

    def ordered_actions(self, hand: HandSnapshot) -> list[Action]:
        # Engine order is deck order; players look for cards in the order their hand shows them.
        order = {code: i for i, code in enumerate(sorted(hand.view["hand"], key=sort_key))}
        return sorted(hand.actions,
                      key=lambda a: (a.kind == "draw", a.kind != "qq", order.get(a.args[0] if a.args else "", 0)))

    def standing(self, table: TableSnapshot, seat: int) -> str:
        view = table.view or {}
        if view.get("match") == "elimination":
            return self.words(say("last standing") if view["status"][seat] == "won" else say("eliminated"))
        return self.words(plural("{count} card left", "{count} cards left", view["hand_counts"][seat]))


UI = Q2JUI
