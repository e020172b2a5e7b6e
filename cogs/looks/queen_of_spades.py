"""Queen of Spades' look on Discord: laid sets and scores, hands by rank, the dealer's cut in a form.

A long hand's discards are chosen by rank first."""

from __future__ import annotations

from typing import Any

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import RANKS
from games.i18n import Text, plural, render_value, say
from games.queen_of_spades import card_points
from games.queen_of_spades.actions import RANK_ARG, Move, parse
from games.queen_of_spades.points import CODE, rank_of

from ..ui import MAX_BUTTONS, NEUTRAL, WINS, GameUI, cards_text, seat_heading, shown

RANK_ORDER = {rank: i for i, rank in enumerate(RANKS)} | {"joker": len(RANKS), "JK": len(RANKS)}
RANK_NAMES = {"A": (say("ace"), say("aces")), "J": (say("jack"), say("jacks")), "Q": (say("queen"), say("queens")),
              "K": (say("king"), say("kings")), "joker": (say("joker"), say("jokers"))}
PHASES = {"cut": say("to cut the deck"), "take": say("to take a card"), "lay": say("to lay sets and discard"),
          "discard": say("to discard"), "round_over": say("to press **Continue** in **My hand**")}
PROMPTS = {"cut": say("You deal this round. Cut {bonus} cards for the 100 bonus: a cut lands within 4 cards of what "
                      "you name."),
           "take": say("Draw, or take from the discard pile."),
           "lay": say("Lay or add to sets if you like, then discard a card."),
           "discard": say("Discard a card to end your turn."),
           "round_over": say("The round is over: press **Continue**.")}
BIG_HAND = 12
"""Hands of more cards are shown one line per rank, so no rank breaks across lines."""


def rank_name(rank: str | int, many: bool) -> Text:
    rank = "joker" if str(rank) == "JK" else str(rank)
    one, several = RANK_NAMES.get(rank, (Text.from_json(rank), say("{rank}s", rank=rank)))
    return several if many else one


def grouped(codes: list[str], language: str) -> str:
    """A hand grouped by rank, A to K then jokers, suits in the engine's order ♠ ♥ ♦ ♣
    within a rank: ``7♦ · Q♠ Q♥ · 🃏``."""
    groups: dict[str, list[str]] = {}
    for code in sorted(codes, key=lambda c: RANK_ORDER[rank_of(c)]):  # stable: keeps the suit order
        groups.setdefault(rank_of(code), []).append(code)
    return " · ".join(cards_text(cards, language) for cards in groups.values()) or "—"


def rank_lines(codes: list[str], language: str) -> str:
    """A big hand, one line per rank with its count: ``K ×3: K♠ K♥ K♦``."""
    groups: dict[str, list[str]] = {}
    for code in sorted(codes, key=lambda c: RANK_ORDER[rank_of(c)]):
        groups.setdefault(rank_of(code), []).append(code)
    return "\n".join(f"{'🃏' if rank == 'joker' else shown(cards[0], language).rstrip('♠♥♦♣')} ×{len(cards)}: "
                     f"{cards_text(cards, language)}" for rank, cards in groups.items())


def set_text(laid: dict[str, Any], language: str) -> str:
    """A laid set, its wild 2 named as such: "K♠ K♥ + 2♦ (wild)"."""
    cards = cards_text(laid["cards"], language)
    if not laid["wild"]:
        return cards
    return say("{cards} + {wild} (wild)", cards=cards, wild=shown(laid["wild"], language)).render(language)


def piles(view: dict[str, Any], language: str) -> str:
    top = view.get("discard_top")
    if top:
        return say("draw {draw} · discard {discard} (top {top})", draw=view["draw_count"],
                   discard=view["discard_count"], top=shown(top, language)).render(language)
    return say("draw {draw} · discard {discard}", draw=view["draw_count"],
               discard=view["discard_count"]).render(language)


def signed(points: int, language: str) -> str:
    """A round's points with their sign, as the language writes numbers: "+320", "-35"."""
    return f"{'-' if points < 0 else '+'}{render_value(abs(points), language)}"


def held(hand: HandSnapshot, rank: str) -> int:
    """How many cards of ``rank`` (a rank name, or "joker"/"JK") the hand holds."""
    rank = "joker" if rank in ("joker", "JK") else rank
    return sum(1 for code in hand.view["hand"] if rank_of(code) == rank)


class QueenOfSpadesUI(GameUI):
    colour = 0x7784CA
    steps = {"lay": say("Lay or add to a set…"), "extend": say("Lay or add to a set…"),
             "discard": say("Discard: choose a rank…")}
    menus = {"discard": say("Discard a card…"), "lay": say("Lay a set…"), "extend": say("Add to a set…")}
    number_prompts = {"cut": say("Cut the deck…")}

    def options_text(self, options: dict[str, Any]) -> str:
        target = (say("First to {n}", n=options["target"]) if options["target"]
                  else say("Endless (until the table ends it)"))
        count = options["rounds"]
        rounds = plural("at most {count} round", "at most {count} rounds", count)
        return self.words(target) + (" · " + self.words(rounds) if count else "")

    def turn_words(self, table: TableSnapshot) -> str:
        return self.words(PHASES.get((table.view or {}).get("phase", ""), PHASES["take"]))

    def _cut_bonus(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """The dealer's cut, while it gave the round its bonus (a cut without one is only an event)."""
        cut = view.get("cut")
        if cut and cut.get("bonus") and view["phase"] != "match_over":
            return [self.words(say("💯 {dealer}'s cut landed on {landed}: 100 bonus this round.",
                                   dealer=names[cut["dealer"]], landed=cut["landed"]))]
        return []

    def facts(self, table: TableSnapshot) -> list[str]:
        view = table.view or {}
        if view["phase"] == "match_over":
            return []
        line = " · ".join([self.words(say("Round {round} · dealer {dealer}", round=view["round"],
                                          dealer=table.names[view["dealer"]])),
                           piles(view, self.language)])
        return [line, *self._cut_bonus(view, table.names), *self.round_scores(view, table.names)]

    def round_scores(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """Between rounds, the round just scored, short: its title, the columns in small print, then
        a line a player ("ana: 120 − 0 + 200 = **+320** → 370"). The picture draws it too, but at
        9 px on a phone; the table's header and the hand say it in words."""
        last = view.get("last_round")
        if not last or view["phase"] != "round_over":
            return []
        lines = [self.words(say("**Round {round} scores**", round=last["round"])),
                 "-# " + self.words(say("laid − hand + bonus = round → total"))]
        for seat, row in enumerate(last["rows"]):
            bonus = row["out_bonus"] + row["cut_bonus"]
            added = " + " + self.words(bonus) if bonus else ""
            lines.append(self.words(say("{name}: {laid} − {hand}{bonus} = **{round}** → {total}", name=names[seat],
                                        laid=row["laid"], hand=row["hand"], bonus=added,
                                        round=signed(row["round"], self.language), total=row["total"])))
        return lines

    def _scores(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """The last round's scores in full, with every hand left, once the match is over (between
        rounds the header says them: :meth:`round_scores`)."""
        last, hands = view.get("last_round"), view.get("hands") or []
        if not last or view["phase"] != "match_over":
            return []
        lines = ["", self.words(say("**Round {round} scores**", round=last["round"]))]
        for seat, row in enumerate(last["rows"]):
            extras = ""
            if row["out_bonus"]:
                extras += self.words(say(" + out {n}", n=row["out_bonus"]))
            if row["cut_bonus"]:
                extras += self.words(say(" + cut {n}", n=row["cut_bonus"]))
            left = f" ({cards_text(hands[seat], self.language)})" if seat < len(hands) and hands[seat] else ""
            change = signed(row["round"], self.language)
            lines.append(self.words(say("{name}: laid {laid} − hand {hand}{left}{extras} = **{round}** → {total}",
                                        name=names[seat], laid=row["laid"], hand=row["hand"], left=left, extras=extras,
                                        round=change, total=row["total"])))
        return lines

    def board(self, table: TableSnapshot) -> str:
        view, names = table.view or {}, table.names
        lines: list[str] = []
        if view["phase"] != "match_over" and view["discard_count"] > 1:
            # The pile is public: every card in it was seen face up (the header says the rest).
            lines += [self.words(say("Discard pile, bottom → top: {cards}",
                                     cards=cards_text(view["discard_pile"], self.language))), ""]
        for seat in range(len(names)):
            marker = "▶" if seat in view.get("to_act", []) and view["phase"] != "round_over" else "•"
            cards = plural("{count} card", "{count} cards", view["hand_counts"][seat])
            heading = seat_heading(table, seat, marker)
            lines.append(self.words(say("{heading} — {cards} · score {score}", heading=heading, cards=cards,
                                        score=view["scores"][seat])))
            if view["laid"][seat]:
                lines.append("  " + " · ".join(set_text(s, self.language) for s in view["laid"][seat]))
            left = (view.get("hands") or [])[seat:seat + 1]
            if view["phase"] == "round_over" and left and left[0]:  # the round's hands, shown to all
                lines.append("  " + self.words(say("left in hand: {cards}", cards=cards_text(left[0], self.language))))
        return "\n".join(lines + self._scores(view, names))

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        cards = view["hand"]
        if len(cards) > BIG_HAND:
            lines = [self.words(say("**Your hand ({n}):**", n=len(cards))), rank_lines(cards, self.language)]
        else:
            lines = [self.words(say("**Your hand ({n}):** {cards}", n=len(cards), cards=grouped(cards, self.language)))]
        if view["laid"][hand.seat]:
            sets = " · ".join(set_text(s, self.language) for s in view["laid"][hand.seat])
            lines.append(self.words(say("**Your sets:** {sets}", sets=sets)))
        top = view.get("discard_top")
        count = view["discard_count"]
        lines.append(self.words(say("Discard pile: {n}, top {top}", n=count, top=shown(top, self.language)) if top
                                else say("Discard pile: {n}", n=count)))
        return "\n".join(lines)

    def prompt(self, hand: HandSnapshot) -> str:
        view = hand.view
        if hand.table.row.status != "running" or view["phase"] == "round_over":
            # Between rounds, whoever has yet to continue and whoever waits read the round's scores.
            said = PROMPTS["round_over"] if hand.actions and hand.table.row.status == "running" else None
            return "\n".join([self.words(said) if said else super().prompt(hand),
                              *self.round_scores(view, hand.table.names)])
        if not hand.actions or view["phase"] not in PROMPTS:
            return super().prompt(hand)
        kinds = {action.kind for action in hand.actions}
        if kinds == {"take"} and all(action.args[0] == "draw" for action in hand.actions):
            return self.words(say("Draw from the draw pile: the discard pile can't be taken now."))
        if kinds == {"discard"}:  # nothing to lay or add: the lay prompt would offer what isn't there
            return self.words(PROMPTS["discard"])
        bonus = self.words(say(" or ")).join(map(self.words, view["cut_bonus_at"]))
        return self.words(Text(PROMPTS[view["phase"]].source, {"bonus": bonus}))

    def step_path(self, action: Action, hand: HandSnapshot) -> tuple[str, ...]:
        # A long hand's discards are chosen by rank first: buttons for at most MAX_BUTTONS cards.
        if action.kind == "discard":
            discards = sum(1 for a in hand.actions if a.kind == "discard")
            return (f"discard:{rank_of(CODE[parse(action).item])}",) if discards > MAX_BUTTONS else ()
        return super().step_path(action, hand)

    def step_label(self, path: tuple[str, ...], hand: HandSnapshot) -> str:
        kind, _, rank = path[-1].partition(":")
        label = {"lay": say("Lay a set of {ranks} ({n} in hand)", ranks=rank_name(rank, True), n=held(hand, rank)),
                 "extend": say("Add to your {ranks} ({n} in hand)", ranks=rank_name(rank, True), n=held(hand, rank)),
                 "discard": say("Discard {ranks} ({n} in hand)", ranks=rank_name(rank, True), n=held(hand, rank))}[kind]
        return self.words(label)

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        kind, args, view = action.kind, action.args, hand.view
        if kind == "take" and args[0] == "draw":
            return self.words(say("Draw"))
        if kind == "take" and args[0] == "discard":
            return self.words(say("Take {card}", card=shown(view["discard_top"], self.language)))
        if kind == "take" and args[0] == "pile":
            return self.words(say("Take pile ({card} + {n} of yours)",
                                  card=shown(view["discard_top"], self.language), n=args[1]))
        if kind in ("lay", "extend"):  # chosen in a step that says lay or add, and the rank
            move = parse(action)
            ranks = rank_name(RANK_ARG[move.item], move.number != 1)
            label = self.words(self._lay_label(move.number, move.wilds > 0, ranks))
            points = self._lay_points(move, hand.view["hand"])
            return label + (self.words(plural(" ({count} pt)", " ({count} pts)", points)) if points is not None else "")
        if kind == "discard":
            card = CODE[parse(action).item]
            return self.words(plural("{card} · {count} pt", "{card} · {count} pts", card_points(card),
                                     card=shown(card, self.language)))
        if kind == "deal":
            return self.words(say("Deal without cutting"))
        return self.words(say("Continue")) if kind == "next" else super().action_label(action, hand)

    @staticmethod
    def _lay_label(count: int, wild: bool, ranks: Text) -> Text:
        """The cards a lay or an add puts down, ``count`` of a rank, with or without a wild 2 (its
        step says which of the two, and the rank: "Lay a set of kings (3 in hand)")."""
        if count and wild:
            return say("{n} {ranks} + a wild 2", n=count, ranks=ranks)
        return say("A wild 2") if wild else say("{n} {ranks}", n=count, ranks=ranks)

    @staticmethod
    def _lay_points(move: Move, hand: list[str]) -> int | None:
        """What a lay or extend's cards score; ``None`` when the hand's cards of that rank differ
        in worth (queens with Q♠) and the move does not say which are laid."""
        rank, count = str(RANK_ARG[move.item]), move.number
        worth = {card_points(c) for c in hand if rank_of(c) == rank or (rank == "joker" and rank_of(c) == "joker")}
        wild = 20 if move.wilds else 0
        if count and len(worth) != 1:
            return None
        return count * (worth.pop() if count else 0) + wild

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        # Laying and taking the pile as a set score points; everything else is neutral.
        scores = action.kind in ("lay", "extend") or (action.kind == "take" and action.args[0] == "pile")
        return WINS if scores else NEUTRAL

    def standing(self, table: TableSnapshot, seat: int) -> str:
        return self.words(plural("{count} pt", "{count} pts", (table.view or {})["scores"][seat]))


UI = QueenOfSpadesUI
