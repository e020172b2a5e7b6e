"""Queen of Spades: the draw pile, the discard pile's top card with the cards under it
counted by rank, then a line per seat: score, laid points, hand size and its sets as
rank chips ("K×3", a wild 2 as "+2"), so that eight players fit one picture. Between
rounds the seats' lines give the round's score breakdown instead."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from ..base import Action
from ..cards import RANKS
from ..i18n import plural, rank_name, say
from ..pictures.base import GamePictures, Names, View, hand_row
from ..pictures.canvas import (
    BODY,
    CHIP_HEIGHT,
    GAP,
    LABEL,
    LABEL_LINE,
    LINE,
    MARGIN,
    MAX_HEIGHT,
    MUTED,
    TEXT,
    Canvas,
    Row,
    chip_width,
    text_width,
)
from ..pictures.cards import SMALL
from .points import rank_of

PILE_LINES = 2
"""Lines of rank chips for the discard pile under its top card, less the lines said above them
(the cut, the round just scored)."""
CHIP_LINE = CHIP_HEIGHT + 4
SEAT_LINE = max(LINE, CHIP_LINE)
RANK_ORDER = {rank: i for i, rank in enumerate((*RANKS[1:], "A", "JK"))}
PLAY_COLUMNS = (say("score"), say("laid"), say("hand"))
ROUND_COLUMNS = (say("score"), say("laid"), say("hand"), say("bonus"), say("round"))
SETS_WIDTH = 180
"""The least room the seats' sets have on their right (two chips a line)."""
COLUMN_GAP = 16


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def counted(rank: str, n: int) -> str:
    """A rank chip: the rank, and how many unless one ("K×3")."""
    return rank if n == 1 else f"{rank}×{n}"


class Pictures(GamePictures):

    def acting(self, view: View) -> list[int]:
        """The seat whose turn it is; between rounds everyone acknowledges, nobody is marked."""
        return [] if view["turn"] is None else [view["turn"]]

    def rank_name(self, rank: str) -> str:
        """A rank chip's rank, in the picture's language ("JK" for a joker)."""
        return "JK" if rank in ("joker", "JK") else rank_name(rank, self.language)

    def draw_table(self, canvas: Canvas, view: View, names: Names) -> None:
        """The piles, then a table of the seats: a column per number, each as wide as its
        heading or its widest number in the picture's language, the sets (while a round is
        played) in what is left."""
        self.draw_piles(canvas, view, names)
        between_rounds = view["phase"] in ("round_over", "match_over") and bool(view.get("last_round"))
        seats = range(view["players"])
        if between_rounds:
            rows = [view["last_round"]["rows"][seat] for seat in seats]
            numbers = [[str(row["total"]), signed(row["laid"]), signed(-row["hand"]),
                        signed(row["out_bonus"] + row["cut_bonus"]), signed(row["round"])] for row in rows]
            headings = [self.words(key) for key in ROUND_COLUMNS]
        else:
            numbers = [[str(view["scores"][seat]), signed(view["laid_points"][seat]), str(view["hand_counts"][seat])]
                       for seat in seats]
            headings = [self.words(key) for key in PLAY_COLUMNS]
        widths = [max(text_width(heading, LABEL), *(text_width(row[i], BODY, i == 0) for row in numbers))
                  for i, heading in enumerate(headings)]
        right = canvas.width - MARGIN - (0 if between_rounds else SETS_WIDTH)
        rights: list[int] = []
        for width in reversed(widths):
            rights.insert(0, right)
            right -= width + COLUMN_GAP
        y = canvas.y
        for heading, column in zip(headings, rights):
            canvas.text((column, y), heading, LABEL, MUTED, anchor="ra")
        sets_left = rights[-1] + COLUMN_GAP
        if not between_rounds:
            canvas.text((sets_left, y), self.words(say("sets")), LABEL, MUTED, width=canvas.width - MARGIN - sets_left)
        canvas.y = y + LABEL_LINE
        acting = self.acting(view)
        sets = [[(counted(self.rank_name(laid["rank"]), len(laid["cards"])), "+2" if laid["wild"] else "")
                 for laid in view["laid"][seat]] for seat in seats] if not between_rounds else [[] for _ in seats]
        chips_width = canvas.width - MARGIN - sets_left
        # Sets run on under the seat's line when the picture has room for every seat's, else "+n" counts the rest.
        wrapped = sum(max(SEAT_LINE, self.chips(None, sets_left, 0, chips_width, chips)) for chips in sets)
        lines = None if canvas.y + wrapped + MARGIN <= MAX_HEIGHT else 1
        for seat in seats:
            name, marked = names(seat), seat in acting

            def draw(top: int, name: str = name, marked: bool = marked, seat: int = seat) -> None:
                self.seat_line(canvas, (MARGIN, top + 2), name, "", right - MARGIN, acting=marked)
                for i, (column, number) in enumerate(zip(rights, numbers[seat])):
                    canvas.text((column, top + 2), number, BODY, TEXT, bold=i == 0, anchor="ra")
                self.chips(canvas, sets_left, top, chips_width, sets[seat], lines=lines)

            # A seat's line is kept drawn: a move changes one or two of them.
            height = max(SEAT_LINE, self.chips(None, sets_left, 0, chips_width, sets[seat], lines=lines))
            key = ("queen of spades seat", name, marked, right, tuple(rights), tuple(numbers[seat]), tuple(sets[seat]),
                   sets_left, chips_width, lines)
            canvas.band(height, key, draw)

    def draw_piles(self, canvas: Canvas, view: View, names: Names) -> None:
        """The draw pile, the discard pile's top and, beside them, the ranks under the top
        (or, at the cut, what the cut may win; between rounds, who went out). The message
        says how many cards each pile holds."""
        y = canvas.y + 4
        canvas.pile((MARGIN, y), view["draw_count"], SMALL)
        x = MARGIN + SMALL.width + 4 * GAP
        pile = view["discard_pile"]
        canvas.pile((x, y), len(pile), SMALL, top=pile[-1] if pile else None)
        x += SMALL.width + 4 * GAP
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
        top = y - 4
        for line in said:
            top = canvas.paragraph((x, top), line, LABEL, TEXT, width=width, bold=True)
        lines = PILE_LINES - (top - y + 4) // LABEL_LINE
        if len(pile) > 1 and lines > 0:
            under_top = plural("under the top: {count} card", "under the top: {count} cards", len(pile) - 1)
            canvas.text((x, top), self.words(under_top), LABEL, MUTED, width=width)
            under = Counter(rank_of(card) for card in pile[:-1])
            chips = [counted(self.rank_name(rank), n)
                     for rank, n in sorted(under.items(), key=lambda item: RANK_ORDER.get(item[0], 0))]
            top = self.chips(canvas, x, top + LABEL_LINE, width, [(text, "") for text in chips], lines=lines, wrap=x)
        canvas.y = max(y + SMALL.height, top) + 2 * GAP

    @staticmethod
    def chips(canvas: Canvas | None, x: int, y: int, width: int, chips: list[tuple[str, str]], *,
              lines: int | None = None, wrap: int = MARGIN + GAP) -> int:
        """Chips (text, extra) left to right from ``x``, at most ``width`` pixels on the first
        line, then on lines from ``wrap`` on, at most ``lines`` lines (then "+n" counts the
        rest); returns the bottom of the last line. Without a canvas nothing is drawn: the
        bottom says how tall the chips would be."""
        right, line = x + width, 0
        for i, (text, extra) in enumerate(chips):
            last_line = lines is not None and line == lines - 1
            more = text_width(f"+{len(chips) - i}", LABEL) + GAP
            room = right - (more if last_line and i < len(chips) - 1 else 0)
            if x + chip_width(text, extra) > room and (line or x > right - width):
                if last_line:
                    if canvas is not None:
                        canvas.text((x, y + 1), f"+{len(chips) - i}", LABEL, MUTED)
                    break
                line += 1
                x, y = wrap, y + CHIP_LINE
            x = (canvas.chip((x, y), text, extra) if canvas is not None else x + chip_width(text, extra)) + GAP // 2 + 2
        return y + CHIP_LINE

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

