"""Queen of Spades: ``/qos start``, the table with laid sets and running scores,
and a hand grouped by rank with controls for each phase of a turn."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import RANKS, parse_card, pretty
from games.queen_of_spades import card_points

from . import controls, ui
from .tables import open_table

RANK_ORDER = {rank: i for i, rank in enumerate(RANKS)} | {"joker": len(RANKS), "JK": len(RANKS)}
PHASE_TEXT = {
    "cut": "to cut the deck", "take": "to take a card", "lay": "to lay sets and discard",
    "discard": "to discard",
}


def rank_of(code: str) -> str:
    card = parse_card(code)
    return "joker" if card.is_joker else card.rank


def rank_name(rank: str | int, plural: bool) -> str:
    rank = str(rank)
    names = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "joker": "joker", "JK": "joker"}
    name = names.get(rank, rank)
    return name + ("s" if plural else "")


def grouped(codes: list[str]) -> str:
    """A hand grouped by rank, A to K then jokers, suits in the engine's order ♠ ♥ ♦ ♣
    within a rank: ``7♦ · Q♠ Q♥ · 🃏``."""
    groups: dict[str, list[str]] = {}
    for code in sorted(codes, key=lambda c: RANK_ORDER[rank_of(c)]):  # stable: keeps the suit order
        groups.setdefault(rank_of(code), []).append(code)
    return " · ".join(pretty(cards) for cards in groups.values()) or "—"


def cards_count(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def set_text(laid: dict[str, Any]) -> str:
    cards = pretty(laid["cards"]) + (f" +{parse_card(laid['wild']).pretty}" if laid["wild"] else "")
    return cards


class QueenOfSpadesUI(ui.GameUI):
    game_id = "queen-of-spades"

    def options_text(self, options: dict[str, Any]) -> str:
        target = f"first to {options['target']}" if options["target"] else "endless (until the table ends it)"
        count = options["rounds"]
        rounds = f" · at most {count} round{'' if count == 1 else 's'}" if count else ""
        return target + rounds

    def _phase_line(self, view: dict[str, Any], names: list[str]) -> str:
        phase = view["phase"]
        if phase == "round_over":
            waiting = [names[s] for s in view["to_act"]]
            return "Round over — waiting for " + ", ".join(waiting) + " to continue." if waiting else "Round over."
        if phase == "match_over":
            return "The match is over."
        return f"**{names[view['turn']]}** {PHASE_TEXT.get(phase, phase)}"

    def board(self, table: TableSnapshot) -> str:
        view = table.view or {}
        names = table.names
        lines = [f"Round {view['round']} · dealer {names[view['dealer']]}",
                 f"**Draw pile:** {view['draw_count']} · **Discard pile:** {view['discard_count']}"
                 + (f" (top {parse_card(view['discard_top']).pretty})" if view["discard_top"] else "")]
        if view["discard_count"] > 1:  # the pile is public: every card in it was seen face up
            lines.append(f"Discard pile, bottom → top: {pretty(view['discard_pile'])}")
        lines.append(self._phase_line(view, names))
        cut = view.get("cut")
        if cut and cut.get("landed") is not None:
            lines.append(f"Cut: aimed {cut['aimed']}, landed {cut['landed']} — "
                         + ("**100 bonus!**" if cut["bonus"] else f"no bonus (needed {' or '.join(map(str, view['cut_bonus_at']))})"))
        lines.append("")
        acting = set(view.get("to_act", []))
        for seat, name in enumerate(names):
            marker = "▶" if seat in acting and view["phase"] not in ("round_over",) else "•"
            lines.append(f"{marker} **{name}** — {cards_count(view['hand_counts'][seat])} · "
                         f"score {view['scores'][seat]}")
            sets = view["laid"][seat]
            if sets:
                lines.append("  " + " · ".join(set_text(s) for s in sets))
        last = view.get("last_round")
        hands = view.get("hands") or []  # every hand is shown once the round is over
        if last and view["phase"] in ("round_over", "match_over"):
            lines.append("")
            lines.append(f"**Round {last['round']} scores**")
            for seat, row in enumerate(last["rows"]):
                extras = "".join(
                    f" + {label} {row[key]}" for key, label in (("out_bonus", "out"), ("cut_bonus", "cut")) if row[key]
                )
                left = f" ({pretty(hands[seat])})" if seat < len(hands) and hands[seat] else ""
                lines.append(f"{names[seat]}: laid {row['laid']} − hand {row['hand']}{left}{extras} = "
                             f"**{row['round']:+d}** → {row['total']}")
        return "\n".join(lines)

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        lines = [f"**Your hand ({len(view['hand'])}):** {grouped(view['hand'])}"]
        mine = view["laid"][hand.seat]
        if mine:
            lines.append("**Your sets:** " + " · ".join(set_text(s) for s in mine))
        top = view.get("discard_top")
        lines.append(f"Discard pile: {view['discard_count']}" + (f", top {parse_card(top).pretty}" if top else ""))
        if hand.actions and view["phase"] == "cut":
            lines.append(f"You deal this round. Cut {' or '.join(map(str, view['cut_bonus_at']))} cards "
                         "for the 100 bonus — a cut lands within 4 cards of what you name.")
        return "\n".join(lines)

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        kind, args = action.kind, action.args
        view = hand.view
        if kind == "take" and args[0] == "draw":
            return "Draw from the draw pile"
        if kind == "take" and args[0] == "discard":
            return f"Take the lone discard ({parse_card(view['discard_top']).pretty})"
        if kind == "take" and args[0] == "pile":
            top = parse_card(view["discard_top"])
            return f"Take the pile: {top.pretty} + {args[1]} of yours as a new set"
        if kind in ("lay", "extend"):
            count, wild = args[1], len(args) > 2
            what = f"{count} {rank_name(args[0], count != 1)}" if count else ""
            joined = " + " if what and wild else ""
            return ("Lay " if kind == "lay" else "Add ") + what + (joined + "a wild 2" if wild else "")
        if kind == "discard":
            return f"Discard {parse_card(args[0]).pretty} ({card_points(args[0])} points)"
        if kind == "deal":
            return "Deal without cutting (no bonus)"
        if kind == "next":
            return "Continue to the next round"
        return str(action)

    def action_style(self, action: Action) -> discord.ButtonStyle:
        if action.kind in ("lay", "extend") or (action.kind == "take" and action.args[0] == "pile"):
            return discord.ButtonStyle.success
        return discord.ButtonStyle.primary if action.kind in ("next", "take") else discord.ButtonStyle.secondary

    def move_items(self, hand: HandSnapshot, step: str | None = None) -> list[discord.ui.Item]:
        actions = hand.actions
        if step is not None:
            return self.action_controls(hand, [a for a in actions if a.code().startswith(step)])
        cuts = [a.args[0] for a in actions if a.kind == "cut"]
        if cuts:  # the dealer names a number in a form, or deals without cutting
            prompt = controls.NumberPrompt.make(hand.table.row.id, hand.version, "cut", min(cuts), max(cuts),
                                                "Cut the deck…", row=0)
            return [prompt, *self.action_controls(hand, [a for a in actions if a.kind == "deal"])]
        items: list[discord.ui.Item] = []
        sets = list(dict.fromkeys((a.kind, a.args[0]) for a in actions if a.kind in ("lay", "extend")))
        if sets:
            choices = [(f"{kind}:{rank},", ("Lay a set of " if kind == "lay" else "Add to your ")
                        + rank_name(rank, True)) for kind, rank in sets]
            items.append(self.step_menu(hand, choices, "Lay or add to a set…", row=len(items)))
        rest = [a for a in actions if a.kind not in ("lay", "extend")]
        return items + self.action_controls(hand, rest, first_row=len(items))


ui.register(QueenOfSpadesUI())


class QueenOfSpadesCog(commands.Cog):
    qos = app_commands.Group(name="qos", description="Queen of Spades, two-deck rummy with wild 2s", guild_only=True)

    @qos.command(name="start", description="Open a Queen of Spades table in this channel (2–8 players)")
    @app_commands.describe(
        target="Score that wins the match (default 1000; 0 = endless, until the table ends it)",
        rounds="Also end the match after this many rounds (default 0 = no limit)",
        timer="Minutes per turn before the AI plays for you; 0 turns it off (default: the server's, or 10)",
    )
    async def start(
        self, interaction: discord.Interaction, target: app_commands.Range[int, 0, 100_000] = 1000,
        rounds: app_commands.Range[int, 0, 1000] = 0, timer: app_commands.Range[int, 0, 1440] | None = None,
    ) -> None:
        await open_table(interaction, "queen-of-spades", {"target": target, "rounds": rounds}, timer)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(QueenOfSpadesCog())
