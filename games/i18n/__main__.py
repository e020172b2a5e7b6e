"""``python -m games.i18n``: keep the catalogs in step with the code.

* ``update``: find every translatable string in ``bot/``, ``cogs/`` and ``games/`` (``say("…")``,
  ``plural("…", "…", n)``, the slash commands' ``locale_str("…")`` descriptions and choices and
  ``slash_name("…")`` names, the games' names and their command and option names, and the
  card ranks' letters) and bring every catalog in
  ``games/locales/`` up to date: new strings are added untranslated, strings no longer used are
  dropped, changed ones are marked fuzzy (Babel's ``update``);
* ``add <language>``: start a catalog for a new language (then translate it: no code to write);
* ``check``: for each catalog, how many strings are translated, untranslated and fuzzy, and
  whether every translation names the same placeholders as its English source and every
  slash-command name follows Discord's rules; exit status 1 if a catalog is incomplete or wrong.
"""

from __future__ import annotations

import argparse
import io
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from .. import all_games
from . import LOCALES, NAME_CONTEXT, Text

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bot", "cogs", "games")
KEYWORDS = {"say": None, "plural": (1, 2), "locale_str": None}
"""Calls whose string arguments are translatable (as Babel's extractor reads them):
``locale_str`` marks a slash command's description or choice (discord.py's own marker)."""
NAME_KEYWORDS = {"slash_name": None}
"""Calls naming a slash command, group or option (``cogs.translator.slash_name``), extracted
in :data:`~games.i18n.NAME_CONTEXT` (their translations follow Discord's name rules: :func:`valid_name`)."""
NAME_LENGTH = 32
CARD_RANKS = ("A", "J", "Q", "K")
TRANSLATORS = "Deckhand maintainers (the project's issues)"
"""Who answers for a catalog, in its header."""
"""Rank letters, translated in the ``card rank`` context (:func:`games.i18n.card_name`)."""


def template() -> Catalog:
    """Every translatable string in the code, as an empty catalog."""
    found = Catalog(project="Deckhand", locale="en")
    for keywords, in_context in ((KEYWORDS, None), (NAME_KEYWORDS, NAME_CONTEXT)):
        for package in SOURCES:
            for path, line, message, comments, context in extract_from_dir(
                    ROOT / package, method_map=[("**.py", "python")], keywords=keywords):
                found.add(message, locations=[(f"{package}/{path}", line)], auto_comments=comments,
                          context=context or in_context)
    for game in all_games():
        # Generated per game (cogs/start_commands.py), so found here rather than in the code.
        found.add(game.name, auto_comments=["A game's name (a slash-command choice)"])
        for name in (game.command or game.id, *(spec.name for spec in game.options)):
            found.add(name, context=NAME_CONTEXT,
                      auto_comments=[f"{game.name}: its slash-command group, or an option of its start command"])
    for rank in CARD_RANKS:
        found.add(rank, context="card rank", auto_comments=["A card's rank letter (Ace, Jack, Queen, King)"])
    return found


def read(path: Path) -> Catalog:
    with path.open("rb") as po:
        return read_po(po)


def written(catalog: Catalog) -> bytes:
    """``catalog`` as its file holds it, its header complete (``msgfmt --check`` asks for every field).
    Locations name the file without its line, and the revision date is the one the catalog has, so
    an ``update`` that finds nothing new writes the same file (git history dates the revisions)."""
    catalog.msgid_bugs_address = TRANSLATORS
    catalog.last_translator = TRANSLATORS
    catalog.language_team = f"{catalog.locale} <{TRANSLATORS}>"
    po = io.BytesIO()
    write_po(po, catalog, width=100, omit_header=False, sort_output=False, ignore_obsolete=True,
             include_lineno=False)
    return po.getvalue()


def updated(path: Path) -> bytes:
    """The catalog at ``path`` brought up to date with the code, as :func:`update` writes it."""
    catalog = read(path)
    catalog.update(template(), no_fuzzy_matching=False, update_creation_date=False)  # not the clock's minute
    return written(catalog)


def update(paths: Iterable[Path]) -> None:
    for path in paths:
        path.write_bytes(updated(path))
        print(f"{path.relative_to(ROOT)}: {len(read(path))} strings")


def add(language: str) -> Path:
    path = LOCALES / f"{language}.po"
    if path.exists():
        raise SystemExit(f"{path} exists already")
    catalog = Catalog(project="Deckhand", locale=language, revision_date=datetime.now(UTC))
    catalog.update(template())
    path.write_bytes(written(catalog))
    return path


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


def valid_name(name: str) -> bool:
    r"""Whether Discord takes ``name`` as a slash command's, group's or option's name:
    ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, lowercase where a letter has cases
    (the Devanagari and Thai combining marks Discord also takes are refused here: no
    catalog needs them yet)."""
    return (0 < len(name) <= NAME_LENGTH and name == name.lower()
            and all(c in "-_'" or unicodedata.category(c)[0] in "LN" for c in name))


def check(paths: Iterable[Path]) -> int:
    status = 0
    for path in paths:
        catalog = read(path)
        wrong = problems(catalog)
        total = sum(1 for m in catalog if m.id)
        print(f"{path.relative_to(ROOT)}: {total} strings, {len(wrong)} problem(s)")
        for problem in wrong[:50]:
            print(f"  {problem}")
        status = status or (1 if wrong else 0)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.i18n", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("update", help="bring every catalog up to date with the code")
    commands.add_parser("check", help="say what each catalog lacks")
    adding = commands.add_parser("add", help="start a catalog for a new language")
    adding.add_argument("language", help="its code, as Discord names it (fr, de, pt-BR...)")
    args = parser.parse_args(argv)
    catalogs = sorted(LOCALES.glob("*.po"))
    if args.command == "update":
        update(catalogs)
    elif args.command == "add":
        print(f"started {add(args.language)}: translate it, then `python -m games.i18n check`")
    else:
        return check(catalogs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
