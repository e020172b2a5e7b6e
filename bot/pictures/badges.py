"""The picture of a player's badges.

A tile a badge, two to a row, rarest first, each with its
medal (the tier), its name and the share of the server's players who hold it.

Drawn on the shared canvas (:mod:`games.pictures.canvas`) with every label :data:`SIZE` pixels
tall; what does not fit the square is counted on the last tile ("+3 more"), the message's text
listing every badge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.pictures.canvas import (
    BLACK_SIDE,
    GAP,
    GOLD,
    MARGIN,
    MAX_HEIGHT,
    MUTED,
    TEXT,
    WIDTH,
    Canvas,
    clipped,
    text_width,
)

SIZE = 24
"""Every label's size: 12 pixels on a phone."""
LINE = SIZE + 4
HEADING = 30
COLUMNS = 2
TILE_WIDTH = (WIDTH - 2 * MARGIN - GAP * (COLUMNS - 1)) // COLUMNS
TILE_HEIGHT = 3 * LINE + 2 * GAP
"""Two lines of name and one of share."""
RADIUS = 18
TIERS = ((205, 127, 50), (196, 200, 208), (232, 190, 60))
"""Bronze, silver, gold: an achievement's first, second and third tier (a one-tier one is gold)."""
SECRET = (170, 120, 220)
TOP = MARGIN + HEADING + 2 * GAP
MOST_TILES = (MAX_HEIGHT - TOP - MARGIN + GAP) // (TILE_HEIGHT + GAP) * COLUMNS
"""Tiles that fit under the heading: badges, the last one saying how many more when they don't all fit."""


@dataclass(frozen=True)
class BadgeLine:
    name: str
    share: str
    """How many of the server's players hold it, as shown ("12%")."""
    tier: int
    """0 (bronze), 1 (silver), 2 (gold)."""
    secret: bool = False


def badges_png(title: str, detail: str, badges: Sequence[BadgeLine], more: str = "") -> bytes:
    """``title`` (whose badges) with ``detail`` on the right, then ``badges`` (at most
    :data:`MOST_TILES`, one fewer with ``more``, a last tile saying how many were left out)."""
    canvas = Canvas()
    canvas.text((MARGIN, canvas.y), title, HEADING, bold=True, width=canvas.width * 3 // 5)
    canvas.text((canvas.width - MARGIN, canvas.y + HEADING - SIZE), detail, SIZE, MUTED, anchor="ra",
                width=canvas.width * 2 // 5 - 2 * MARGIN)
    shown = list(badges[:MOST_TILES - 1 if more else MOST_TILES])
    for n, badge in enumerate(shown):
        tile(canvas, *corner(n), badge)
    if more:
        x, y = corner(len(shown))
        canvas.draw.rounded_rectangle((x, y, x + TILE_WIDTH, y + TILE_HEIGHT), 10, outline=MUTED, width=2)
        canvas.text((x + TILE_WIDTH // 2, y + TILE_HEIGHT // 2), more, SIZE, MUTED, anchor="mm",
                    width=TILE_WIDTH - 2 * GAP)
    rows = -(-(len(shown) + bool(more)) // COLUMNS)
    canvas.y = TOP + rows * (TILE_HEIGHT + GAP) - GAP
    return canvas.png()


def corner(n: int) -> tuple[int, int]:
    """The top left corner of the ``n``-th tile."""
    row, column = divmod(n, COLUMNS)
    return MARGIN + column * (TILE_WIDTH + GAP), TOP + row * (TILE_HEIGHT + GAP)


def tile(canvas: Canvas, x: int, y: int, badge: BadgeLine) -> None:
    canvas.draw.rounded_rectangle((x, y, x + TILE_WIDTH, y + TILE_HEIGHT), 10, fill=BLACK_SIDE)
    centre = (x + GAP + RADIUS, y + TILE_HEIGHT // 2)
    colour = SECRET if badge.secret else TIERS[min(badge.tier, len(TIERS) - 1)]
    canvas.draw.ellipse((centre[0] - RADIUS, centre[1] - RADIUS, centre[0] + RADIUS, centre[1] + RADIUS),
                        fill=colour, outline=GOLD if badge.tier >= len(TIERS) - 1 else None, width=3)
    left = centre[0] + RADIUS + GAP + 2
    width = x + TILE_WIDTH - GAP - left
    for n, line in enumerate(wrapped(badge.name, width, 2)):
        canvas.text((left, y + GAP + n * LINE), line, SIZE, TEXT, width=width)
    canvas.text((left, y + GAP + 2 * LINE), badge.share, SIZE, GOLD, bold=True)


def wrapped(text: str, width: int, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` pixels at :data:`SIZE`, cut between words
    (the last line clipped with "…")."""
    found: list[str] = []
    words = text.split()
    while words and len(found) < lines - 1:
        line = words.pop(0)
        while words and text_width(f"{line} {words[0]}", SIZE) <= width:
            line += " " + words.pop(0)
        found.append(line)
    if words:
        found.append(clipped(" ".join(words), SIZE, False, width))
    return found
