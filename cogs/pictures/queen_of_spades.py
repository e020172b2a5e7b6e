"""Queen of Spades: each seat's laid sets, hand size (the hands themselves once a round is
over) and running score, the whole discard pile, the draw pile; the score breakdown of
the round just played."""

from __future__ import annotations

from collections import defaultdict

from games.base import Action

from .base import GamePictures, View, hand_row, seat_name
from .canvas import GAP, MARGIN, MUTED, Canvas, Row, flow
from .cards import CARD, SMALL

RANK_NAMES = {"joker": "JK"}
PILE_STEP = 24
"""The closest the discard pile's cards overlap beside the draw pile; a longer pile wraps below."""


def set_cards(laid: dict) -> list[str]:
    return list(laid["cards"]) + ([laid["wild"]] if laid["wild"] else [])


def rank_of(code: str) -> str:
    return "joker" if code == "JK" else code[:-1]


class Pictures(GamePictures):
    def status_text(self, view: View) -> str:
        target = f" · target {view['target']}" if view["target"] else ""
        return f"round {view['round']}{target} · " + (super().status_text(view) or view["phase"].replace("_", " "))

    def acting(self, view: View) -> list[int]:
        """The seat whose turn it is; between rounds everyone acknowledges, nobody is marked."""
        return [] if view["turn"] is None else [view["turn"]]

    def draw_table(self, canvas: Canvas, view: View) -> None:
        y = canvas.y
        x = canvas.pile((MARGIN, y), view["draw_count"], "draw") + 3 * GAP
        pile = view["discard_pile"]
        title = f"discard pile, bottom to top: {len(pile)}"
        fits = SMALL.width + PILE_STEP * (len(pile) - 1) <= canvas.width - MARGIN - x
        canvas.text((x, y - 2), title if fits else title + " (below)", 16, MUTED)
        if fits:
            canvas.cards((x, y + 18), pile, SMALL, step=30, width=canvas.width - MARGIN - x)
        if view["phase"] == "cut":
            canvas.text((x, y + 18 + SMALL.height + 6), f"{seat_name(view['dealer'])} cuts the deck: "
                        f"bonus at {view['cut_bonus_at'][0]} or {view['cut_bonus_at'][1]} cards", 16, MUTED)
        canvas.y = y + CARD.height + 30
        if not fits:
            flow(canvas, [Row("", pile, step=PILE_STEP)], size=SMALL)
        hands = view.get("hands")
        lines = []
        for seat in range(view["players"]):
            count = view["hand_counts"][seat]
            hand = Row(f"{seat_name(seat)}: score {view['scores'][seat]} · laid {view['laid_points'][seat]}"
                       f" · hand {count}", hands[seat] if hands else [None] * count, step=22 if hands else 10)
            lines.append([hand] + [Row(RANK_NAMES.get(laid["rank"], laid["rank"]) + f" ({laid['points']})",
                                       set_cards(laid), step=28) for laid in view["laid"][seat]])
        self.seat_lines(canvas, view, lines)
        if view.get("last_round") and view["phase"] in ("round_over", "match_over"):
            self.breakdown(canvas, view["last_round"])

    def breakdown(self, canvas: Canvas, record: dict) -> None:
        canvas.label(f"Round {record['round']} scores" + (f": {seat_name(record['out'])} went out"
                                                          if record.get("out") is not None else ""), 20, bold=True)
        columns = ("laid", "hand", "out_bonus", "cut_bonus", "round", "total")
        xs = [MARGIN, 140, 240, 340, 450, 550, 640]
        for x, name in zip(xs, ("", *columns)):
            canvas.text((x, canvas.y), name.replace("_", " "), 16, MUTED)
        canvas.y += 24
        for seat, row in enumerate(record["rows"]):
            canvas.text((xs[0], canvas.y), seat_name(seat), 18)
            for x, name in zip(xs[1:], columns):
                value = row[name]
                canvas.text((x, canvas.y), f"-{value}" if name == "hand" and value else str(value), 18)
            canvas.y += 26

    def playable(self, view: View, legal: list[Action]) -> set[str]:
        """Discards name their card; lays and extends a rank (and ``w``, a wild 2)."""
        hand = view.get("hand") or []
        cards: set[str] = set()
        for action in legal:
            if action.kind == "discard":
                cards.add(str(action.args[0]))
            elif action.kind in ("lay", "extend"):
                rank = str(action.args[0])
                wild = "w" in action.args[1:]
                cards.update(c for c in hand if rank_of(c) == rank or (wild and rank_of(c) == "2"))
        return cards

    def hand_rows(self, view: View, playable: set[str]) -> list[Row]:
        groups: dict[str, list[str]] = defaultdict(list)
        for card in view.get("hand") or []:
            groups[rank_of(card)].append(card)
        return [hand_row(f"{RANK_NAMES.get(rank, rank)} x{len(cards)}" if len(cards) > 1 else "", cards, playable,
                         step=34)
                for rank, cards in groups.items()]
