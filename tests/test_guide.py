"""The guide's game passes the shared tests as a game dropped into a checkout must: the package
``docs/adding-a-game.md`` writes (Duel's engine, rules text, AI, pictures, docstring of rulings,
French catalog, rules tests, and its optional Discord look), built from the page's code blocks
(:mod:`tests.guide`) into a temporary checkout, is registered and put through the tests every
game passes, called as they are written in their own files, with no other file changed: its
words are in its own catalog and read from there, the docs say nothing false of it, and the
replay test says how to record it."""

from __future__ import annotations

import importlib
import importlib.util
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import games
from bot.achievements import catalog
from cogs.looks import load_game_uis
from cogs.ui import ui_for
from games.base import Action, Game
from games.feats import Played, feats_of
from games.i18n import Seat, catalog_files, say
from games.i18n.__main__ import every_words
from games.rng import Rng
from tests import (
    test_ai_levels,
    test_command_languages,
    test_contract,
    test_dashboard,
    test_discord_every_game,
    test_discord_french,
    test_docs,
    test_french,
    test_hints,
    test_i18n,
    test_picture_sizes,
    test_pictures,
    test_rendering,
    test_replays,
    test_rules,
    test_snapshots,
    test_terminal,
)
from tests.contract import contract_cases
from tests.guide import GAME_ID, guide_files, installed, skip_if_a_duel_is_installed
from tests.rendering import render_every_position

skip_if_a_duel_is_installed()


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("guide")


@pytest.fixture(scope="module", autouse=True)
def guide_game(checkout: Path) -> Iterator[Game]:
    with installed(checkout) as game:
        load_game_uis()
        yield game
    load_game_uis()


def test_the_guide_writes_a_whole_game() -> None:
    assert set(guide_files()) == {
        "games/duel/__init__.py", "games/duel/state.py", "games/duel/ai.py", "games/duel/rules_text.py",
        "games/duel/game.py", "games/duel/feats.py", "games/duel/pictures.py", "games/duel/locales/fr.po",
        "tests/test_duel_rules.py", "cogs/looks/duel.py",
    }


def test_the_guides_feat_is_found_without_edits_outside_its_package(guide_game: Game) -> None:
    """Duel's feat (``games/duel/feats.py``) is among the achievements, and earned by a game
    that earns it, not by one that falls one short."""
    (landslide,) = feats_of(guide_game)
    assert f"feat:{GAME_ID}:landslide" in catalog()
    state_class = importlib.import_module(f"games.{GAME_ID}.state").DuelState

    def played(opponent: list[str]) -> Played:
        start = state_class(players=2, options={"cards": 2}, seed=0, rng=Rng(0), hands=[["KS", "QS"], opponent],
                            laid=[[], []], aside=[], turn=0)
        final = guide_game.from_json(start.to_json())
        log = [(seat, Action("lay", (card,))) for pair in zip(start.hands[0], opponent) for seat, card in
               enumerate(pair)]
        for seat, action in log:
            final.apply(seat, action)
        return Played(guide_game, final.outcome(), log, lambda: start, lambda: final)

    assert landslide.earned(played(["6H", "6D"]), 0)  # 25 against 12
    assert not landslide.earned(played(["6H", "7D"]), 0)  # 25 against 13: one short


def test_the_guides_game_is_registered_under_its_id_with_its_own_look(guide_game: Game) -> None:
    assert games.get_game(GAME_ID) is guide_game and GAME_ID in games.GAME_IDS
    assert guide_game.package == "duel" and type(ui_for(GAME_ID)).__name__ == "DuelUI"
    assert guide_game.state_class.game_id == GAME_ID and guide_game.rules is not None
    assert (guide_game.rules.id, guide_game.rules.command) == (GAME_ID, "/duel start")


def test_its_words_are_read_from_its_own_catalog(checkout: Path) -> None:
    own = checkout / "games" / "duel" / "locales" / "fr.po"
    assert own in catalog_files("fr") and [w.folder for w in every_words() if w.game and w.game.id == GAME_ID] == [
        own.parent]
    assert say("{player} laid the higher total.", player=Seat(1)).render("fr", ["ana", "ben"]) == \
        "ben a posé le plus gros total."


def _rules_tests(checkout: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("test_duel_rules", checkout / "tests" / "test_duel_rules.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_its_own_rules_tests_pass(checkout: Path) -> None:
    module = _rules_tests(checkout)
    tests = [getattr(module, name) for name in dir(module) if name.startswith("test_")]
    assert len(tests) == 3
    for test in tests:
        test()


def test_its_replays_are_not_recorded_and_the_replay_test_says_how_to() -> None:
    with pytest.raises(pytest.skip.Exception, match=r"`python -m tests\.replays duel` records them"):
        test_replays.test_every_case_was_recorded(GAME_ID)


def _cases() -> list[tuple[int, dict[str, Any]]]:
    """The contract's tables for the guide's game (at collection, before the fixture runs)."""
    with tempfile.TemporaryDirectory() as root, installed(Path(root)) as game:
        return contract_cases(game)


PER_GAME: list[Callable[[str], None]] = [
    test_contract.test_unknown_options_and_values_are_refused,
    test_contract.test_actions_round_trip,
    test_contract.test_things_not_shaped_like_an_action_are_refused_unchanged,
    test_contract.test_broken_snapshots_are_refused_clearly,
    test_ai_levels.test_hard_is_reproducible_with_a_fixed_seed,
    test_ai_levels.test_a_determinization_keeps_the_view_and_moves_the_hidden_cards,
    test_ai_levels.test_hard_sees_only_the_view,
    test_pictures.test_every_position_renders_within_limits,
    test_pictures.test_rendering_is_deterministic,
    test_pictures.test_pictures_never_show_hidden_cards,
    test_picture_sizes.test_every_word_a_picture_draws_is_in_its_language,
    test_rendering.test_a_game_without_a_discord_module_is_playable_with_the_default_look,
    test_rendering.test_the_board_numbers_every_seat_as_the_pictures_name_it,
    test_rules.test_every_engine_option_and_default_is_documented,
    test_french.test_every_word_of_a_table_is_french,
]
EVERY_GAME: list[Callable[[], None]] = [
    test_contract.test_the_registry_finds_every_game_package_in_order,
    test_contract.test_every_option_choice_is_played,
    test_contract.test_no_engine_reaches_into_another,
    test_hints.test_every_game_has_its_own_reasons,
    test_rules.test_every_game_has_rules_with_the_core_sections,
    test_rules.test_cards_are_written_in_display_form,
    test_rules.test_every_page_fits_a_discord_embed,
    test_rules.test_every_table_option_is_documented_with_its_command,
    test_rules.test_the_markdown_copy_is_up_to_date,
    test_rules.test_the_english_rules_are_the_text_itself,
    test_rules.test_the_french_rules_write_cards_the_french_way,
    test_i18n.test_every_translatable_string_of_the_code_is_in_its_packages_catalogs,
    test_i18n.test_every_catalog_is_what_update_writes,
    test_french.test_no_engine_sentence_of_the_catalog_is_left_in_english,
    test_docs.test_readme_describes_each_game_it_lists_as_it_is,
    test_docs.test_readme_names_no_other_start_command,
    test_docs.test_readme_shows_each_game_it_lists_on_a_phone_and_on_desktop,
    test_docs.test_every_game_keeps_its_rulings_at_home,
    test_snapshots.test_snapshots_are_of_registered_games,
    test_replays.test_every_recording_is_of_a_registered_game,
    test_rendering.test_every_registered_game_gets_its_discord_module_or_the_default_look,
]
CASES = _cases()


@pytest.mark.parametrize("check", PER_GAME, ids=lambda check: check.__name__)
def test_a_shared_test_of_each_game(check: Callable[[str], None]) -> None:
    check(GAME_ID)


@pytest.mark.parametrize("check", EVERY_GAME, ids=lambda check: check.__name__)
def test_a_shared_test_over_every_game(check: Callable[[], None]) -> None:
    check()


def test_every_catalog_is_complete(capsys: pytest.CaptureFixture[str]) -> None:
    test_i18n.test_every_catalog_is_complete_with_the_same_placeholders(capsys)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_picture_is_legible(language: str) -> None:
    test_picture_sizes.test_every_picture_is_legible_where_it_is_shown(GAME_ID, language)


@pytest.mark.parametrize(("players", "options"), CASES, ids=[str(options) for _, options in CASES])
def test_random_play_keeps_the_contract(players: int, options: dict[str, Any]) -> None:
    test_contract.test_random_play_keeps_the_contract(GAME_ID, players, options)


@pytest.mark.parametrize(("players", "options"), CASES, ids=[str(options) for _, options in CASES])
def test_hints_every_ai_level_and_french_words(players: int, options: dict[str, Any]) -> None:
    test_hints.test_every_position_gets_the_normal_move_and_a_reason(GAME_ID, players, options)
    test_ai_levels.test_every_level_plays_only_legal_actions(GAME_ID, players, options)
    test_french.test_every_word_of_a_game_is_french(GAME_ID, players, options, 0)


@pytest.mark.parametrize(("players", "options"), CASES, ids=[str(options) for _, options in CASES])
def test_every_position_renders_valid_messages_with_every_legal_move(players: int, options: dict[str, Any]) -> None:
    render_every_position(GAME_ID, options, players, None, seeds=3)
    test_dashboard.test_the_table_message_stays_small_and_the_log_holds_every_event(GAME_ID, options, players)


def test_the_terminal_plays_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    test_terminal.test_every_seat_human_plays_by_codes_to_the_end(GAME_ID, 2)
    test_terminal.test_all_ai_game_finishes(GAME_ID, monkeypatch, capsys)


async def test_it_plays_to_the_end_through_discord_showing_each_result_with_its_unit(server) -> None:
    """Duel has no ``standing`` of its own look: the default shows each place's total in
    ``Game.standing``'s words."""
    places = await test_discord_every_game.ending_of_a_game_played_to_the_end(server, GAME_ID)
    assert all(re.search(r" — \d+ pts?$", place) for place in places), places


async def test_a_french_server_plays_it_in_french(tmp_path: Path) -> None:
    await test_discord_french.test_a_french_server_plays_every_game_in_french(tmp_path, GAME_ID)


async def test_its_rules_answer_through_discord(server) -> None:
    await test_rules.test_rules_answer_privately_with_the_first_page(server, GAME_ID)


async def test_its_command_is_named_and_described_in_french(tmp_path: Path) -> None:
    await test_command_languages.test_every_command_option_and_choice_is_named_and_described_in_french(tmp_path)


async def test_its_french_names_commands_as_a_french_client_shows_them(tmp_path: Path) -> None:
    await test_command_languages.test_every_translation_names_commands_as_its_readers_client_shows_them(tmp_path)
