"""``/rules game:tournament`` (issue 40): how tournaments run, set like a game's rules: found by
``/rules`` in English and French, its commands and options the real ones as each reader's client
shows them, complete in every language, its pages within Discord's limits, in ``docs/rules.md``,
and its worked example the standings :mod:`games.tournament` computes."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

import pytest

from cogs import rules as rules_cog
from games.i18n import LANGUAGES, catalog
from games.rules_text import PAGE_LIMIT
from games.rules_text import pages as rules_pages
from games.tournament import Finish, Result, standings
from games.tournament.rules_text import ID, RULES
from tests.slash_names import SYNC, as_shown
from tests.test_rules import CODE_SPAN, PLACEHOLDER, ROOT, shown, texts

SECTIONS = ["overview", "formats", "points", "tiebreaks", "example", "timing"]


def test_rules_explains_tournaments_beside_the_games() -> None:
    assert [s.id for s in RULES.sections] == SECTIONS
    assert list(rules_cog.every_rules())[-1] == ID
    for typed, language in (("tournament", "en"), ("Tournaments", "en"), ("tournois", "fr"), ("Tournois", "fr")):
        assert rules_cog.find_game(typed, language) is RULES
    assert rules_cog.find_section(RULES, "Départages", "fr") == rules_cog.find_section(RULES, "tiebreaks")
    assert [c.value for c in rules_cog.game_choices("tourn")] == [ID]
    assert "`/rules game:tournament`" in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_read_completely_and_fit_discord(language: str) -> None:
    messages = catalog(language)
    for section in RULES.sections:
        for text in (*texts(section.title), *texts(section.body)):
            assert language == "en" or messages.gettext(text.source) != text.source or text.source == "Points", \
                f"{language}: {section.id} lacks {text.source[:60]!r}"
    for (_, english_title, english_body), (section_id, title, body) in zip(shown(RULES), shown(RULES, language)):
        assert not PLACEHOLDER.search(title + body), section_id
        assert language == "en" or body != english_body, section_id
    for page in rules_pages(RULES, language):
        assert len(page.body) <= PAGE_LIMIT and len(page.title) <= 256


def test_the_worked_example_is_what_the_standings_compute() -> None:
    """Ana 1, Ben 2, Cy 3, Dee 4, Eve 5: the three rounds the example plays."""
    ana, ben, cy, dee, eve = range(1, 6)

    def beats(round: int, winner: int, loser: int) -> Result:
        return Result(round, (Finish(winner, 1), Finish(loser, 2)))

    def draw(round: int, one: int, other: int) -> Result:
        return Result(round, (Finish(one, 1), Finish(other, 1)))

    results = [beats(1, ana, dee), draw(1, ben, eve), Result.bye(1, cy),
               beats(2, ana, cy), beats(2, dee, ben), Result.bye(2, eve),
               draw(3, ana, eve), beats(3, cy, dee), Result.bye(3, ben)]
    table = standings([ana, ben, cy, dee, eve], results, seed=1)
    names = {ana: "Ana", ben: "Ben", cy: "Cy", dee: "Dee", eve: "Eve"}
    body = RULES.section("example").body.render("en")
    order = ", ".join(f"{s.rank}. {names[s.entrant]}" for s in table)
    assert f"**Standings**: {order}." in body
    half = Fraction(1, 2)
    assert {names[s.entrant]: (s.points, s.buchholz, s.sonneborn_berger) for s in table} == {
        "Ana": (2 + half, 4, 4), "Eve": (2, 4, 2), "Cy": (2, 3 + half, 1), "Ben": (1 + half, 3, 1),
        "Dee": (1, 4 + half, 1 + half)}
    assert re.search(r"Ana 2½, Cy 2, Eve 2, Ben 1½, Dee 1\.", body)


async def test_its_commands_are_the_real_ones_as_each_reader_s_client_shows_them(server) -> None:
    commands = server.h.requests_to("PUT", SYNC)[-1].body
    for language in LANGUAGES:
        for (section_id, _, english_body), (_, _, body) in zip(shown(RULES), shown(RULES, language)):
            expected = Counter(as_shown(span, commands, language) for span in CODE_SPAN.findall(english_body))
            assert Counter(CODE_SPAN.findall(body)) == expected, f"{language}: {section_id}"


async def test_rules_game_tournament_answers_privately_in_the_reader_s_language(server) -> None:
    s = server
    s.user("ana").locale = "fr"
    answer = await s.h.slash("rules", {"game": ID}, user=s.user("ana"), channel=s.channel)
    assert answer.ephemeral
    (embed,) = answer.embeds
    assert embed["title"] == "Règles de Tournois — Organiser un tournoi"
    assert "`/tournoi créer war`" in embed["description"]
