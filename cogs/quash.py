"""QUASH: ``/quash start``, the board of nine spots a side, the track, and moves
built step by step (card, then spot; in advanced play the swap chain, one card at
a time), plus secret tiebreak choices."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card, pretty

from . import ui
from .tables import open_table

SIDES = ("RED", "BLACK")
SIDE_MARKS = {"RED": "🟥", "BLACK": "⬛"}
ACE_HIGH = {rank: i for i, rank in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}


def by_rank(codes: list[str]) -> list[str]:
    return sorted(codes, key=lambda c: (ACE_HIGH[parse_card(c).rank], "SHDC".index(parse_card(c).suit)))


def spot_cards(spot: dict[str, Any]) -> str:
    shown = pretty(by_rank(spot["cards"])) if spot["cards"] else ""
    return (shown + " " + "▢ " * spot["open"]).strip() or "▢"


HOW = {"rank": "higher card", "top": "higher top card", "suit": "same-suit run", "failed": "run vs failed",
       "tiebreak": "tiebreak", "no-cards": "no leftover cards"}


def result_text(spot: dict[str, Any]) -> str:
    """One scored spot of a round summary, e.g. "`2` ⬛ +2 (run vs failed)"."""
    number, winner, how = spot["spot"], spot["winner"], spot["how"]
    if winner is None:
        return f"`{number}` both failed, +1 each" if how == "both-failed" else f"`{number}` nobody ({HOW[how]})"
    return f"`{number}` {SIDE_MARKS[winner]} +{spot['points'][SIDES.index(winner)]} ({HOW.get(how, how)})"


def round_summary(view: dict[str, Any]) -> list[str]:
    """The previous round, spot by spot: the next deal clears the board, and a round's
    scoring lines are more than the table's Latest lines can hold."""
    last = view.get("last_round")
    if not last:
        return []
    points = last["points"]
    lines = [f"**Round {last['round']} scored** — RED +{points[0]} · BLACK +{points[1]}"]
    spots = {spot["spot"]: spot for spot in last["spots"]}
    for section in view["sections"]:
        parts = [result_text(spots[n]) for n in section if n in spots]
        final = spots.get(section[-1])
        if final and final["quash"] and final["winner"]:
            parts.append(f"QUASH {SIDE_MARKS[final['winner']]} +2")
        if parts:
            lines.append(" · ".join(parts))
    return lines


def spot_mark(spot: dict[str, Any], side: str) -> str:
    if spot.get("failed"):
        return " ✗"
    if spot.get("scored") and spot.get("winner") == side:
        return " ✓"
    return ""


class QuashUI(ui.GameUI):
    game_id = "quash"
    sides = SIDES

    def options_text(self, options: dict[str, Any]) -> str:
        return f"first to {options['finish']}" + (" · advanced (hidden cards, swaps)" if options["advanced"] else "")

    def _side_names(self, view: dict[str, Any], names: list[str]) -> list[str]:
        return [f"{SIDE_MARKS[side]} **{side}** ({', '.join(names[s] for s in view['teams'][i])})"
                for i, side in enumerate(view["sides"])]

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        names = table.names
        sides = self._side_names(view, names)
        lines = [f"{sides[0]} **{view['track'][0]}** · {sides[1]} **{view['track'][1]}** — first to {view['finish']}",
                 f"Round {view['round']} · dealer {names[view['dealer']]} · draw pile {view['pile_count']}"]
        for section in view["sections"]:
            lines.append("")
            for number in section:
                red, black = view["board"][0][number - 1], view["board"][1][number - 1]
                lines.append(f"`{number}` {red['kind']} — 🟥 {spot_cards(red)}{spot_mark(red, 'RED')}"
                             f" · ⬛ {spot_cards(black)}{spot_mark(black, 'BLACK')}")
        if view["phase"] == "play" and view.get("last_round"):
            lines += ["", *round_summary(view)]
        tiebreak = view.get("tiebreak")
        if tiebreak:
            waiting = ", ".join(names[s] for s in tiebreak["waiting"])
            lines.append(f"\n**Tiebreaker for spot {tiebreak['spot']}** — waiting for {waiting} to choose a card "
                         f"(leftovers: RED {view['leftover_counts'][0]}, BLACK {view['leftover_counts'][1]}).")
        return "\n".join(lines)

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        lines = [f"You play for **{view['side']}**.",
                 f"**Your {'leftover cards' if view['phase'] == 'tiebreak' else 'hand'} ({len(view['hand'])}):** "
                 f"{pretty(by_rank(view['hand'])) or '—'}"]
        if view.get("your_tiebreak_card"):
            lines.append(f"Your side's face-down tiebreak card: {parse_card(view['your_tiebreak_card']).pretty}")
        side = hand.seat % 2
        mine = [f"`{spot['spot']}` {spot_cards(spot)}" for spot in view["board"][side]]
        lines.append("**Your side:** " + " · ".join(mine))
        if view.get("free_placement"):
            lines.append("No placement can keep a run possible: any card may go on any open slot this turn.")
        return "\n".join(lines)

    def step_key(self, action: Action) -> str:
        # A placement or swap chain reads as the path its steps follow: card>spot(>card>spot…).
        if action.kind in ("place", "swap"):
            return ">".join(str(a) for a in action.args)
        return action.code()

    def _token_label(self, token: str, hand: HandSnapshot) -> str:
        if token.isdigit():
            spot = hand.view["board"][hand.seat % 2][int(token) - 1]
            return f"Spot {token} ({spot['kind']}): {spot_cards(spot)}"
        return parse_card(token).pretty

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "place":
            card, spot = action.args
            return f"{parse_card(card).pretty} → {self._token_label(str(spot), hand)}"
        if action.kind == "swap":
            path = [parse_card(a).pretty if isinstance(a, str) else f"spot {a}" for a in action.args]
            return "Swap: " + " → ".join(path)
        if action.kind == "tiebreak":
            return f"Play {parse_card(action.args[0]).pretty} face down"
        if action.kind == "chooser":
            return f"Let {hand.table.names[action.args[0]]} choose our tiebreak cards"
        return str(action)

    def move_items(self, hand: HandSnapshot, step: str | None = None) -> list[discord.ui.Item]:
        prefix = step or ""
        # A step is whole tokens, each followed by ">": "9D>", "9D>1>6C>"… A menu value edited
        # by a modified client ("9", "9D>1") must not be read as half a card or spot.
        if prefix and not prefix.endswith(">"):
            raise UserError("That choice isn't available now.")
        complete: list[Action] = []
        deeper: list[str] = []
        for action in hand.actions:
            key = self.step_key(action)
            if not key.startswith(prefix):
                continue
            rest = key[len(prefix):]
            if action.kind not in ("place", "swap") or ">" not in rest:
                complete.append(action)
            elif (token := rest.split(">")[0]) not in deeper:
                deeper.append(token)
        items: list[discord.ui.Item] = []
        if deeper:
            # The path alternates: a card (level 0, then every displaced card), a spot (odd levels).
            level = prefix.count(">")
            if level == 0:
                placeholder = "Place a card…"
            elif level % 2:
                placeholder = "…or swap a card out of a spot…"
            else:
                placeholder = "…moving which card out?"
            labels = [(prefix + token + ">", self._token_label(token, hand) + (" — swap a card out" if level % 2 else ""))
                      for token in deeper]
            items.append(self.step_menu(hand, labels, placeholder, row=0))
        elif prefix and not complete:
            raise UserError("That choice isn't available now.")
        return items + self.action_controls(hand, complete, first_row=len(items))


ui.register(QuashUI())


class QuashCog(commands.Cog):
    quash = app_commands.Group(name="quash", description="QUASH, runs against runs on nine spots a side", guild_only=True)

    @quash.command(name="start", description="Open a QUASH table in this channel (2 players, or 4 in two teams)")
    @app_commands.describe(
        advanced="Advanced play: hidden cards, and swaps that keep every spot able to become a run",
        finish="Points that win the match (default 30)",
        timer="Minutes per turn before the AI plays for you; 0 turns it off (default: the server's, or 10)",
    )
    async def start(
        self, interaction: discord.Interaction, advanced: bool = False,
        finish: app_commands.Range[int, 5, 100] = 30, timer: app_commands.Range[int, 0, 1440] | None = None,
    ) -> None:
        await open_table(interaction, "quash", {"advanced": advanced, "finish": finish}, timer)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(QuashCog())
