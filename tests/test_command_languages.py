"""Slash commands in every catalog's language (cogs/translator.py) and ``/settings language``.

What Discord receives at start-up (the sync's PUT body) names and describes every command,
option and choice in French, from the catalog; a changed translation is synced again and an
unchanged one is not; a French client's command, shown under its French names, comes back
under the English ones (as Discord sends it) and runs.
"""

from __future__ import annotations

import gettext
import re
from collections import Counter
from collections.abc import Iterator

from babel.messages.pofile import read_po

from cogs import translator
from cogs.settings_commands import language_name
from cogs.translator import NAME_CONTEXT
from games import all_rules, i18n
from games.i18n import LANGUAGES, LOCALES
from games.i18n.__main__ import NAME_CONTEXT as EXTRACTED_NAME_CONTEXT
from games.i18n.__main__ import merged, problems, template, valid_name
from games.rules_text import words
from tests.discord_play import make_server, start_bot
from tests.fakediscord import DiscordHarness
from tests.slash_names import as_shown

SYNC = r"^/applications/\d+/commands$"
FRENCH = "fr"


def synced(h: DiscordHarness) -> list[dict]:
    """The commands of the last global sync, as the bot sent them."""
    put = h.requests_to("PUT", SYNC)[-1]
    assert put.status == 200 and put.error is None, put.error  # the fake checked it against the spec
    return put.body


def named(commands: list[dict]) -> Iterator[tuple[str, dict, bool]]:
    """``(path, item, is_choice)`` for every command, subcommand, option and choice of the tree."""
    def walk(item: dict, path: str) -> Iterator[tuple[str, dict, bool]]:
        yield path, item, False
        for option in item.get("options") or []:
            yield from walk(option, f"{path} {option['name']}")
        for choice in item.get("choices") or []:
            yield f"{path}={choice['value']}", choice, True

    for command in commands:
        yield from walk(command, command["name"])


CODE_SPAN = re.compile(r"`[^`]*`")


def code_spans(text: str) -> list[str]:
    """The commands, options and values a text names (one filled from a placeholder is the code's to name)."""
    return [span for span in CODE_SPAN.findall(text) if "{" not in span]


def french_catalog() -> dict[tuple[str | None, str], str]:
    return {(m.context, str(m.id)): str(m.string) for m in merged(FRENCH) if m.id and m.string}


async def test_every_command_option_and_choice_is_named_and_described_in_french(tmp_path):
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path)
        commands = synced(h)
    translations = french_catalog()
    # Same in French by the catalog's word (a game's name, "q2j"), or a language named in itself.
    same_in_french = {english for (_, english), french in translations.items() if english == french}
    same_in_french |= {language_name(language) for language in LANGUAGES}
    untranslated = []
    for path, item, is_choice in named(commands):
        names = item.get("name_localizations") or {}
        assert FRENCH in names, f"{path}: no French name"
        if not is_choice:
            assert valid_name(names[FRENCH]), f"{path}: {names[FRENCH]!r} is not a slash-command name"
            assert translations.get((NAME_CONTEXT, item["name"])) == names[FRENCH], path
            descriptions = item.get("description_localizations") or {}
            assert FRENCH in descriptions, f"{path}: no French description"
            pairs = [(item["name"], names[FRENCH]), (item["description"], descriptions[FRENCH])]
        else:
            pairs = [(item["name"], names[FRENCH])]
        untranslated += [f"{path}: {english!r}" for english, french in pairs
                         if english == french and english not in same_in_french]
    assert not untranslated, "English where French was expected:\n" + "\n".join(untranslated)
    by_name = {c["name"]: c for c in commands}
    start = next(o for o in by_name["q2j"]["options"] if o["name"] == "start")
    assert start["name_localizations"][FRENCH] == "démarrer"
    assert by_name["settings"]["name_localizations"][FRENCH] == "réglages"


async def test_every_translation_names_commands_as_its_readers_client_shows_them(tmp_path):
    """A French reply that names a command writes it as a French client shows it (``/table quitter``,
    ``jeu:``), the English message's command under the catalog's names, in every catalog's
    every string (the rules' many: tests/test_rules.py reads them page by page)."""
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path)
        commands = synced(h)
    wrong = []
    for language in LANGUAGES[1:]:
        for message in (m for m in merged(language) if m.id):
            sources = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
            translations = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
            expected = Counter(as_shown(span, commands, language) for span in code_spans(sources[0]))
            for translation in translations:
                written = Counter(code_spans(translation))
                if written != expected:
                    wrong.append(f"{language}: {sources[0][:60]!r} should write {sorted(expected - written)} "
                                 f"instead of {sorted(written - expected)}")
    assert not wrong, "\n".join(wrong)


def test_command_names_are_extracted_with_their_context_and_held_to_discords_rules():
    assert EXTRACTED_NAME_CONTEXT == NAME_CONTEXT
    found = {(m.context, m.id) for m in template() if m.id}
    assert {(NAME_CONTEXT, "start"), (NAME_CONTEXT, "short_hand"), (NAME_CONTEXT, "language"),
            (None, "The server's Discord language"), (None, "All games")} <= found
    with (LOCALES / f"{FRENCH}.po").open("rb") as po:
        catalog = read_po(po)
    catalog.get("start", context=NAME_CONTEXT).string = "Démarrer une table"
    assert [p for p in problems(catalog) if "not a slash-command name" in p] == [
        "not a slash-command name (lowercase letters, digits, - _ ', at most 32): "
        "'start' (slash command name) -> 'Démarrer une table'"]
    assert valid_name("réinitialiser-classement") and valid_name("carte_unique") and not valid_name("x" * 33)


class Reworded(gettext.NullTranslations):
    """The French catalog with one command description reworded."""

    def __init__(self, french: gettext.NullTranslations) -> None:
        super().__init__()
        self.french = french

    def gettext(self, message: str) -> str:
        if message == "The current preferences":
            return "Les réglages en vigueur"
        return self.french.gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        return self.french.pgettext(context, message)


async def test_a_changed_translation_is_synced_once(tmp_path, monkeypatch):
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path)
        await h.stop()
        await start_bot(h, s.db_path)
        assert len(h.requests_to("PUT", SYNC)) == 1  # nothing changed: no sync
        await h.stop()

        catalog = i18n.catalog
        reworded = Reworded(catalog(FRENCH))
        monkeypatch.setattr(translator, "catalog", lambda language: reworded if language == FRENCH else catalog(language))
        await start_bot(h, s.db_path)
        assert len(h.requests_to("PUT", SYNC)) == 2
        settings = next(c for c in synced(h) if c["name"] == "settings")
        show = next(o for o in settings["options"] if o["name"] == "show")
        assert show["description_localizations"][FRENCH] == "Les réglages en vigueur"
        await h.stop()
        await start_bot(h, s.db_path)
        assert len(h.requests_to("PUT", SYNC)) == 2


def english_command(commands: list[dict], typed: str, options: dict[str, str], locale: str) -> tuple[str, dict]:
    """What Discord sends for ``/typed options`` typed by a client in ``locale``: the command,
    subcommand and option names it showed in that language, sent back under their own names."""
    def own(items: list[dict], shown: str) -> dict:
        return next(i for i in items if (i.get("name_localizations") or {}).get(locale, i["name"]) == shown)

    node, path = {"options": commands}, []
    for part in typed.split():
        node = own(node["options"], part)
        path.append(node["name"])
    return " ".join(path), {own(node["options"], name)["name"]: value for name, value in options.items()}


async def test_a_french_admin_sets_the_language_with_the_french_command(tmp_path):
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        amelie = h.add_user("amélie", locale="fr")
        s.guild.add_member(amelie, manage_guild=True)
        bot = await start_bot(h, s.db_path)
        command, options = english_command(synced(h), "réglages langue", {"langue": FRENCH}, FRENCH)
        assert (command, options) == ("settings language", {"language": FRENCH})

        shown = await h.slash(command, options, user=amelie, channel=s.channel)
        assert shown.ephemeral
        assert "Langue des salles d’attente, des tables et des fins de partie\u00a0: Français" in shown.text
        assert (await bot.service.storage.guild_settings(s.guild.id)).language == FRENCH

        shown = await h.slash("settings language", {"language": "discord"}, user=s.admin, channel=s.channel)
        assert "Lobbies, tables and endings are in the server's Discord language: English." in shown.text
        assert (await bot.service.storage.guild_settings(s.guild.id)).language is None

        refused = await h.slash("settings language", {"language": FRENCH}, user=s.user("ana"), channel=s.channel)
        assert refused.ephemeral and "permission" in refused.text
        assert (await bot.service.storage.guild_settings(s.guild.id)).language is None


async def test_the_language_choices_are_the_catalogs(tmp_path):
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path)
        settings = next(c for c in synced(h) if c["name"] == "settings")
    language = next(o for o in settings["options"] if o["name"] == "language")["options"][0]
    assert [c["value"] for c in language["choices"]] == ["discord", *LANGUAGES]
    assert [c["name"] for c in language["choices"]][1:] == [language_name(code) for code in LANGUAGES]
    assert "Français" in [c["name"] for c in language["choices"]]


async def test_rules_suggestions_are_in_the_readers_language(tmp_path):
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        amelie = h.add_user("amélie", locale="fr")
        s.guild.add_member(amelie)
        await start_bot(h, s.db_path)
        sections = all_rules()["quash"].sections
        for user, language in ((s.user("ana"), "en"), (amelie, FRENCH)):
            r = await h.autocomplete("rules", "section", "", {"game": "quash"}, user=user, channel=s.channel)
            assert [c["name"] for c in r.choices] == [words(section.title, language) for section in sections]
        assert words(sections[0].title, FRENCH) != words(sections[0].title, "en")
