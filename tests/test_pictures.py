"""Pictures (games/pictures, each game's pictures.py): every registered game's table and hand pictures render for many
random positions within Discord-friendly limits, deterministically, and from what the
viewer may see only: hidden cards shuffled among their places give the same bytes."""

from __future__ import annotations

import io
import json
import re
import struct
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

import games
from cogs.attachments import CACHE_SIZE, cached, clear_cache
from games.base import Action, GameState
from games.determinize import game_hooks
from games.pictures import hand_png, pictures_for, samples, table_png
from games.pictures.base import GamePictures
from games.pictures.canvas import MAX_HEIGHT, WIDTH, Canvas
from games.pictures.cards import CARD, LARGE, SMALL, card_image, rank_right
from games.pictures.samples import random_positions
from games.rng import Rng
from tests.contract import contract_cases

MAX_PNG_BYTES = 150 * 1024
PICTURES_PER_CASE = 4
"""Positions drawn per table case (players × options): enough to see every phase over
all cases, few enough to keep the file quick."""
MAX_CASES = 16
ALLOWED_CHUNKS = {b"IHDR", b"PLTE", b"IDAT", b"IEND"}


def cases(game: games.Game) -> list[tuple[int, dict[str, Any]]]:
    """At most ``MAX_CASES`` of the game's contract cases (players × options), spread evenly."""
    every_case = contract_cases(game)
    return every_case[::-(-len(every_case) // MAX_CASES)]


def sampled_states(game: games.Game, per_case: int = PICTURES_PER_CASE) -> Iterator[GameState]:
    """Positions spread over one seeded random game per case, the deal and the end included."""
    for seed, (players, options) in enumerate(cases(game)):
        length = sum(1 for _ in random_positions(game, players, options, seed))
        picks = {round(i * (length - 1) / max(1, per_case - 1)) for i in range(per_case)}
        for i, state in enumerate(random_positions(game, players, options, seed)):
            if i in picks:
                yield game.from_json(state.to_json())


def png_chunks(png: bytes) -> list[bytes]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        chunks.append(kind)
        at += 12 + length
    return chunks


def check_png(png: bytes) -> None:
    assert len(png) <= MAX_PNG_BYTES
    assert set(png_chunks(png)) <= ALLOWED_CHUNKS, "no timestamps or text chunks"
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == WIDTH and 0 < image.height <= MAX_HEIGHT


def legal_codes(state, seat: int) -> list[str]:
    """What the hand message marks as playable: the seat's legal action codes."""
    return [action.code() for action in state.legal_actions(seat)]


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_position_renders_within_limits(game_id: str) -> None:
    game = games.get_game(game_id)
    drawn = set()
    for state in sampled_states(game):
        png = table_png(state.view(None))
        check_png(png)
        drawn.add(png)
        for seat in state.to_act():
            hand = hand_png(state.view(seat), legal_codes(state, seat))
            if hand is not None:
                check_png(hand)
    assert len(drawn) > len(cases(game)), "different positions give different pictures"


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_rendering_is_deterministic(game_id: str) -> None:
    game = games.get_game(game_id)
    for state in sampled_states(game, per_case=2):
        public = state.view(None)
        first = table_png(public)
        copy = json.loads(json.dumps(public))
        assert table_png(copy) == first
        seat = state.to_act()[0] if state.to_act() else 0
        view, legal = state.view(seat), legal_codes(state, seat)
        assert hand_png(view, legal) == hand_png(json.loads(json.dumps(view)), list(legal))


def with_hidden_cards_shuffled(state: GameState, viewer: int | None, rng: Rng) -> GameState | None:
    """The same position with the cards hidden from ``viewer`` dealt anew among their places
    (``None`` when shuffling can't change anything)."""
    hooks = game_hooks(state)
    if hooks is None:
        assert not state.hidden_cards(viewer), (
            f"{state.game_id} hides cards: say where in its Game.search (SearchHooks.hidden_slots)")
        return None
    snap = json.loads(json.dumps(state.to_json()))
    places = hooks.hidden_slots(snap, viewer)
    cards = [holder[i] for holder, i in places]
    assert Counter(cards) == Counter(c.code for c in state.hidden_cards(viewer)), "the places are the hidden cards"
    if len(set(cards)) < 2:
        return None
    shuffled = list(cards)
    while shuffled == cards:
        rng.shuffle(shuffled)
    for (holder, i), card in zip(places, shuffled):
        holder[i] = card
    return games.get_game(state.game_id).from_json(snap)


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_pictures_never_show_hidden_cards(game_id: str) -> None:
    game = games.get_game(game_id)
    rng = Rng(11)
    changed = 0
    for state in sampled_states(game, per_case=3):
        for viewer in [None, *state.to_act()]:
            other = with_hidden_cards_shuffled(state, viewer, rng)
            if other is None:
                continue
            assert other.to_json() != state.to_json()
            changed += 1
            if viewer is None:
                assert table_png(other.view(None)) == table_png(state.view(None))
            else:
                assert (hand_png(other.view(viewer), legal_codes(other, viewer))
                        == hand_png(state.view(viewer), legal_codes(state, viewer)))
                assert table_png(other.view(None)) == table_png(state.view(None))
    assert changed > 0


def test_a_game_without_its_own_drawer_gets_the_generic_look() -> None:
    q2j = games.get_game("q2j")
    generic = GamePictures(q2j)
    state = next(sampled_states(q2j, per_case=2))
    png = generic.table(state.view(None)).png()
    check_png(png)
    assert type(pictures_for("q2j")) is not GamePictures
    assert png != table_png(state.view(None))


def test_pictures_are_cached_by_key_in_a_small_lru() -> None:
    clear_cache()
    state = next(sampled_states(games.get_game("war"), per_case=2))
    public = state.view(None)
    first = cached(("table-1", 1), lambda: table_png(public))
    other = {**public, "deck_counts": [n + 1 for n in public["deck_counts"]]}
    assert cached(("table-1", 1), lambda: table_png(other)) is first, "same key: not drawn again"
    for version in range(2, CACHE_SIZE + 2):
        cached(("table-1", version), lambda: table_png(public))
    assert cached(("table-1", 1), lambda: table_png(other)) != first, "the oldest entry was dropped"


def said(canvas: Canvas | None) -> set[str]:
    """What a picture writes, a wrapped paragraph whole."""
    assert canvas is not None
    return {label.paragraph for label in canvas.labels}


def open_quash_chain() -> GameState:
    """A seeded advanced QUASH game stopped while its player has a card in the air, two steps into a chain."""
    quash = games.get_game("quash")
    for state in random_positions(quash, 2, {"advanced": True, "finish": 30}, 0):
        if state.flying() is not None and len(state.chain) >= 2:
            return quash.from_json(state.to_json())
    raise AssertionError("seed 0 has a chain of two steps")


def test_quash_pictures_show_an_open_chain() -> None:
    state = open_quash_chain()
    seat = state.to_act()[0]
    public, own = state.view(None), state.view(seat)
    assert public["chain"] and own["chain"]
    drawer = pictures_for("quash")
    # The table rings the moved cards and shows the card in the air below the board; the chain's
    # own hand picture shows that card above the hand.
    check_png(table_png(public))
    assert table_png(public) != table_png({**public, "chain": None})
    moved, in_the_air = "in the air:", "In the air: place it"
    assert moved in drawer.table(public).texts
    assert moved not in drawer.table({**public, "chain": None}).texts
    legal = legal_codes(state, seat)
    assert in_the_air in said(drawer.hand(own, legal))
    assert in_the_air not in said(drawer.hand({**own, "chain": None}, legal))
    other = 1 - seat
    assert hand_png(state.view(other), []) == hand_png({**state.view(other), "chain": None}, []), (
        "the other seat's hand picture has nothing in the air")


def test_card_faces_and_rank_chips_are_drawn_in_the_pictures_language():
    """A French picture writes a face's rank and Queen of Spades' rank chips with French
    letters (V, D, R for J, Q, K); numbers are the same in both."""
    assert card_image("QH", language="fr").tobytes() != card_image("QH").tobytes()
    assert card_image("10H", language="fr").tobytes() == card_image("10H").tobytes()
    game = games.get_game("queen-of-spades")
    lettered = {"en": re.compile(r"[AJQK](×\d+)?"), "fr": re.compile(r"[AVDR](×\d+)?")}
    for state in random_positions(game, 2, {}, seed=3):
        view = state.view(None)
        chips = {language: [text for text in pictures_for(game.id, language).table(view).texts
                            if pattern.fullmatch(text)] for language, pattern in lettered.items()}
        if chips["en"]:
            break
    assert chips["en"] == ["J"] and chips["fr"] == ["V"]


def test_war_cards_lie_sideways_with_their_ranks_upright():
    """A tapped card is laid sideways (landscape) but its rank reads as on the card untapped:
    the corner with the rank is the same, in every size and language."""
    for size in (SMALL, CARD, LARGE):
        for language in ("en", "fr"):
            for code in ("10H", "QS", "AD", "7C", "KD", "2S", "JC"):
                upright, tapped = card_image(code, size, language=language), card_image(code, size, tapped=True,
                                                                                        language=language)
                assert tapped.size == (size.height, size.width)
                corner = (0, 0, rank_right(code, size, language), int(size.height * 0.4))
                assert tapped.crop(corner).tobytes() == upright.crop(corner).tobytes(), (code, size, language)


def penalty_position() -> GameState:
    """A seeded Q2J position whose seat to act holds a card it may play, one that costs a
    penalty draw and one it can't play."""
    q2j = games.get_game("q2j")
    for seed in range(20):
        for state in random_positions(q2j, 3, {"variant": "standard"}, seed):
            if state.to_act():
                view, legal = state.view(state.to_act()[0]), legal_codes(state, state.to_act()[0])
                playable = {card for card in view["hand"] if f"play:{card}" in legal}
                if view["penalty_cards"] and playable - set(view["penalty_cards"]) and set(view["hand"]) - playable:
                    return q2j.from_json(state.to_json())
    raise AssertionError("twenty seeded games reach such a position")


def test_q2j_hand_gives_each_meaning_its_own_look():
    """Playable cards are ringed, a playable card that costs a penalty draw is ringed and
    tagged "+1" (as the message and its buttons say), a card that can't be played is greyed:
    three looks, and the legend says what "+1" means."""
    state = penalty_position()
    seat = state.to_act()[0]
    view, legal = state.view(seat), legal_codes(state, seat)
    drawer = pictures_for("q2j")
    hand = view["hand"]
    rows = drawer.hand_rows(view, drawer.playable(view, [Action.from_code(code) for code in legal]), drawer.names(None))
    (row,) = [row for row in rows if not row.reference]
    looks = {}
    for i, card in enumerate(hand):
        look = (i in row.marked, i in row.penalty, row.dim_unmarked and i not in row.marked)
        looks.setdefault(look, set()).add(card)
        assert look == (f"play:{card}" in legal, card in view["penalty_cards"], f"play:{card}" not in legal), card
    assert len(looks) == 3
    assert len({card_image("7H", marked=marked, penalty=penalty, dim=dim).tobytes()
                for marked, penalty, dim in looks}) == 3
    drawn = drawer.hand(view, legal)
    assert drawn is not None
    assert "+1: playing this card costs a penalty draw" in drawn.texts
    assert not any("dimmed" in text for text in drawn.texts)


def test_the_sample_pictures_are_each_games_table_and_hand_the_same_every_run(tmp_path, capsys) -> None:
    """``python -m games.pictures.samples DIR`` (the README's pictures): per game its table and the
    hand of the seat to act, two fifths into a seeded game, each a valid picture; run again, the same bytes."""
    assert samples.main([str(tmp_path / "first")]) == 0
    printed = capsys.readouterr().out.splitlines()
    names = sorted(path.name for path in (tmp_path / "first").iterdir())
    assert names == sorted(f"{game_id}{kind}.png" for game_id in games.GAME_IDS for kind in ("", "-hand"))
    assert len(printed) == len(names) and all(line.endswith(" KB)") for line in printed)
    for game_id in games.GAME_IDS:
        state = samples.sample_state(games.get_game(game_id))
        assert not state.is_over() and state.to_act()
        table = (tmp_path / "first" / f"{game_id}.png").read_bytes()
        check_png(table)
        assert table == table_png(state.view(None), names=samples.SAMPLE_NAMES[:state.players])
        check_png((tmp_path / "first" / f"{game_id}-hand.png").read_bytes())
    again = samples.write_samples(tmp_path / "again")
    assert {p.name: p.read_bytes() for p in again} == {n: (tmp_path / "first" / n).read_bytes() for n in names}
