"""Reading a tournament's ``starts`` option (cogs/tournaments/starts.py): clock times, dates and
delays in UTC, each on a whole minute; anything else refused, quoting what was typed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.errors import UserError
from cogs.tournaments.starts import start_time

NOW = datetime(2026, 3, 14, 18, 25, 30, tzinfo=UTC).timestamp()


def utc(*when: int) -> float:
    return datetime(*when, tzinfo=UTC).timestamp()


@pytest.mark.parametrize("typed, starts", [
    ("20:30", utc(2026, 3, 14, 20, 30)),  # today, still to come
    ("9:05", utc(2026, 3, 15, 9, 5)),  # passed today: tomorrow
    ("18:25", utc(2026, 3, 15, 18, 25)),  # this very minute: tomorrow
    ("20h30", utc(2026, 3, 14, 20, 30)),
    ("2026-12-24 20:30", utc(2026, 12, 24, 20, 30)),
    ("2026-12-24T8:00", utc(2026, 12, 24, 8, 0)),
    ("in 2h", utc(2026, 3, 14, 20, 26)),  # on the next whole minute
    ("in 1h30", utc(2026, 3, 14, 19, 56)),
    ("+90m", utc(2026, 3, 14, 19, 56)),
    ("45 min", utc(2026, 3, 14, 19, 11)),
    ("dans 2 heures", utc(2026, 3, 14, 20, 26)),
])
def test_a_start_is_read_in_utc_on_a_whole_minute(typed, starts):
    assert start_time(f"  {typed} ", NOW) == starts


@pytest.mark.parametrize("typed", ["24:00", "12:60", "2026-02-30 20:00", "2026-13-01 10:00", "tomorrow", "in", "",
                                   "x" * 200])
def test_what_is_not_a_time_is_refused_quoting_it(typed):
    with pytest.raises(UserError) as refused:
        start_time(typed, NOW)
    text = str(refused.value)
    assert text.startswith(f"I can't read “{typed[:20]}") and "20:30 or 2026-12-24 20:30" in text and len(text) < 300
