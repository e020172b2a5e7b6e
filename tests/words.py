"""Engine words as the engines wrote them before words were data: English, each seat as
``{p0}``, ``{p1}``… — what the rules tests compare."""

from __future__ import annotations

import re
from functools import cache

from bot.markdown import literal
from bot.records import TableRow, event_words
from games.base import Event
from games.i18n import SOURCE, Text
from games.i18n.__main__ import merged

SEATS = tuple(f"{{p{n}}}" for n in range(16))
"""Seat names that render as the placeholders engines used to write."""


def words(said: Event | Text) -> str:
    """An event's text (or any words) in English, seats as ``{pN}``."""
    text = said.text if isinstance(said, Event) else said
    return text.render(SOURCE, SEATS)


# -- English left in a translated message ----------------------------------------------------------

_PLACEHOLDER = re.compile(r"\{\w+\}|\n")
_CODE = re.compile(r"`[^`]*`|<[@#!:&t][^>]*>|https?://\S+")
"""What a message quotes as it is in every language: code, mentions, timestamps, links."""
_ENGLISH = re.compile(r"(?i)(?<![\w’'])(the|you|your|this|that|these|those|was|with|nothing|isn't|can't|don't|"
                      r"here|there|won|games?|moves?|please|yet|only|rated)(?![\w’'])")
"""English words a French sentence never holds (outside quoted code and names)."""


@cache
def _english_sentences(language: str) -> frozenset[str]:
    """Every stretch of English source text in the catalog between placeholders (of two words or
    more, and read differently in ``language``): what is left when something was not translated."""
    found = set()
    for message in merged(language):
        sources = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        for source in sources:
            for part in _PLACEHOLDER.split(source or ""):
                part = part.strip(" .,:;!?—·()*_#-“”\"'")
                if len(part.split()) >= 2 and not any(part in str(s) for s in strings):
                    found.add(part)
    return frozenset(found)


def english_left(text: str, language: str = "fr") -> list[str]:
    """The English in ``text``, a message meant to be in ``language``: sentences of the
    catalog's English sources, and English words no sentence in ``language`` holds."""
    text = _CODE.sub("", text)
    left = sorted(part for part in _english_sentences(language) if part in text)
    return left + sorted({word.lower() for word in _ENGLISH.findall(text)})


def event_texts(row: TableRow) -> list[str]:
    """A table's stored recent events in English, its seats named as its messages name them."""
    names = [literal(seat.shown_name) for seat in row.seats]
    return [event_words(line, names) for line in row.recent_events]
