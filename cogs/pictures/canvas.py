"""The drawing surface every picture uses: colours, fonts, a top-down layout cursor and
the PNG encoder.

Pictures are drawn in RGB (antialiased text and card edges), then mapped onto one fixed
256-colour palette without dithering and saved as an indexed PNG without metadata: the
mapping takes well under a millisecond, the files are a few tens of KB, and the same
drawing always gives the same bytes. Text uses the scalable font that ships inside
Pillow (``ImageFont.load_default(size)``, Pillow ≥ 10.1), so nothing is downloaded.
"""

from __future__ import annotations

import io
from functools import lru_cache
from itertools import product
from typing import NamedTuple, Sequence

from PIL import Image, ImageDraw, ImageFont

from .cards import CARD, CARD_COLOURS, MARK, CardSize, card_image

WIDTH = 720
"""Every picture's width: twice what a phone shows, so it stays sharp when scaled down."""
MAX_HEIGHT = 1800
MARGIN = 16
GAP = 8

FELT = (28, 94, 62)
FELT_DARK = (20, 70, 46)
TEXT = (240, 240, 232)
MUTED = (176, 206, 186)
GOLD = MARK  # highlights on the table are the gold that rings a playable card
RED_SIDE = (196, 48, 52)
BLACK_SIDE = (34, 34, 40)
FAILED = (120, 120, 120)
THEME = (FELT, FELT_DARK, TEXT, MUTED, GOLD, RED_SIDE, BLACK_SIDE, FAILED)

PNG_COMPRESS_LEVEL = 1
"""zlib level for the indexed PNGs: the fastest; they stay far below Discord's limits."""


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The fixed palette: the theme and card colours exactly, then a 6×6×6 colour cube for
    antialiased edges (which land on the nearest entry)."""
    colours = list(dict.fromkeys((*THEME, *CARD_COLOURS)))
    colours += [c for c in product(range(0, 256, 51), repeat=3) if c not in colours]
    colours += [(0, 0, 0)] * (256 - len(colours))
    image = Image.new("P", (1, 1))
    image.putpalette([v for colour in colours[:256] for v in colour])
    return image


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


TEXT_IMAGES = 512
"""Lines of text kept drawn: enough for the labels that recur from one picture to the next
(names, headings, recent events). Each is ~11 KB of pixels; at 4,096 the cache held ~47 MB
in a long-running bot and missed only 1.0 % of lines instead of 1.6 %."""


@lru_cache(maxsize=TEXT_IMAGES)
def text_image(text: str, size: int, fill, bold: bool, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    """A line of text as an RGBA image, and where its corner goes relative to the anchor
    point (kept: labels recur from one picture of a table to the next)."""
    stroke = 1 if bold else 0
    left, top, right, bottom = font(size).getbbox(text, anchor=anchor, stroke_width=stroke)
    image = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (*fill, 0))
    ImageDraw.Draw(image).text((-left, -top), text, font=font(size), fill=fill, anchor=anchor,
                               stroke_width=stroke, stroke_fill=fill)
    return image, (left, top)


class Canvas:
    """A picture drawn top to bottom: ``y`` is the layout cursor; :meth:`png` crops the
    picture below the last thing drawn and encodes it."""

    def __init__(self, width: int = WIDTH, height: int = MAX_HEIGHT) -> None:
        self.image = Image.new("RGB", (width, height), FELT)
        self.draw = ImageDraw.Draw(self.image)
        self.width = width
        self.y = MARGIN

    def text(self, xy: tuple[int, int], text: str, size: int = 20, fill=TEXT, bold: bool = False,
             anchor: str = "la") -> int:
        """Draw one line of text (``anchor`` as in Pillow: ``la``, ``ma``, ``ra``); returns
        its right edge."""
        image, (dx, dy) = text_image(text, size, fill, bold, anchor)
        x, y = xy[0] + dx, xy[1] + dy
        self.image.paste(image, (x, y), image)
        return x + image.width

    def heading(self, text: str, detail: str = "") -> None:
        """The picture's title line, with ``detail`` (counts, scores…) on the right."""
        right = self.text((MARGIN, self.y), text, 28, bold=True)
        if detail:
            size = 20 if text_image(detail, 20, MUTED, False, "ra")[0].width < self.width - right - 3 * MARGIN else 16
            self.text((self.width - MARGIN, self.y + 4), detail, size, MUTED, anchor="ra")
        self.y += 40

    def label(self, text: str, size: int = 20, fill=TEXT, bold: bool = False) -> None:
        """A line of text at the left margin, moving the cursor below it."""
        self.text((MARGIN, self.y), text, size, fill, bold)
        self.y += size + 8

    def card(self, xy: tuple[int, int], card: str | None, size: CardSize = CARD, *, tapped: bool = False,
             marked: bool = False, dim: bool = False) -> int:
        """One card (a code, or ``None`` for a face-down card); returns its right edge."""
        image = card_image(card, size, tapped=tapped, marked=marked, dim=dim)
        self.image.paste(image, xy, image)
        return xy[0] + image.width

    def cards(self, xy: tuple[int, int], cards: Sequence[str | None], size: CardSize = CARD, *,
              step: int, width: int) -> int:
        """A row of cards left to right, ``step`` apart or closer to fit in ``width``;
        returns the right edge."""
        x, y = xy
        if len(cards) > 1:
            step = max(8, min(step, (width - size.width) // (len(cards) - 1)))
        right = x
        for i, card in enumerate(cards):
            right = self.card((x + i * step, y), card, size)
        return right

    def pile(self, xy: tuple[int, int], count: int, caption: str, size: CardSize = CARD, top: str | None = None) -> int:
        """A face-down (or ``top`` face-up) pile of ``count`` cards with its caption below;
        an empty pile is an outline. Returns the right edge."""
        x, y = xy
        if count <= 0:
            self.draw.rounded_rectangle((x, y, x + size.width, y + size.height), 6, outline=MUTED, width=2)
            right = x + size.width
        else:
            for i in range(min(3, (count + 9) // 10) - 1, 0, -1):
                self.card((x + 2 * i, y - 2 * i), None, size)
            right = self.card((x, y), top, size)
        self.text((x + size.width // 2, y + size.height + 4), f"{caption} {count}", 16, MUTED, anchor="ma")
        return right

    def png(self) -> bytes:
        """The picture cropped below the cursor, as indexed PNG bytes (no metadata)."""
        image = self.image.crop((0, 0, self.width, min(self.y + MARGIN, self.image.height)))
        indexed = image.quantize(palette=palette(), dither=Image.Dither.NONE)
        out = io.BytesIO()
        indexed.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
        return out.getvalue()


class Row(NamedTuple):
    """Cards drawn together under an optional title (a hand's rank group, a field…)."""

    title: str
    cards: Sequence[str | None]
    marked: frozenset[int] = frozenset()
    """Positions of the cards that can be played now."""
    tapped: frozenset[int] = frozenset()
    step: int | None = None
    """How far apart cards are (overlapping when under a card's width); ``None``: the flow's."""
    dim_unmarked: bool = False
    """Grey the cards not marked (a hand on its turn: what can't be played now)."""
    highlight: bool = False
    """Title in gold: the row of a seat to act."""


def flow(canvas: Canvas, rows: Sequence[Row], *, size: CardSize = CARD, step: int | None = None) -> None:
    """Lay ``rows`` out left to right at the cursor, each under its title, wrapping to new
    lines (a row too long for one line is split). Cards overlap by ``step`` except in rows
    holding sideways cards."""
    if not rows:
        return
    step = step or size.width - 8
    line_height = size.height + 30
    x, right_edge = MARGIN, canvas.width - MARGIN
    for row in rows:
        widths = [size.height if i in row.tapped else size.width for i in range(len(row.cards))]
        advances = [w + GAP if row.tapped else row.step or step for w in widths]
        start = 0
        while start < len(row.cards) or start == 0:
            # Cards start..end-1 go on this line: ``width`` is where the next would start.
            end, width = start, 0
            while end < len(row.cards) and (end == start or MARGIN + width + widths[end] <= right_edge):
                width += advances[end]
                end += 1
            if end > start:
                width += widths[end - 1] - advances[end - 1]
            else:
                width = size.width
            if x > MARGIN and x + width > right_edge:
                x, canvas.y = MARGIN, canvas.y + line_height
            title_right = x
            if row.title and start == 0:
                title_right = canvas.text((x, canvas.y), row.title, 16, GOLD if row.highlight else MUTED,
                                          bold=row.highlight)
            left = x
            for i in range(start, end):
                tapped = i in row.tapped
                top = canvas.y + 22 + ((size.height - size.width) // 2 if tapped else 0)
                canvas.card((left, top), row.cards[i], size, tapped=tapped, marked=i in row.marked,
                            dim=row.dim_unmarked and i not in row.marked)
                left += advances[i]
            x = max(x + width, title_right) + 3 * GAP
            start = end
            if start < len(row.cards):
                x, canvas.y = MARGIN, canvas.y + line_height
            if not row.cards:
                break
    canvas.y += line_height
