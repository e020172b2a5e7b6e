"""Queen of Spades on Discord: laid sets and running scores on the table, a hand grouped
by rank, and the dealer's cut asked in a form."""

from __future__ import annotations

from typing import Any


from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import RANKS, parse_card, pretty
from games.queen_of_spades import card_points

from ..ui import NEUTRAL, WINS, GameUI, seat_heading

RANK_ORDER = {rank: i for i, rank in enumerate(RANKS)} | {"joker": len(RANKS), "JK": len(RANKS)}
RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "joker": "joker", "JK": "joker"}
PHASE_TEXT = {"cut": "to cut the deck", "take": "to take a card", "lay": "to lay sets and discard", "discard": "to discard"}
SET_MENU = "Lay or add to a set…"
BIG_HAND = 12
"""Hands of more cards are shown one line per rank, so no rank breaks across lines."""


def rank_of(code: str) -> str:
    card = parse_card(code)
    return "joker" if card.is_joker else card.rank


def rank_name(rank: str | int, plural: bool) -> str:
    return RANK_NAMES.get(str(rank), str(rank)) + ("s" if plural else "")


def grouped(codes: list[str]) -> str:
    """A hand grouped by rank, A to K then jokers, suits in the engine's order ♠ ♥ ♦ ♣
    within a rank: ``7♦ · Q♠ Q♥ · 🃏``."""
    groups: dict[str, list[str]] = {}
    for code in sorted(codes, key=lambda c: RANK_ORDER[rank_of(c)]):  # stable: keeps the suit order
        groups.setdefault(rank_of(code), []).append(code)
    return " · ".join(pretty(cards) for cards in groups.values()) or "—"


def rank_lines(codes: list[str]) -> str:
    """A big hand, one line per rank with its count: ``K ×3: K♠ K♥ K♦``."""
    groups: dict[str, list[str]] = {}
    for code in sorted(codes, key=lambda c: RANK_ORDER[rank_of(c)]):
        groups.setdefault(rank_of(code), []).append(code)
    return "\n".join(f"{'🃏' if rank == 'joker' else rank} ×{len(cards)}: {pretty(cards)}" for rank, cards in groups.items())


def cards_count(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def set_text(laid: dict[str, Any]) -> str:
    """A laid set, its wild 2 named as such: "K♠ K♥ + 2♦ (wild)"."""
    return pretty(laid["cards"]) + (f" + {parse_card(laid['wild']).pretty} (wild)" if laid["wild"] else "")


def pile_text(view: dict[str, Any]) -> str:
    top = view.get("discard_top")
    return f"**Draw pile:** {view['draw_count']} · **Discard pile:** {view['discard_count']}" + (
        f" (top {parse_card(top).pretty})" if top else "")


class QueenOfSpadesUI(GameUI):
    steps = {"lay": SET_MENU, "extend": SET_MENU}
    number_prompts = {"cut": "Cut the deck…"}

    def options_text(self, options: dict[str, Any]) -> str:
        target = f"first to {options['target']}" if options["target"] else "endless (until the table ends it)"
        count = options["rounds"]
        return target + (f" · at most {count} round{'' if count == 1 else 's'}" if count else "")

    def _phase_line(self, view: dict[str, Any], names: list[str]) -> str:
        phase = view["phase"]
        if phase == "round_over":
            waiting = [names[s] for s in view["to_act"]]
            return "Round over — waiting for " + ", ".join(waiting) + " to continue." if waiting else "Round over."
        return f"**{names[view['turn']]}** {PHASE_TEXT.get(phase, phase)}"

    def _scores(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """The last round's scores, with every hand left, once the round is over."""
        last, hands = view.get("last_round"), view.get("hands") or []
        if not last or view["phase"] not in ("round_over", "match_over"):
            return []
        lines = ["", f"**Round {last['round']} scores**"]
        for seat, row in enumerate(last["rows"]):
            extras = "".join(f" + {label} {row[key]}" for key, label in (("out_bonus", "out"), ("cut_bonus", "cut")) if row[key])
            left = f" ({pretty(hands[seat])})" if seat < len(hands) and hands[seat] else ""
            lines.append(f"{names[seat]}: laid {row['laid']} − hand {row['hand']}{left}{extras} = "
                         f"**{row['round']:+d}** → {row['total']}")
        return lines

    def board(self, table: TableSnapshot) -> str:
        view, names = table.view or {}, table.names
        lines: list[str] = []
        if view["phase"] != "match_over":  # once over, the shared final standings say the rest
            lines += [f"Round {view['round']} · dealer {names[view['dealer']]}", pile_text(view)]
            if view["discard_count"] > 1:  # the pile is public: every card in it was seen face up
                lines.append(f"Discard pile, bottom → top: {pretty(view['discard_pile'])}")
            lines.append(self._phase_line(view, names))
            cut = view.get("cut")
            if cut and cut.get("landed") is not None:
                lines.append(f"Cut: aimed {cut['aimed']}, landed {cut['landed']} — " + (
                    "**100 bonus!**" if cut["bonus"] else f"no bonus (needed {' or '.join(map(str, view['cut_bonus_at']))})"))
            lines.append("")
        for seat in range(len(names)):
            marker = "▶" if seat in view.get("to_act", []) and view["phase"] != "round_over" else "•"
            lines.append(f"{seat_heading(table, seat, marker)} — {cards_count(view['hand_counts'][seat])} · score {view['scores'][seat]}")
            if view["laid"][seat]:
                lines.append("  " + " · ".join(set_text(s) for s in view["laid"][seat]))
        return "\n".join(lines + self._scores(view, names))

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        cards = view["hand"]
        if len(cards) > BIG_HAND:
            lines = [f"**Your hand ({len(cards)}):**", rank_lines(cards)]
        else:
            lines = [f"**Your hand ({len(cards)}):** {grouped(cards)}"]
        if view["laid"][hand.seat]:
            lines.append("**Your sets:** " + " · ".join(set_text(s) for s in view["laid"][hand.seat]))
        top = view.get("discard_top")
        lines.append(f"Discard pile: {view['discard_count']}" + (f", top {parse_card(top).pretty}" if top else ""))
        if hand.actions and view["phase"] == "cut":
            lines.append(f"You deal this round. Cut {' or '.join(map(str, view['cut_bonus_at']))} cards "
                         "for the 100 bonus — a cut lands within 4 cards of what you name.")
        return "\n".join(lines)

    def step_label(self, path: tuple[str, ...], hand: HandSnapshot) -> str:
        kind, _, rank = path[-1].partition(":")
        held = sum(1 for code in hand.view["hand"] if rank_of(code) == ("joker" if rank in ("joker", "JK") else rank))
        return ("Lay a set of " if kind == "lay" else "Add to your ") + rank_name(rank, True) + f" ({held} in hand)"

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        kind, args, view = action.kind, action.args, hand.view
        if kind == "take" and args[0] == "draw":
            return "Draw from the draw pile"
        if kind == "take" and args[0] == "discard":
            return f"Take the lone discard ({parse_card(view['discard_top']).pretty})"
        if kind == "take" and args[0] == "pile":
            return f"Take the pile: {parse_card(view['discard_top']).pretty} + {args[1]} of yours as a new set"
        if kind in ("lay", "extend"):
            count, wild = args[1], len(args) > 2
            what = f"{count} {rank_name(args[0], count != 1)}" if count else ""
            label = ("Lay " if kind == "lay" else "Add ") + what + ((" + " if what else "") + "a wild 2" if wild else "")
            points = self._lay_points(action, hand.view["hand"])
            return label + (f" ({points} points)" if points is not None else "")
        if kind == "discard":
            return f"Discard {parse_card(args[0]).pretty} ({card_points(args[0])} points)"
        return {"deal": "Deal without cutting (no bonus)", "next": "Continue to the next round"}.get(kind, str(action))

    def menu_placeholder(self, actions: list[Action], hand: HandSnapshot) -> str:
        if all(a.kind == "discard" for a in actions):
            first, last = parse_card(actions[0].args[0]).pretty, parse_card(actions[-1].args[0]).pretty
            return f"Discard {first}" + (f" – {last}" if len(actions) > 1 else "")
        return super().menu_placeholder(actions, hand)

    @staticmethod
    def _lay_points(action: Action, hand: list[str]) -> int | None:
        """What the laid cards score; ``None`` when the hand's cards of that rank differ in
        worth (queens with Q♠) and the move does not say which are laid."""
        rank, count = str(action.args[0]), action.args[1]
        worth = {card_points(c) for c in hand if rank_of(c) == rank or (rank == "joker" and rank_of(c) == "joker")}
        wild = 20 if len(action.args) > 2 else 0
        if count and len(worth) != 1:
            return None
        return count * (worth.pop() if count else 0) + wild

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        # Laying and taking the pile as a set score points; everything else is neutral.
        scores = action.kind in ("lay", "extend") or (action.kind == "take" and action.args[0] == "pile")
        return WINS if scores else NEUTRAL


UI = QueenOfSpadesUI
