"""Q Squared Joe: ``/q2j start`` and how its table and hands look."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card, pretty

from . import ui
from .tables import open_table

VARIANT_NAMES = {
    "standard": "Standard (Q² and Joe rules)",
    "classic": "Classic (the concept only)",
    "faceup": "Face-up (all hands public)",
    "challenge": "Challenge (2 players: 1 card vs 5)",
    "countdown": "Countdown (hands of 5, 4, 3, 2, 1)",
}
MATCH_NAMES = {"single": "Single game", "elimination": "Elimination match"}
SUIT_ORDER = {"S": 0, "H": 1, "D": 2, "C": 3, "": 4}
STATUS_MARKS = {"safe": " · safe", "out": " · eliminated", "won": " · 🏆 won", "lost": ""}


def sort_key(code: str) -> tuple[int, int]:
    """Hands are shown by suit, then rank."""
    card = parse_card(code)
    return (SUIT_ORDER[card.suit], card.value)


def sorted_cards(codes: list[str]) -> str:
    return pretty(sorted(codes, key=sort_key)) if codes else "—"


class Q2JUI(ui.GameUI):
    game_id = "q2j"

    def options_text(self, options: dict[str, Any]) -> str:
        text = f"{VARIANT_NAMES[options['variant']].split(' (')[0]} · {MATCH_NAMES[options['match']]}"
        if options["variant"] == "challenge" and options.get("short_hand") not in (None, "random"):
            text += f" · seat {int(options['short_hand']) + 1} gets the 1-card hand"
        return text

    def _top_line(self, view: dict[str, Any]) -> str:
        top = pretty(view["top"]) if view["top"] else "—"
        if view["top_is_qq"]:
            top += " (Q²)"
        return f"**Top card:** {top} · **Stock:** {view['stock_count']} · **Discard pile:** {view['discard_count']}"

    def _duty_line(self, view: dict[str, Any], names: list[str]) -> str | None:
        duty = view.get("duty")
        if not duty:
            return None
        if duty["free_play"]:
            return f"Q² came back round: **{names[duty['owed_by']]}** may play any card or draw."
        return f"Q² by {names[duty['qq_seat']]}: **{names[duty['owed_by']]}** must play a jack or draw."

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        names = table.names
        lines = [self._top_line(view)]
        duty = self._duty_line(view, names)
        if duty:
            lines.append(duty)
        if view.get("match") == "elimination":
            lines.append(f"Elimination match · game {view['game_number']}")
        lines.append("")
        to_act = set(view.get("to_act", []))
        for seat, name in enumerate(names):
            marker = "▶" if seat in to_act else "•"
            count = view["hand_counts"][seat]
            line = f"{marker} **{name}** — {count} card{'s' if count != 1 else ''}"
            if view.get("countdown"):
                line += f" · hand of {view['countdown'][seat]}"
            line += STATUS_MARKS.get(view["status"][seat], "")
            if view.get("hands") is not None:
                line += f"\n  {sorted_cards(view['hands'][seat])}"
            lines.append(line)
        return "\n".join(lines)

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        names = hand.table.names
        lines = [f"**Your cards ({len(view['hand'])}):** {sorted_cards(view['hand'])}", self._top_line(view)]
        duty = self._duty_line(view, names)
        if duty:
            lines.append(duty)
        if view.get("penalty_cards"):
            lines.append(f"Equal strength — playing {pretty(view['penalty_cards'])} costs a penalty draw.")
        return "\n".join(lines)

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "draw":
            return "Draw a card"
        if action.kind == "qq":
            return "Q² " + pretty(action.args)
        if action.kind == "play":
            label = "Play " + pretty(action.args)
            if action.args[0] in hand.view.get("penalty_cards", []):
                label += " (+1 penalty draw)"
            return label
        return str(action)

    def action_style(self, action: Action) -> discord.ButtonStyle:
        if action.kind == "draw":
            return discord.ButtonStyle.secondary
        if action.kind == "qq":
            return discord.ButtonStyle.danger
        return discord.ButtonStyle.primary

    def ordered_actions(self, hand: HandSnapshot) -> list[Action]:
        # Engine order is deck order; players look for cards in the order their hand shows them.
        order = {code: i for i, code in enumerate(sorted(hand.view["hand"], key=sort_key))}
        return sorted(hand.actions, key=lambda a: (a.kind == "draw", a.kind != "qq",
                                                   order.get(a.args[0] if a.args else "", 0)))


ui.register(Q2JUI())


class Q2JCog(commands.Cog):
    q2j = app_commands.Group(name="q2j", description="Q Squared Joe, the shedding game", guild_only=True)

    @q2j.command(name="start", description="Open a Q Squared Joe table in this channel")
    @app_commands.describe(
        variant="Which rules (default: Standard)",
        match="One game, or an elimination match (default: single game)",
        timer="Minutes per turn before the AI plays for you; 0 turns it off (default: the server's, or 10)",
        short_hand="Challenge only: who is dealt the single card (default: random)",
    )
    @app_commands.choices(
        variant=[app_commands.Choice(name=n, value=v) for v, n in VARIANT_NAMES.items()],
        match=[app_commands.Choice(name=n, value=v) for v, n in MATCH_NAMES.items()],
        short_hand=[
            app_commands.Choice(name="Random", value="random"),
            app_commands.Choice(name="First seat (the host)", value="0"),
            app_commands.Choice(name="Second seat", value="1"),
        ],
    )
    async def start(
        self, interaction: discord.Interaction, variant: str = "standard", match: str = "single",
        timer: app_commands.Range[int, 0, 1440] | None = None, short_hand: str | None = None,
    ) -> None:
        options: dict[str, Any] = {"variant": variant, "match": match}
        if short_hand is not None:
            options["short_hand"] = short_hand if short_hand == "random" else int(short_hand)
        await open_table(interaction, "q2j", options, timer)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Q2JCog())
