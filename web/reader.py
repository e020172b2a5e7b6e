"""The reader's language: the browser's ``Accept-Language``, matched to Deckhand's catalogs."""

from __future__ import annotations

from aiohttp import web

from games.i18n import LANGUAGES, SOURCE, language_of


def language_from(header: str | None) -> str:
    """The first language of ``header`` (by preference) that Deckhand speaks; English otherwise.
    A malformed header counts as none."""
    wanted: list[tuple[float, int, str]] = []
    for n, part in enumerate((header or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        if tag and tag != "*":
            wanted.append((-quality, n, tag.strip()))
    for _, _, tag in sorted(wanted):
        language = language_of(tag)
        if language != SOURCE or tag.lower().startswith(SOURCE):
            return language
    return SOURCE


def reader_language(request: web.Request) -> str:
    """The language of ``request``'s reader (one of :data:`games.i18n.LANGUAGES`)."""
    language = language_from(request.headers.get("Accept-Language"))
    return language if language in LANGUAGES else SOURCE
