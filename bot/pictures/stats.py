"""The ``/stats`` picture: a player's ratings over their rated games and their share of wins.

A player's rating after each rated game, one line per game, and below it the share of each
game's games they won, as bars in the same colours.

Drawn like the table pictures (:mod:`games.pictures.canvas`: 560 pixels wide, landscape or
square, no text under 24 pixels), from plain figures: :class:`Series` per game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from babel.numbers import format_percent

from games.i18n import SOURCE, say
from games.pictures.canvas import (
    BLACK_SIDE,
    BODY,
    GAP,
    LABEL,
    LINE,
    MARGIN,
    MAX_HEIGHT,
    MUTED,
    TEXT,
    Canvas,
    text_width,
)

CHART = 160
"""The height of the rating chart."""
AXIS = 66
"""Room left of the chart for its ratings."""
BAR = 14
ROW = LINE + BAR + 12


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
    room = (MAX_HEIGHT - MARGIN - canvas.y) // ROW  # the most played games the picture has room for
    bars(canvas, series[:room], language)
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
    """Two lines a game: its name with how many of its games were won and the share, then a
    bar in its colour as long as that share."""
    for each in series:
        y = canvas.y
        share = each.wins / each.games if each.games else 0.0
        won = say("{wins} of {games} won · {share}", wins=each.wins, games=each.games,
                  share=format_percent(share, locale=language)).render(language)
        won_left = canvas.width - MARGIN - text_width(won, LABEL)
        canvas.text((MARGIN, y), each.name, BODY, TEXT, width=won_left - MARGIN - GAP)
        canvas.text((canvas.width - MARGIN, y + BODY - LABEL), won, LABEL, MUTED, anchor="ra")
        top, right = y + LINE, canvas.width - MARGIN
        canvas.draw.rounded_rectangle((MARGIN, top, right, top + BAR), 5, fill=BLACK_SIDE)
        if share:
            canvas.draw.rounded_rectangle((MARGIN, top, MARGIN + max(BAR, round((right - MARGIN) * share)), top + BAR),
                                          5, fill=each.colour)
        canvas.y += ROW
