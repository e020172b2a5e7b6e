"""``python -m games.i18n``: keep the catalogs in step with the code.

* ``update``: find every translatable string in ``bot/``, ``cogs/`` and ``games/`` (``say("…")``,
  ``say_as("context", "…")``, ``plural("…", "…", n)``, the slash commands' ``locale_str("…")``
  descriptions and choices and ``slash_name("…")`` names, the games' names and their command and
  option names, and the card ranks' letters) and bring every catalog up to date, each string in the catalog of the
  package it is in (:func:`templates`): a game's words in ``games/<package>/locales/``, the rest
  in ``games/locales/``. New strings are added untranslated, or with the translation any catalog
  of the language already has for them (a string that moved keeps its translation), strings no
  longer used are dropped, changed ones are marked fuzzy (Babel's ``update``) with their closest
  old translation. Running it again changes nothing; it writes nothing while two catalogs of a
  language translate one string differently (say, after a merge), listing them;
* ``add <language>``: start every catalog for a new language (then translate them: no code to write);
* ``check``: for each catalog, how many strings are translated, untranslated and fuzzy, and
  whether every translation names the same placeholders as its English source and every
  slash-command name follows Discord's rules, and for each language, whether two catalogs
  translate one string differently; exit status 1 if a language is incomplete or wrong.
"""

from __future__ import annotations

import argparse
import io
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.core import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from .. import all_games, home_of
from ..base import Game
from . import LANGUAGES, LOCALES, NAME_CONTEXT, Text, catalog_files

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bot", "cogs", "games", "web")
GAME_MODULES = ("cogs/looks/{package}.py",)
"""A game's Discord look, beside its package in the same checkout: its words are the game's, so
they travel with it (its pictures are in its package)."""
KEYWORDS = {"say": None, "say_as": ((1, "c"), 2), "plural": (1, 2), "locale_str": None}
"""Calls whose string arguments are translatable (as Babel's extractor reads them):
``say_as`` gives its string a context (its first argument, a literal like the string, so the
extractor reads it); ``locale_str`` marks a slash command's description or choice (discord.py's own marker)."""
NAME_KEYWORDS = {"slash_name": None}
"""Calls naming a slash command, group or option (``cogs.translator.slash_name``), extracted
in :data:`~games.i18n.NAME_CONTEXT` (their translations follow Discord's name rules: :func:`valid_name`)."""
NAME_LENGTH = 32
CARD_RANKS = ("A", "J", "Q", "K")
"""Rank letters, translated in the ``card rank`` context (:func:`games.i18n.card_name`)."""
TRANSLATORS = "Deckhand maintainers (the project's issues)"
"""Who answers for a catalog, in its header."""


@dataclass(frozen=True, eq=False)
class Words:
    """One set of catalogs, one file per language in ``folder``: the shared words (``game`` None)
    or one game's."""

    folder: Path
    game: Game[Any] | None = None

    def path(self, language: str) -> Path:
        return self.folder / f"{language}.po"

    def header(self, language: str) -> str:
        """The comment a new catalog of these words starts with."""
        name = Locale.parse(language).english_name
        if self.game is None:
            return f"# Deckhand in {name}."
        return f"# {self.game.name} in {name}: the game's own words (the shared ones are in games/locales/)."


def every_words() -> list[Words]:
    """The shared words, then each registered game's that has a package (a game that is one module
    has its words in the catalogs beside it: in ``games/``, the shared ones)."""
    found = [Words(LOCALES)]
    for game in all_games():
        home = home_of(game)
        if home.is_dir() and home / "locales" != LOCALES:
            found.append(Words(home / "locales", game))
    return found


def _sources(words: list[Words]) -> list[tuple[Path, Path, Words]]:
    """Every source file with translatable strings as ``(its path in its checkout, the file, whose
    words it holds)``, in the order of those paths, so that a game's catalog is written the same
    wherever its package is (in this checkout, or registered from another)."""
    files = {path: (path.relative_to(ROOT), words[0]) for folder in SOURCES for path in (ROOT / folder).rglob("*.py")}
    for owner in words[1:]:
        assert owner.game is not None
        home = home_of(owner.game)
        checkout = home.parent.parent if home.parent.name == "games" else home.parent
        for path in [*home.rglob("*.py"), *(checkout / module.format(package=home.name) for module in GAME_MODULES)]:
            if path.is_file():
                files[path] = (path.relative_to(checkout), owner)
    return sorted(((relative, path, owner) for path, (relative, owner) in files.items()), key=lambda file: file[0])


def templates() -> dict[Words, Catalog]:
    """Every translatable string of the code, as an empty catalog per set of words: a string
    a game's package (or its Discord look) uses is that game's, unless shared code uses it
    too, which makes it shared (each game's catalogs hold what the game needs beyond the shared)."""
    words = every_words()
    shared = words[0]
    found = {w: Catalog(project="Deckhand", locale="en") for w in words}
    for relative, path, owner in _sources(words):
        location = str(relative)
        for keywords, in_context in ((KEYWORDS, None), (NAME_KEYWORDS, NAME_CONTEXT)):
            for line, string, comments, context in extract_from_file("python", path, keywords=keywords):
                found[owner].add(string, locations=[(location, line)], auto_comments=comments,
                                 context=context or in_context)
    for owner in words[1:]:
        game = owner.game
        assert game is not None
        # Generated per game (cogs/start_commands.py), so found here rather than in the code.
        found[owner].add(game.name, auto_comments=["A game's name (a slash-command choice)"])
        for name in (game.command, *(spec.name for spec in game.options)):
            found[owner].add(name, context=NAME_CONTEXT,
                             auto_comments=[f"{game.name}: its slash-command group, or an option of its start command"])
    for rank in CARD_RANKS:
        found[shared].add(rank, context="card rank", auto_comments=["A card's rank letter (Ace, Jack, Queen, King)"])
    for owner in words[1:]:
        for message in list(found[owner]):
            if message.id and found[shared].get(message.id, message.context) is not None:
                found[owner].delete(message.id, message.context)
    return found


def template() -> Catalog:
    """Every translatable string of the code, in one empty catalog."""
    every = Catalog(project="Deckhand", locale="en")
    for found in templates().values():
        for message in found:
            if message.id:
                every[message.id] = message
    return every


def read(path: Path) -> Catalog:
    with path.open("rb") as po:
        return read_po(po)


def merged(language: str) -> Catalog:
    """Every catalog of ``language`` as one, as the bot reads them (a string's first translation wins)."""
    every = Catalog(locale=language)
    for path in catalog_files(language):
        for message in read(path):
            if message.id and every.get(message.id, message.context) is None:
                every[message.id] = message
    return every


def written(catalog: Catalog) -> bytes:
    """``catalog`` as its file holds it, its header complete (``msgfmt --check`` asks for every field).
    Locations name the file without its line, and the revision date is the one the catalog has, so
    an ``update`` that finds nothing new writes the same file (git history dates the revisions)."""
    catalog.msgid_bugs_address = TRANSLATORS
    catalog.last_translator = TRANSLATORS
    catalog.language_team = f"{catalog.locale} <{TRANSLATORS}>"
    for message in catalog:
        # A fuzzy guess takes the flags of the string it was guessed from; reading the file back
        # would drop a format flag its own string doesn't have, so it is dropped here already.
        if message.id and not message.python_brace_format:
            message.flags.discard("python-brace-format")
    po = io.BytesIO()
    write_po(po, catalog, width=100, omit_header=False, sort_output=False, ignore_obsolete=True,
             include_lineno=False)
    return po.getvalue()


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
    return not message.fuzzy and all(strings)


def _started(words: Words, language: str) -> Catalog:
    catalog = Catalog(locale=language, version="Deckhand", fuzzy=False, revision_date=datetime.now(UTC))
    catalog.project = ""  # Project-Id-Version "{project} {version}": " Deckhand", as the first catalog has it
    catalog.header_comment = words.header(language)
    return catalog


def updated(words: Words, language: str, template: Catalog, memory: Iterable[Catalog]) -> bytes:
    """``words``' catalog of ``language`` brought up to date with ``template``: what it had, and for
    what it lacks (or has only untranslated or fuzzy), the translation another catalog in
    ``memory`` has, so that a string moving between catalogs keeps its translation."""
    path = words.path(language)
    catalog = read(path) if path.is_file() else _started(words, language)
    for other in memory:
        for message in other:
            if not message.id or not _translated(message):
                continue
            own = catalog.get(message.id, message.context)
            if own is None or not _translated(own):
                if own is not None:
                    catalog.delete(message.id, message.context)
                catalog[message.id] = message.clone()
    catalog.update(template, no_fuzzy_matching=False, update_creation_date=False)
    return written(catalog)


def every_update(languages: Sequence[str] = LANGUAGES[1:]) -> dict[Path, bytes]:
    """Every catalog of ``languages`` as :func:`update` writes it (missing ones started)."""
    found = templates()
    result = {}
    for language in languages:
        existing = [read(w.path(language)) for w in found if w.path(language).is_file()]
        for words, template in found.items():
            result[words.path(language)] = updated(words, language, template, existing)
    return result


def update(languages: Sequence[str] = LANGUAGES[1:]) -> int:
    """Write :func:`every_update`; 1, writing nothing, while two catalogs of a language translate a
    string differently (after merging branches, say): which one is right is a translator's call."""
    clashes = [clash for language in languages
               for clash in conflicts({path: read(path) for path in catalog_files(language)})]
    if clashes:
        print("Catalogs disagree; keep one translation of each, then run update again:", *clashes, sep="\n  ")
        return 1
    for path, content in every_update(languages).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        print(f"{_shown(path)}: {len(read(path))} strings")
    return 0


def add(language: str) -> list[Path]:
    if LOCALES.joinpath(f"{language}.po").exists():
        raise SystemExit(f"{LOCALES / f'{language}.po'} exists already")
    started = []
    for words, template in templates().items():
        catalog = _started(words, language)
        catalog.update(template, update_creation_date=False)
        path = words.path(language)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(written(catalog))
        started.append(path)
    return started


def problems(catalog: Catalog) -> list[str]:
    """What is wrong with a catalog: untranslated or fuzzy strings, placeholders that differ."""
    found = []
    for message in catalog:
        if not message.id:
            continue
        sources = [str(s) for s in (message.id if isinstance(message.id, (tuple, list)) else (message.id,))]
        label = f"{sources[0]!r}" + (f" ({message.context})" if message.context else "")
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        translations = [str(s or "") for s in strings]
        if message.fuzzy:
            found.append(f"fuzzy: {label}")
        if not all(translations):
            found.append(f"untranslated: {label}")
            continue
        wanted = set().union(*(Text(s).fields() for s in sources))
        for translation in translations:
            if Text(translation).fields() != wanted:
                found.append(f"placeholders differ: {label} -> {translation!r}")
            if message.context == NAME_CONTEXT and not valid_name(translation):
                found.append(f"not a slash-command name (lowercase letters, digits, - _ ', at most "
                             f"{NAME_LENGTH}): {label} -> {translation!r}")
    return found


def conflicts(catalogs: dict[Path, Catalog]) -> list[str]:
    """Strings that catalogs of one language translate differently (the catalogs are read as one,
    so only the first translation would ever be shown)."""
    first: dict[tuple[str, str | None], tuple[Path, Any]] = {}
    found = []
    for path, catalog in catalogs.items():
        for message in catalog:
            if not message.id or not _translated(message):
                continue
            key = (str(message.id if isinstance(message.id, str) else message.id[0]), message.context)
            seen = first.setdefault(key, (path, message.string))
            if seen[1] != message.string:
                found.append(f"translated differently in {_shown(seen[0])}: {key[0]!r} -> {message.string!r}")
    return found


def valid_name(name: str) -> bool:
    r"""Whether Discord takes ``name`` as a slash command's, group's or option's name:
    ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, lowercase where a letter has cases
    (the Devanagari and Thai combining marks Discord also takes are refused here: no
    catalog needs them yet)."""
    return (0 < len(name) <= NAME_LENGTH and name == name.lower()
            and all(c in "-_'" or unicodedata.category(c)[0] in "LN" for c in name))


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def check(languages: Sequence[str] = LANGUAGES[1:]) -> int:
    """Print what each catalog of ``languages`` lacks; 1 if any language is incomplete or wrong."""
    status = 0
    for language in languages:
        catalogs = {}
        for words in every_words():
            path = words.path(language)
            if not path.is_file():
                print(f"{_shown(path)}: missing (`python -m games.i18n update` starts it)")
                status = 1
                continue
            catalogs[path] = catalog = read(path)
            wrong = problems(catalog)
            total = sum(1 for m in catalog if m.id)
            print(f"{_shown(path)}: {total} strings, {len(wrong)} problem(s)")
            for problem in wrong[:50]:
                print(f"  {problem}")
            status = status or (1 if wrong else 0)
        clashes = conflicts(catalogs)
        for clash in clashes[:50]:
            print(f"  {clash}")
        status = status or (1 if clashes else 0)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.i18n", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("update", help="bring every catalog up to date with the code")
    commands.add_parser("check", help="say what each catalog lacks")
    adding = commands.add_parser("add", help="start every catalog for a new language")
    adding.add_argument("language", help="its code, as Discord names it (fr, de, pt-BR...)")
    args = parser.parse_args(argv)
    if args.command == "update":
        return update()
    elif args.command == "add":
        for path in add(args.language):
            print(f"started {_shown(path)}")
        print("translate them, then `python -m games.i18n check`")
    else:
        return check()
    return 0


if __name__ == "__main__":
    sys.exit(main())
