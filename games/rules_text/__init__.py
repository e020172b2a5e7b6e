"""The rules of every Deckhand game, in Deckhand's own words, as data.

Each game is a :class:`GameRules`: an ordered list of :class:`Section` (a
stable ``id`` used by ``/rules section:`` and the section menu, a title, and a
Markdown body). :func:`pages` cuts a game's sections into :class:`Page` s that
each fit one Discord embed comfortably (:data:`PAGE_LIMIT` characters of
description), splitting long sections at paragraph breaks, then at line
breaks, never inside a word.

Each game's text lives in its own package (``games/<game>/rules_text.py``,
reached as ``Game.rules``), not in data files, so it is installed with the
package like any other code; this module holds what they share. ``python -m
games.rules_text`` prints every registered game as one Markdown document
(``docs/rules.md`` is that output).

Cards are written in display form (Q♥, 10♠, 🃏), never as engine codes. Commands, their
options and choices (in code spans) are written as the reader's client shows them: as typed
in English, and under the catalog's names for them in a translation (``/q2j démarrer
variante:Classic``; ``tests/test_rules.py`` checks each against the commands Discord is
given); a command filled into a placeholder is a :class:`~games.i18n.SlashCommand`, and the
game's own start command is the placeholder value :data:`START`, which the game fills in
(its rules never spell its command, id or name: :meth:`GameRules.of_game`).

The words are translatable (:mod:`games.i18n`): a game's name and each section's title and
body are :class:`~games.i18n.Text` made with ``say("…")`` around a literal (what Babel
extracts into the game's catalogs, ``games/<package>/locales/<language>.po``), or plain strings, shown as they are in every
language. :meth:`GameRules.in_language` gives the rules with every word in one language,
and :func:`pages` pages them in that language; English is the default everywhere, so the
English rules are the text itself.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from ..i18n import SOURCE, SlashCommand, Text, say

PAGE_LIMIT = 3000
"""Most characters in one page's description (Discord allows 4096)."""

SECTION_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

Words = str | Text
"""Words of the rules: a translatable :class:`~games.i18n.Text` (``say("…")``), or a plain
string shown as it is in every language."""


def words(value: Words, language: str = SOURCE) -> str:
    """``value`` in ``language``."""
    return value.render(language) if isinstance(value, Text) else value


def joined(parts: Sequence[Words], separator: str = "\n") -> Text:
    """Several words one after another, each rendered in the reader's language (a :class:`Text`
    made only of placeholders: nothing of its own to translate)."""
    return Text(separator.join(f"{{part{n}}}" for n in range(len(parts))),
                {f"part{n}": part for n, part in enumerate(parts)})


@dataclass(frozen=True)
class Section:
    """One part of a game's rules: ``id`` (lowercase, dashes; the same in every language),
    title, Markdown body."""

    id: str
    title: Words
    body: Words

    def in_language(self, language: str = SOURCE) -> Section:
        """The section with its title and body in ``language`` (plain strings)."""
        return Section(self.id, words(self.title, language), words(self.body, language))


class StartCommand:
    """The placeholder value :data:`START`: the start command of the game whose rules hold it."""

    def __repr__(self) -> str:
        return "START"

    def __str__(self) -> str:
        return "/<game> start"


START = StartCommand()
"""A placeholder's value in a game's rules text that stands for the game's start command
(``say("Open a table with `{command}`.", command=START)``): the game fills it in
(:meth:`GameRules.of_game`), and it is shown as the reader's client names it (``/war démarrer``)."""


def _with_command(value: Words, command: SlashCommand) -> Words:
    """``value`` with :data:`START` filled in as ``command``, in nested words too."""
    if not isinstance(value, Text) or not value.args:
        return value
    args = {name: command if arg is START else _with_command(arg, command) for name, arg in value.args.items()}
    return Text(value.source, args, value.plural)


@dataclass(frozen=True)
class GameRules:
    """A game's rules: sections in reading order, and other names ``/rules game:`` accepts
    when typed by hand. Its ``id`` (as in ``games.GAME_IDS``), display ``name`` and the
    ``command`` that opens a table (``/q2j start``) are the game's, given by it
    (:meth:`of_game`, which ``Game`` calls): a rules text never writes them."""

    sections: tuple[Section, ...]
    aliases: tuple[str, ...] = ()
    id: str = ""
    name: Words = ""
    command: str = ""
    _languages: dict[str, GameRules] = field(default_factory=dict, init=False, repr=False, compare=False)

    def of_game(self, game_id: str, name: str, command: str) -> GameRules:
        """These rules as the game ``game_id`` (called ``name``, opened by ``command``) shows
        them: its identity filled in, and :data:`START` in every section as ``command``."""
        start = SlashCommand(command)
        sections = tuple(Section(s.id, s.title, _with_command(s.body, start)) for s in self.sections)
        # The name is a proper name; a catalog may still write it its own way (the registry's
        # names are extracted for it: python -m games.i18n).
        return GameRules(sections, self.aliases, game_id, Text(name), command)

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)

    def in_language(self, language: str = SOURCE) -> GameRules:
        """The rules with their name and every section in ``language``, as plain strings
        (the same object every time for one language)."""
        rendered = self._languages.get(language)
        if rendered is None:
            rendered = GameRules(tuple(section.in_language(language) for section in self.sections), self.aliases,
                                 self.id, words(self.name, language), self.command)
            rendered._languages[language] = rendered
            self._languages[language] = rendered
        return rendered

    def sections_in(self, language: str = SOURCE) -> tuple[Section, ...]:
        """Every section, with its words in ``language``."""
        return self.in_language(language).sections


@dataclass(frozen=True)
class Page:
    """One embed's worth of a game's rules, in one language (``game`` and ``section`` hold
    plain strings in that language)."""

    game: GameRules
    index: int  # 0-based, over the whole game
    section: Section
    part: int  # 1-based part of the section
    parts: int  # how many pages the section takes
    body: str
    language: str = SOURCE

    @property
    def title(self) -> str:
        title = say("{game} rules — {section}", game=self.game.name, section=self.section.title).render(self.language)
        if self.parts > 1:
            title += f" ({self.part}/{self.parts})"
        return title


def _pack(pieces: Iterable[str], limit: int, joiner: str) -> list[str]:
    """``pieces`` (none longer than ``limit``) joined by ``joiner`` into as few runs of at most
    ``limit`` characters as greedy packing gives, in order."""
    packed, current = [], ""
    for piece in pieces:
        candidate = f"{current}{joiner}{piece}" if current else piece
        if len(candidate) <= limit:
            current = candidate
        else:
            packed.append(current)
            current = piece
    if current:
        packed.append(current)
    return packed


def _split_words(text: str, limit: int) -> list[str]:
    """``text`` cut at spaces into runs of at most ``limit`` characters; a word longer than
    that is cut into pieces of its own."""
    return _pack((word[start:start + limit] for word in text.split(" ")
                  for start in range(0, max(len(word), 1), limit)), limit, " ")


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
        blocks += _pack((piece for line in para.split("\n")
                         for piece in ([line] if len(line) <= limit else _split_words(line, limit))), limit, "\n")
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


def pages(rules: GameRules, language: str = SOURCE) -> tuple[Page, ...]:
    """Every page of a game's rules in ``language``, in order. A longer language may take
    more pages: page numbers are those of one language."""
    return _pages(rules.in_language(language), language)


@cache
def _pages(rules: GameRules, language: str) -> tuple[Page, ...]:
    result: list[Page] = []
    for section in rules.sections:
        parts = split_body(words(section.body))
        for n, body in enumerate(parts, start=1):
            result.append(Page(rules, len(result), section, n, len(parts), body, language))
    return tuple(result)


def first_page(rules: GameRules, section_id: str, language: str = SOURCE) -> int:
    """The index of the first page of a section in ``language`` (``KeyError`` if it has none)."""
    for page in pages(rules, language):
        if page.section.id == section_id:
            return page.index
    raise KeyError(section_id)


MARKDOWN_HEADING = """\
# Deckhand rules

Generated from each game's `rules_text.py` with `python -m games.rules_text > docs/rules.md`;
the same text `/rules` shows in Discord. Edit the modules, not this file.
"""


def markdown_part(rules: GameRules) -> str:
    """One game's rules in English as a part of ``docs/rules.md``: its heading, then every section."""
    rules = rules.in_language(SOURCE)
    out = ["", f"## {rules.name}", "", f"`/rules game:{rules.id}`", ""]
    for section in rules.sections:
        out += [f"### {section.title}", "", f"`section:{section.id}`", "", words(section.body).strip(), ""]
    return "\n".join(out[:-1])


def markdown(every_rules: Iterable[GameRules]) -> str:
    """Games' rules as one Markdown document (``docs/rules.md`` holds the registered games'):
    :data:`MARKDOWN_HEADING`, then each game's :func:`markdown_part`."""
    return MARKDOWN_HEADING + "".join(markdown_part(rules) + "\n" for rules in every_rules)


CONCEPT_BRIEF = say("""\
Every battle is decided by the **Q2J concept**, the same rule that decides which card may be played on which in Q Squared Joe (`/rules game:q2j section:concept` has it in full). Ranks count A=1, 2–10, J=11, Q=12, K=13, and the first of these checks that applies decides:

1. **Same rank**: the cards are equally strong.
2. **Ace against a face card** (J, Q, K): the ace is stronger, whatever the suits and whoever attacks.
3. **Same suit**: the *lower* rank is stronger.
4. **Different suits**: the *higher* rank is stronger.

There is no order of suits, and strength works both ways: if your card is stronger than the target, the target is weaker than your card.""")


TIMER_OPTION = say(
    "- `timer:` minutes per turn, from 0 to 1440; **0 turns the timer off**. Default: the server's setting, "
    "otherwise 10."
)
"""The line every game's table options section has for the shared ``timer`` option."""

HINTS_OPTION = say(
    "- `hints:` **True** (default) offers a **💡 Hint** button to the player to move: privately, the move "
    "Deckhand's normal AI would make and why. **False** turns hints off. A game in which anyone took a hint "
    "is recorded unrated."
)
"""The line every game's table options section has for the shared ``hints`` option."""


def playing_in_deckhand(players: Words, controls: Words) -> Section:
    """The "Playing in Deckhand" section of a game: ``players`` how many play (``say("2 to 4
    players")``), ``controls`` a paragraph on the game's own buttons."""
    return Section("deckhand", say("Playing in Deckhand"), say("""\
**Opening a table.** `{command}` opens a lobby in the channel with **Join**, **Leave**, **Add AI**, **Remove AI**, **Start** and **Cancel**. Whoever ran the command is the host: only the host adds or removes AI players and starts the game ({players}). Seats follow the order people joined. A channel or thread holds one table at a time; a server can give every new table its own thread with `/settings threads enabled:True`.

**The table.** When the game starts, the lobby message becomes the public table message. It is updated after every move with the board, whose turn it is and the latest events, and the player to act gets a short ping.

**Your hand.** The **🂠 My hand** button (or `/table hand`) answers privately, only to you, with your cards and **only your legal moves** as buttons and menus. It updates in place after you move; **Refresh** rebuilds it. A button from an earlier turn, or a double click, changes nothing: you just get your hand as it is now.
{controls}

**Timers.** Each table has a turn timer: the server's default (`/settings timer minutes:`), otherwise 10 minutes; `timer:0` turns it off. Halfway through your turn you get a reminder; when time runs out an AI plays that turn for you, and after three timeouts in a row the AI keeps your seat (a move of your own resets the count).

**AI players and leaving.** AI players fill empty seats, each at the level the host picks: easy, normal or hard (the server's `/settings ai-level level:` is offered first). `/table leave` hands your seat to an AI, at the server's level, and the game goes on; when the last person leaves, the game ends as abandoned. `/table status` shows who is to play and the timer; `/table end` closes the table (the host, or anyone with Manage Server).""",
                                                        command=START, players=players, controls=controls))


__all__ = ["GameRules", "Page", "Section", "Words", "PAGE_LIMIT", "START", "pages", "first_page", "split_body",
           "markdown", "markdown_part", "words", "joined", "CONCEPT_BRIEF", "TIMER_OPTION", "HINTS_OPTION",
           "playing_in_deckhand"]
