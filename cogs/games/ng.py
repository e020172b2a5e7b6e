"""Q2J NG on Discord: fields of stacks on the table; attack or defend (card, then target),
draw, pick, sacrifice."""

from __future__ import annotations

from typing import Any


from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card, pretty
from games.q2j import compare

from ..ui import LOSES, NEUTRAL, WINS, GameUI, hint_line, seat_heading

STATUS_MARKS = {"out": " · eliminated", "won": " · 🏆 won", "lost": ""}
HINTS = {"attack": "Attack: choose a card, then its target.", "defend": "Defend: choose a card, then your stack.",
         "draw": "Draw from the deck.", "pick": "Pick a card from your resource pile.",
         "sacrifice": "Sacrifice the top of one of your stacks."}
VERDICT = {1: "wins", 0: "ties", -1: "loses"}


def stack_text(stack: list[str | None]) -> str:
    """A stack as players read it: its top card (or "face down"), and how many lie under it."""
    if not stack:
        return "empty"
    shown = "face down" if stack[-1] is None else parse_card(stack[-1]).pretty
    return shown + (f" (+{len(stack) - 1} under)" if len(stack) > 1 else "")


def field_text(field: list[list[str | None]]) -> str:
    return " · ".join(f"`{i + 1}` {stack_text(stack)}" for i, stack in enumerate(field))


class NGUI(GameUI):
    start_description = "Open a Q2J NG table in this channel (2–4 players)"
    steps = {"attack": "Attack with…", "defend": "Defend with…"}

    def options_text(self, options: dict[str, Any]) -> str:
        return "Face-up (every card public)" if options["faceup"] else "Hidden hands and face-down fields"

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        lines = []
        for seat in range(len(table.names)):
            resources = view["resources"][seat]
            res = f"resources {pretty(resources)}" if resources else "no resources"
            lines.append(f"{seat_heading(table, seat)} — hand {view['hand_counts'][seat]}"
                         f" · {res}{STATUS_MARKS.get(view['status'][seat], '')}")
            if view["status"][seat] != "out":
                lines.append(field_text(view["fields"][seat]))
            if view.get("hands") is not None:
                lines.append(f"Hand: {pretty(view['hands'][seat]) or '—'}")
        discard = f"**Deck:** {view['deck_count']} · **Discard pile:** {view['discard_count']}"
        if view.get("discard_top"):
            discard += f" (top {parse_card(view['discard_top']).pretty})"
        stall = view["stall_limit"] - view["turns_since_discard"]
        if stall <= 10:
            discard += f" · ⚠️ {stall} turns without a discard before the game ends"
        if view.get("deck") is not None:
            discard += f"\nDeck (top last): {pretty(view['deck'])}"
        return "\n".join([*lines, "", discard])

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        lines = [f"**Your hand:** {pretty(view['hand']) or '—'}", f"**Your field:** {field_text(view['fields'][hand.seat])}"]
        return "\n".join(lines + hint_line(hand.actions, HINTS))

    def _target(self, kind: str, seat: int, index: int | None, hand: HandSnapshot) -> tuple[str, str | None]:
        """A target's description and its card when the seat can see it."""
        view, whose = hand.view, "your" if seat == hand.seat else f"{hand.table.typed_names[seat]}'s"
        if kind == "stack":
            card = view["fields"][seat][index][-1]
            return f"{whose} stack {index + 1} ({'face down' if card is None else parse_card(card).pretty})", card
        if kind == "resource":
            card = view["resources"][seat][-1]
            return f"{whose} resource pile ({parse_card(card).pretty})", card
        card = view["hands"][seat][index] if view.get("hands") is not None else None
        return f"{whose} hand, card {index + 1}" + (f" ({parse_card(card).pretty})" if card else " (blind)"), card

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        kind, args = action.kind, action.args
        if kind == "draw":
            return "Draw from the deck"
        if kind == "pick":
            return f"Pick {parse_card(args[0]).pretty} from your resource pile"
        if kind == "sacrifice":
            top = hand.view["fields"][hand.seat][args[0]][-1]
            return f"Sacrifice the top of your stack {args[0] + 1} ({'face down' if top is None else parse_card(top).pretty})"
        if kind == "defend":
            return f"Put {parse_card(args[0]).pretty} onto {self._target('stack', args[1], args[2], hand)[0]}"
        if kind == "attack":
            card, target_kind, seat, *index = args
            target, known = self._target(target_kind, seat, index[0] if index else None, hand)
            return f"Attack {target}" + (f": {parse_card(card).pretty} {VERDICT[compare(card, known)]}" if known else "")
        return str(action)

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "sacrifice":
            return LOSES
        if action.kind != "attack":
            return NEUTRAL
        card, target_kind, seat, *index = action.args
        known = self._target(target_kind, seat, index[0] if index else None, hand)[1]
        if known is None:  # a face-down or blind target: the outcome is unknown
            return NEUTRAL
        return WINS if compare(card, known) > 0 else LOSES

    def ordered_actions(self, hand: HandSnapshot) -> list[Action]:
        # Attacks on your own stacks come after every other target, apart from them.
        return sorted(hand.actions, key=lambda a: a.kind == "attack" and a.args[2] == hand.seat)


UI = NGUI
