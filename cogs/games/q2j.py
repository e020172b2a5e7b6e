"""Q Squared Joe on Discord: the top card, the duty after a Q², and hands sorted by suit."""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card, pretty

from ..ui import NEUTRAL, WINS, GameUI, seat_heading
from ..words import Word, Words

WORDS: dict[str, Word] = {
    "start": "Open a Q Squared Joe table in this channel",
    "options": "{variant} · {match}",
    "short_hand": "seat {seat} gets the 1-card hand",
    "top": "Top **{top}**",
    "top_qq": "Top **{top}** (Q²)",
    "no_top": "Top —",
    "stock": "stock {n}",
    "discard": "discard {n}",
    "qq_back": "Q² came back round: **{who}** may play any card or draw.",
    "qq_duty": "Q² by {by}: **{who}** must play a jack or draw.",
    "game_number": "Elimination match · game {n}",
    "cards": ("{n} card", "{n} cards"),
    "hand_of": "hand of {n}",
    "safe": "safe",
    "eliminated": "eliminated",
    "won": "🏆 won",
    "your_cards": "**Your cards ({n}):** {cards}",
    "penalty": "Equal strength: playing {cards} costs a penalty draw.",
    "prompt": "Play a card that beats the top card, or draw.",
    "prompt_penalty": "Play a card that beats the top card, or draw; a card marked +1 costs a penalty draw.",
    "prompt_duty": "Q²: play a jack or draw.",
    "prompt_free": "Q² came back to you: play any card or draw.",
    "draw": "Draw a card",
    "qq": "Q² {cards}",
    "play": "Play {cards}",
    "play_penalty": "Play {cards} (+1 draw)",
    "cards_left": ("{n} card left", "{n} cards left"),
    "last_standing": "last standing",
}
WORD = Words(WORDS)
SUIT_ORDER = {"S": 0, "H": 1, "D": 2, "C": 3, "": 4}
STATUS_WORDS = {"safe": "safe", "out": "eliminated", "won": "won"}


@cache  # a few dozen card codes, sorted on every hand and board shown
def sort_key(code: str) -> tuple[int, int]:
    """Hands are shown by suit, then rank."""
    card = parse_card(code)
    return (SUIT_ORDER[card.suit], card.value)


def sorted_cards(codes: list[str]) -> str:
    return pretty(sorted(codes, key=sort_key)) if codes else "—"


class Q2JUI(GameUI):
    start_description = WORD("start")
    colour = 0x43A047

    def options_text(self, options: dict[str, Any]) -> str:
        text = WORD("options", variant=self.option_label("variant", options["variant"]).split(" (")[0],
                    match=self.option_label("match", options["match"]))
        if options["variant"] == "challenge" and options.get("short_hand") not in (None, "random"):
            text += " · " + WORD("short_hand", seat=int(options["short_hand"]) + 1)
        return text

    def _duty(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """What a Q² obliges the next player to."""
        duty = view.get("duty")
        if duty and duty["free_play"]:
            return [WORD("qq_back", who=names[duty["owed_by"]])]
        if duty:
            return [WORD("qq_duty", by=names[duty["qq_seat"]], who=names[duty["owed_by"]])]
        return []

    def _top(self, view: dict[str, Any]) -> str:
        top = view["top"]
        if not top:
            return WORD("no_top")
        return WORD("top_qq" if view["top_is_qq"] else "top", top=pretty(top))

    def facts(self, table: TableSnapshot) -> list[str]:
        view = table.view or {}
        line = " · ".join([self._top(view), WORD("stock", n=view["stock_count"]),
                           WORD("discard", n=view["discard_count"])])
        if view.get("match") == "elimination":
            line += " · " + WORD("game_number", n=view["game_number"])
        return [line, *self._duty(view, table.names)]

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        lines = []
        for seat in range(len(table.names)):
            parts = [WORD.count("cards", view["hand_counts"][seat])]
            if view.get("countdown"):
                parts.append(WORD("hand_of", n=view["countdown"][seat]))
            status = STATUS_WORDS.get(view["status"][seat])
            if status:
                parts.append(WORD(status))
            line = f"{seat_heading(table, seat)} — {' · '.join(parts)}"
            if view.get("hands") is not None:
                line += f"\n  {sorted_cards(view['hands'][seat])}"
            lines.append(line)
        return "\n".join(lines)

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        lines = [WORD("your_cards", n=len(view["hand"]), cards=sorted_cards(view["hand"])),
                 " · ".join([self._top(view), WORD("stock", n=view["stock_count"])]),
                 *self._duty(view, hand.table.names)]
        if view.get("penalty_cards"):
            lines.append(WORD("penalty", cards=pretty(view["penalty_cards"])))
        return "\n".join(lines)

    def prompt(self, hand: HandSnapshot) -> str:
        if hand.table.row.status != "running" or not hand.actions:
            return super().prompt(hand)
        duty = hand.view.get("duty")
        if duty and duty["owed_by"] == hand.seat:
            return WORD("prompt_free" if duty["free_play"] else "prompt_duty")
        return WORD("prompt_penalty" if hand.view.get("penalty_cards") else "prompt")

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "draw":
            return WORD("draw")
        if action.kind == "qq":
            return WORD("qq", cards=pretty(action.args))
        penalty = action.args[0] in hand.view.get("penalty_cards", [])
        return WORD("play_penalty" if penalty else "play", cards=pretty(action.args))

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        return WINS if action.kind == "qq" else NEUTRAL  # a Q² puts the next player on duty

    def ordered_actions(self, hand: HandSnapshot) -> list[Action]:
        # Engine order is deck order; players look for cards in the order their hand shows them.
        order = {code: i for i, code in enumerate(sorted(hand.view["hand"], key=sort_key))}
        return sorted(hand.actions, key=lambda a: (a.kind == "draw", a.kind != "qq", order.get(a.args[0] if a.args else "", 0)))

    def standing(self, table: TableSnapshot, seat: int) -> str:
        view = table.view or {}
        if view.get("match") == "elimination":
            return WORD("last_standing") if view["status"][seat] == "won" else WORD("eliminated")
        return WORD.count("cards_left", view["hand_counts"][seat])


UI = Q2JUI
