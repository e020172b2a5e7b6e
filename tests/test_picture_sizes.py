"""Pictures drawn for where they are shown (issue 31): every game's table and hand pictures,
for positions random play reaches at every player count and in every variant, are landscape
or square within the documented sizes, nothing runs off the picture, and the smallest
text drawn (a name, a caption, a card's rank) is at least 9 pixels at the width a phone
shows the picture, and on desktop. Also: the seats' names, "You" and words with units."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

import games
from bot.records import SeatRow
from cogs.pictures import pictures_for
from cogs.pictures.attach import seat_names
from cogs.pictures.base import Names
from cogs.pictures.canvas import (
    DESKTOP_BOX,
    DISPLAY_WIDTH,
    MAX_HEIGHT,
    MIN_HEIGHT,
    MIN_SCREEN_TEXT,
    WIDTH,
    Canvas,
    drawable,
)
from cogs.pictures.samples import random_positions
from games.base import Game, GameState
from games.i18n import plural
from tests.contract import option_values
from tests.test_french import FRENCH, english_words

SEEDS = 1
"""Seeded random games per table (players × variant)."""
POSITIONS = 4
"""Positions drawn per game, spread from the deal to the end."""
NAMES = ("ana", "Benedikt Großmann-Überall the Third", "AI 1", "李小龙", "José", "🤖 AI 2", "WWWWWWWWWWWWWWWWWWWW",
         "eve", "fox", "gus")
"""Seat names as people type them: short, long, wide letters, accents, other scripts, emoji."""
RANK = re.compile(r"\b(JK|10|[2-9AJQK])\b")


def tables(game: Game) -> list[tuple[int, dict[str, Any]]]:
    """Every player count from the least to the most, with each value of the game's main
    option (its first with a few values: Q2J's variants, QUASH's advanced play…)."""
    main = next((spec for spec in game.options if option_values(spec)), None)
    variants = [{main.name: value} for value in option_values(main)] if main else [{}]
    found = []
    for players in game.allowed_player_counts():
        for variant in variants:
            options = {**game.quick_options, **variant}
            try:
                game.normalize_options(dict(options), players)
            except games.GameError:
                continue
            found.append((players, options))
    return found


def positions(game: Game) -> Iterator[tuple[int, dict[str, Any], GameState]]:
    """``(players, options, state)`` at positions spread over seeded random games of every table."""
    for case, (players, options) in enumerate(tables(game)):
        for seed in range(case * SEEDS, (case + 1) * SEEDS):
            length = sum(1 for _ in random_positions(game, players, options, seed))
            picks = {round(i * (length - 1) / (POSITIONS - 1)) for i in range(POSITIONS)}
            for i, state in enumerate(random_positions(game, players, options, seed)):
                if i in picks:
                    yield players, options, state


def check_shown_legibly(canvas: Canvas, what: str) -> None:
    png = canvas.png()
    width, height = Image.open(io.BytesIO(png)).size
    assert width == WIDTH and MIN_HEIGHT <= height <= MAX_HEIGHT, f"{what}: drawn {width} × {height}"
    assert height <= width, f"{what}: portrait"
    assert canvas.overflow == 0, f"{what}: {canvas.overflow} px ran off the bottom of the square"
    assert canvas.smallest_text is not None
    phone = canvas.smallest_text * DISPLAY_WIDTH / width
    desktop = canvas.smallest_text * min(DESKTOP_BOX[0] / width, DESKTOP_BOX[1] / height)
    assert min(phone, desktop) >= MIN_SCREEN_TEXT, (
        f"{what}: text drawn at {canvas.smallest_text} px is {phone:.1f} px on a phone, {desktop:.1f} on desktop")


@pytest.mark.parametrize("language", ["en", FRENCH])
@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_picture_is_landscape_and_legible_where_it_is_shown(game_id: str, language: str) -> None:
    game = games.get_game(game_id)
    drawer = pictures_for(game_id, language)
    drawn = 0
    for players, options, state in positions(game):
        names = NAMES[:players]
        what = f"{game_id}, {players} players, {options}"
        check_shown_legibly(drawer.table(state.view(None), names), f"table of {what}")
        for seat in state.to_act()[:1]:
            legal = [action.code() for action in state.legal_actions(seat)]
            check_shown_legibly(drawer.hand(state.view(seat), legal, names), f"hand of seat {seat} of {what}")
        drawn += 1
    assert drawn >= len(tables(game)) * SEEDS * 2


def test_the_sizes_are_what_a_phone_needs() -> None:
    """The documented numbers agree: 9 px on a 280-px phone is 18 px drawn at 560."""
    assert (WIDTH, DISPLAY_WIDTH, MIN_SCREEN_TEXT) == (560, 280, 9)
    assert MAX_HEIGHT == WIDTH and MIN_HEIGHT / WIDTH >= 7 / 11 - 0.01


def test_a_canvas_measures_the_smallest_text_it_draws() -> None:
    canvas = Canvas()
    canvas.text((10, 10), "big", 30)
    canvas.card((10, 50), "10H")
    assert canvas.smallest_text == 27  # the rank "10" on a full-size card
    canvas.text((10, 200), "tiny", 12)
    assert canvas.smallest_text == 12
    canvas.y = MAX_HEIGHT + 20
    assert canvas.overflow == 20 + 12


def test_seats_are_named_and_your_own_seat_is_you() -> None:
    names = Names(["ana", "🤖 AI 1", "李小龙", "José", "Benedikt Großmann-Überall the Third"], you=0)
    assert [names(seat) for seat in range(5)][:4] == ["You", "AI 1", "Seat 3", "José"]
    assert names(4).startswith("Benedikt Gro") and names(4).endswith("…")
    assert names(7) == "Seat 8"
    assert drawable("Zoë ✓ Straße") == "Zoë Straße"
    assert drawable("Défausse : « dernière » cœur") == "Défausse : « dernière » cœur"  # French, accents and all


def test_the_pictures_name_ai_seats_as_messages_do_without_their_level() -> None:
    seats = [SeatRow(0, 11, "ana", False), SeatRow(1, None, "AI 1 (hard)", True, ai_level="hard"),
             SeatRow(2, 12, "Mr (hard)", False), SeatRow(3, None, "AI 2", True),
             SeatRow(4, 13, "cat", True, ai_level="normal")]
    names = seat_names(seats)
    assert names == ["ana", "🤖 AI 1", "Mr (hard)", "🤖 AI 2", "cat"]
    assert [drawable(name) for name in names] == ["ana", "AI 1", "Mr (hard)", "AI 2", "cat"]  # no glyph for 🤖


def test_counts_carry_their_unit_in_the_right_number() -> None:
    cards = [plural("{count} card", "{count} cards", n) for n in (0, 1, 2)]
    assert [text.render() for text in cards] == ["0 cards", "1 card", "2 cards"]
    assert [text.render(FRENCH) for text in cards] == ["0 carte", "1 carte", "2 cartes"]


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_word_a_picture_draws_is_in_its_language(game_id: str) -> None:
    """Drawn in English and in French, a position's pictures draw their lines in the same
    order, and each line with English words (but the game's name, kept in French, and the
    ranks) reads differently in French: no word is written in the drawing code."""
    game = games.get_game(game_id)
    english, french = pictures_for(game_id), pictures_for(game_id, FRENCH)
    title = english.title or game.name
    checked = 0
    for players, _, state in positions(game):
        names = [f"#{seat + 1}" for seat in range(players)]
        pairs = [(english.table(state.view(None), names), french.table(state.view(None), names))]
        for seat in state.to_act()[:1]:
            legal = [action.code() for action in state.legal_actions(seat)]
            pairs.append((english.hand(state.view(seat), legal, names), french.hand(state.view(seat), legal, names)))
        for drawn_in_english, drawn_in_french in pairs:
            assert len(drawn_in_english.texts) == len(drawn_in_french.texts)
            for line, french_line in zip(drawn_in_english.texts, drawn_in_french.texts):
                if english_words(RANK.sub("", line.replace(title, ""))):
                    assert french_line != line, f"{line!r} is drawn in English in a French picture"
                    checked += 1
    assert checked > 0


@pytest.mark.parametrize("games_played", [0, 1, 3, 9])
def test_the_stats_chart_is_drawn_for_where_it_is_shown(games_played: int, monkeypatch) -> None:
    """``/stats``' chart: as wide as every picture, landscape or square whatever the number of
    games and rated games, and no text smaller than the pictures' smallest."""
    from cogs.pictures import stats

    drawn: list[Canvas] = []
    real = stats.Canvas
    monkeypatch.setattr(stats, "Canvas", lambda: drawn.append(real()) or drawn[-1])
    series = [stats.Series(f"Game {n} with a long name", (200, 40 * n % 255, 90), [(n + 3 * k, 1000 + 7 * k * n)
                                                                                  for k in range(n % 4)], n, n + 1)
              for n in range(games_played)]
    png = stats.stats_png("All games", series, 3 * games_played + 4)
    width, height = Image.open(io.BytesIO(png)).size
    assert width == WIDTH and MIN_HEIGHT <= height <= MAX_HEIGHT
    (canvas,) = drawn
    assert canvas.overflow == 0 and canvas.smallest_text is not None
    assert canvas.smallest_text * DISPLAY_WIDTH / WIDTH >= MIN_SCREEN_TEXT
