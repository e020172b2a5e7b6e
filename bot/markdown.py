"""Text people chose (display names), placed in Discord's markdown so it shows as typed."""

from __future__ import annotations

import re

# What Discord's markdown acts on: emphasis, strike, spoilers and code (* _ ~ | `), quotes,
# headings, subtext and lists at a line's start (> # - + .), masked links ([ ]), mentions,
# timestamps and emoji (< @), links (:), and the escape itself (\).
_CHARACTERS = r"[\\*_~|`>#\-+.\[\]<@:]"
_ACTIVE = re.compile(f"({_CHARACTERS})")
_ESCAPED = re.compile(rf"\\({_CHARACTERS})")


def literal(text: str) -> str:
    """``text`` with a backslash before every character Discord's markdown acts on.

    Discord hides a backslash before any punctuation mark, so the text reads exactly as
    typed and nothing in it acts: a display name like ``[Free Nitro](https://…)`` is no
    masked link, ``**``, ``||`` or ``# `` format nothing around it, ``<@…>`` is no mention
    and ``https://…`` no link. For message text only: button and menu labels, footers and
    thread names show text as it is, backslashes too.
    """
    return _ACTIVE.sub(r"\\\1", text)


def plain(text: str) -> str:
    """Message text written with :func:`literal` names, for where Discord shows text as it is
    (a menu option's description): the names' backslashes taken out again."""
    return _ESCAPED.sub(r"\1", text)
