"""Engine words as the engines wrote them before words were data: English, each seat as
``{p0}``, ``{p1}``… — what the rules tests compare and the replay fingerprints hash."""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from itertools import repeat
from typing import Any

from bot.markdown import literal
from bot.records import TableRow, event_words
from games.base import Event
from games.i18n import LOCALES, SOURCE, Text
from games.i18n.__main__ import read

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
            return _stored_words(json.dumps(value, sort_keys=True))
        return {key: as_written(item) if isinstance(item, _NESTED) else item for key, item in value.items()}
    if isinstance(value, list):
        if not any(map(isinstance, value, repeat(_NESTED))):  # numbers or strings (a move history): as they are
            return value
        return [as_written(item) if isinstance(item, _NESTED) else item for item in value]
    return value


_NESTED = (dict, list)


@lru_cache(maxsize=65536)
def _stored_words(said: str) -> str:
    """The :func:`words` of a stored Text (as JSON): snapshots repeat the same Texts move after
    move (a deal's opening events), so each is rendered once."""
    return words(Text.from_json(json.loads(said)))


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
    for message in read(LOCALES / f"{language}.po"):
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
