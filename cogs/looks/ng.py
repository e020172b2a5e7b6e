"""Q2J NG's look on Discord: fields of stacks, attacks and defences chosen card first, then target.

Attack or defend (card, then target), draw, pick, sacrifice. An attack's targets are grouped by
owner, yours last."""

from __future__ import annotations

from typing import Any, NamedTuple

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.i18n import plural, say, say_as
from games.q2j import compare

from ..ui import LOSES, NEUTRAL, WINS, GameUI, cards_text, seat_heading, shown

STATUS_WORDS = {"out": say("eliminated"), "won": say("🏆 won")}
# "Wins" is also the leaderboard's order, which other languages word otherwise.
VERDICT = {1: say_as("an attack's outcome", "Wins"), 0: say_as("an attack's outcome", "Ties"),
           -1: say_as("an attack's outcome", "Loses")}


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


class Attack(NamedTuple):
    """An attack as the engine's legal moves write it (``attack:7H,stack,1,3``): the attacking
    card's code, what it aims at ("stack", "hand" or "resource"), that target's seat, and the
    stack slot or hand position (None for a resource pile)."""

    card: str
    target: str
    seat: int
    position: int | None

    @classmethod
    def of(cls, action: Action) -> Attack:
        match action.args:
            case (str(card), str(target), int(seat)):
                return cls(card, target, seat, None)
            case (str(card), str(target), int(seat), int(position)):
                return cls(card, target, seat, position)
        raise ValueError(f"not an NG attack: {action.code()}")


class NGUI(GameUI):
    start_description = say("Open a Q2J NG table in this channel (2–4 players)")
    colour = 0xBA68C8
    steps = {"attack": say("Attack with…"), "defend": say("Defend with…")}
    hints = {"attack": say("Attack: a card, then its target."), "defend": say("Defend: a card, then your stack.")}
    menus = {"pick": say("Pick a resource card…"), "sacrifice": say("Sacrifice a stack…"),
             "defend": say("Defend which stack…")}

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
        warning = plural("⚠️ {count} turn without a discard before the game ends",
                         "⚠️ {count} turns without a discard before the game ends", stall)
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

    def _target(self, attack: Attack, hand: HandSnapshot) -> tuple[str, str | None]:
        """What ``attack`` aims at as a label names it (its owner, unless the mover's own), and
        its card when the mover can see it."""
        seat, index = attack.seat, attack.position
        view, owner = hand.view, hand.table.typed_names[seat]
        if attack.target == "stack":
            assert index is not None
            card = view["fields"][seat][index][-1]
            top = top_text(card, self.language)
            if seat == hand.seat:
                return self.words(say("Your stack {number}: {top}", number=index + 1, top=top)), card
            return self.words(say("{owner}'s stack {number}: {top}", owner=owner, number=index + 1, top=top)), card
        if attack.target == "resource":
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
        match action.kind, action.args:
            case "draw", _:
                return self.words(say("Draw"))
            case "pick", (card, *_):
                return self.words(say("Pick {card}", card=shown(card, self.language)))
            case "sacrifice", (int(stack), *_):
                top = top_text(hand.view["fields"][hand.seat][stack][-1], self.language)
                return self.words(say("Sacrifice stack {number} ({top})", number=stack + 1, top=top))
            case "defend", (_, int(seat), int(stack), *_):
                top = top_text(hand.view["fields"][seat][stack][-1], self.language)
                return self.words(say("Stack {number}: {top}", number=stack + 1, top=top))
            case "attack", _:
                attack = Attack.of(action)
                target, known = self._target(attack, hand)
                if known is None or attack.seat == hand.seat:  # unknown, or your own card: no verdict to show
                    return target
                return self.words(say("{verdict} · {target}", verdict=VERDICT[compare(attack.card, known)],
                                      target=target))
        return super().action_label(action, hand)

    def move_group(self, action: Action, hand: HandSnapshot) -> str | None:
        if action.kind != "attack":
            return None
        seat = Attack.of(action).seat
        return self.words(say("Attack your own cards…") if seat == hand.seat
                          else say("Attack {owner}…", owner=hand.table.typed_names[seat]))

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "sacrifice":
            return LOSES
        if action.kind != "attack":
            return NEUTRAL
        attack = Attack.of(action)
        if attack.seat == hand.seat:  # whatever the cards, one of your own is discarded
            return LOSES
        known = self._target(attack, hand)[1]
        if known is None:  # a face-down or blind target: the outcome is unknown
            return NEUTRAL
        return WINS if compare(attack.card, known) > 0 else LOSES

    def ordered_actions(self, hand: HandSnapshot) -> list[Action]:
        # Attacks on your own stacks come after every other target, apart from them.
        return sorted(hand.actions, key=lambda a: a.kind == "attack" and a.args[2] == hand.seat)

    def standing(self, table: TableSnapshot, seat: int) -> str:
        view = table.view or {}
        if view["status"][seat] == "out":
            return self.words(say("eliminated"))
        return self.words(plural("{count} field card", "{count} field cards", view["field_counts"][seat]))


UI = NGUI
