"""Pictures drawn for where they are shown (issues 31 and 38): every game's table and hand
pictures, for the sample position and positions random play reaches at every player count
and in every variant, drawn in English and in French: a table is landscape or square within
the documented sizes, a hand as tall as what it draws, nothing runs off the picture, every
label and every card's rank is at least 24 pixels (12 on a phone), every label fits the room
it was given (only a cut-short name may be cut), no two labels overlap nor a label a card,
and every label reads on what it is drawn on. Also: the seats' names, "You" and words with units."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

import pytest
from PIL import Image

import games
from bot.records import SeatRow
from cogs.attachments import seat_names
from games.base import Game, GameState
from games.i18n import plural
from games.pictures import pictures_for
from games.pictures.base import Names
from games.pictures.canvas import (
    DESKTOP_BOX,
    DISPLAY_WIDTH,
    ELLIPSIS,
    FELT,
    GAP,
    MARGIN,
    MAX_HEIGHT,
    MIN_HEIGHT,
    MIN_SCREEN_TEXT,
    MIN_TEXT,
    WIDTH,
    Box,
    Canvas,
    drawable,
)
from games.pictures.samples import SAMPLE_NAMES, random_positions, sample_state
from tests.contract import option_values
from tests.contrast import TEXT_CONTRAST, contrast
from tests.test_french import FRENCH, english_words

SEEDS = 1
"""Seeded random games per table (players × variant)."""
POSITIONS = 4
"""Positions drawn per game, spread from the deal to the end."""
NAMES = ("ana", "Benedikt Großmann-Überall the Third", "AI 1", "李小龙", "José", "🤖 AI 2", "WWWWWWWWWWWWWWWWWWWW",
         "eve", "fox", "gus")
"""Seat names as people type them: short, long, wide letters, accents, other scripts, emoji."""
RANK = re.compile(r"\b(JK|10|[2-9AJQK])\b")
SLACK = 4
"""Pixels a label's ink may pass the left or right of its room (a "J"'s hook, a bold stroke)."""
FELT_BELOW = MARGIN + GAP + 4
"""The most empty felt under the last thing a hand picture draws."""


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


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def label_problems(canvas: Canvas, height: int, cut_names: Sequence[str] = ()) -> list[str]:
    """What is wrong with the labels a picture ``height`` tall drew: too small, out of the
    picture or of their room, cut short without a cut-short name in them (``cut_names``),
    over another label or a card, or too faint on what they are drawn on."""
    problems = []
    for label in canvas.labels:
        left, top, right, bottom = label.box
        said = f"{label.text!r} at {label.box}"
        if label.size < MIN_TEXT:
            problems.append(f"{said} is drawn at {label.size} px")
        if left < 0 or top < 0 or right > canvas.width or bottom > height:
            problems.append(f"{said} is not inside the picture ({canvas.width} × {height})")
        if left < label.room[0] - SLACK or right > label.room[1] + SLACK:
            problems.append(f"{said} does not fit its room {label.room}")
        if label.text != label.wanted and not any(name in label.wanted for name in cut_names):
            problems.append(f"{label.wanted!r} is cut to {label.text!r}")
        if contrast(label.fill, label.background) < TEXT_CONTRAST:
            problems.append(f"{said}: {label.fill} on {label.background} is "
                            f"{contrast(label.fill, label.background):.1f}:1")
    for a, b in combinations(canvas.labels, 2):
        if overlap(a.box, b.box):
            problems.append(f"{a.text!r} at {a.box} overlaps {b.text!r} at {b.box}")
    for label in canvas.labels:
        for card in canvas.cards:
            if overlap(label.box, card):
                problems.append(f"{label.text!r} at {label.box} overlaps a card at {card}")
    return problems


def felt_below(image: Image.Image) -> int:
    """How many rows of plain felt end the picture."""
    rows = 0
    while rows < image.height and image.crop((0, image.height - rows - 1, image.width, image.height - rows)
                                             ).getcolors(1) == [(image.width, FELT)]:
        rows += 1
    return rows


def check_shown_legibly(canvas: Canvas, what: str, *, hand: bool = False, cut_names: Sequence[str] = ()) -> None:
    image = Image.open(io.BytesIO(canvas.png())).convert("RGB")
    width, height = image.size
    assert width == WIDTH and height <= MAX_HEIGHT, f"{what}: drawn {width} × {height}"
    if hand:
        assert felt_below(image) <= FELT_BELOW, f"{what}: {felt_below(image)} rows of empty felt at the bottom"
    else:
        assert height >= MIN_HEIGHT, f"{what}: drawn {width} × {height}, wider than 11:7"
    assert canvas.overflow == 0, f"{what}: {canvas.overflow} px ran off the bottom of the square"
    assert canvas.smallest_text is not None
    phone = canvas.smallest_text * DISPLAY_WIDTH / width
    desktop = canvas.smallest_text * min(DESKTOP_BOX[0] / width, DESKTOP_BOX[1] / height)
    assert min(phone, desktop) >= MIN_SCREEN_TEXT, (
        f"{what}: text drawn at {canvas.smallest_text} px is {phone:.1f} px on a phone, {desktop:.1f} on desktop")
    problems = label_problems(canvas, height, cut_names)
    assert not problems, f"{what}:\n" + "\n".join(problems[:12])


def drawn_positions(game: Game) -> Iterator[tuple[str, GameState, Sequence[str]]]:
    """``(what, state, names)``: the sample position with its sample names, then the random
    positions (:func:`positions`) with names as people type them."""
    state = sample_state(game)
    yield "the sample position", state, SAMPLE_NAMES[:state.players]
    for players, options, state in positions(game):
        yield f"{players} players, {options}", state, NAMES[:players]


@pytest.mark.parametrize("language", ["en", FRENCH])
@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_picture_is_legible_where_it_is_shown(game_id: str, language: str) -> None:
    game = games.get_game(game_id)
    drawer = pictures_for(game_id, language)
    drawn = 0
    for where, state, names in drawn_positions(game):
        seats = drawer.names(names)
        cut_names = [name for name in map(seats, range(len(names))) if name.endswith(ELLIPSIS)]
        what = f"{game_id} in {language}, {where}"
        check_shown_legibly(drawer.table(state.view(None), names), f"table of {what}", cut_names=cut_names)
        for seat in state.to_act()[:1]:
            legal = [action.code() for action in state.legal_actions(seat)]
            hand = drawer.hand(state.view(seat), legal, names)
            if hand is not None:
                check_shown_legibly(hand, f"hand of seat {seat} of {what}", hand=True, cut_names=cut_names)
        drawn += 1
    assert drawn >= len(tables(game)) * SEEDS * 2


@pytest.mark.parametrize("players", [2, 4])
def test_quash_swap_chains_fit_with_the_biggest_hands(players: int) -> None:
    """Advanced QUASH's hands are the biggest (twenty-odd cards) and a chain adds the card in
    the air: every fifth of the first thirty positions with a chain open of a seeded game is
    drawn legibly."""
    quash = games.get_game("quash")
    positions = random_positions(quash, players, {"advanced": True, "finish": 5}, 1)
    chained = [quash.from_json(state.to_json()) for state in positions if state.flying() is not None][:30:5]
    assert len(chained) == 6
    for language in ("en", FRENCH):
        drawer = pictures_for("quash", language)
        for i, state in enumerate(chained):
            seat = state.to_act()[0]
            legal = [action.code() for action in state.legal_actions(seat)]
            what = f"position {i} of {players} players in {language}"
            check_shown_legibly(drawer.table(state.view(None), SAMPLE_NAMES[:players]), f"table at {what}")
            hand = drawer.hand(state.view(seat), legal, SAMPLE_NAMES[:players])
            assert hand is not None
            check_shown_legibly(hand, f"hand at {what}", hand=True)


def test_the_sizes_are_what_a_phone_needs() -> None:
    """The documented numbers agree: 12 px on a 280-px phone is 24 px drawn at 560."""
    assert (WIDTH, DISPLAY_WIDTH, MIN_SCREEN_TEXT, MIN_TEXT) == (560, 280, 12, 24)
    assert MAX_HEIGHT == WIDTH and MIN_HEIGHT / WIDTH >= 7 / 11 - 0.01


def test_a_canvas_measures_the_smallest_text_it_draws() -> None:
    canvas = Canvas()
    canvas.text((10, 10), "big", 40)
    canvas.card((10, 80), "10H")
    assert round(canvas.smallest_text or 0) == 32  # the ranks on a full-size card
    canvas.text((10, 200), "tiny", 12)
    assert canvas.smallest_text == 12
    assert label_problems(canvas, canvas.height) == ["'tiny' at (10, 203, 32, 216) is drawn at 12 px"]
    canvas.text((20, 200), "Over", 30)
    assert label_problems(canvas, canvas.height)[1:] == [
        "'tiny' at (10, 203, 32, 216) overlaps 'Over' at (20, 211, 88, 233)"]
    canvas.y = MAX_HEIGHT + 20
    assert canvas.overflow == 20 + 12


def test_seats_are_named_and_your_own_seat_is_you() -> None:
    names = Names(["ana", "🤖 AI 1", "李小龙", "José", "Benedikt Großmann-Überall the Third"], you=0)
    assert [names(seat) for seat in range(5)][:4] == ["You", "AI 1", "Seat 3", "José"]
    assert names(4).startswith("Benedikt") and names(4).endswith("…")
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
    assert seat_names(seats, "fr") == ["ana", "🤖 IA 1", "Mr (hard)", "🤖 IA 2", "cat"]  # as French messages name them


def test_counts_carry_their_unit_in_the_right_number() -> None:
    cards = [plural("{count} card", "{count} cards", n) for n in (0, 1, 2)]
    assert [text.render() for text in cards] == ["0 cards", "1 card", "2 cards"]
    assert [text.render(FRENCH) for text in cards] == ["0 carte", "1 carte", "2 cartes"]


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_word_a_picture_draws_is_in_its_language(game_id: str) -> None:
    """Drawn in English and in French, no line with English words (but ranks) of a position's
    English pictures is in its French pictures: no word is written in the drawing code."""
    game = games.get_game(game_id)
    english, french = pictures_for(game_id), pictures_for(game_id, FRENCH)
    checked = 0
    for players, _, state in positions(game):
        names = [f"#{seat + 1}" for seat in range(players)]
        pairs = [(english.table(state.view(None), names), french.table(state.view(None), names))]
        for seat in state.to_act()[:1]:
            legal = [action.code() for action in state.legal_actions(seat)]
            pairs.append((english.hand(state.view(seat), legal, names), french.hand(state.view(seat), legal, names)))
        for drawn_in_english, drawn_in_french in pairs:
            assert (drawn_in_english is None) == (drawn_in_french is None)
            if drawn_in_english is None or drawn_in_french is None:
                continue
            in_english = {line for line in said(drawn_in_english) if english_words(RANK.sub("", line))}
            left_in_english = in_english & set(said(drawn_in_french))
            assert not left_in_english, f"drawn in English in a French picture: {left_in_english}"
            checked += len(in_english)
    assert checked > 0


def said(canvas: Canvas) -> set[str]:
    """What a picture writes, a wrapped paragraph whole (the languages wrap differently)."""
    return {label.paragraph for label in canvas.labels}


@pytest.mark.parametrize("games_played", [0, 1, 3, 9])
def test_the_stats_chart_is_drawn_for_where_it_is_shown(games_played: int, monkeypatch) -> None:
    """``/stats``' chart: as wide as every picture, landscape or square whatever the number of
    games and rated games, and its labels as legible as the table pictures'."""
    from bot.pictures import stats

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
    problems = label_problems(canvas, height, ["Game"])  # a game's name is cut short like a seat's
    assert not problems, "\n".join(problems)
