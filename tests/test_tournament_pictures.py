"""A tournament's pictures (issue 40): the standings, the knockout bracket and the crown, drawn
from the pure core's values for every field from 2 to 64, every table shape and every stage
of a knockout, in English and French: as legible as the table pictures (every label at least
24 pixels, inside its room, cut only in a name, no overlap, readable on its background), and
showing what the message's text board says."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.pictures.tournament import (
    MOST_COLUMNS,
    OUT,
    Line,
    bracket_canvas,
    crown_canvas,
    knockout_round,
    placing_lines,
    standing_lines,
    standings_canvas,
)
from games.i18n import plural
from games.pictures.canvas import Canvas, drawable
from games.tournament import Bracket, BracketTable, Finish, Result, seed_at_random, standings, swiss_pairing
from tests.test_french import FRENCH
from tests.test_picture_sizes import NAMES, check_shown_legibly

SHAPES = [(2, 1), (3, 1), (4, 2), (4, 1)]
"""Knockout tables: (seats, going on from each)."""
FIELDS = [2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 24, 31, 32, 33, 48, 63, 64]


def name_of(entrant: int) -> str:
    """People's names as they type them: short, long, wide, accented, other scripts (as drawn:
    what the font can't draw left out)."""
    return drawable(f"{NAMES[entrant % len(NAMES)]} #{entrant}")


def played(bracket: Bracket, rounds: int) -> list[Result]:
    """``rounds`` of ``bracket`` played, the better seed always ahead (AI seats last)."""
    results: list[Result] = []
    for number in range(bracket.first_round, bracket.first_round + rounds):
        for table in bracket.pairing(number, results).tables:
            places = [Finish(e, k) for k, e in enumerate(table.entrants, 1)]
            places += [Finish(None, len(table.entrants) + k) for k in range(1, table.ai_seats + 1)]
            results.append(Result(number, tuple(places)))
    return results


def brackets() -> Iterator[tuple[str, Bracket, list[Result]]]:
    """Every field and table shape, at its start, halfway and over."""
    for size, advance in SHAPES:
        for field in FIELDS:
            if field < 2 or (size > 2 and field < 3):
                continue
            bracket = Bracket(seed_at_random(range(1, field + 1), seed=field), size, advance)
            for stage in sorted({0, bracket.rounds // 2, bracket.rounds}):
                yield f"{field} at tables of {size} ({advance} on), {stage} rounds played", bracket, \
                    played(bracket, stage)


def swiss_lines(field: int, rounds: int, language: str) -> list[Line]:
    """The standings of a Swiss of ``field`` after ``rounds`` rounds (the better number winning,
    every fifth person dropped after round 1)."""
    entrants = list(range(1, field + 1))
    results: list[Result] = []
    dropped = {e for e in entrants if e % 5 == 0}
    for number in range(1, rounds + 1):
        pairing = swiss_pairing(standings(entrants, results, seed=field, dropped=dropped if number > 1 else ()))
        results += [Result(number, (Finish(min(t.entrants), 1), Finish(max(t.entrants), 2))) for t in pairing.tables]
        results += [Result.bye(number, e) for e in pairing.byes]
    return standing_lines(standings(entrants, results, seed=field, dropped=dropped), name_of, language)


@pytest.mark.parametrize("language", ["en", FRENCH])
def test_every_bracket_is_legible_and_shows_its_last_rounds(language: str) -> None:
    for what, bracket, results in brackets():
        rounds = bracket.tables(results)
        canvas = bracket_canvas("Friday game night", "Knockout", rounds, bracket.advance, name_of, language)
        check_shown_legibly(canvas, what, cut_names=[name_of(e) for e in bracket.seeds])
        headings = {label.paragraph for label in canvas.labels}
        shown = [k for k in range(len(rounds))
                 if knockout_round(len(rounds) - k, k + 1).render(language) in headings]
        assert shown == list(range(len(rounds) - len(shown), len(rounds))), f"{what}: rounds {shown} drawn"
        assert 1 <= len(shown) <= MOST_COLUMNS
        if bracket.table_size == 2:  # a phone shows two-seat brackets from the quarter-finals on
            assert len(shown) == min(3, bracket.rounds), what
        drawn = [label.wanted for label in canvas.labels]
        for row in rounds[-len(shown):]:
            for table in row:
                for entrant in table.entrants:
                    assert name_of(entrant) in drawn, f"{what}: {name_of(entrant)} is not drawn"


def test_the_final_s_winner_is_drawn_in_gold_and_those_knocked_out_greyed() -> None:
    bracket = Bracket((1, 2, 3, 4), 2, 1)
    canvas = bracket_canvas("Cup", "", bracket.tables(played(bracket, 2)), 1, name_of, "en")
    colour = {label.wanted: label.fill for label in canvas.labels}
    assert colour[name_of(1)] != colour[name_of(4)]
    gold = [label for label in canvas.labels if label.wanted == name_of(1)][-1]
    assert gold.fill == (232, 190, 60) or gold.fill != colour[name_of(2)]


@pytest.mark.parametrize("language", ["en", FRENCH])
@pytest.mark.parametrize("field", [2, 3, 9, 16, 40, 64])
def test_standings_are_legible_and_show_the_text_board_s_lines(field: int, language: str) -> None:
    lines = swiss_lines(field, 3, language)
    canvas = standings_canvas("Friday game night", "Round 3 of 3", lines, language)
    check_shown_legibly(canvas, f"{field} players", cut_names=[line.name for line in lines])
    drawn = [label.wanted for label in canvas.labels]
    shown = [line for line in lines if line.name in drawn]
    assert shown == lines[:len(shown)] and len(shown) >= min(field, 11)
    for line in shown:  # its place, its figures and, when out, the word for it
        at = drawn.index(line.name)
        assert drawn[at - 1] == str(line.place)
        assert tuple(drawn[at + 1 + line.out:at + 1 + line.out + 3]) == line.figures
        assert (drawn[at + 1] == OUT.render(language)) == line.out
    if len(shown) < field:
        assert plural("+{count} more", "+{count} more", field - len(shown)).render(language) in drawn


@pytest.mark.parametrize("language", ["en", FRENCH])
@pytest.mark.parametrize("field", [2, 5, 16, 64])
def test_the_crown_names_the_winner_over_the_final_placings(field: int, language: str) -> None:
    bracket = Bracket(tuple(range(1, field + 1)))
    placings = bracket.placings(played(bracket, bracket.rounds))
    assert placings is not None
    lines = placing_lines(placings, name_of)
    canvas: Canvas = crown_canvas("Friday game night", name_of(1), "Final standings", lines, language)
    check_shown_legibly(canvas, f"{field} players", cut_names=[line.name for line in lines])
    drawn = [label.wanted for label in canvas.labels]
    assert drawn[1] == name_of(1) and drawn[2] == "Final standings"
    assert drawn[3:5] == ["1", name_of(1)]
    if field > 2:  # the semi-finals' losers share third place
        assert [line.place for line in lines[2:4]] == [3, 3]


def test_placings_share_places_like_the_text_board() -> None:
    assert placing_lines([(7,), (3,), (1, 9)], str) == [Line(1, "7"), Line(2, "3"), Line(3, "1"), Line(3, "9")]


def test_a_table_shape_s_bracket_table_is_drawn_whole() -> None:
    """A final of four whose feeders are undecided shows a "…" for each place awaited."""
    table = BracketTable(2, (), 2, False, None)
    canvas = bracket_canvas("Cup", "", [(table,)], 2, name_of, "en")
    assert [label.text for label in canvas.labels].count("…") == 4


def test_a_french_picture_draws_its_words_in_french() -> None:
    bracket = Bracket(tuple(range(1, 7)))  # six: the top two seeds have byes in the quarter-finals
    canvas = bracket_canvas("Soirée", "Élimination directe", bracket.tables([]), 1, name_of, FRENCH)
    words = {label.paragraph for label in canvas.labels}
    assert {"Quarts de finale", "Demi-finales", "Finale", "exempt"} <= words
    assert not {"Quarter-finals", "Semi-finals", "Final", "bye"} & words
    lines = swiss_lines(5, 2, FRENCH)
    drawn = {label.wanted for label in standings_canvas("Soirée", "Ronde 2 sur 2", lines, FRENCH).labels}
    assert {"Pts", "Bh", "SB", "sorti"} <= drawn and "out" not in drawn


@pytest.mark.parametrize("language", ["en", FRENCH])
@pytest.mark.parametrize("field", [3, 10, 40])
def test_a_swiss_crown_shows_the_final_standings_with_their_figures(field: int, language: str) -> None:
    lines = swiss_lines(field, 3, language)
    canvas = crown_canvas("Friday game night", lines[0].name, "Final standings", lines, language)
    check_shown_legibly(canvas, f"{field} players", cut_names=[line.name for line in lines])
    drawn = [label.wanted for label in canvas.labels]
    assert drawn[drawn.index(lines[0].name, 2) + 1:][:3] == list(lines[0].figures)
