"""Queen of Spades on Discord: laid sets and running scores on the table, a hand grouped
by rank, the dealer's cut asked in a form, and a long hand's discards chosen by rank first."""

from __future__ import annotations

from typing import Any

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import RANKS, parse_card, pretty
from games.queen_of_spades import card_points

from ..ui import MAX_BUTTONS, NEUTRAL, WINS, GameUI, seat_heading
from ..words import Word, Words

WORDS: dict[str, Word] = {
    "target": "First to {n}",
    "endless": "Endless (until the table ends it)",
    "at_most": ("at most {n} round", "at most {n} rounds"),
    "set_menu": "Lay or add to a set…",
    "discard_menu": "Discard a card: choose its rank…",
    "cut_button": "Cut the deck…",
    "cut": "to cut the deck",
    "take": "to take a card",
    "lay": "to lay sets and discard",
    "discard": "to discard",
    "continue": "to press **Continue** in **My hand**",
    "round_dealer": "Round {round} · dealer {dealer}",
    "piles": "draw {draw} · discard {discard}",
    "piles_top": "draw {draw} · discard {discard} (top {top})",
    "pile_cards": "Discard pile, bottom → top: {cards}",
    "cut_bonus": "💯 {dealer}'s cut landed on {landed}: 100 bonus this round.",
    "seat_line": "{heading} — {cards} · score {score}",
    "cards": ("{n} card", "{n} cards"),
    "wild": "{cards} + {wild} (wild)",
    "scores_heading": "**Round {round} scores**",
    "score_row": "{name}: laid {laid} − hand {hand}{left}{extras} = **{round:+d}** → {total}",
    "extra": " + {label} {n}",
    "out_bonus": "out",
    "cut_extra": "cut",
    "your_hand": "**Your hand ({n}):** {cards}",
    "your_hand_big": "**Your hand ({n}):**",
    "your_sets": "**Your sets:** {sets}",
    "discard_pile": "Discard pile: {n}",
    "discard_pile_top": "Discard pile: {n}, top {top}",
    "prompt_cut": "You deal this round. Cut {bonus} cards for the 100 bonus: a cut lands within 4 cards of "
                  "what you name.",
    "prompt_take": "Draw, or take from the discard pile.",
    "prompt_lay": "Lay or add to sets if you like, then discard a card.",
    "prompt_discard": "Discard a card to end your turn.",
    "prompt_next": "The round is over: press **Continue**.",
    "or": " or ",
    "lay_set": "Lay a set of {ranks} ({n} in hand)",
    "add_to": "Add to your {ranks} ({n} in hand)",
    "discard_rank": "Discard {ranks} ({n} in hand)",
    "draw": "Draw",
    "take_lone": "Take {card}",
    "take_pile": "Take the pile ({card} + {n} of yours)",
    "lay_some": "Lay {n} {ranks}",
    "add_some": "Add {n} {ranks}",
    "lay_wild": "Lay a wild 2",
    "add_wild": "Add a wild 2",
    "lay_with_wild": "Lay {n} {ranks} + a wild 2",
    "add_with_wild": "Add {n} {ranks} + a wild 2",
    "points": " ({n} pts)",
    "discard_card": "{card} · {n} pts",
    "deal": "Deal without cutting (no bonus)",
    "next": "Continue",
    "pts": ("{n} pt", "{n} pts"),
}
WORD = Words(WORDS)
RANK_ORDER = {rank: i for i, rank in enumerate(RANKS)} | {"joker": len(RANKS), "JK": len(RANKS)}
RANK_NAMES = {"A": ("ace", "aces"), "J": ("jack", "jacks"), "Q": ("queen", "queens"), "K": ("king", "kings"),
              "joker": ("joker", "jokers")}
PHASES = {"cut": "cut", "take": "take", "lay": "lay", "discard": "discard", "round_over": "continue"}
PROMPTS = {"cut": "prompt_cut", "take": "prompt_take", "lay": "prompt_lay", "discard": "prompt_discard",
           "round_over": "prompt_next"}
BIG_HAND = 12
"""Hands of more cards are shown one line per rank, so no rank breaks across lines."""


def rank_of(code: str) -> str:
    card = parse_card(code)
    return "joker" if card.is_joker else card.rank


def rank_name(rank: str | int, plural: bool) -> str:
    rank = "joker" if str(rank) == "JK" else str(rank)
    one, many = RANK_NAMES.get(rank, (rank, rank + "s"))
    return many if plural else one


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


def set_text(laid: dict[str, Any]) -> str:
    """A laid set, its wild 2 named as such: "K♠ K♥ + 2♦ (wild)"."""
    cards = pretty(laid["cards"])
    return WORD("wild", cards=cards, wild=parse_card(laid["wild"]).pretty) if laid["wild"] else cards


def piles(view: dict[str, Any]) -> str:
    top = view.get("discard_top")
    if top:
        return WORD("piles_top", draw=view["draw_count"], discard=view["discard_count"], top=parse_card(top).pretty)
    return WORD("piles", draw=view["draw_count"], discard=view["discard_count"])


def held(hand: HandSnapshot, rank: str) -> int:
    """How many cards of ``rank`` (a rank name, or "joker"/"JK") the hand holds."""
    rank = "joker" if rank in ("joker", "JK") else rank
    return sum(1 for code in hand.view["hand"] if rank_of(code) == rank)


class QueenOfSpadesUI(GameUI):
    colour = 0x5C6BC0
    steps = {"lay": WORD("set_menu"), "extend": WORD("set_menu"), "discard": WORD("discard_menu")}
    number_prompts = {"cut": WORD("cut_button")}

    def options_text(self, options: dict[str, Any]) -> str:
        target = WORD("target", n=options["target"]) if options["target"] else WORD("endless")
        count = options["rounds"]
        return target + (" · " + WORD.count("at_most", count) if count else "")

    def turn_words(self, table: TableSnapshot) -> str:
        return WORD(PHASES.get((table.view or {}).get("phase", ""), "take"))

    def _cut_bonus(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """The dealer's cut, while it gave the round its bonus (a cut without one is only an event)."""
        cut = view.get("cut")
        if cut and cut.get("bonus") and view["phase"] != "match_over":
            return [WORD("cut_bonus", dealer=names[cut["dealer"]], landed=cut["landed"])]
        return []

    def facts(self, table: TableSnapshot) -> list[str]:
        view = table.view or {}
        if view["phase"] == "match_over":
            return []
        line = " · ".join([WORD("round_dealer", round=view["round"], dealer=table.names[view["dealer"]]),
                           piles(view)])
        return [line, *self._cut_bonus(view, table.names)]

    def _scores(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """The last round's scores, with every hand left, once the round is over."""
        last, hands = view.get("last_round"), view.get("hands") or []
        if not last or view["phase"] not in ("round_over", "match_over"):
            return []
        lines = ["", WORD("scores_heading", round=last["round"])]
        for seat, row in enumerate(last["rows"]):
            extras = "".join(WORD("extra", label=WORD(label), n=row[key])
                             for key, label in (("out_bonus", "out_bonus"), ("cut_bonus", "cut_extra")) if row[key])
            left = f" ({pretty(hands[seat])})" if seat < len(hands) and hands[seat] else ""
            lines.append(WORD("score_row", name=names[seat], laid=row["laid"], hand=row["hand"], left=left,
                              extras=extras, round=row["round"], total=row["total"]))
        return lines

    def board(self, table: TableSnapshot) -> str:
        view, names = table.view or {}, table.names
        lines: list[str] = []
        if view["phase"] != "match_over" and view["discard_count"] > 1:
            # The pile is public: every card in it was seen face up (the header says the rest).
            lines += [WORD("pile_cards", cards=pretty(view["discard_pile"])), ""]
        for seat in range(len(names)):
            marker = "▶" if seat in view.get("to_act", []) and view["phase"] != "round_over" else "•"
            lines.append(WORD("seat_line", heading=seat_heading(table, seat, marker),
                              cards=WORD.count("cards", view["hand_counts"][seat]), score=view["scores"][seat]))
            if view["laid"][seat]:
                lines.append("  " + " · ".join(set_text(s) for s in view["laid"][seat]))
        return "\n".join(lines + self._scores(view, names))

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        cards = view["hand"]
        if len(cards) > BIG_HAND:
            lines = [WORD("your_hand_big", n=len(cards)), rank_lines(cards)]
        else:
            lines = [WORD("your_hand", n=len(cards), cards=grouped(cards))]
        if view["laid"][hand.seat]:
            lines.append(WORD("your_sets", sets=" · ".join(set_text(s) for s in view["laid"][hand.seat])))
        top = view.get("discard_top")
        lines.append(WORD("discard_pile_top", n=view["discard_count"], top=parse_card(top).pretty) if top
                     else WORD("discard_pile", n=view["discard_count"]))
        return "\n".join(lines)

    def prompt(self, hand: HandSnapshot) -> str:
        view = hand.view
        if hand.table.row.status != "running" or not hand.actions or view["phase"] not in PROMPTS:
            return super().prompt(hand)
        return WORD(PROMPTS[view["phase"]], bonus=WORD("or").join(map(str, view["cut_bonus_at"])))

    def step_path(self, action: Action, hand: HandSnapshot) -> tuple[str, ...]:
        # A long hand's discards are chosen by rank first: buttons for at most MAX_BUTTONS cards.
        if action.kind == "discard":
            discards = sum(1 for a in hand.actions if a.kind == "discard")
            return (f"discard:{rank_of(action.args[0])}",) if discards > MAX_BUTTONS else ()
        return super().step_path(action, hand)

    def step_label(self, path: tuple[str, ...], hand: HandSnapshot) -> str:
        kind, _, rank = path[-1].partition(":")
        key = {"lay": "lay_set", "extend": "add_to", "discard": "discard_rank"}[kind]
        return WORD(key, ranks=rank_name(rank, True), n=held(hand, rank))

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        kind, args, view = action.kind, action.args, hand.view
        if kind == "take" and args[0] == "draw":
            return WORD("draw")
        if kind == "take" and args[0] == "discard":
            return WORD("take_lone", card=parse_card(view["discard_top"]).pretty)
        if kind == "take" and args[0] == "pile":
            return WORD("take_pile", card=parse_card(view["discard_top"]).pretty, n=args[1])
        if kind in ("lay", "extend"):
            count, wild = args[1], len(args) > 2
            verb = "lay" if kind == "lay" else "add"
            key = f"{verb}_with_wild" if count and wild else f"{verb}_wild" if wild else f"{verb}_some"
            label = WORD(key, n=count, ranks=rank_name(args[0], count != 1))
            points = self._lay_points(action, hand.view["hand"])
            return label + (WORD("points", n=points) if points is not None else "")
        if kind == "discard":
            return WORD("discard_card", card=parse_card(args[0]).pretty, n=card_points(args[0]))
        return WORD(kind) if kind in ("deal", "next") else str(action)

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

    def standing(self, table: TableSnapshot, seat: int) -> str:
        return WORD.count("pts", (table.view or {})["scores"][seat])


UI = QueenOfSpadesUI
