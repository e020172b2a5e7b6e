"""The picture of a season's standings.

A block per game (overall first), its first places with
a medal, the name, the season rating and games won of played.

Drawn on the shared canvas (:mod:`games.pictures.canvas`: 560 pixels wide, landscape or square)
with every label at least :data:`SIZE` pixels tall, so it reads on a phone. Boards and places
that don't fit are left to the message's text, which lists them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.pictures.canvas import BLACK_SIDE, GAP, GOLD, MARGIN, MAX_HEIGHT, MUTED, TEXT, Canvas, text_width

SIZE = 24
"""Every label's size: 12 pixels on a phone."""
HEADING = 30
ROW = SIZE + 14
BLOCK_TITLE = SIZE + 10
MOST_PLACES = 10
MEDALS = ((232, 190, 60), (196, 200, 208), (205, 127, 50))
"""Gold, silver, bronze: first, second and third places."""


@dataclass(frozen=True)
class Place:
    place: int
    name: str
    rating: str
    """The rating as shown ("1234")."""
    record: str
    """Games won of played, as shown ("7/12")."""


@dataclass(frozen=True)
class Block:
    title: str
    """The game's name (or "All games")."""
    places: Sequence[Place]


def season_png(title: str, detail: str, blocks: Sequence[Block]) -> bytes:
    """``title`` (the season) with ``detail`` on the right ("final standings"), then as many of
    ``blocks`` as fit, each with as many places as the square leaves room for (at most
    :data:`MOST_PLACES`; three for each of three games, one for each of six)."""
    canvas = Canvas()
    canvas.text((MARGIN, canvas.y), title, HEADING, bold=True, width=canvas.width // 2)
    canvas.text((canvas.width - MARGIN, canvas.y + HEADING - SIZE), detail, SIZE, MUTED, anchor="ra",
                width=canvas.width // 2 - 2 * MARGIN)
    canvas.y += HEADING + 2 * GAP
    room = MAX_HEIGHT - canvas.y - MARGIN
    shown = [b for b in blocks if b.places]
    while shown and len(shown) * (BLOCK_TITLE + ROW + GAP) > room:
        shown.pop()
    per_block = min(MOST_PLACES, (room // max(1, len(shown)) - BLOCK_TITLE - GAP) // ROW) if shown else 0
    for block in shown:
        block_of(canvas, block, per_block)
    return canvas.png()


def block_of(canvas: Canvas, block: Block, places: int) -> None:
    canvas.text((MARGIN, canvas.y), block.title, SIZE, GOLD, bold=True, width=canvas.width - 2 * MARGIN)
    canvas.y += BLOCK_TITLE
    record_width = max((text_width(p.record, SIZE) for p in block.places[:places]), default=0)
    rating_width = max((text_width(p.rating, SIZE, True) for p in block.places[:places]), default=0)
    right = canvas.width - MARGIN
    for place in block.places[:places]:
        y = canvas.y
        canvas.draw.rounded_rectangle((MARGIN, y, right, y + ROW - 4), 8, fill=BLACK_SIDE)
        colour = MEDALS[place.place - 1] if place.place <= len(MEDALS) else MUTED
        centre = (MARGIN + 8 + SIZE // 2 + 2, y + (ROW - 4) // 2)
        radius = SIZE // 2 + 3
        canvas.draw.ellipse((centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius),
                            fill=colour)
        canvas.text(centre, str(place.place), SIZE, BLACK_SIDE, bold=True, anchor="mm")
        name_left = centre[0] + radius + GAP
        name_right = right - GAP - record_width - 2 * GAP - rating_width - 2 * GAP
        canvas.text((name_left, y + 4), place.name, SIZE, TEXT, width=name_right - name_left)
        canvas.text((right - GAP - record_width - 2 * GAP, y + 4), place.rating, SIZE, TEXT, bold=True,
                    anchor="ra")
        canvas.text((right - GAP, y + 4), place.record, SIZE, MUTED, anchor="ra")
        canvas.y += ROW
    canvas.y += GAP

