"""A tournament's pictures: its standings, its knockout bracket, and the crown at its end.

Drawn on the shared canvas (:mod:`games.pictures.canvas`: 560 pixels wide, landscape or
square, no text under 24 pixels) from the pure core's values (:class:`~games.tournament.Standing`,
:class:`~games.tournament.BracketTable`) and each entrant's name, so every format draws the
same way. What a picture has no room for is counted ("+12 more"); the message's text board
lists it.

**The bracket** is drawn as columns, one per round, the final on the right. A phone shows a
picture 280 points wide, so three columns of names at most, and a column holds about fourteen
names: the picture shows the last rounds whose tables fit (with two seats: from the
quarter-finals), and the message's text lists the current round's tables (see
``docs/decisions.md``, "Tournaments").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from babel.numbers import format_decimal

from games.i18n import SOURCE, Text, plural, say, say_as
from games.pictures.canvas import (
    BLACK_SIDE,
    GAP,
    GOLD,
    LABEL,
    MARGIN,
    MAX_HEIGHT,
    MUTED,
    TEXT,
    TITLE,
    Canvas,
    text_width,
    wrapped,
)
from games.tournament import BracketTable, Standing

SIZE = LABEL
"""Every line's size: 24 pixels, 12 on a phone."""
ROW = SIZE + 14
"""A line of the standings, its dark band included."""
MEDALS = ((232, 190, 60), (196, 200, 208), (205, 127, 50))
"""Gold, silver, bronze: the podium's places."""
TIEBREAKS = ("Bh", "SB")
"""The tiebreaks' figures shown after the points: Buchholz, Sonneborn–Berger (named so in every language)."""
NAME_LINE = SIZE + 6
"""A name's line in a bracket's table."""
PAD = 4
"""Inside a bracket table's band, above and below its names."""
COLUMN_GAP = 2 * GAP
MOST_COLUMNS = 3
"""Rounds a bracket picture shows: three columns of names are as narrow as a phone reads."""
CROWN = 44
OUT = say_as("a dropped player, in the standings", "out")
"""After a dropped entrant's name."""

KNOCKOUT_ROUNDS = {1: say_as("a knockout's round", "Final"), 2: say("Semi-finals"), 3: say("Quarter-finals")}
"""A knockout round by how many rounds are left, the current one included."""


def knockout_round(rounds_left: int, number: int) -> Text:
    """A knockout round's name: "Final", "Semi-finals", "Quarter-finals", else "Knockout round 2"."""
    return KNOCKOUT_ROUNDS.get(rounds_left) or say("Knockout round {round}", round=number)


def points_text(points: Fraction, language: str) -> str:
    """Match points as people write them: 2, 2½, ½; other fractions as decimals."""
    whole, part = divmod(points, 1)
    if part == 0:
        return str(int(whole))
    if part == Fraction(1, 2):
        return f"{int(whole) if whole else ''}½"
    return str(round(float(points), 2)) if language == SOURCE else format_decimal(round(float(points), 2),
                                                                                  locale=language)


@dataclass(frozen=True)
class Line:
    """One line of standings or placings as drawn: its place, the name, its figures as shown
    (points and tiebreaks; none for a knockout's placings), and whether the entrant dropped out."""

    place: int
    name: str
    figures: tuple[str, ...] = ()
    out: bool = False


def standing_lines(standings: Sequence[Standing], name_of: Callable[[int], str], language: str) -> list[Line]:
    """The standings' lines: rank, name, points, Buchholz and Sonneborn–Berger."""
    return [Line(s.rank, name_of(s.entrant), tuple(points_text(v, language) for v in
                                                   (s.points, s.buchholz, s.sonneborn_berger)), s.dropped)
            for s in standings]


def placing_lines(placings: Sequence[Sequence[int]], name_of: Callable[[int], str]) -> list[Line]:
    """Final placings' lines, best first: those sharing a place each on a line with it."""
    lines, place = [], 1
    for group in placings:
        lines += [Line(place, name_of(entrant)) for entrant in group]
        place += len(group)
    return lines


def figure_headings(language: str) -> tuple[str, ...]:
    """The standings' column headings: points, then :data:`TIEBREAKS`."""
    return (say_as("a standings column: match points", "Pts").render(language), *TIEBREAKS)


# -- standings ---------------------------------------------------------------------------------


def standings_canvas(title: str, detail: str, lines: Sequence[Line], language: str) -> Canvas:
    """``title`` (the tournament) with ``detail`` (the round), then as many of ``lines`` as the
    square holds, the rest counted."""
    canvas = Canvas(language=language)
    canvas.heading(title, detail)
    draw_lines(canvas, lines, language)
    return canvas


def draw_lines(canvas: Canvas, lines: Sequence[Line], language: str) -> None:
    """Lines of standings from the cursor down (their column headings first when they have
    figures), a medal for the podium, "out" after a dropped entrant; what the square can't hold
    is counted on a last line."""
    right = canvas.width - MARGIN
    headings = figure_headings(language) if any(line.figures for line in lines) else ()
    widths = [max([text_width(h, SIZE)] + [text_width(line.figures[k], SIZE, k == 0) for line in lines])
              for k, h in enumerate(headings)]
    edges: list[int] = []
    x = right - GAP  # each column's right edge, right to left
    for width in reversed(widths):
        edges.insert(0, x)
        x -= width + 2 * GAP
    names_right = x
    if headings:
        for heading, edge in zip(headings, edges):
            canvas.text((edge, canvas.y), heading, SIZE, MUTED, anchor="ra")
        canvas.y += SIZE + 10
    room = (MAX_HEIGHT - MARGIN - canvas.y) // ROW
    shown = lines if len(lines) <= room else lines[:room - 1]
    out = OUT.render(language)
    radius = SIZE // 2 + 3
    half = max([radius] + [text_width(str(line.place), SIZE, True) // 2 for line in shown])  # a medal, or "12"
    centre = MARGIN + 8 + half
    for line in shown:
        y = canvas.y
        canvas.draw.rounded_rectangle((MARGIN, y, right, y + ROW - 4), 8, fill=BLACK_SIDE)
        middle = y + (ROW - 4) // 2
        colour = MEDALS[line.place - 1] if line.place <= len(MEDALS) else None
        if colour is not None:
            canvas.draw.ellipse((centre - radius, middle - radius, centre + radius, middle + radius), fill=colour)
        canvas.text((centre, middle), str(line.place), SIZE, BLACK_SIDE if colour else MUTED, bold=True,
                    anchor="mm")
        name_left = centre + half + GAP
        tag = text_width(out, SIZE) + GAP if line.out else 0
        name_end = canvas.text((name_left, y + 4), line.name, SIZE, MUTED if line.out else TEXT,
                               width=names_right - name_left - tag)
        if line.out:
            canvas.text((name_end + GAP, y + 4), out, SIZE, MUTED)
        for k, (figure, edge) in enumerate(zip(line.figures, edges)):
            canvas.text((edge, y + 4), figure, SIZE, TEXT if k == 0 else MUTED, bold=k == 0, anchor="ra")
        canvas.y += ROW
    if len(shown) < len(lines):
        more = len(lines) - len(shown)
        canvas.text((MARGIN, canvas.y), plural("+{count} more", "+{count} more", more).render(language), SIZE, MUTED)
        canvas.y += ROW


# -- the crown ---------------------------------------------------------------------------------


def crown_canvas(title: str, winner: str, detail: str, lines: Sequence[Line], language: str) -> Canvas:
    """The end of a tournament: ``title``, a crown over ``winner`` (a name, or a team's), then
    ``detail`` ("Final standings") and ``lines``."""
    canvas = Canvas(language=language)
    canvas.heading(title)
    draw_crown(canvas, canvas.width // 2, canvas.y)
    canvas.y += CROWN + GAP
    canvas.text((canvas.width // 2, canvas.y), winner, TITLE, GOLD, bold=True, anchor="ma",
                width=canvas.width - 2 * MARGIN)
    canvas.y += TITLE + 2 * GAP
    canvas.text((MARGIN, canvas.y), detail, SIZE, MUTED, width=canvas.width - 2 * MARGIN)
    canvas.y += SIZE + GAP
    draw_lines(canvas, lines, language)
    return canvas


def draw_crown(canvas: Canvas, middle: int, top: int) -> None:
    """A gold crown :data:`CROWN` tall, centred on ``middle``: three points on a band, a jewel on each."""
    half, band = CROWN * 3 // 4, CROWN // 4
    bottom = top + CROWN
    points = [(middle - half, bottom), (middle - half, top + CROWN // 4), (middle - half // 2, top + CROWN // 2),
              (middle, top), (middle + half // 2, top + CROWN // 2), (middle + half, top + CROWN // 4),
              (middle + half, bottom)]
    canvas.draw.polygon(points, fill=GOLD)
    canvas.draw.rectangle((middle - half, bottom - band, middle + half, bottom), fill=MEDALS[2])
    for x, y in ((middle - half, top + CROWN // 4), (middle, top), (middle + half, top + CROWN // 4)):
        canvas.draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=TEXT)


# -- the bracket -------------------------------------------------------------------------------


def shown_rounds(rounds: Sequence[Sequence[BracketTable]], advance: int, room: int) -> int:
    """How many of the last rounds fit ``room`` pixels of height, one column each (at most
    :data:`MOST_COLUMNS`, at least the final)."""
    count = 1
    while count < min(MOST_COLUMNS, len(rounds)) and column_height(rounds[-count - 1], advance) <= room:
        count += 1
    return count


def column_height(row: Sequence[BracketTable], advance: int) -> int:
    """The height a round's column needs: each table a band as tall as its longest one's."""
    return len(row) * (max(table_lines(t, advance) for t in row) * NAME_LINE + 2 * PAD + GAP)


def table_lines(table: BracketTable, advance: int) -> int:
    """The lines a bracket table takes: its entrants, one per place still awaited, and a bye's note."""
    return len(table.entrants) + advance * table.waiting + (1 if table.bye else 0)


def bracket_canvas(title: str, detail: str, rounds: Sequence[Sequence[BracketTable]], advance: int,
                   name_of: Callable[[int], str], language: str) -> Canvas:
    """``rounds`` (:meth:`Bracket.tables`, round 1 first) as columns, the final on the right:
    each table a dark band with its entrants, those going on in white (the final's winner in
    gold), those out greyed, "…" for a place its feeders have not decided, lines joining each
    table to the one it feeds. Only the last rounds that fit are drawn (:func:`shown_rounds`)."""
    canvas = Canvas(language=language)
    canvas.heading(title, detail)
    columns = len(rounds)
    headings = [knockout_round(columns - k, k + 1).render(language) for k in range(columns)]

    def headings_height(width: int, shown: Sequence[str]) -> int:
        return max(len(wrapped(h, SIZE, width)) for h in shown) * (SIZE + 8) + GAP

    def width_of(count: int) -> int:
        return (canvas.width - 2 * MARGIN - (count - 1) * COLUMN_GAP) // count

    narrowest = width_of(MOST_COLUMNS)
    count = shown_rounds(rounds, advance, MAX_HEIGHT - MARGIN - canvas.y - headings_height(narrowest, headings))
    column_width = width_of(count)
    top = canvas.y + headings_height(column_width, headings[-count:])
    room = min(MAX_HEIGHT - MARGIN - top, max(column_height(row, advance) for row in rounds[-count:]))
    lefts = [MARGIN + k * (column_width + COLUMN_GAP) for k in range(count)]
    bye = say_as("a knockout table nobody plays", "bye").render(language)
    centres: list[list[int]] = []
    for k, row in enumerate(rounds[-count:]):
        left = lefts[k]
        canvas.paragraph((left, canvas.y), headings[columns - count + k], SIZE, MUTED, width=column_width)
        slot = room / len(row)
        centres.append([])
        for i, table in enumerate(row):
            height = table_lines(table, advance) * NAME_LINE + 2 * PAD
            middle = round(top + (i + 0.5) * slot)
            box_top = middle - height // 2
            canvas.draw.rounded_rectangle((left, box_top, left + column_width, box_top + height), 6, fill=BLACK_SIDE)
            centres[-1].append(middle)
            y = box_top + PAD
            for entrant in table.entrants:
                decided, on = table.going_on is not None, table.going_on and entrant in table.going_on
                champion = k == count - 1 and table.going_on and entrant == table.going_on[0]
                colour = GOLD if champion else TEXT if on or not decided else MUTED
                canvas.text((left + GAP, y), name_of(entrant), SIZE, colour, bold=bool(on),
                            width=column_width - 2 * GAP)
                y += NAME_LINE
            for _ in range(advance * table.waiting):
                canvas.text((left + GAP, y), "…", SIZE, MUTED)
                y += NAME_LINE
            if table.bye:
                canvas.text((left + GAP, y), bye, SIZE, MUTED, width=column_width - 2 * GAP)
        if k:
            join(canvas, centres[-2], centres[-1], lefts[k - 1] + column_width, left)
    canvas.y = top + room
    return canvas


def join(canvas: Canvas, feeders: Sequence[int], fed: Sequence[int], start: int, end: int) -> None:
    """Lines from each table of a column (its middle's height ``feeders``) to the table it feeds
    in the next column: consecutive tables feed one."""
    ahead = len(feeders) // len(fed)
    turn = (start + end) // 2
    for j, target in enumerate(fed):
        ys = list(feeders[j * ahead:(j + 1) * ahead])
        for y in ys:
            canvas.draw.line((start, y, turn, y), fill=MUTED, width=2)
        canvas.draw.line((turn, min(ys + [target]), turn, max(ys + [target])), fill=MUTED, width=2)
        canvas.draw.line((turn, target, end, target), fill=MUTED, width=2)
