"""Engine words as the engines wrote them before words were data: English, each seat as
``{p0}``, ``{p1}``… — what the rules tests compare and the replay fingerprints hash."""

from __future__ import annotations

from typing import Any

from bot.markdown import literal
from bot.records import TableRow, event_words
from games.base import Event
from games.i18n import SOURCE, Text

SEATS = tuple(f"{{p{n}}}" for n in range(16))
"""Seat names that render as the placeholders engines used to write."""


def words(said: Event | Text) -> str:
    """An event's text (or any words) in English, seats as ``{pN}``."""
    text = said.text if isinstance(said, Event) else said
    return text.render(SOURCE, SEATS)


def as_written(value: Any) -> Any:
    """A JSON value (a snapshot, a view, events, an outcome) with every stored
    :class:`~games.i18n.Text` (``{"say": …}``) replaced by its :func:`words`."""
    if isinstance(value, dict):
        if "say" in value and set(value) <= {"say", "args", "plural"}:
            return words(Text.from_json(value))
        return {key: as_written(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_written(item) for item in value]
    return value


def event_texts(row: TableRow) -> list[str]:
    """A table's stored recent events in English, its seats named as its messages name them."""
    names = [literal(seat.shown_name) for seat in row.seats]
    return [event_words(line, names) for line in row.recent_events]
