"""Words as data, rendered in the reader's language (games/i18n): the catalogs, plurals,
cards, seats, slash commands, and the stored form."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import UserError
from bot.table_options import split_options
from games.cards import parse_card
from games.i18n import (
    LANGUAGES,
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
from games.i18n.__main__ import main as catalog_tool
from games.i18n.__main__ import problems, read, template, updated

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


def test_every_translatable_string_of_the_code_is_in_every_catalog():
    wanted = {(message.id, message.context) for message in template() if message.id}
    for language in LANGUAGES[1:]:
        from games.i18n import LOCALES
        have = {(message.id, message.context) for message in read(LOCALES / f"{language}.po") if message.id}
        missing = sorted(map(str, wanted - have))
        assert not missing, f"{language}: run `python -m games.i18n update`, then translate: {missing[:10]}"


def test_every_catalog_is_what_update_writes():
    """A catalog behind the code (a string no longer used, a moved one) would make the next
    contributor's `update` churn lines they did not touch."""
    from games.i18n import LOCALES
    for path in sorted(LOCALES.glob("*.po")):
        assert path.read_bytes() == updated(path), f"{path.name}: run `python -m games.i18n update` and commit it"


def test_a_wrong_placeholder_is_found():
    from babel.messages.catalog import Catalog
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
