"""Q2J NG: ``/ng start``, fields of stacks on the table, and two-step controls
(choose the action and card, then the target)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card, pretty
from games.q2j import compare

from . import ui
from .tables import open_table

BACK = "🂠"
STATUS_MARKS = {"out": " · eliminated", "won": " · 🏆 won", "lost": ""}
VERDICT = {1: "wins", 0: "ties", -1: "loses"}


def stack_text(stack: list[str | None]) -> str:
    if not stack:
        return "—"
    top = stack[-1]
    shown = BACK if top is None else parse_card(top).pretty
    return shown + (f"×{len(stack)}" if len(stack) > 1 else "")


def field_text(field: list[list[str | None]]) -> str:
    return "  ".join(f"`{i + 1}` {stack_text(stack)}" for i, stack in enumerate(field))


class NGUI(ui.GameUI):
    game_id = "ng"

    def options_text(self, options: dict[str, Any]) -> str:
        return "Face-up (every card public)" if options["faceup"] else "Hidden hands and face-down fields"

    def _whose(self, seat: int, hand: HandSnapshot) -> str:
        return "your" if seat == hand.seat else f"{hand.table.names[seat]}'s"

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        to_act = set(view.get("to_act", []))
        lines = []
        for seat, name in enumerate(table.names):
            marker = "▶" if seat in to_act else "•"
            resources = view["resources"][seat]
            res = f"resources {pretty(resources)}" if resources else "no resources"
            lines.append(f"{marker} **{name}** — hand {view['hand_counts'][seat]} · {res}"
                         f"{STATUS_MARKS.get(view['status'][seat], '')}")
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
        lines = [f"**Your hand:** {pretty(view['hand']) or '—'}",
                 f"**Your field:** {field_text(view['fields'][hand.seat])}"]
        if hand.actions:
            lines.append("Attack or defend: choose the card, then the target. Or draw, pick or sacrifice.")
        return "\n".join(lines)

    def _target(self, view: dict[str, Any], kind: str, seat: int, index: int | None, hand: HandSnapshot) -> tuple[str, str | None]:
        """A target's description and its card when the seat can see it."""
        whose = self._whose(seat, hand)
        if kind == "stack":
            card = view["fields"][seat][index][-1]
            return f"{whose} stack {index + 1} ({'face down' if card is None else parse_card(card).pretty})", card
        if kind == "resource":
            card = view["resources"][seat][-1]
            return f"{whose} resource pile ({parse_card(card).pretty})", card
        card = view["hands"][seat][index] if view.get("hands") is not None else None
        return f"{whose} hand, card {index + 1}" + (f" ({parse_card(card).pretty})" if card else " (blind)"), card

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        view = hand.view
        if action.kind == "draw":
            return "Draw from the deck"
        if action.kind == "pick":
            return f"Pick {parse_card(action.args[0]).pretty} from your resource pile"
        if action.kind == "sacrifice":
            stack = view["fields"][hand.seat][action.args[0]]
            return f"Sacrifice the top of your stack {action.args[0] + 1} ({stack_text(stack[-1:])})"
        if action.kind == "defend":
            card, seat, slot = action.args
            target, _ = self._target(view, "stack", seat, slot, hand)
            return f"Put {parse_card(card).pretty} onto {target}"
        if action.kind == "attack":
            card, kind, seat, *index = action.args
            target, known = self._target(view, kind, seat, index[0] if index else None, hand)
            verdict = f": {parse_card(card).pretty} {VERDICT[compare(card, known)]}" if known else ""
            return f"Attack {target}{verdict}"
        return str(action)

    def action_style(self, action: Action) -> discord.ButtonStyle:
        return discord.ButtonStyle.danger if action.kind == "attack" else discord.ButtonStyle.secondary

    def move_items(self, hand: HandSnapshot, step: str | None = None) -> list[discord.ui.Item]:
        if step is not None:
            return self.action_controls(hand, [a for a in hand.actions if a.code().startswith(step)])
        items: list[discord.ui.Item] = []
        for n, (kind, verb) in enumerate((("attack", "Attack with"), ("defend", "Defend with"))):
            cards = list(dict.fromkeys(a.args[0] for a in hand.actions if a.kind == kind))
            if cards:
                choices = [(f"{kind}:{c},", f"{verb} {parse_card(c).pretty}") for c in cards]
                items.append(self.step_menu(hand, choices, f"{verb}…", n=n, row=len(items)))
        others = [a for a in hand.actions if a.kind not in ("attack", "defend")]
        return items + self.action_controls(hand, others, first_row=len(items))


ui.register(NGUI())


class NGCog(commands.Cog):
    ng = app_commands.Group(name="ng", description="Q Squared Joe NG, the combat game of stacks", guild_only=True)

    @ng.command(name="start", description="Open a Q2J NG table in this channel (2–4 players)")
    @app_commands.describe(
        faceup="Play with every card public, the deck order included (default: off)",
        timer="Minutes per turn before the AI plays for you; 0 turns it off (default: the server's, or 10)",
    )
    async def start(
        self, interaction: discord.Interaction, faceup: bool = False,
        timer: app_commands.Range[int, 0, 1440] | None = None,
    ) -> None:
        await open_table(interaction, "ng", {"faceup": faceup}, timer)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NGCog())
