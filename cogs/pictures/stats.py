"""The picture ``/stats`` shows: a player's rating after each rated game, one line per game,
and below it the share of each game's games they won, as bars in the same colours.

Drawn like the table pictures (:mod:`cogs.pictures.canvas`: 560 pixels wide, landscape or
square, no text under 18 pixels), from plain figures: :class:`Series` per game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from babel.numbers import format_percent

from games.i18n import SOURCE, say

from .canvas import BLACK_SIDE, BODY, GAP, LABEL, LINE, MARGIN, MAX_HEIGHT, MUTED, TEXT, TITLE, Canvas, text_width

CHART = 190
"""The height of the rating chart."""
AXIS = 58
"""Room left of the chart for its ratings."""
BAR = 26
ROW = BAR + 10
MOST_GAMES = (MAX_HEIGHT - MARGIN - (TITLE + 10) - GAP - CHART - 2 * GAP - MARGIN) // ROW
"""Games a picture has room for below the chart (the most played)."""


@dataclass(frozen=True)
class Series:
    """One game of a player's: its name and colour, the rating shown after each of its rated
    games as ``(when, rating)`` with ``when`` the game's place among all the rated games
    drawn (0 the oldest), and its games won of played."""

    name: str
    colour: tuple[int, int, int]
    points: Sequence[tuple[int, int]]
    wins: int
    games: int


def stats_png(title: str, series: Sequence[Series], rated_games: int, language: str = SOURCE) -> bytes:
    """The chart of ``series`` (most played first) over ``rated_games`` rated games in all,
    under ``title`` (which games it shows), its words in ``language``; dark panels keep every
    game's colour clear."""
    canvas = Canvas()
    canvas.heading(title, say("rating after each rated game").render(language))
    top = canvas.y + GAP
    points = [rating for each in series for _, rating in each.points]
    if points:
        chart(canvas, series, rated_games, top, min(points), max(points))
    else:
        canvas.draw.rectangle((MARGIN, top, canvas.width - MARGIN, top + CHART), fill=BLACK_SIDE)
        canvas.text((canvas.width // 2, top + CHART // 2 - BODY // 2), say("No rated game yet").render(language),
                    BODY, MUTED, anchor="ma")
    canvas.y = top + CHART + 2 * GAP
    bars(canvas, series[:MOST_GAMES], language)
    return canvas.png()


def chart(canvas: Canvas, series: Sequence[Series], rated_games: int, top: int, low: int, high: int) -> None:
    """Gridlines at round ratings, then each game's line and its points."""
    step = next(s for s in (10, 20, 25, 50, 100, 200, 500, 1000) if (high - low) / s <= 4)
    low, high = (low // step) * step, -(-high // step) * step
    if high == low:
        low, high = low - step, high + step
    left, right, bottom = MARGIN + AXIS, canvas.width - MARGIN - 8, top + CHART
    canvas.draw.rectangle((left, top, right, bottom), fill=BLACK_SIDE)

    def y_of(rating: float) -> int:
        return round(bottom - (rating - low) * CHART / (high - low))

    for rating in range(low, high + 1, step):
        y = y_of(rating)
        canvas.draw.line((left, y, right, y), fill=MUTED, width=1)
        canvas.text((left - 6, y - LABEL // 2 - 2), str(rating), LABEL, MUTED, anchor="ra")
    span = max(1, rated_games - 1)

    def x_of(when: int) -> int:
        return round(left + 12 + when * (right - left - 24) / span)

    for each in series:
        xy = [(x_of(when), y_of(rating)) for when, rating in each.points]
        if len(xy) > 1:
            canvas.draw.line(xy, fill=each.colour, width=4, joint="curve")
        for x, y in xy[-40:]:  # the newest points, as dots; a long line speaks for the rest
            canvas.draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=each.colour)


def bars(canvas: Canvas, series: Sequence[Series], language: str) -> None:
    """A bar a game: its name, the share of its games won, and how many of how many."""

    def won(each: Series) -> str:
        return say("{wins} of {games} won", wins=each.wins, games=each.games).render(language)

    name_width = min(200, max((text_width(each.name, BODY) for each in series), default=0))
    left = MARGIN + name_width + GAP
    right = canvas.width - MARGIN - max((text_width(won(each), LABEL) for each in series), default=0) - GAP
    for each in series:
        y = canvas.y
        canvas.text((MARGIN, y + (BAR - LINE) // 2 + 2), each.name, BODY, TEXT, width=name_width)
        canvas.draw.rounded_rectangle((left, y, right, y + BAR), 6, fill=BLACK_SIDE)
        share = each.wins / each.games if each.games else 0.0
        if share:
            canvas.draw.rounded_rectangle((left, y, left + max(12, round((right - left) * share)), y + BAR), 6,
                                          fill=each.colour)
        canvas.text((left + 8, y + 3), format_percent(share, locale=language), LABEL, TEXT, bold=True)
        canvas.text((canvas.width - MARGIN, y + 3), won(each), LABEL, MUTED, anchor="ra")
        canvas.y += ROW
