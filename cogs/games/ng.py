"""Q2J NG on Discord: fields of stacks on the table; attack or defend (card, then target),
draw, pick, sacrifice. An attack's targets are grouped by owner, yours last."""

from __future__ import annotations

from typing import Any

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card, pretty
from games.q2j import compare

from ..ui import LOSES, NEUTRAL, WINS, GameUI, seat_heading
from ..words import Word, Words

WORDS: dict[str, Word] = {
    "start": "Open a Q2J NG table in this channel (2–4 players)",
    "faceup": "Face-up (every card public)",
    "hidden": "Hidden hands and face-down fields",
    "attack_with": "Attack with…",
    "defend_with": "Defend with…",
    "attack_hint": "Attack: a card, then its target.",
    "defend_hint": "Defend: a card, then your stack.",
    "eliminated": "eliminated",
    "won": "🏆 won",
    "empty": "empty",
    "face_down": "face down",
    "under": "{top} (+{n} under)",
    "hand_count": "hand {n}",
    "resources": "resources {cards}",
    "no_resources": "no resources",
    "hand_line": "Hand: {cards}",
    "discard_top": " (top {card})",
    "stall": "⚠️ {n} turns without a discard before the game ends",
    "deck_order": "Deck (top last): {cards}",
    "deck": "Deck {n}",
    "discard": "discard {n}",
    "your_hand": "**Your hand:** {cards}",
    "your_field": "**Your field:** {field}",
    "draw": "Draw",
    "pick": "Pick {card}",
    "sacrifice": "Sacrifice stack {number} ({top})",
    "defend": "Stack {number}: {top}",
    "their_stack": "{owner}'s stack {number}: {top}",
    "their_resources": "{owner}'s resources: {top}",
    "their_hand_card": "{owner}'s hand card {number}",
    "their_hand_seen": "{owner}'s hand card {number}: {top}",
    "your_stack": "Your stack {number}: {top}",
    "your_resources": "Your resources: {top}",
    "verdict": "{verdict} · {target}",
    "wins": "Wins",
    "ties": "Ties",
    "loses": "Loses",
    "targets_of": "Attack {owner}…",
    "own_targets": "Attack your own cards…",
    "field_cards": ("{n} field card", "{n} field cards"),
}
WORD = Words(WORDS)
STATUS_WORDS = {"out": "eliminated", "won": "won"}
VERDICT = {1: "wins", 0: "ties", -1: "loses"}


def top_text(card: str | None) -> str:
    return WORD("face_down") if card is None else parse_card(card).pretty


def stack_text(stack: list[str | None]) -> str:
    """A stack as players read it: its top card (or "face down"), and how many lie under it."""
    if not stack:
        return WORD("empty")
    top = top_text(stack[-1])
    return WORD("under", top=top, n=len(stack) - 1) if len(stack) > 1 else top


def field_text(field: list[list[str | None]]) -> str:
    return " · ".join(f"`{i + 1}` {stack_text(stack)}" for i, stack in enumerate(field))


class NGUI(GameUI):
    start_description = WORD("start")
    colour = 0xAB47BC
    steps = {"attack": WORD("attack_with"), "defend": WORD("defend_with")}
    hints = {"attack": WORD("attack_hint"), "defend": WORD("defend_hint")}

    def options_text(self, options: dict[str, Any]) -> str:
        return WORD("faceup") if options["faceup"] else WORD("hidden")

    def facts(self, table: TableSnapshot) -> list[str]:
        view = table.view or {}
        discard = WORD("discard", n=view["discard_count"])
        if view.get("discard_top"):
            discard += WORD("discard_top", card=parse_card(view["discard_top"]).pretty)
        line = " · ".join([WORD("deck", n=view["deck_count"]), discard])
        stall = view["stall_limit"] - view["turns_since_discard"]
        return [line + (" · " + WORD("stall", n=stall) if stall <= 10 else "")]

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        lines = []
        for seat in range(len(table.names)):
            resources = view["resources"][seat]
            parts = [WORD("hand_count", n=view["hand_counts"][seat]),
                     WORD("resources", cards=pretty(resources)) if resources else WORD("no_resources")]
            status = STATUS_WORDS.get(view["status"][seat])
            if status:
                parts.append(WORD(status))
            lines.append(f"{seat_heading(table, seat)} — {' · '.join(parts)}")
            if view["status"][seat] != "out":
                lines.append(field_text(view["fields"][seat]))
            if view.get("hands") is not None:
                lines.append(WORD("hand_line", cards=pretty(view["hands"][seat]) or "—"))
        if view.get("deck") is not None:
            lines += ["", WORD("deck_order", cards=pretty(view["deck"]))]
        return "\n".join(lines)

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        return "\n".join([WORD("your_hand", cards=pretty(view["hand"]) or "—"),
                          WORD("your_field", field=field_text(view["fields"][hand.seat]))])

    def _target(self, kind: str, seat: int, index: int | None, hand: HandSnapshot) -> tuple[str, str | None]:
        """A target as a label names it (its owner, unless the mover's own), and its card when
        the mover can see it."""
        view, owner = hand.view, hand.table.typed_names[seat]
        if kind == "stack":
            assert index is not None
            card = view["fields"][seat][index][-1]
            key = "your_stack" if seat == hand.seat else "their_stack"
            return WORD(key, owner=owner, number=index + 1, top=top_text(card)), card
        if kind == "resource":
            card = view["resources"][seat][-1]
            key = "your_resources" if seat == hand.seat else "their_resources"
            return WORD(key, owner=owner, top=parse_card(card).pretty), card
        assert index is not None
        card = view["hands"][seat][index] if view.get("hands") is not None else None
        if card is None:
            return WORD("their_hand_card", owner=owner, number=index + 1), None
        return WORD("their_hand_seen", owner=owner, number=index + 1, top=parse_card(card).pretty), card

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        kind, args = action.kind, action.args
        if kind == "draw":
            return WORD("draw")
        if kind == "pick":
            return WORD("pick", card=parse_card(args[0]).pretty)
        if kind == "sacrifice":
            return WORD("sacrifice", number=args[0] + 1, top=top_text(hand.view["fields"][hand.seat][args[0]][-1]))
        if kind == "defend":
            return WORD("defend", number=args[2] + 1, top=top_text(hand.view["fields"][args[1]][args[2]][-1]))
        if kind == "attack":
            card, target_kind, seat, *index = args
            target, known = self._target(target_kind, seat, index[0] if index else None, hand)
            if known is None or seat == hand.seat:  # unknown, or your own card: no verdict to show
                return target
            return WORD("verdict", verdict=WORD(VERDICT[compare(card, known)]), target=target)
        return str(action)

    def move_group(self, action: Action, hand: HandSnapshot) -> str | None:
        if action.kind != "attack":
            return None
        seat = action.args[2]
        return WORD("own_targets") if seat == hand.seat else WORD("targets_of", owner=hand.table.typed_names[seat])

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "sacrifice":
            return LOSES
        if action.kind != "attack":
            return NEUTRAL
        card, target_kind, seat, *index = action.args
        if seat == hand.seat:  # whatever the cards, one of your own is discarded
            return LOSES
        known = self._target(target_kind, seat, index[0] if index else None, hand)[1]
        if known is None:  # a face-down or blind target: the outcome is unknown
            return NEUTRAL
        return WINS if compare(card, known) > 0 else LOSES

    def ordered_actions(self, hand: HandSnapshot) -> list[Action]:
        # Attacks on your own stacks come after every other target, apart from them.
        return sorted(hand.actions, key=lambda a: a.kind == "attack" and a.args[2] == hand.seat)

    def standing(self, table: TableSnapshot, seat: int) -> str:
        view = table.view or {}
        if view["status"][seat] == "out":
            return WORD("eliminated")
        return WORD.count("field_cards", view["field_counts"][seat])


UI = NGUI
