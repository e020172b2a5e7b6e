"""Words for people, in their language: one gettext catalog per language, English the source.

Code never builds a sentence for a person directly: it makes a :class:`Text` (:func:`say` or
:func:`plural`), an English source string with named ``{placeholders}`` and their values,
and whoever shows it renders it in the reader's language (:meth:`Text.render`). So engines,
the service and the Discord layer keep words as data, a stored event can be read in any
language later, and nothing translated is ever stored or put in a ``custom_id``.

Catalogs are gettext's ``.po`` files, managed with Babel (``python -m games.i18n``): the
shared words in ``games/locales/<language>.po``, and each game's in its own package,
``games/<package>/locales/<language>.po``, so a game's words travel with it. A language is
one catalog in each of those folders; :data:`LANGUAGES` lists those the shared folder has.
The registry tells this module which games' catalogs to read (:func:`read_catalogs`); a
language's catalogs are read and compiled in memory, one after another, the first time the
language is used. A string missing from them falls back to English.

Where one English string means two things, each meaning is its own entry, told apart by a
gettext context (``msgctxt``): :func:`say_as` ("Wins" as an attack's outcome is French
"Gagne", as a leaderboard's order "Victoires").

Values are rendered too: a nested :class:`Text` in the same language, a :class:`Seat` as the
player's name (a list of seats, their names one after another), a whole number with the
language's digit grouping (Babel; English, the source, writes its digits as they are, as
Deckhand always has: ``1000``), a
:class:`~games.cards.Card` with the language's rank letters (a list of cards, one after
another), a :class:`SlashCommand` or :class:`SlashOption` as the language's client shows it. A :class:`Text` is
plain data (:meth:`Text.to_json`): stored, then read in any language.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from ..playing_card import BY_CODE, Card
from ..slots import slot_setters

SOURCE = "en"
"""The language code is written in."""
LOCALES = Path(__file__).parent.parent / "locales"
"""The shared catalogs' folder: the words of everything but the games (and of games that are one module)."""
LANGUAGES: tuple[str, ...] = (SOURCE, *sorted(p.stem for p in LOCALES.glob("*.po")))
"""Every language Deckhand speaks: English and one per shared catalog file."""
_GAME_FOLDERS: tuple[Path, ...] = ()

NAME_CONTEXT = "slash command name"
"""The catalog context of slash command, group and option names: their translations follow
Discord's name rules (lowercase, no spaces), other strings' don't."""

_FIELD = re.compile(r"\{(\w+)")


@dataclass(frozen=True, slots=True, init=False)
class Seat:
    """A player by seat number, shown as their name when rendered (names are known only then)."""

    number: int

    def __init__(self, number: int) -> None:
        _set_number(self, number)


(_set_number,) = slot_setters(Seat, "number")


@dataclass(frozen=True, slots=True)
class SlashCommand:
    """A slash command as typed in English (``/q2j start``), shown as a client in the reader's
    language shows it: each word's name in :data:`NAME_CONTEXT` (``/q2j démarrer`` in French)."""

    typed: str

    def render(self, language: str = SOURCE) -> str:
        return "/" + " ".join(SlashOption(word).render(language) for word in self.typed.removeprefix("/").split())


@dataclass(frozen=True, slots=True)
class SlashOption:
    """A slash command option's English name (``timer``), shown as a client in the reader's
    language names it: its name in :data:`NAME_CONTEXT` (``minuteur`` in French)."""

    name: str

    def render(self, language: str = SOURCE) -> str:
        return catalog(language).pgettext(NAME_CONTEXT, self.name)


@dataclass(frozen=True, slots=True, init=False)
class Text:
    """Words not yet in any language: an English ``source`` with ``{name}`` placeholders
    filled from ``args``; with ``plural``, the English plural form, chosen by ``args["count"]``;
    with ``context``, the meaning ``source`` has here (:func:`say_as`)."""

    source: str
    args: Mapping[str, Any]
    plural: str | None
    context: str | None

    def __init__(self, source: str, args: Mapping[str, Any] | None = None, plural: str | None = None,
                 context: str | None = None) -> None:
        _set_source(self, source)
        _set_args(self, {} if args is None else args)
        _set_plural(self, plural)
        _set_context(self, context)

    def render(self, language: str = SOURCE, names: Sequence[str] = ()) -> str:
        """The words in ``language``, seats (:class:`Seat`) named by ``names``."""
        translations = catalog(language)
        if self.plural is None:
            pattern = (translations.gettext(self.source) if self.context is None
                       else translations.pgettext(self.context, self.source))
        elif self.context is None:
            pattern = translations.ngettext(self.source, self.plural, int(self.args["count"]))
        else:
            pattern = translations.npgettext(self.context, self.source, self.plural, int(self.args["count"]))
        if not self.args:
            return pattern
        values = {name: render_value(value, language, names) for name, value in self.args.items()}
        return pattern.format_map(values)

    def __str__(self) -> str:
        return self.render(SOURCE)

    def fields(self) -> set[str]:
        """The placeholders its English source names."""
        return set(_FIELD.findall(self.source)) | set(_FIELD.findall(self.plural or ""))

    def to_json(self) -> dict[str, Any]:
        """Plain data (what is stored: a stored event is read in any language later)."""
        data: dict[str, Any] = {"say": self.source}
        if self.args:
            data["args"] = {name: _encode(value) for name, value in self.args.items()}
        if self.plural is not None:
            data["plural"] = self.plural
        if self.context is not None:
            data["context"] = self.context
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Text:
        """The inverse of :meth:`to_json`; a plain string (stored before words were data) is
        shown as it is, in the language it was stored in."""
        if isinstance(data, str):
            return Text("{stored}", {"stored": data})
        args = {name: _decode(value) for name, value in (data.get("args") or {}).items()}
        return cls(data["say"], args, data.get("plural"), data.get("context"))


_set_source, _set_args, _set_plural, _set_context = slot_setters(Text, "source", "args", "plural", "context")


def _encode(value: Any) -> Any:
    if isinstance(value, Text):
        return {"text": value.to_json()}
    if isinstance(value, Card):
        return {"card": value.code}
    if isinstance(value, Seat):
        return {"seat": value.number}
    if isinstance(value, SlashCommand):
        return {"command": value.typed}
    if isinstance(value, SlashOption):
        return {"option": value.name}
    if isinstance(value, (list, tuple)) and all(isinstance(v, Card) for v in value):
        return {"cards": [card.code for card in value]}
    if isinstance(value, (list, tuple)) and all(isinstance(v, Seat) for v in value):
        return {"seats": [seat.number for seat in value]}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if "text" in value:
            return Text.from_json(value["text"])
        if "card" in value:
            return BY_CODE[value["card"]]
        if "seat" in value:
            return Seat(value["seat"])
        if "command" in value:
            return SlashCommand(value["command"])
        if "option" in value:
            return SlashOption(value["option"])
        if "cards" in value:
            return tuple(BY_CODE[code] for code in value["cards"])
        if "seats" in value:
            return tuple(Seat(number) for number in value["seats"])
    return value


def say(source: str, **args: Any) -> Text:
    """A translatable string: ``source`` in English, ``{name}`` placeholders filled from ``args``."""
    return Text(source, args)


def say_as(context: str, source: str, **args: Any) -> Text:
    """:func:`say` for an English string that means something else elsewhere: ``context`` (the
    catalog's ``msgctxt``, a few words for translators) names the meaning it has here, so each
    meaning is translated on its own: ``say_as("an attack's outcome", "Wins")``."""
    return Text(source, args, context=context)


def plural(singular: str, plural_form: str, count: int, **args: Any) -> Text:
    """A translatable string with a form per number (``"{count} card"``, ``"{count} cards"``)."""
    return Text(singular, {"count": count, **args}, plural_form)


def render_value(value: Any, language: str, names: Sequence[str] = ()) -> str:
    """A placeholder's value as words in ``language`` (see the module docs), seats named by ``names``."""
    if isinstance(value, Text):
        return value.render(language, names)
    if isinstance(value, Seat):
        if value.number < len(names):
            return names[value.number]
        return say("Seat {number}", number=value.number + 1).render(language)
    if isinstance(value, Card):
        return card_name(value, language)
    if isinstance(value, (SlashCommand, SlashOption)):
        return value.render(language)
    if isinstance(value, (list, tuple)) and all(isinstance(v, Card) for v in value):
        return " ".join(card_name(card, language) for card in value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, Seat) for v in value):
        return ", ".join(render_value(seat, language, names) for seat in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value) if language == SOURCE else format_decimal(value, locale=language)
    return str(value)


LETTERED_RANKS = ("A", "J", "Q", "K")


def card_name(card: Card, language: str = SOURCE) -> str:
    """A card as players read it: its rank (:func:`rank_name`) and its suit's symbol."""
    return rank_name(card.rank, language) + card.pretty[len(card.rank):]


def rank_name(rank: str, language: str = SOURCE) -> str:
    """A rank (``"Q"``, ``"10"``) as the language writes it: As, Valet, Dame, Roi are A, V, D, R
    in French; numbers as they are."""
    if rank not in LETTERED_RANKS or language == SOURCE:
        return rank
    return catalog(language).pgettext("card rank", rank)


def read_catalogs(folders: Iterable[Path]) -> None:
    """From now on, read the catalogs in ``folders`` (the registered games' ``locales/``) after
    the shared ones (the registry calls this whenever a game comes or goes)."""
    global _GAME_FOLDERS
    wanted = tuple(dict.fromkeys(folder for folder in folders if folder != LOCALES))
    if wanted != _GAME_FOLDERS:
        _GAME_FOLDERS = wanted
        catalog.cache_clear()


def catalog_files(language: str) -> list[Path]:
    """Every catalog of ``language`` there is: the shared one, then each registered game's."""
    return [path for path in (LOCALES / f"{language}.po", *(f / f"{language}.po" for f in _GAME_FOLDERS))
            if path.is_file()]


def _compiled(path: Path, language: str) -> gettext.GNUTranslations:
    with path.open("rb") as po:
        messages = read_po(po, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, messages, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalogs of ``language``, the shared one first, each game's after it (English,
    or a language without catalogs: the source as it is)."""
    files = catalog_files(language) if language != SOURCE else []
    if not files:
        return gettext.NullTranslations()
    first, *others = (_compiled(path, language) for path in files)
    for other in others:
        first.add_fallback(other)
    return first


def language_of(locale: str | None) -> str:
    """The language Deckhand speaks to a Discord locale (``"fr"``, ``"en-US"``, ``"pt-BR"``):
    its own if there is a catalog for it, else English."""
    if not locale:
        return SOURCE
    for candidate in (locale, locale.split("-")[0]):
        if candidate in LANGUAGES:
            return candidate
    return SOURCE
