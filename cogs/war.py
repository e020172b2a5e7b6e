"""Q2J War: ``/war start``, the fields on the table, and attack / recover / draw controls."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card
from games.q2j import compare

from . import ui
from .tables import open_table

LOSS_NAMES = {
    "no-cards": "Out when field and deck are empty",
    "field-empty": "Out as soon as the field is empty",
}
STATUS_MARKS = {"out": " · out", "won": " · 🏆 won", "tied": " · tied"}
OUTCOME_WORDS = {1: "wins", 0: "tie: both are discarded", -1: "loses: only your card is discarded"}


def field_text(field: list[dict[str, Any]]) -> str:
    if not field:
        return "_(empty field)_"
    return "  ".join(
        f"~~{parse_card(slot['card']).pretty}~~ (tapped)" if slot["tapped"] else f"**{parse_card(slot['card']).pretty}**"
        for slot in field
    )


class WarUI(ui.GameUI):
    game_id = "war"

    def options_text(self, options: dict[str, Any]) -> str:
        return LOSS_NAMES[options["loss"]]

    def _fields(self, view: dict[str, Any], names: list[str], to_act: set[int]) -> list[str]:
        lines = []
        for seat, name in enumerate(names):
            marker = "▶" if seat in to_act else "•"
            status = STATUS_MARKS.get(view["status"][seat], "")
            lines.append(f"{marker} **{name}** — deck {view['deck_counts'][seat]}{status}")
            lines.append(field_text(view["fields"][seat]))
        return lines

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        lines = self._fields(view, table.names, set(view.get("to_act", [])))
        top = view.get("discard_top") or []
        discard = f"**Discard pile:** {view['discard_count']}"
        if top:
            discard += f" (latest {parse_card(top[0]).pretty})"
        return "\n".join([*lines, "", discard])

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        names = hand.table.names
        lines = [f"**Your field:** {field_text(view['fields'][hand.seat])} · deck {view['deck_counts'][hand.seat]}"]
        for seat, name in enumerate(names):
            if seat != hand.seat and view["status"][seat] == "playing":
                lines.append(f"**{name}:** {field_text(view['fields'][seat])}")
        if hand.actions:
            lines.append("Attack: pick an untapped card, then its target. Or recover a tapped card, or draw.")
        return "\n".join(lines)

    def _owner(self, view: dict[str, Any], code: str) -> int:
        return next(s for s, field in enumerate(view["fields"]) if any(slot["card"] == code for slot in field))

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "attack":
            attacker, target = action.args
            owner = hand.table.names[self._owner(hand.view, target)]
            verdict = OUTCOME_WORDS[compare(attacker, target)]
            return f"{parse_card(target).pretty} ({owner}) — {parse_card(attacker).pretty} {verdict}"
        if action.kind == "recover":
            return f"Recover {parse_card(action.args[0]).pretty}"
        if action.kind == "draw":
            return "Draw to your field"
        return str(action)

    def action_style(self, action: Action) -> discord.ButtonStyle:
        if action.kind == "attack":
            return discord.ButtonStyle.danger if compare(*action.args) >= 0 else discord.ButtonStyle.secondary
        return discord.ButtonStyle.primary if action.kind == "recover" else discord.ButtonStyle.secondary

    def move_items(self, hand: HandSnapshot, step: str | None = None) -> list[discord.ui.Item]:
        if step is not None:
            return self.action_controls(hand, [a for a in hand.actions if a.code().startswith(step)])
        attackers = list(dict.fromkeys(a.args[0] for a in hand.actions if a.kind == "attack"))
        items: list[discord.ui.Item] = []
        if attackers:
            choices = [(f"attack:{code},", f"Attack with {parse_card(code).pretty}") for code in attackers]
            items.append(self.step_menu(hand, choices, "Attack with…", row=0))
        others = [a for a in hand.actions if a.kind != "attack"]
        items += self.action_controls(hand, others, first_row=1)
        return items


ui.register(WarUI())


class WarCog(commands.Cog):
    war = app_commands.Group(name="war", description="Q Squared Joe War, the combat game", guild_only=True)

    @war.command(name="start", description="Open a Q2J War table in this channel (2–4 players)")
    @app_commands.describe(
        loss="When a player is out (default: when field and deck are both empty)",
        timer="Minutes per turn before the AI plays for you; 0 turns it off (default: the server's, or 10)",
    )
    @app_commands.choices(loss=[app_commands.Choice(name=n, value=v) for v, n in LOSS_NAMES.items()])
    async def start(
        self, interaction: discord.Interaction, loss: str = "no-cards",
        timer: app_commands.Range[int, 0, 1440] | None = None,
    ) -> None:
        await open_table(interaction, "war", {"loss": loss}, timer)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WarCog())
