"""Words as data, rendered in the reader's language (games/i18n): the catalogs, plurals,
cards, seats, slash commands, and the stored form."""

from __future__ import annotations

import io
import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

import games
from bot.errors import UserError
from bot.table_options import split_options
from games.cards import parse_card
from games.i18n import (
    LANGUAGES,
    LOCALES,
    NAME_CONTEXT,
    SOURCE,
    Seat,
    SlashCommand,
    SlashOption,
    Text,
    card_name,
    catalog,
    language_of,
    plural,
    say,
    say_as,
)
from games.i18n.__main__ import (
    Words,
    conflicts,
    every_update,
    every_words,
    problems,
    read,
    template,
    templates,
    updated,
)
from games.i18n.__main__ import main as catalog_tool

FRENCH = "fr"


def test_french_is_spoken_and_unknown_languages_fall_back_to_english():
    assert SOURCE in LANGUAGES and FRENCH in LANGUAGES
    assert [language_of(locale) for locale in ("fr", "en-US", "en-GB", "de", "pt-BR", None, "")] == \
        ["fr", "en", "en", "en", "en", "en", "en"]


def test_cards_take_the_rank_letters_of_the_language():
    assert [card_name(parse_card(code), FRENCH) for code in ("AS", "JH", "QD", "KC", "10S", "JK")] == \
        ["A♠", "V♥", "D♦", "R♣", "10♠", "🃏"]
    assert [card_name(parse_card(code)) for code in ("JH", "QD", "KC")] == ["J♥", "Q♦", "K♣"]


def test_seats_are_named_when_the_words_are_read():
    played = say("{player} played {cards}", player=Seat(1), cards=(parse_card("QH"), parse_card("QC")))
    assert played.render(SOURCE, ["ana", "ben"]) == "ben played Q♥ Q♣"
    assert played.render(FRENCH, ["ana", "ben"]) == "ben played D♥ D♣"  # no translation yet: English words
    assert say("{player} waits", player=Seat(3)).render(FRENCH) == "Place 4 waits"


def test_a_slash_command_is_named_as_the_readers_client_shows_it():
    opening = say("Open a table with `{command}`.", command=SlashCommand("/q2j start"))
    assert opening.render(SOURCE) == "Open a table with `/q2j start`."
    assert SlashCommand("/settings ai-level").render(FRENCH) == "/réglages niveau-ia"
    assert SlashCommand("/q2j start").render(FRENCH) == "/q2j démarrer"


def test_plurals_follow_each_languages_rules():
    english = [plural("{count} card", "{count} cards", n).render(SOURCE) for n in (0, 1, 2)]
    assert english == ["0 cards", "1 card", "2 cards"]
    french_form = catalog(FRENCH).plural  # type: ignore[attr-defined]  # gettext sets it from the catalog's header
    assert [french_form(n) for n in (0, 1, 2, 1_000_000)] == [0, 0, 2, 1]  # zero is singular in French


def test_one_english_word_with_two_meanings_is_translated_per_meaning():
    """"Wins" is a leaderboard's order and an attack's outcome: French words them apart, and a
    stored Text keeps its meaning."""
    verdict = say_as("an attack's outcome", "Wins")
    assert verdict.render(SOURCE) == say("Wins").render(SOURCE) == "Wins"
    assert (verdict.render(FRENCH), say("Wins").render(FRENCH)) == ("Gagne", "Victoires")
    assert Text.from_json(verdict.to_json()) == verdict and verdict.to_json()["context"] == "an attack's outcome"
    contexts = {(message.id, message.context) for message in template() if message.id == "Wins"}
    assert contexts == {("Wins", None), ("Wins", "an attack's outcome")}


COUNTED = re.compile(r"\{(\w+)\} (?:rated )?(?:cards|turns|points|pts|stacks|rounds|players|games|minutes|spots|decks)\b")
"""A placeholder before a plural noun: a number that must agree with its noun."""
WORDED = {"counts", "bonus"}
"""Placeholders holding numbers already in words, never one: a range or a list ("2–4", "26 or 27")."""


def test_every_count_goes_through_plural():
    """A number agrees with its noun in every language ("1 card", French "0 carte"), so a
    sentence counting something is a plural() (or takes a counted phrase such as card_count)."""
    counted = [message.id for message in template() if isinstance(message.id, str)
               for found in COUNTED.finditer(message.id) if found[1] not in WORDED]
    assert not counted, counted
    assert say("{n} left", n=plural("{count} card", "{count} cards", 1)).render(SOURCE) == "1 card left"
    assert plural("{count} card", "{count} cards", 0).render(FRENCH) == "0 carte"


ARGS = st.dictionaries(
    st.sampled_from(["player", "card", "cards", "count", "detail", "name"]),
    st.one_of(st.integers(-10**6, 10**6), st.text(max_size=20), st.builds(Seat, st.integers(0, 9)),
              st.sampled_from(["QH", "10S", "JK", "AD"]).map(parse_card),
              st.lists(st.sampled_from(["QH", "KS"]).map(parse_card), min_size=1, max_size=3).map(tuple),
              st.lists(st.builds(Seat, st.integers(0, 9)), min_size=1, max_size=3).map(tuple),
              st.builds(say, st.sampled_from(["a {x}", "b"]), x=st.integers(0, 5)),
              st.builds(SlashCommand, st.sampled_from(["/q2j start", "/table hand"])),
              st.builds(SlashOption, st.sampled_from(["timer", "hints"]))),
    max_size=4)


@given(source=st.sampled_from(["{player} played {card}", "Round {count}"]), args=ARGS)
def test_the_stored_form_reads_back_as_the_same_words(source, args):
    text = Text(source, args)
    assert Text.from_json(text.to_json()) == text


def test_words_stored_before_they_were_data_are_shown_as_they_are():
    assert Text.from_json("ana played Q♥.").render(FRENCH) == "ana played Q♥."


def test_every_catalog_is_complete_with_the_same_placeholders(capsys):
    assert catalog_tool(["check"]) == 0, capsys.readouterr().out


def test_every_translatable_string_of_the_code_is_in_its_packages_catalogs():
    for words, found in templates().items():
        wanted = {(message.id, message.context) for message in found if message.id}
        for language in LANGUAGES[1:]:
            have = {(message.id, message.context) for message in read(words.path(language)) if message.id}
            missing = sorted(map(str, wanted - have))
            assert not missing, f"{words.path(language)}: run `python -m games.i18n update`, then translate: {missing[:10]}"


def test_every_catalog_is_what_update_writes():
    """A catalog behind the code (a string no longer used, a moved one) would make the next
    contributor's `update` churn lines they did not touch."""
    for path, content in every_update().items():
        assert path.read_bytes() == content, f"{path}: run `python -m games.i18n update` and commit it"


def test_a_games_words_are_in_its_own_package_and_the_shared_words_once():
    """War's own words (its engine, its look and its pictures, its name and option names) are in
    games/war/locales/; a word shared code uses is only in games/locales/, even if a game uses it too."""
    owners = {words.game.id if words.game else "shared": words for words in every_words()}
    assert owners["shared"].folder == LOCALES and owners["war"].folder == LOCALES.parent / "war" / "locales"
    found = {owner: {(m.id, m.context) for m in read(words.path(FRENCH)) if m.id} for owner, words in owners.items()}
    war = {("Draw to your field", None), ("Q Squared Joe War", None), ("loss", NAME_CONTEXT), ("war", NAME_CONTEXT),
           ("Unknown move {kind}; War moves are attack, recover and draw", None)}
    assert war <= found["war"] and not war & found["shared"]
    shared = {("Seat {number}", None), ("Playing in Deckhand", None), ("timer", NAME_CONTEXT), ("Q", "card rank")}
    assert shared <= found["shared"] and not any(shared & found[game] for game in games.GAME_IDS)


def test_update_keeps_the_translation_a_string_has_in_any_catalog(tmp_path):
    """A string that moves into another package's catalog (or that another catalog translated)
    is written with that translation, and a changed one gets the closest as a fuzzy guess."""
    template = Catalog(locale="en")
    template.add("Draw a card")
    template.add("Draw two cards now")
    elsewhere = Catalog(locale=FRENCH)
    elsewhere.add("Draw a card", "Piocher une carte")
    elsewhere.add("Draw two cards", "Piocher deux cartes")
    words = Words(tmp_path / "locales")
    written = read_po(io.BytesIO(updated(words, FRENCH, template, [elsewhere])))
    assert written.get("Draw a card").string == "Piocher une carte" and not written.get("Draw a card").fuzzy
    guess = written.get("Draw two cards now")
    assert guess.string == "Piocher deux cartes" and guess.fuzzy
    assert problems(written) == ["fuzzy: 'Draw two cards now'"]


def test_a_new_language_starts_every_catalog(tmp_path, monkeypatch, capsys):
    """``add`` starts the shared catalog and each game's, every string untranslated; a language
    that has its catalogs already is refused, and they stay as they are."""
    from games.i18n import __main__ as tool
    folders = [Words(tmp_path / "locales"), *(Words(tmp_path / w.folder.parent.name / "locales", w.game)
                                             for w in every_words()[1:])]
    monkeypatch.setattr(tool, "LOCALES", folders[0].folder)
    monkeypatch.setattr(tool, "every_words", lambda: folders)
    assert catalog_tool(["add", "de"]) == 0
    started = [words.path("de") for words in folders]
    assert capsys.readouterr().out.splitlines() == [
        *(f"started {path}" for path in started), "translate them, then `python -m games.i18n check`"]
    assert all(path.is_file() for path in started)
    war = read(next(path for path in started if path.parent.parent.name == "war"))
    assert war.get("Draw to your field").string == "" and "untranslated: 'Draw to your field'" in problems(war)
    before = started[0].read_bytes()
    with pytest.raises(SystemExit, match="de.po exists already"):
        catalog_tool(["add", "de"])
    assert started[0].read_bytes() == before


def test_update_writes_nothing_while_two_catalogs_disagree(tmp_path, monkeypatch, capsys):
    """After a merge, the shared catalog may hold a game's string translated anew while the game's
    catalog keeps the old translation: update can't know which is right, so it asks."""
    from games.i18n import __main__ as tool
    one, other = tmp_path / "one.po", tmp_path / "other.po"
    for path, french in ((one, "Piocher"), (other, "Tirer")):
        catalog = Catalog(locale=FRENCH)
        catalog.add("Draw", french)
        path.write_bytes(tool.written(catalog))
    monkeypatch.setattr(tool, "catalog_files", lambda language: [one, other])
    monkeypatch.setattr(tool, "every_update", lambda languages: pytest.fail("update wrote the catalogs"))
    assert tool.update([FRENCH]) == 1
    assert "keep one translation" in capsys.readouterr().out and read(other).get("Draw").string == "Tirer"


def test_two_catalogs_of_a_language_must_agree():
    one, other = Catalog(locale=FRENCH), Catalog(locale=FRENCH)
    one.add("Two", "Deux")
    other.add("Two", "Deux cartes")
    other.add("Four", "Quatre")
    assert conflicts({LOCALES / "fr.po": one, LOCALES / "x.po": other}) == [
        "translated differently in games/locales/fr.po: 'Two' -> 'Deux cartes'"]


def test_a_wrong_placeholder_is_found():
    wrong = Catalog(locale=FRENCH)
    wrong.add("{player} played {card}", "{joueur} a joué {carte}")
    wrong.add("Round {count}", "")
    assert problems(wrong) == ["placeholders differ: '{player} played {card}' -> '{joueur} a joué {carte}'",
                               "untranslated: 'Round {count}'"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_a_compiled_catalog(language):
    assert catalog(language).gettext("Seat {number}")


def test_an_option_is_named_as_the_readers_client_names_it():
    with pytest.raises(UserError) as refused:
        split_options({"hints": "yes"})
    assert str(refused.value) == "The option `hints` must be true or false."
    assert "`indices`" in refused.value.text.render(FRENCH)
    assert SlashOption("timer").render(FRENCH) == "minuteur" and SlashOption("timer").render() == "timer"


def tool_on(tmp_path, monkeypatch, catalogs: dict[str, dict[str, str]]) -> list[Words]:
    """The catalog tool on three sets of words in ``tmp_path`` (the shared ones, War's and NG's), each
    holding the French ``catalogs[owner]`` (id → translation; none: no catalog) and the code using
    one string per owner: "Draw" (shared), "Draw to your field" (War), "Pass" (NG)."""
    from games.i18n import __main__ as tool
    folders = [Words(tmp_path / "locales"), Words(tmp_path / "war" / "locales", games.get_game("war")),
               Words(tmp_path / "ng" / "locales", games.get_game("ng"))]
    used = {}
    for words, owner, string in zip(folders, ("shared", "war", "ng"), ("Draw", "Draw to your field", "Pass")):
        used[words] = Catalog(locale="en")
        used[words].add(string)
        if owner in catalogs:
            french = Catalog(locale=FRENCH)
            for source, translation in catalogs[owner].items():
                french.add(source, translation)
            words.folder.mkdir(parents=True)
            words.path(FRENCH).write_bytes(tool.written(french))
    monkeypatch.setattr(tool, "every_words", lambda: folders)
    monkeypatch.setattr(tool, "templates", lambda: used)
    monkeypatch.setattr(tool, "catalog_files", lambda language: [
        w.path(language) for w in folders if w.path(language).is_file()])
    return folders


def test_update_moves_a_translation_to_the_catalog_now_using_the_string_and_starts_a_missing_one(
        tmp_path, monkeypatch, capsys):
    """A string moved from the shared words into War's, whose catalog has it untranslated, takes the
    shared catalog's translation (which drops it); NG's missing catalog is started."""
    shared, war, ng = tool_on(tmp_path, monkeypatch, {
        "shared": {"Draw": "Piocher", "Draw to your field": "Piocher dans votre champ"},
        "war": {"Draw to your field": ""}})
    assert catalog_tool(["update"]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{w.path(FRENCH)}: 1 strings" for w in (shared, war, ng)]
    assert [(m.id, m.string) for m in read(shared.path(FRENCH)) if m.id] == [("Draw", "Piocher")]
    moved = read(war.path(FRENCH)).get("Draw to your field")
    assert moved.string == "Piocher dans votre champ" and not moved.fuzzy
    started = read(ng.path(FRENCH))
    assert started.get("Pass").string == "" and started.header_comment.startswith("# Q Squared Joe NG in French")


def test_check_names_each_missing_catalog_wrong_string_and_disagreement(tmp_path, monkeypatch, capsys):
    shared, war, ng = (w.path(FRENCH) for w in tool_on(tmp_path, monkeypatch, {
        "shared": {"Draw": "Piocher", "Round {count}": "Manche {n}"}, "war": {"Draw": "Tirer", "Draw to your field": ""}}))
    assert catalog_tool(["check"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{shared}: 2 strings, 1 problem(s)", "  placeholders differ: 'Round {count}' -> 'Manche {n}'",
        f"{war}: 2 strings, 1 problem(s)", "  untranslated: 'Draw to your field'",
        f"{ng}: missing (`python -m games.i18n update` starts it)",
        f"  translated differently in {shared}: 'Draw' -> 'Tirer'"]
