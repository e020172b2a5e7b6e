"""The rules of every Deckhand game, in Deckhand's own words, as data.

Each game is a :class:`GameRules`: an ordered list of :class:`Section` (a
stable ``id`` used by ``/rules section:`` and the section menu, a title, and a
Markdown body). :func:`pages` cuts a game's sections into :class:`Page` s that
each fit one Discord embed comfortably (:data:`PAGE_LIMIT` characters of
description), splitting long sections at paragraph breaks, then at line
breaks, never inside a word.

The text lives in Python modules (one per game), not in data files, so it is
installed with the package like any other code. ``python -m cogs.rules_text``
prints every game as one Markdown document (``docs/rules.md`` is that output).

Cards are written in display form (Q♥, 10♠, 🃏), never as engine codes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache

PAGE_LIMIT = 3000
"""Most characters in one page's description (Discord allows 4096)."""

TITLE_LIMIT = 256
FOOTER_LIMIT = 2048
EMBED_TOTAL_LIMIT = 6000

SECTION_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class Section:
    """One part of a game's rules: ``id`` (lowercase, dashes), title, Markdown body."""

    id: str
    title: str
    body: str


@dataclass(frozen=True)
class GameRules:
    """A game's rules: its id (as in ``games.GAME_IDS``), display name, the command that
    opens a table (``/q2j start``), sections in reading order, and other names
    ``/rules game:`` accepts when typed by hand."""

    id: str
    name: str
    command: str
    sections: tuple[Section, ...]
    aliases: tuple[str, ...] = ()

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)


@dataclass(frozen=True)
class Page:
    """One embed's worth of a game's rules."""

    game: GameRules
    index: int  # 0-based, over the whole game
    section: Section
    part: int  # 1-based part of the section
    parts: int  # how many pages the section takes
    body: str

    @property
    def title(self) -> str:
        title = f"{self.game.name} rules — {self.section.title}"
        if self.parts > 1:
            title += f" ({self.part}/{self.parts})"
        return title


def _split_words(text: str, limit: int) -> list[str]:
    pieces, current = [], ""
    for word in text.split(" "):
        while len(word) > limit:  # a single "word" longer than a page: cut it
            if current:
                pieces.append(current)
                current = ""
            pieces.append(word[:limit])
            word = word[limit:]
        candidate = f"{current} {word}" if current else word
        if len(candidate) <= limit:
            current = candidate
        else:
            pieces.append(current)
            current = word
    if current:
        pieces.append(current)
    return pieces


def _blocks(body: str, limit: int) -> list[str]:
    """Paragraphs of ``body``, with any paragraph longer than ``limit`` cut at lines, then words."""
    blocks: list[str] = []
    for para in body.strip().split("\n\n"):
        para = para.strip("\n")
        if not para:
            continue
        if len(para) <= limit:
            blocks.append(para)
            continue
        current = ""
        for line in para.split("\n"):
            for piece in ([line] if len(line) <= limit else _split_words(line, limit)):
                candidate = f"{current}\n{piece}" if current else piece
                if len(candidate) <= limit:
                    current = candidate
                else:
                    blocks.append(current)
                    current = piece
        if current:
            blocks.append(current)
    return blocks


def split_body(body: str, limit: int = PAGE_LIMIT) -> list[str]:
    """``body`` as pages of at most ``limit`` characters, of similar length, cut between paragraphs."""
    body = body.strip()
    if len(body) <= limit:
        return [body]
    blocks = _blocks(body, limit)
    target = len(body) / math.ceil(len(body) / limit)
    pages: list[str] = []
    current = ""
    for block in blocks:
        candidate = f"{current}\n\n{block}" if current else block
        if current and (len(candidate) > limit or len(current) >= target):
            pages.append(current)
            current = block
        else:
            current = candidate
    if current:
        pages.append(current)
    return pages


def _load() -> dict[str, GameRules]:
    from . import ng, q2j, queen_of_spades, quash, war

    return {rules.id: rules for rules in (q2j.RULES, war.RULES, ng.RULES, queen_of_spades.RULES, quash.RULES)}


@cache
def all_rules() -> dict[str, GameRules]:
    """Every game's rules by game id, in the order of ``games.GAME_IDS``."""
    return _load()


@cache
def pages(game_id: str) -> tuple[Page, ...]:
    """Every page of a game's rules, in order. Unknown ids raise ``KeyError``."""
    rules = all_rules()[game_id]
    result: list[Page] = []
    for section in rules.sections:
        parts = split_body(section.body)
        for n, body in enumerate(parts, start=1):
            result.append(Page(rules, len(result), section, n, len(parts), body))
    return tuple(result)


def first_page(game_id: str, section_id: str) -> int:
    """The index of the first page of a section (``KeyError`` if it has none)."""
    for page in pages(game_id):
        if page.section.id == section_id:
            return page.index
    raise KeyError(section_id)


def markdown() -> str:
    """Every game's rules as one Markdown document (what ``docs/rules.md`` holds)."""
    out = [
        "# Deckhand rules",
        "",
        "Generated from `cogs/rules_text/` with `python -m cogs.rules_text > docs/rules.md`;",
        "the same text `/rules` shows in Discord. Edit the modules, not this file.",
        "",
    ]
    for rules in all_rules().values():
        out += [f"## {rules.name}", "", f"`/rules game:{rules.id}`", ""]
        for section in rules.sections:
            out += [f"### {section.title}", "", f"`section:{section.id}`", "", section.body.strip(), ""]
    return "\n".join(out)


__all__ = ["GameRules", "Page", "Section", "PAGE_LIMIT", "all_rules", "pages", "first_page", "split_body",
           "markdown"]
