"""The picture of a player's badges: one line a badge, rarest first, with its medal (the tier),
its name and the share of the server's players who hold it.

Drawn on the shared canvas (:mod:`cogs.pictures.canvas`) with every label :data:`SIZE` pixels
tall; badges past the square are counted in a last line ("+3 more"), the message's text
listing them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .canvas import BLACK_SIDE, GAP, GOLD, MARGIN, MAX_HEIGHT, MUTED, TEXT, Canvas, text_width

SIZE = 24
"""Every label's size: 12 pixels on a phone."""
HEADING = 30
ROW = SIZE + 18
TIERS = ((205, 127, 50), (196, 200, 208), (232, 190, 60))
"""Bronze, silver, gold: an achievement's first, second and third tier (a one-tier one is gold)."""
SECRET = (170, 120, 220)
MOST_LINES = (MAX_HEIGHT - 2 * MARGIN - HEADING - 2 * GAP) // ROW
"""Lines that fit under the heading: badges, and the last one saying how many more when they don't all fit."""


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
    :data:`MOST_LINES`, one fewer with ``more``, a last line saying how many were left out)."""
    canvas = Canvas()
    canvas.text((MARGIN, canvas.y), title, HEADING, bold=True, width=canvas.width * 3 // 5)
    canvas.text((canvas.width - MARGIN, canvas.y + HEADING - SIZE), detail, SIZE, MUTED, anchor="ra",
                width=canvas.width * 2 // 5 - 2 * MARGIN)
    canvas.y += HEADING + 2 * GAP
    shown = badges[:MOST_LINES - 1 if more else MOST_LINES]
    share_width = max((text_width(b.share, SIZE, True) for b in shown), default=0)
    right = canvas.width - MARGIN
    for badge in shown:
        y = canvas.y
        canvas.draw.rounded_rectangle((MARGIN, y, right, y + ROW - 6), 8, fill=BLACK_SIDE)
        radius = SIZE // 2 + 2
        centre = (MARGIN + 10 + radius, y + (ROW - 6) // 2)
        colour = SECRET if badge.secret else TIERS[min(badge.tier, len(TIERS) - 1)]
        canvas.draw.ellipse((centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius),
                            fill=colour, outline=GOLD if badge.tier >= len(TIERS) - 1 else None, width=2)
        left = centre[0] + radius + GAP + 4
        canvas.text((left, y + 6), badge.name, SIZE, TEXT, width=right - GAP - share_width - 2 * GAP - left)
        canvas.text((right - GAP, y + 6), badge.share, SIZE, TEXT, bold=True, anchor="ra")
        canvas.y += ROW
    if more:
        canvas.text((MARGIN, canvas.y + 4), more, SIZE, MUTED, width=right - MARGIN)
        canvas.y += ROW
    return canvas.png()
