"""Reading a tournament's ``starts`` option: a time people type, in UTC.

Deckhand keeps no time zone per server, so a clock time is UTC; the answer always shows the
start as a Discord timestamp, which every reader's client writes in their own zone, so the
host sees at once when that is for them. Accepted: ``20:30`` (the next 20:30), ``2026-12-24
20:30``, ``in 2h``, ``in 1h30``, ``+90m``, ``45 min`` (and ``20h30``, ``dans 2h``).
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta

from bot.errors import UserError
from games.i18n import say

from ..limits import clip
from ..parsing import QUOTE

_RELATIVE = re.compile(r"(?:in|dans|\+)?\s*(?:(?P<hours>\d{1,3})\s*h(?:ours?|eures?)?)?\s*"
                       r"(?:(?P<minutes>\d{1,4})\s*m?(?:in(?:utes?)?)?)?", re.IGNORECASE)
_CLOCK = re.compile(r"(?P<hour>\d{1,2})\s*[:h]\s*(?P<minute>\d{2})", re.IGNORECASE)
_DATE = re.compile(r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})[ T]+" + _CLOCK.pattern, re.IGNORECASE)


def start_time(text: str, now: float) -> float:
    """When ``text`` says the tournament starts (seconds since the epoch, whole minutes);
    :class:`UserError` saying what to write if it can't be read."""
    typed = text.strip()
    clock_now = datetime.fromtimestamp(now, UTC)
    if (date := _DATE.fullmatch(typed)) is not None:
        try:
            when = datetime(int(date["year"]), int(date["month"]), int(date["day"]), int(date["hour"]),
                            int(date["minute"]), tzinfo=UTC)
        except ValueError:
            raise _unreadable(typed) from None
        return when.timestamp()
    if (at := _CLOCK.fullmatch(typed)) is not None:
        hour, minute = int(at["hour"]), int(at["minute"])
        if hour > 23 or minute > 59:
            raise _unreadable(typed)
        when = clock_now.replace(hour=hour, minute=minute, second=0, microsecond=0)
        return (when if when > clock_now else when + timedelta(days=1)).timestamp()
    relative = _RELATIVE.fullmatch(typed)
    if typed and relative is not None and (relative["hours"] or relative["minutes"]):
        delay = 3600 * int(relative["hours"] or 0) + 60 * int(relative["minutes"] or 0)
        return math.ceil((now + delay) / 60) * 60  # on a whole minute, as a clock time is
    raise _unreadable(typed)


def _unreadable(typed: str) -> UserError:
    return UserError(say("I can't read “{input}” as a start time. Write a time in UTC, as 20:30 or 2026-12-24 20:30, "
                         "or a delay, as “in 2h” or +90m.", input=clip(typed, QUOTE)))
