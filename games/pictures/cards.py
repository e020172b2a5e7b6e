"""Card images drawn in code: faces (rank and suit pips in red or black), jokers, backs,
sideways (tapped) cards, marked (playable) cards and cards that cost a penalty draw.

Each image is drawn once at three times its size and reduced (smooth edges; an exact
3:1 box reduction costs a sixth of a Lanczos resize), then kept: a picture only pastes
cached images. Suit pips are shapes, not font glyphs (the
font inside Pillow has no suit symbols).
"""

from __future__ import annotations

from functools import lru_cache
from math import ceil, cos, radians, sin
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from games.i18n import SOURCE, rank_name

SCALE = 3
Colour = tuple[int, int, int]
WHITE = (250, 250, 246)
EDGE = (70, 70, 70)
RED = (204, 28, 40)
BLACK = (24, 24, 28)
JOKER = (120, 40, 150)
BACK = (40, 72, 160)
BACK_LINE = (110, 140, 210)
MARK = (246, 196, 64)
CARD_COLOURS = (WHITE, EDGE, RED, BLACK, JOKER, BACK, BACK_LINE, MARK)
RED_SUITS = frozenset("HD")
RANK_HEIGHT = 0.36
"""A rank's font size, as a share of the card's (upright) height: 24 pixels on the smallest face."""
PENALTY = "+1"
"""The tag of a card that costs a penalty draw."""


class CardSize(NamedTuple):
    width: int
    height: int


LARGE = CardSize(80, 112)
"""A hand of a few cards, drawn large since the picture has the room anyway."""
CARD = CardSize(64, 90)
SMALL = CardSize(48, 68)
"""The smallest face drawn: its rank is 24 px (12 on a phone), "10" included."""
TINY = CardSize(30, 42)
"""For backs only (a hand's count at a glance): a face this small has an unreadable rank."""


def split_code(code: str) -> tuple[str, str]:
    """``"10H"`` → ``("10", "H")``; the joker ``"JK"`` → ``("JK", "")``."""
    return (code, "") if code == "JK" else (code[:-1], code[-1])


def draw_pip(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, r: float, fill: Colour) -> None:
    """A suit pip of half-size ``r`` centred on ``(cx, cy)``."""
    if suit == "D":
        draw.polygon([(cx, cy - r), (cx + 0.75 * r, cy), (cx, cy + r), (cx - 0.75 * r, cy)], fill=fill)
    elif suit in ("H", "S"):
        flip = 1 if suit == "H" else -1
        lobe = 0.52 * r
        for side in (-1, 1):
            lx, ly = cx + side * lobe * 0.95, cy - flip * 0.38 * r
            draw.ellipse((lx - lobe, ly - lobe, lx + lobe, ly + lobe), fill=fill)
        draw.polygon([(cx - 1.45 * lobe * 1.3, cy - flip * 0.2 * r), (cx + 1.45 * lobe * 1.3, cy - flip * 0.2 * r),
                      (cx, cy + flip * r)], fill=fill)
        if suit == "S":
            draw.polygon([(cx, cy + 0.2 * r), (cx + 0.35 * r, cy + r), (cx - 0.35 * r, cy + r)], fill=fill)
    elif suit == "C":
        lobe = 0.42 * r
        for lx, ly in ((cx, cy - 0.5 * r), (cx - 0.5 * r, cy + 0.1 * r), (cx + 0.5 * r, cy + 0.1 * r)):
            draw.ellipse((lx - lobe, ly - lobe, lx + lobe, ly + lobe), fill=fill)
        draw.ellipse((cx - lobe * 0.7, cy - lobe * 0.9, cx + lobe * 0.7, cy + lobe * 0.5), fill=fill)
        draw.polygon([(cx, cy - 0.1 * r), (cx + 0.35 * r, cy + r), (cx - 0.35 * r, cy + r)], fill=fill)


def draw_star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Colour) -> None:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else 0.45 * r
        angle = radians(-90 + 36 * i)
        points.append((cx + radius * cos(angle), cy + radius * sin(angle)))
    draw.polygon(points, fill=fill)


def _blank(width: int, height: int, fill: Colour, outline: Colour) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent canvas at ``SCALE`` times ``width`` × ``height`` holding a rounded card shape."""
    w, h = width * SCALE, height * SCALE
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), 5 * SCALE, fill=fill, outline=outline, width=SCALE)
    return image, draw


@lru_cache(maxsize=16)
def rank_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


def _rank_font_size(size: CardSize) -> int:
    return int(size.height * SCALE * RANK_HEIGHT)


def rank_size(size: CardSize) -> float:
    """The font size (pixels per em) of the ranks on a face of ``size``, as drawn."""
    return _rank_font_size(size) / SCALE


def _rank_corner(size: CardSize) -> tuple[float, float]:
    """Where a rank is drawn on a face (at ``SCALE``), the same upright or sideways: a tapped
    card's rank reads as it does untapped."""
    return 0.07 * size.width * SCALE, 0.04 * size.height * SCALE


@lru_cache(maxsize=1024)
def rank_right(code: str, size: CardSize, language: str = SOURCE) -> int:
    """How far from a face's left edge its rank reaches, in pixels (where a card laid over it
    may start with the rank still whole)."""
    rank = rank_name(split_code(code)[0], language)
    right = rank_font(_rank_font_size(size)).getbbox(rank, stroke_width=SCALE)[2]
    return ceil((_rank_corner(size)[0] + right) / SCALE)


def _face(code: str, size: CardSize, language: str, tapped: bool, penalty: bool) -> Image.Image:
    """A face, upright or sideways (``tapped``: landscape, its rank and pips still upright so
    they read), ``penalty`` tagged "+1" under its small pip."""
    rank, suit = split_code(code)
    width, height = (size.height, size.width) if tapped else size
    image, draw = _blank(width, height, WHITE, EDGE)
    w, h = image.size
    colour = JOKER if not suit else RED if suit in RED_SUITS else BLACK
    font = rank_font(_rank_font_size(size))
    pip = 0.10 * size.height * SCALE
    draw.text(_rank_corner(size), rank_name(rank, language), font=font, fill=colour, stroke_width=SCALE,
              stroke_fill=colour)
    small = (0.17 * w, 0.72 * h) if tapped else (0.22 * w, 0.53 * h)
    big = (0.73 * w, 0.50 * h, 0.28 * h) if tapped else (0.64 * w, 0.72 * h, 0.20 * h)
    if suit:
        draw_pip(draw, suit, *small, pip, colour)
        draw_pip(draw, suit, *big, colour)
    else:
        draw_star(draw, big[0], big[1], 1.2 * big[2], colour)
    if penalty:
        box = draw.textbbox((0, 0), PENALTY, font=font)
        pad = 2 * SCALE
        left, top = 0.04 * w, h - (box[3] - box[1]) - 2 * pad - 3 * SCALE
        draw.rounded_rectangle((left, top, left + box[2] - box[0] + 2 * pad, h - 3 * SCALE), 3 * SCALE, fill=BLACK)
        draw.text((left + pad - box[0], top + pad - box[1]), PENALTY, font=font, fill=WHITE)
    return image


def _back(size: CardSize, tapped: bool) -> Image.Image:
    image, draw = _blank(*((size.height, size.width) if tapped else size), BACK, EDGE)
    w, h = image.size
    inset = 4 * SCALE
    draw.rounded_rectangle((inset, inset, w - inset, h - inset), 3 * SCALE, outline=BACK_LINE, width=SCALE)
    for offset in range(-h, w, 6 * SCALE):
        draw.line((inset + offset, inset, inset + offset + h, inset + h), fill=BACK_LINE, width=SCALE // 2 + 1)
    # Lines crossing the inner frame are cut back to it by redrawing the border band.
    draw.rounded_rectangle((SCALE, SCALE, w - 1 - SCALE, h - 1 - SCALE), 5 * SCALE, outline=BACK, width=inset - SCALE)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), 5 * SCALE, outline=EDGE, width=SCALE)
    return image


@lru_cache(maxsize=2048)
def card_image(code: str | None, size: CardSize = CARD, *, tapped: bool = False, marked: bool = False,
               dim: bool = False, penalty: bool = False, language: str = SOURCE) -> Image.Image:
    """The RGBA image of a card: its face for a code (its rank in ``language``), its back for
    ``None``; ``tapped`` lays it sideways, ``marked`` rings it in gold (a card that can be
    played now), ``penalty`` tags it "+1" (playing it costs a penalty draw), ``dim`` greys
    it (a card that can't be played now)."""
    big = _back(size, tapped) if code is None else _face(code, size, language, tapped, penalty)
    if marked:
        ImageDraw.Draw(big).rounded_rectangle((0, 0, big.width - 1, big.height - 1), 5 * SCALE, outline=MARK,
                                              width=3 * SCALE)
    image = big.reduce(SCALE)
    if dim:
        veil = Image.new("RGBA", image.size, (40, 40, 40, 110))
        image = Image.composite(Image.alpha_composite(image, veil), image, image)
    return image
