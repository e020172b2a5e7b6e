"""The drawing surface every picture uses: the sizes pictures are drawn for, colours,
fonts, a top-down layout cursor and the PNG encoder.

Pictures are shown full width in a Components V2 media gallery: about
:data:`DISPLAY_WIDTH` pixels wide on a phone, at most 480 × 350 on desktop. So every
picture is :data:`WIDTH` wide, landscape or square (:data:`MIN_HEIGHT` to
:data:`MAX_HEIGHT` tall), and no text is drawn smaller than :data:`MIN_TEXT`, which a
phone shows at :data:`MIN_SCREEN_TEXT` pixels. A :class:`Canvas` records the smallest
text it drew and how much did not fit, so tests check what was really drawn.

Pictures are drawn in RGB (antialiased text and card edges), then mapped onto one fixed
256-colour palette without dithering and saved as an indexed PNG without metadata: the
mapping takes well under a millisecond, the files are a few tens of KB, and the same
drawing always gives the same bytes. Bands of a picture that a move rarely changes are kept
as drawn and laid again (:meth:`Canvas.band`). Text uses Noto Sans, shipped with Deckhand cut down to
the Latin letters and punctuation the pictures write (``fonts/``: its licence and how it was
made), so French is drawn with its accents and nothing is downloaded; :func:`drawable`
leaves out what it cannot draw (emoji, other scripts), folding what it can ("ﬁ" → "fi").
"""

from __future__ import annotations

import io
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from itertools import product
from math import ceil
from pathlib import Path
from typing import Literal, NamedTuple

from PIL import Image, ImageDraw, ImageFont

from games.i18n import SOURCE

from .cards import CARD, CARD_COLOURS, MARK, CardSize, Colour, card_image, rank_right, rank_size

DISPLAY_WIDTH = 280
"""The width a phone (380 px wide) gives a picture in a V2 container: the narrowest place
a picture is shown, so what sets the sizes below."""
DESKTOP_BOX = (480, 350)
"""The most desktop shows of a picture in a V2 container (width, height): a landscape or
square picture :data:`WIDTH` wide is shown larger there than on a phone."""
MIN_SCREEN_TEXT = 12
"""The smallest text, in pixels on that screen, that a phone user reads without zooming."""
WIDTH = 560
"""Every picture's width: twice :data:`DISPLAY_WIDTH`, so it stays sharp on phone screens
(which have two or three pixels per point) and is shown at 480 on desktop."""
MIN_TEXT = ceil(MIN_SCREEN_TEXT * WIDTH / DISPLAY_WIDTH)
"""The smallest font size (pixels per em) drawn, a card's rank included: 24, shown at 12 on a phone."""
MAX_HEIGHT = WIDTH
"""Square at most: a portrait picture is shown smaller on desktop (350 px tall at most) and
pushes a phone's buttons below the screen."""
MIN_HEIGHT = WIDTH * 7 // 11
"""A table picture is not wider than 11:7: Discord's desktop client drops a wider gallery image
from the layout until it loads (discord-api-docs issue 8100), and the table message is edited
after every move. A hand picture is as tall as what it draws (:attr:`Canvas.min_height`)."""
MARGIN = 12
GAP = 8

LABEL = MIN_TEXT
"""Captions, counts, details."""
BODY = 26
"""Names and the main lines of a picture."""
TITLE = 30
"""A heading's title (the ``/stats`` chart's)."""
LINE = BODY + 8
"""The height of a line of text at :data:`BODY`."""
LABEL_LINE = LABEL + 8
"""The height of a line of text at :data:`LABEL`: its accents and descenders clear the next line's."""
ABOVE_CARDS = LABEL + 10
"""Room for a line of :data:`LABEL` text above cards, its descenders clear of them."""

FELT = (28, 94, 62)
FELT_DARK = (20, 70, 46)
TEXT = (240, 240, 232)
MUTED = (176, 206, 186)
GOLD = MARK  # highlights on the table are the gold that rings a playable card
RED_SIDE = (196, 48, 52)
BLACK_SIDE = (34, 34, 40)
CHIP = (238, 238, 228)
CHIP_TEXT = (24, 24, 28)
THEME = (FELT, FELT_DARK, TEXT, MUTED, GOLD, RED_SIDE, BLACK_SIDE, CHIP, CHIP_TEXT)

PNG_COMPRESS_LEVEL = 1
"""zlib level for the indexed PNGs: the fastest; they stay far below Discord's limits."""
ELLIPSIS = "…"
CUT = " \u00a0,·…"
"""What a text cut short loses before its "…" (spaces, a comma, a dot, an earlier "…")."""



@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The fixed palette: the theme and card colours exactly, then a 6×6×6 colour cube for
    antialiased edges (which land on the nearest entry)."""
    colours = list(dict.fromkeys((*THEME, *CARD_COLOURS)))
    steps = range(0, 256, 51)
    colours += [c for c in product(steps, steps, steps) if c not in colours]
    colours += [(0, 0, 0)] * (256 - len(colours))
    image = Image.new("P", (1, 1))
    image.putpalette([v for colour in colours[:256] for v in colour])
    return image


FONT = Path(__file__).parent / "fonts" / "NotoSans-Regular.ttf"


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT, size)


@lru_cache(maxsize=1024)
def has_glyph(char: str) -> bool:
    """Whether the font draws ``char`` (rather than its box for a missing glyph)."""
    if char.isspace():
        return True
    missing = font(BODY).getmask("\uffff")
    mask = font(BODY).getmask(char)
    return mask.size != missing.size or bytes(mask) != bytes(missing)


@lru_cache(maxsize=1024)
def drawable(text: str) -> str:
    """``text`` as the font can draw it: a character it has no glyph for folded to one it has
    when it can ("ﬁ" → "fi"), else left out (emoji, other scripts); spaces tidied."""
    kept = []
    for char in text:
        if has_glyph(char):
            kept.append(char)
            continue
        folded = [c for c in unicodedata.normalize("NFKD", char) if has_glyph(c)]
        kept.extend(folded or [c for c in char.casefold() if c != char and has_glyph(c)])  # ß → ss
    return " ".join(re.split(r"[ \t\r\n]+", "".join(kept).strip(" \t\r\n")))  # no-break spaces kept


TEXT_IMAGES = 4096
"""Lines of text kept drawn: the labels that recur from one picture of a table to the next
(names, headings, counts), for a few hundred tables drawn in turn (each has its own names).
Each is an 8-bit mask of a few KB; with fewer, at 150 tables a move's pictures cost half
as much again (``bench/RESULTS.md``, Pictures)."""
MEASURES = 8192
"""Text widths and cut-short names kept (a few bytes each), as many as the lines kept allow."""


@lru_cache(maxsize=MEASURES)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """How wide ``text`` is drawn (kept: layouts measure the same labels again and again)."""
    return ceil(font(size).getlength(text)) + (2 if bold else 0)


@lru_cache(maxsize=MEASURES)
def clipped(text: str, size: int, bold: bool, width: int) -> str:
    """``text`` cut short with "…" to fit ``width`` pixels (whole when it fits): for names,
    which can be any length; the pictures' own words are wrapped (:func:`wrapped`) or fit."""
    if text_width(text, size, bold) <= width:
        return text
    keep = len(text)
    while keep > 0 and text_width(text[:keep].rstrip(CUT) + ELLIPSIS, size, bold) > width:
        keep -= 1
    return text[:keep].rstrip(CUT) + ELLIPSIS


@lru_cache(maxsize=1024)
def wrapped(text: str, size: int, width: int, bold: bool = False) -> tuple[str, ...]:
    """``text`` broken between words into lines at most ``width`` pixels wide (a word longer
    than that alone on its line, cut short when drawn), never before a "·" nor at a no-break space."""
    lines: list[str] = []
    for word in drawable(text).replace(" · ", "\u00a0· ").split(" "):
        if lines and text_width(f"{lines[-1]} {word}", size, bold) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return tuple(lines)


@lru_cache(maxsize=TEXT_IMAGES)
def text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    """A line of text as a mask of its ink (an 8-bit image a colour is laid through), and where
    its corner goes relative to the anchor point; kept, for any colour."""
    stroke = 1 if bold else 0
    # Whole pixels, the stroke being whole (Pillow types the box float for fractional strokes).
    left, top, right, bottom = (int(edge) for edge in font(size).getbbox(text, anchor=anchor, stroke_width=stroke))
    image = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(image).text((-left, -top), text, font=font(size), fill=255, anchor=anchor,
                               stroke_width=stroke, stroke_fill=255)
    return image, (left, top)


Box = tuple[int, int, int, int]


class Label(NamedTuple):
    """A line of text as a :class:`Canvas` drew it, for tests to check sizes, fits, overlaps
    and contrast."""

    text: str
    """As drawn (cut short with "…" when it did not fit its room)."""
    wanted: str
    """As asked for, in what the font draws."""
    box: Box
    """Where its ink is: left, top, right, bottom."""
    room: tuple[int, int]
    """The left and right edges it was given."""
    size: int
    fill: Colour
    background: Colour
    """The colour under its middle before it was drawn."""
    paragraph: str
    """The whole text it is a line of (:meth:`Canvas.paragraph`), or its own."""


def frozen(value: object) -> Hashable:
    """``value`` (plain JSON: part of a view) as a key: lists as tuples, objects as their items."""
    if isinstance(value, dict):
        return tuple((key, frozen(item)) for key, item in value.items())
    if isinstance(value, list):
        return tuple(frozen(item) for item in value)
    return value


def moved(box: Box, dy: int) -> Box:
    return box[0], box[1] + dy, box[2], box[3] + dy


class Band(NamedTuple):
    """A band of a picture as it was drawn, kept to be laid on pictures again
    (:meth:`Canvas.band`): its pixels, and the labels and cards drawn in it (their
    y from the band's top)."""

    image: Image.Image
    labels: tuple[Label, ...]
    cards: tuple[Box, ...]
    smallest_text: float | None

    @property
    def memory(self) -> int:
        """About how much memory it holds (Pillow keeps an RGB pixel in four bytes)."""
        return self.image.width * self.image.height * 4


BAND_BYTES = 24 * 1024 * 1024
"""The most memory kept bands hold (a QUASH table picture has four, about 800 KB): the
newest pictures' bands; the oldest go."""
_bands: OrderedDict[Hashable, Band] = OrderedDict()
_bands_bytes = 0
_bands_lock = threading.Lock()  # pictures are drawn in worker threads


def kept_band(key: Hashable) -> Band | None:
    with _bands_lock:
        found = _bands.get(key)
        if found is not None:
            _bands.move_to_end(key)
        return found


def keep_band(key: Hashable, band: Band) -> None:
    """Keep ``band`` under ``key``, within :data:`BAND_BYTES`."""
    global _bands_bytes
    with _bands_lock:
        if key not in _bands:
            _bands[key] = band
            _bands_bytes += band.memory
        while _bands_bytes > BAND_BYTES and len(_bands) > 1:
            _bands_bytes -= _bands.popitem(last=False)[1].memory


class Canvas:
    """A picture drawn top to bottom: ``y`` is the layout cursor; :meth:`png` crops the
    picture below the last thing drawn (square at most, and at least ``min_height`` tall)
    and encodes it.

    It keeps what tests check: :attr:`labels`, the lines of text it drew; :attr:`cards`, where
    it put cards; :attr:`smallest_text`, the smallest font size it drew text or a card's rank
    with; and :attr:`overflow`, how far the drawing ran past the square."""

    def __init__(self, width: int = WIDTH, height: int = MAX_HEIGHT, language: str = SOURCE,
                 min_height: int = MIN_HEIGHT) -> None:
        self.language = language
        """The language of its words and of the ranks on its cards' faces."""
        self.image = Image.new("RGB", (width, height), FELT)
        self.draw = ImageDraw.Draw(self.image)
        self._pixels = self.image.im
        """The image's pixels, pasted into directly (:meth:`paste`)."""
        self.width = width
        self.min_height = min_height
        self.y = MARGIN
        self.smallest_text: float | None = None
        self.labels: list[Label] = []
        self.cards: list[Box] = []

    @property
    def texts(self) -> list[str]:
        """The lines of text drawn, in order."""
        return [label.text for label in self.labels]

    def _drew_text(self, size: float) -> None:
        if self.smallest_text is None or size < self.smallest_text:
            self.smallest_text = size

    def text(self, xy: tuple[int, int], text: str, size: int = BODY, fill: Colour = TEXT, bold: bool = False,
             anchor: str = "la", width: int | None = None, paragraph: str | None = None) -> int:
        """Draw one line of text (``anchor`` as in Pillow: ``la``, ``ma``, ``ra``), cut short
        with "…" to fit ``width`` when given (a line of ``paragraph``); returns its right edge."""
        wanted = drawable(text)
        text = clipped(wanted, size, bold, width) if width is not None else wanted
        self._drew_text(size)
        mask, (dx, dy) = text_mask(text, size, bold, anchor)
        x, y = xy[0] + dx, xy[1] + dy
        box = (x, y, x + mask.width, y + mask.height)
        middle = (min(max((box[0] + box[2]) // 2, 0), self.width - 1), min(max((box[1] + box[3]) // 2, 0),
                                                                            self.image.height - 1))
        if width is None:
            room = (0, self.width)
        else:
            left = xy[0] - {"l": 0, "m": width // 2, "r": width}[anchor[0]]
            room = (left, left + width)
        self.labels.append(Label(text, wanted, box, room, size, fill, self.background(middle), paragraph or wanted))
        self._pixels.paste(fill, box, mask.im)
        return box[2]

    def background(self, xy: tuple[int, int]) -> Colour:
        """The colour drawn at ``xy`` so far."""
        r, g, b = self._pixels.getpixel(xy)
        return r, g, b

    def band(self, height: int, key: Hashable, draw: Callable[[int], None]) -> None:
        """The band ``height`` pixels tall from the cursor down, drawn by ``draw(top)``, the
        cursor moved below it. Kept: once drawn, a band with the same ``key`` (which must say
        everything the drawing depends on, in the picture's language) is laid again as it was
        (its pixels, labels and cards), which costs a small part of drawing it. Only for a band
        where nothing was drawn yet, and that nothing else draws into."""
        top, bottom = self.y, self.y + height
        key = (key, self.width, height, self.language)
        found = kept_band(key)
        if found is None:
            labels, cards = len(self.labels), len(self.cards)
            smallest, self.smallest_text = self.smallest_text, None
            draw(top)
            drawn, self.smallest_text = self.smallest_text, smallest
            found = Band(self.image.crop((0, top, self.width, bottom)),
                         tuple(label._replace(box=moved(label.box, -top)) for label in self.labels[labels:]),
                         tuple(moved(card, -top) for card in self.cards[cards:]), drawn)
            keep_band(key, found)
        else:
            self._pixels.paste(found.image.im, (0, top, self.width, bottom))
            self.labels += [label._replace(box=moved(label.box, top)) for label in found.labels]
            self.cards += [moved(card, top) for card in found.cards]
        if found.smallest_text is not None:
            self._drew_text(found.smallest_text)
        self.y = bottom

    def paste(self, image: Image.Image, xy: tuple[int, int]) -> None:
        """``image`` (RGBA) laid over the picture at ``xy`` through its alpha: what
        ``Image.paste(image, xy, image)`` does, without its checks (a picture pastes dozens of
        cached images, and the checks cost as much as the pasting)."""
        pixels = image.im
        self._pixels.paste(pixels, (xy[0], xy[1], xy[0] + image.width, xy[1] + image.height), pixels)

    def paragraph(self, xy: tuple[int, int], text: str, size: int = LABEL, fill: Colour = TEXT, *,
                  width: int, bold: bool = False) -> int:
        """``text`` wrapped to ``width`` from ``xy`` down; returns the bottom of its last line."""
        x, y = xy
        for line in wrapped(text, size, width, bold):
            self.text((x, y), line, size, fill, bold, width=width, paragraph=drawable(text))
            y += size + 8
        return y

    def heading(self, text: str, detail: str = "") -> None:
        """The picture's title line, with ``detail`` on the right, or under it when both don't fit."""
        right = self.text((MARGIN, self.y), text, TITLE, bold=True, width=self.width - 2 * MARGIN)
        if detail:
            if right + 2 * GAP + text_width(detail, LABEL) <= self.width - MARGIN:
                self.text((self.width - MARGIN, self.y + TITLE - LABEL), detail, LABEL, MUTED, anchor="ra",
                          width=self.width - right - MARGIN - 2 * GAP)
            else:
                self.y = self.paragraph((MARGIN, self.y + TITLE + 10), detail, LABEL, MUTED,
                                        width=self.width - 2 * MARGIN) - TITLE - 10
        self.y += TITLE + 12

    def label(self, text: str, size: int = BODY, fill: Colour = TEXT, bold: bool = False) -> None:
        """A line of text at the left margin (wrapped when long), moving the cursor below it."""
        self.y = self.paragraph((MARGIN, self.y), text, size, fill, width=self.width - 2 * MARGIN, bold=bold)

    def card(self, xy: tuple[int, int], card: str | None, size: CardSize = CARD, *, tapped: bool = False,
             marked: bool = False, dim: bool = False, penalty: bool = False) -> int:
        """One card (a code, or ``None`` for a face-down card); returns its right edge."""
        if card is not None:
            self._drew_text(rank_size(size))
        image = card_image(card, size, tapped=tapped, marked=marked, dim=dim, penalty=penalty, language=self.language)
        self.paste(image, xy)
        self.cards.append((xy[0], xy[1], xy[0] + image.width, xy[1] + image.height))
        return xy[0] + image.width

    def fan(self, xy: tuple[int, int], cards: Sequence[str | None], size: CardSize = CARD, *,
            step: int, width: int) -> int:
        """A row of cards left to right, ``step`` apart or closer to fit in ``width`` (never
        closer than :func:`least_step`: a face's rank still shows whole, or a back's edge);
        what still does not fit is counted in a "+n" after the last card shown. Returns the
        right edge."""
        x, y = xy
        steps = squeezed(cards, size, self.language, step, width)
        shown = len(cards)
        if sum(steps[:-1]) + size.width > width:
            more = text_width(f"+{len(cards)}", LABEL) + GAP
            shown = 1
            while shown < len(cards) and sum(steps[:shown]) + size.width + more <= width:
                shown += 1
        right = left = x
        for card, step_to_next in zip(cards[:shown], steps):
            right = self.card((left, y), card, size)
            left += step_to_next
        if shown < len(cards):
            right = self.text((right + 4, y + size.height - LABEL - 6), f"+{len(cards) - shown}", LABEL, MUTED)
        return right

    def pile(self, xy: tuple[int, int], count: int, size: CardSize = CARD, top: str | None = None) -> int:
        """A face-down (or ``top`` face-up) pile of ``count`` cards; an empty pile is an
        outline. Returns the right edge."""
        x, y = xy
        if count <= 0:
            self.slot((x, y), size)
            return x + size.width
        for i in range(min(3, (count + 9) // 10) - 1, 0, -1):
            self.card((x + 2 * i, y - 2 * i), None, size)
        return self.card((x, y), top, size)

    def slot(self, xy: tuple[int, int], size: CardSize, fill: Colour | None = None) -> None:
        """The outline of an empty place for a card."""
        self.paste(slot_image(size, fill), xy)

    def chip(self, xy: tuple[int, int], text: str, extra: str = "", *, ring: bool = False) -> int:
        """A small label on a light chip (a laid set: "K x3"), ``extra`` after it in gold
        on a dark patch (its wild); ``ring`` outlines it in gold. Returns the right edge."""
        x, y = xy
        pad, height = 6, CHIP_HEIGHT
        width = text_width(text, LABEL, True) + 2 * pad
        extra_width = text_width(extra, LABEL, True) + 2 * pad if extra else 0
        self.draw.rounded_rectangle((x, y, x + width + extra_width, y + height), 6, fill=CHIP,
                                    outline=GOLD if ring else None, width=2)
        self.text((x + pad, y + 1), text, LABEL, CHIP_TEXT, bold=True)
        if extra:
            self.draw.rounded_rectangle((x + width - 2, y + 2, x + width + extra_width - 2, y + height - 2), 5,
                                        fill=BLACK_SIDE)
            self.text((x + width - 2 + pad, y + 1), extra, LABEL, GOLD, bold=True)
        return x + width + extra_width

    @property
    def overflow(self) -> int:
        """How many pixels of the drawing ran past the bottom of the square (0 when it fits)."""
        return max(0, self.y + MARGIN - self.image.height)

    @property
    def height(self) -> int:
        """How tall :meth:`png` draws the picture."""
        return min(max(self.y + MARGIN, self.min_height), self.image.height)

    def png(self) -> bytes:
        """The picture cropped below the cursor, as indexed PNG bytes (no metadata)."""
        image = self.image.crop((0, 0, self.width, self.height))
        indexed = image.quantize(palette=palette(), dither=Image.Dither.NONE)
        out = io.BytesIO()
        indexed.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
        return out.getvalue()


@lru_cache(maxsize=16)
def slot_image(size: CardSize, fill: Colour | None) -> Image.Image:
    """An empty place for a card, kept drawn (a QUASH board has dozens)."""
    image = Image.new("RGBA", (size.width + 1, size.height + 1), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle((0, 0, size.width, size.height), 6, fill=fill, outline=MUTED, width=1)
    return image


CHIP_HEIGHT = LABEL + 10


def chip_width(text: str, extra: str = "") -> int:
    """How wide :meth:`Canvas.chip` draws a chip."""
    return text_width(text, LABEL, True) + 12 + (text_width(extra, LABEL, True) + 12 if extra else 0)


def least_step(card: str | None, size: CardSize, language: str) -> int:
    """The closest the next card may overlap ``card``: its rank still whole, or a back's edge."""
    return size.width // 4 if card is None else rank_right(card, size, language) + 3


def squeezed(cards: Sequence[str | None], size: CardSize, language: str, step: int, width: int) -> list[int]:
    """How far each card of a row is from the next: ``step``, or closer so that the row fits
    in ``width``, never closer than :func:`least_step`."""
    least = [least_step(card, size, language) for card in cards]
    if len(cards) < 2 or step * (len(cards) - 1) + size.width <= width:
        return [max(step, least_i) for least_i in least]
    common = (width - size.width) // (len(cards) - 1)
    return [max(least_i, min(step, common)) for least_i in least]


class Row(NamedTuple):
    """Cards drawn together under an optional title (a hand's rank group, a field…)."""

    title: str
    cards: Sequence[str | None]
    marked: frozenset[int] = frozenset()
    """Positions of the cards that can be played now."""
    tapped: frozenset[int] = frozenset()
    spacing: Literal["overlap", "tight", "apart"] = "overlap"
    """How the cards sit: overlapping with most of each face showing (closer when the row
    is long), overlapping down to their ranks (``tight``), or side by side (``apart``,
    always so with sideways cards)."""
    dim_unmarked: bool = False
    """Grey the cards not marked (a hand on its turn: what can't be played now)."""
    highlight: bool = False
    """Title in gold: the row of a seat to act."""
    penalty: frozenset[int] = frozenset()
    """Positions of the cards whose play costs a penalty draw (tagged "+1")."""
    reference: bool = False
    """Cards shown beside a hand for reference (the pile's top), not the seat's own: a hand
    picture with nothing else is not drawn."""


def flow(canvas: Canvas | None, rows: Sequence[Row], *, size: CardSize = CARD, top: int,
         titles: bool = True, language: str = SOURCE) -> int:
    """Lay ``rows`` out left to right from ``top``, each under its title, wrapping to new
    lines (a row too long for one line overlaps its cards closer, down to their ranks, then
    is split into lines of as many cards each); returns the bottom. Without a canvas nothing
    is drawn: the bottom says how tall the rows would be (their ranks in ``language``), to
    choose a card size that fits."""
    if not rows:
        return top
    if canvas is not None:
        language = canvas.language
    width = canvas.width if canvas is not None else WIDTH
    room = width - 2 * MARGIN
    x, y, right_edge = MARGIN, top, width - MARGIN
    bottom = y  # of the line's rows so far
    for row in rows:
        widths = [size.height if i in row.tapped else size.width for i in range(len(row.cards))]

        def advances(lo: int, hi: int, row: Row = row, widths: list[int] = widths) -> list[int]:
            """How far each of cards lo..hi-1 is from the next, on a line of their own."""
            if row.tapped or row.spacing == "apart":
                return [w + GAP for w in widths[lo:hi]]
            return squeezed(row.cards[lo:hi], size, language, 0 if row.spacing == "tight" else size.width - 8, room)

        for number, (start, end) in enumerate(lines_of(len(row.cards), widths, advances(0, len(row.cards)), room)):
            steps = advances(start, end)
            span = sum(steps[:-1]) + widths[end - 1] if end > start else size.width
            title = row.title if titles and number == 0 else ""
            needed = max(span, text_width(title, LABEL, row.highlight) if title else 0)
            if number or (x > MARGIN and x + needed > right_edge):
                x, y = MARGIN, bottom
            above = ABOVE_CARDS if title or (titles and number == 0) else 0
            # Sideways cards alone are as tall as they are; beside upright ones, centred on them.
            upright = any(i not in row.tapped for i in range(start, end)) or end == start
            tall = size.height if upright else size.width
            if canvas is not None:
                if title:
                    canvas.text((x, y), title, LABEL, GOLD if row.highlight else MUTED, bold=row.highlight,
                                width=right_edge - x)
                left = x
                for i, step in zip(range(start, end), steps):
                    tapped = i in row.tapped
                    card_top = y + above + ((tall - size.width) // 2 if tapped else 0)
                    canvas.card((left, card_top), row.cards[i], size, tapped=tapped, marked=i in row.marked,
                                dim=row.dim_unmarked and i not in row.marked, penalty=i in row.penalty)
                    left += step
            bottom = max(bottom, y + above + tall + GAP)
            x += needed + 3 * GAP
    return bottom


def lines_of(count: int, widths: Sequence[int], least: Sequence[int], room: int) -> list[tuple[int, int]]:
    """Cards 0..count-1 (each ``widths`` wide, at least ``least`` from the next) in lines at
    most ``room`` wide, as ``(start, end)``: one line when they fit, else as few lines as
    they need with as many cards on each."""
    def fits(start: int, end: int) -> bool:
        return sum(least[start:end - 1]) + widths[end - 1] <= room

    greedy, start = [], 0
    while start < count:
        end = start + 1
        while end < count and fits(start, end + 1):
            end += 1
        greedy.append((start, end))
        start = end
    if len(greedy) < 2:
        return greedy or [(0, 0)]
    each = -(-count // len(greedy))
    even = [(start, min(start + each, count)) for start in range(0, count, each)]
    return even if all(fits(*line) for line in even) else greedy
