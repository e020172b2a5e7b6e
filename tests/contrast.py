"""Contrast as WCAG 2 measures it, and the backgrounds Discord shows messages on."""

from __future__ import annotations

Colour = tuple[int, int, int]

DARK_THEME: Colour = (0x31, 0x33, 0x38)
"""Discord's dark theme behind messages (its containers are a shade darker, so contrast more)."""
LIGHT_THEME: Colour = (0xFF, 0xFF, 0xFF)
TEXT_CONTRAST = 4.5
"""WCAG AA for text (what a phone shows at 12 px is not large text)."""
GRAPHICS_CONTRAST = 3.0
"""WCAG AA for graphics a reader needs: markers, accents."""


def rgb(value: int) -> Colour:
    """``0xRRGGBB`` as a triple."""
    return (value >> 16) & 255, (value >> 8) & 255, value & 255


def luminance(colour: Colour) -> float:
    """WCAG's relative luminance of an sRGB colour."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = colour
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: Colour, b: Colour) -> float:
    """WCAG's contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    darker, lighter = sorted((luminance(a), luminance(b)))
    return (lighter + 0.05) / (darker + 0.05)
