"""Queen of Spades: the draw pile, the discard pile's top card with the cards under it
counted by rank, then a line per seat: score, laid points, hand size and its sets as
rank chips ("K x3", a wild 2 as "+2"), so that eight players fit one picture. Between
rounds the seats' lines give the round's score breakdown instead."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from games.base import Action
from games.cards import RANKS
from games.i18n import Text, plural, rank_name, say

from ..games.queen_of_spades import rank_of
from .base import GamePictures, Names, View, hand_row
from .canvas import BODY, GAP, LABEL, LINE, MARGIN, MUTED, TEXT, Canvas, Row, chip_width, text_width
from .cards import SMALL

PILE_LINES = 2
"""Lines of rank chips for the discard pile under its top card, less the lines said above them
(the cut, the round just scored)."""
CHIP_HEIGHT = LABEL + 8
CHIP_LINE = CHIP_HEIGHT + 4
SEAT_LINE = max(LINE, CHIP_LINE)
RANK_ORDER = {rank: i for i, rank in enumerate((*RANKS[1:], "A", "JK"))}
# Columns of the seats' table: where each number's right edge is, by phase.
PLAY_COLUMNS = ((say("score"), 186), (say("laid"), 244), (say("hand"), 298))
SETS_LEFT = 312
ROUND_COLUMNS = ((say("score"), 196), (say("laid"), 262), (say("hand"), 330), (say("bonus"), 408), (say("round"), 484))
PHASES = {"cut": say("cut"), "take": say("take"), "play": say("play"), "round_over": say("round over"),
          "match_over": say("match over")}


def set_cards(laid: dict) -> list[str]:
    return list(laid["cards"]) + ([laid["wild"]] if laid["wild"] else [])


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def counted(rank: str, n: int) -> str:
    """A rank chip: the rank, and how many unless one ("K x3")."""
    return rank if n == 1 else f"{rank} x{n}"


class Pictures(GamePictures):
    title = "Queen of Spades"

    def status_text(self, view: View, names: Names) -> str:
        round_ = self.words(say("round {n}", n=view["round"]))
        return f"{round_} · " + (super().status_text(view, names) or self.words(PHASES[view["phase"]]))

    def acting(self, view: View) -> list[int]:
        """The seat whose turn it is; between rounds everyone acknowledges, nobody is marked."""
        return [] if view["turn"] is None else [view["turn"]]

    def rank_name(self, rank: str) -> str:
        """A rank chip's rank, in the picture's language ("JK" for a joker)."""
        return "JK" if rank in ("joker", "JK") else rank_name(rank, self.language)

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        self.draw_piles(canvas, view, names)
        between_rounds = view["phase"] in ("round_over", "match_over") and bool(view.get("last_round"))
        columns = ROUND_COLUMNS if between_rounds else PLAY_COLUMNS
        y = canvas.y
        target = self.words(say("target {n}", n=view["target"]) if view["target"] else say("no target"))
        canvas.text((MARGIN, y), target, LABEL, MUTED, width=columns[0][1] - 60 - MARGIN)
        for key, right in columns:
            canvas.text((right, y), self.words(key), LABEL, MUTED, anchor="ra")
        if not between_rounds:
            canvas.text((SETS_LEFT, y), self.words(say("sets")), LABEL, MUTED)
        canvas.y = y + LABEL + 6
        for seat in range(view["players"]):
            if between_rounds:
                row = view["last_round"]["rows"][seat]
                numbers = [str(row["total"]), signed(row["laid"]), signed(-row["hand"]),
                           signed(row["out_bonus"] + row["cut_bonus"]), signed(row["round"])]
            else:
                numbers = [str(view["scores"][seat]), signed(view["laid_points"][seat]), str(view["hand_counts"][seat])]
            self.draw_seat(canvas, view, names, seat, columns, numbers, between_rounds)

    def draw_piles(self, canvas: Canvas, view: View, names: Names) -> None:
        """The draw pile, the discard pile's top and, beside them, the ranks under the top
        (or, at the cut, what the cut may win; between rounds, who went out)."""
        y = canvas.y
        caption = y + SMALL.height + 4
        canvas.pile((MARGIN, y), view["draw_count"], SMALL)
        canvas.text((MARGIN, caption), self.words(say("draw {n}", n=view["draw_count"])), LABEL, MUTED)
        x = MARGIN + SMALL.width + 5 * GAP
        pile = view["discard_pile"]
        canvas.pile((x, y), len(pile), SMALL, top=pile[-1] if pile else None)
        canvas.text((x, caption), self.words(say("discard {n}", n=len(pile))), LABEL, MUTED)
        x += SMALL.width + 5 * GAP
        width = canvas.width - MARGIN - x
        record = view.get("last_round")
        said = []
        if view["phase"] == "cut":
            low, high = view["cut_bonus_at"]
            said = [self.words(say("{dealer} cuts the deck:", dealer=names(view["dealer"]))),
                    self.words(plural("a bonus at {low} or {count} card", "a bonus at {low} or {count} cards", high,
                                           low=low))]
        elif view["phase"] in ("round_over", "match_over") and record:
            out = record.get("out")
            said = [self.words(say("Round {n}: {seat} went out", n=record["round"], seat=names(out)) if out is not None
                               else say("Round {n} scores", n=record["round"]))]
        for i, line in enumerate(said):
            canvas.text((x, y + i * (LABEL + 6)), line, LABEL, TEXT, bold=True, width=width)
        if len(pile) > 1 and len(said) < PILE_LINES:
            top = y + len(said) * (LABEL + 6)
            under_top = plural("under the top: {count} card", "under the top: {count} cards", len(pile) - 1)
            canvas.text((x, top), self.words(under_top), LABEL, MUTED, width=width)
            under = Counter(rank_of(card) for card in pile[:-1])
            chips = [counted(self.rank_name(rank), n)
                     for rank, n in sorted(under.items(), key=lambda item: RANK_ORDER.get(item[0], 0))]
            self.chips(canvas, x, top + LABEL + 6, width, [(text, "") for text in chips],
                       lines=PILE_LINES - len(said))
        canvas.y = caption + LABEL + GAP

    @staticmethod
    def chips(canvas: Canvas, x: int, y: int, width: int, chips: list[tuple[str, str]], *,
              lines: int | None = None) -> int:
        """Chips (text, extra) left to right from ``x``, wrapping after ``width`` pixels, at
        most ``lines`` lines (then "+n" counts the rest); returns the bottom of the last line."""
        left, right, line = x, x + width, 0
        more = text_width("+99", LABEL) + GAP
        for i, (text, extra) in enumerate(chips):
            last_line = lines is not None and line == lines - 1
            room = right - (more if last_line and i < len(chips) - 1 else 0)
            if x > left and x + chip_width(text, extra) > room:
                if last_line:
                    canvas.text((x, y + 3), f"+{len(chips) - i}", LABEL, MUTED)
                    break
                line += 1
                x, y = left, y + CHIP_LINE
            x = canvas.chip((x, y), text, extra) + GAP // 2 + 2
        return y + CHIP_LINE

    def draw_seat(self, canvas: Canvas, view: View, names: Names, seat: int, columns: tuple[tuple[Text, int], ...],
                  numbers: list[str], between_rounds: bool) -> None:
        y = canvas.y
        acting = seat in self.acting(view)
        name_width = columns[0][1] - 56 - MARGIN
        self.seat_line(canvas, (MARGIN, y + 2), names(seat), "", name_width, acting=acting)
        for (_, right), number in zip(columns, numbers):
            canvas.text((right, y + 2), number, BODY, TEXT, bold=right == columns[0][1], anchor="ra")
        bottom = y + SEAT_LINE
        if not between_rounds:
            sets = [(counted(self.rank_name(laid["rank"]), len(laid["cards"])), "+2" if laid["wild"] else "")
                    for laid in view["laid"][seat]]
            bottom = max(bottom, self.chips(canvas, SETS_LEFT, y, canvas.width - MARGIN - SETS_LEFT, sets))
        canvas.y = bottom

    def playable(self, view: View, legal: Sequence[Action]) -> set[str]:
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

    def hand_rows(self, view: View, playable: set[str], names: Names) -> list[Row]:
        groups: dict[str, list[str]] = defaultdict(list)
        for card in view.get("hand") or []:
            groups[rank_of(card)].append(card)
        return [hand_row(counted(self.rank_name(rank), len(cards)) if len(cards) > 1 else "",
                         cards, playable, spacing="tight")
                for rank, cards in groups.items()]

