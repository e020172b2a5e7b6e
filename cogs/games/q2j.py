"""Q Squared Joe on Discord: the top card, the duty after a Q², and hands sorted by suit."""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card, pretty

from ..ui import NEUTRAL, WINS, GameUI, seat_heading

SUIT_ORDER = {"S": 0, "H": 1, "D": 2, "C": 3, "": 4}
STATUS_MARKS = {"safe": " · safe", "out": " · eliminated", "won": " · 🏆 won", "lost": ""}


@cache  # a few dozen card codes, sorted on every hand and board shown
def sort_key(code: str) -> tuple[int, int]:
    """Hands are shown by suit, then rank."""
    card = parse_card(code)
    return (SUIT_ORDER[card.suit], card.value)


def sorted_cards(codes: list[str]) -> str:
    return pretty(sorted(codes, key=sort_key)) if codes else "—"


class Q2JUI(GameUI):
    start_description = "Open a Q Squared Joe table in this channel"

    def options_text(self, options: dict[str, Any]) -> str:
        text = f"{self.option_label('variant', options['variant']).split(' (')[0]} · {self.option_label('match', options['match'])}"
        if options["variant"] == "challenge" and options.get("short_hand") not in (None, "random"):
            text += f" · seat {int(options['short_hand']) + 1} gets the 1-card hand"
        return text

    def _header(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """The top card line, and what a Q² obliges the next player to."""
        top = (pretty(view["top"]) if view["top"] else "—") + (" (Q²)" if view["top_is_qq"] else "")
        lines = [f"**Top card:** {top} · **Stock:** {view['stock_count']} · **Discard pile:** {view['discard_count']}"]
        duty = view.get("duty")
        if duty and duty["free_play"]:
            lines.append(f"Q² came back round: **{names[duty['owed_by']]}** may play any card or draw.")
        elif duty:
            lines.append(f"Q² by {names[duty['qq_seat']]}: **{names[duty['owed_by']]}** must play a jack or draw.")
        return lines

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        lines = self._header(view, table.names)
        if view.get("match") == "elimination":
            lines.append(f"Elimination match · game {view['game_number']}")
        lines.append("")
        for seat in range(len(table.names)):
            count = view["hand_counts"][seat]
            line = f"{seat_heading(table, seat)} — {count} card{'s' if count != 1 else ''}"
            if view.get("countdown"):
                line += f" · hand of {view['countdown'][seat]}"
            line += STATUS_MARKS.get(view["status"][seat], "")
            if view.get("hands") is not None:
                line += f"\n  {sorted_cards(view['hands'][seat])}"
            lines.append(line)
        return "\n".join(lines)

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        lines = [f"**Your cards ({len(view['hand'])}):** {sorted_cards(view['hand'])}", *self._header(view, hand.table.names)]
        if view.get("penalty_cards"):
            lines.append(f"Equal strength — playing {pretty(view['penalty_cards'])} costs a penalty draw.")
        return "\n".join(lines)

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "draw":
            return "Draw a card"
        if action.kind == "qq":
            return "Q² " + pretty(action.args)
        penalty = action.args[0] in hand.view.get("penalty_cards", [])
        return "Play " + pretty(action.args) + (" (+1 penalty draw)" if penalty else "")

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        return WINS if action.kind == "qq" else NEUTRAL  # a Q² puts the next player on duty

    def ordered_actions(self, hand: HandSnapshot) -> list[Action]:
        # Engine order is deck order; players look for cards in the order their hand shows them.
        order = {code: i for i, code in enumerate(sorted(hand.view["hand"], key=sort_key))}
        return sorted(hand.actions, key=lambda a: (a.kind == "draw", a.kind != "qq", order.get(a.args[0] if a.args else "", 0)))


UI = Q2JUI
