"""Slash commands in every catalog's language, through discord.py's :class:`~discord.app_commands.Translator`.

Discord shows a command's ``name_localizations`` and ``description_localizations`` (and its
options' and choices') to a client in that locale; the interaction it sends back names the
command, its options and choices by their English names, so a translated command routes as
it always did. The words come from the same catalogs as everything else (:mod:`games.i18n`):

* a name (command, group, option) is looked up in the :data:`NAME_CONTEXT` context, since
  its translation must follow Discord's name rules (lowercase, no spaces: ``/q2j démarrer``);
  in code it is marked :func:`slash_name`, which ``python -m games.i18n update`` extracts in
  that context (the games' option and command names are extracted from the games
  themselves);
* a description or a choice's name is a catalog string, marked ``locale_str("…")`` in the
  declarations (extracted like ``say()``), or a :class:`~games.i18n.Text` an engine gave
  (:func:`command_text`), rendered in the language with its values.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes, locale_str

from games.i18n import NAME_CONTEXT, SOURCE, Text, catalog, language_of

from .limits import CHOICE_NAME, COMMAND_DESCRIPTION, clip

NAMES = frozenset({TranslationContextLocation.command_name, TranslationContextLocation.group_name,
                   TranslationContextLocation.parameter_name})
"""Where a string is a name: never cut (``python -m games.i18n check`` holds names to
Discord's rules), since a cut name could be another's."""


def slash_name(name: str) -> locale_str:
    """A command's, group's or option's name, translated in :data:`NAME_CONTEXT`."""
    return locale_str(name)


def command_text(words: Text | str, limit: int) -> locale_str:
    """A description or choice name an engine or a table gives: a :class:`Text`, or a
    string that is a catalog entry (a game's name); the English cut to ``limit``."""
    if isinstance(words, Text):
        return locale_str(clip(str(words), limit), text=words)
    return locale_str(clip(words, limit))


class CatalogTranslator(app_commands.Translator):
    """Translates the command tree from the catalogs, for every locale a catalog speaks."""

    async def translate(self, string: locale_str, locale: Locale, context: TranslationContextTypes) -> str | None:
        language = language_of(locale.value)
        if language == SOURCE:
            return None  # Discord shows the English itself
        if context.location in NAMES:
            return catalog(language).pgettext(NAME_CONTEXT, string.message)
        text = string.extras.get("text")
        words = text.render(language) if isinstance(text, Text) else catalog(language).gettext(string.message)
        limit = CHOICE_NAME if context.location is TranslationContextLocation.choice_name else COMMAND_DESCRIPTION
        return clip(words, limit)
