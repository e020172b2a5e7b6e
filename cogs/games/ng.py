"""Q2J NG on Discord: fields of stacks on the table; attack or defend (card, then target),
draw, pick, sacrifice. An attack's targets are grouped by owner, yours last."""

from __future__ import annotations

from typing import Any

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.i18n import plural, say
from games.q2j import compare

from ..ui import LOSES, NEUTRAL, WINS, GameUI, cards_text, seat_heading, shown

STATUS_WORDS = {"out": say("eliminated"), "won": say("🏆 won")}
VERDICT = {1: say("Wins"), 0: say("Ties"), -1: say("Loses")}


def top_text(card: str | None, language: str) -> str:
    return say("face down").render(language) if card is None else shown(card, language)


def stack_text(stack: list[str | None], language: str) -> str:
    """A stack as players read it: its top card (or "face down"), and how many lie under it."""
    if not stack:
        return say("empty").render(language)
    top = top_text(stack[-1], language)
    return say("{top} (+{n} under)", top=top, n=len(stack) - 1).render(language) if len(stack) > 1 else top


def field_text(field: list[list[str | None]], language: str) -> str:
    return " · ".join(f"`{i + 1}` {stack_text(stack, language)}" for i, stack in enumerate(field))


class NGUI(GameUI):
    start_description = say("Open a Q2J NG table in this channel (2–4 players)")
    colour = 0xAB47BC
    steps = {"attack": say("Attack with…"), "defend": say("Defend with…")}
    hints = {"attack": say("Attack: a card, then its target."), "defend": say("Defend: a card, then your stack.")}

    def options_text(self, options: dict[str, Any]) -> str:
        return self.words(say("Face-up (every card public)") if options["faceup"]
                          else say("Hidden hands and face-down fields"))

    def facts(self, table: TableSnapshot) -> list[str]:
        view = table.view or {}
        discard = self.words(say("discard {n}", n=view["discard_count"]))
        if view.get("discard_top"):
            discard += self.words(say(" (top {card})", card=shown(view["discard_top"], self.language)))
        line = " · ".join([self.words(say("Deck {n}", n=view["deck_count"])), discard])
        stall = view["stall_limit"] - view["turns_since_discard"]
        warning = say("⚠️ {n} turns without a discard before the game ends", n=stall)
        return [line + (" · " + self.words(warning) if stall <= 10 else "")]

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        lines = []
        for seat in range(len(table.names)):
            resources = view["resources"][seat]
            parts = [self.words(say("hand {n}", n=view["hand_counts"][seat])),
                     self.words(say("resources {cards}", cards=cards_text(resources, self.language)) if resources
                                else say("no resources"))]
            status = STATUS_WORDS.get(view["status"][seat])
            if status:
                parts.append(self.words(status))
            lines.append(f"{seat_heading(table, seat)} — {' · '.join(parts)}")
            if view["status"][seat] != "out":
                lines.append(field_text(view["fields"][seat], self.language))
            if view.get("hands") is not None:
                cards = cards_text(view["hands"][seat], self.language) or "—"
                lines.append(self.words(say("Hand: {cards}", cards=cards)))
        if view.get("deck") is not None:
            lines += ["", self.words(say("Deck (top last): {cards}", cards=cards_text(view["deck"], self.language)))]
        return "\n".join(lines)

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        cards = cards_text(view["hand"], self.language) or "—"
        return "\n".join([self.words(say("**Your hand:** {cards}", cards=cards)),
                          self.words(say("**Your field:** {field}", field=field_text(view["fields"][hand.seat],
                                                                                       self.language)))])

    def _target(self, kind: str, seat: int, index: int | None, hand: HandSnapshot) -> tuple[str, str | None]:
        """A target as a label names it (its owner, unless the mover's own), and its card when
        the mover can see it."""
        view, owner = hand.view, hand.table.typed_names[seat]
        if kind == "stack":
            assert index is not None
            card = view["fields"][seat][index][-1]
            top = top_text(card, self.language)
            if seat == hand.seat:
                return self.words(say("Your stack {number}: {top}", number=index + 1, top=top)), card
            return self.words(say("{owner}'s stack {number}: {top}", owner=owner, number=index + 1, top=top)), card
        if kind == "resource":
            card = view["resources"][seat][-1]
            top = shown(card, self.language)
            if seat == hand.seat:
                return self.words(say("Your resources: {top}", top=top)), card
            return self.words(say("{owner}'s resources: {top}", owner=owner, top=top)), card
        assert index is not None
        card = view["hands"][seat][index] if view.get("hands") is not None else None
        if card is None:
            return self.words(say("{owner}'s hand card {number}", owner=owner, number=index + 1)), None
        return self.words(say("{owner}'s hand card {number}: {top}", owner=owner, number=index + 1,
                              top=shown(card, self.language))), card

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        kind, args = action.kind, action.args
        if kind == "draw":
            return self.words(say("Draw"))
        if kind == "pick":
            return self.words(say("Pick {card}", card=shown(args[0], self.language)))
        if kind == "sacrifice":
            top = top_text(hand.view["fields"][hand.seat][args[0]][-1], self.language)
            return self.words(say("Sacrifice stack {number} ({top})", number=args[0] + 1, top=top))
        if kind == "defend":
            top = top_text(hand.view["fields"][args[1]][args[2]][-1], self.language)
            return self.words(say("Stack {number}: {top}", number=args[2] + 1, top=top))
        if kind == "attack":
            card, target_kind, seat, *index = args
            target, known = self._target(target_kind, seat, index[0] if index else None, hand)
            if known is None or seat == hand.seat:  # unknown, or your own card: no verdict to show
                return target
            return self.words(say("{verdict} · {target}", verdict=VERDICT[compare(card, known)], target=target))
        return super().action_label(action, hand)

    def move_group(self, action: Action, hand: HandSnapshot) -> str | None:
        if action.kind != "attack":
            return None
        seat = action.args[2]
        return self.words(say("Attack your own cards…") if seat == hand.seat
                          else say("Attack {owner}…", owner=hand.table.typed_names[seat]))

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
            return self.words(say("eliminated"))
        return self.words(plural("{count} field card", "{count} field cards", view["field_counts"][seat]))


UI = NGUI
