"""The guide's game passes the shared tests: ``docs/adding-a-game.md``'s Duel, built from
the page's code blocks (:mod:`tests.guide`), is registered and put through the same tests
every shipped game passes, called as they are written in their own files."""

from __future__ import annotations

import importlib
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import games
from bot.achievements import catalog
from cogs.games import load_game_uis
from cogs.ui import ui_for
from games.base import Action, Game
from games.feats import Played, feats_of
from games.rng import Rng
from tests import test_ai_levels, test_contract, test_hints, test_pictures, test_rendering, test_rules
from tests.contract import contract_cases
from tests.guide import GAME_ID, guide_files, installed
from tests.rendering import render_every_position


@pytest.fixture(scope="module", autouse=True)
def guide_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Game]:
    with installed(tmp_path_factory.mktemp("guide")) as game:
        load_game_uis()
        yield game
    load_game_uis()


def test_the_guide_writes_a_whole_game() -> None:
    assert set(guide_files()) == {
        "games/duel/__init__.py", "games/duel/state.py", "games/duel/ai.py", "games/duel/rules_text.py",
        "games/duel/game.py", "games/duel/feats.py", "cogs/games/duel.py",
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
    test_rendering.test_a_game_without_a_discord_module_is_playable_with_the_default_look,
    test_rendering.test_the_board_numbers_every_seat_as_the_pictures_name_it,
    test_rules.test_every_engine_option_and_default_is_documented,
]
EVERY_GAME: list[Callable[[], None]] = [
    test_contract.test_every_option_choice_is_played,
    test_contract.test_no_engine_reaches_into_another,
    test_hints.test_every_game_has_its_own_reasons,
    test_rules.test_every_game_has_rules_with_the_core_sections,
    test_rules.test_cards_are_written_in_display_form,
    test_rules.test_every_page_fits_a_discord_embed,
    test_rules.test_every_table_option_is_documented_with_its_command,
]
CASES = _cases()


@pytest.mark.parametrize("check", PER_GAME, ids=lambda check: check.__name__)
def test_a_shared_test_of_each_game(check: Callable[[str], None]) -> None:
    check(GAME_ID)


@pytest.mark.parametrize("check", EVERY_GAME, ids=lambda check: check.__name__)
def test_a_shared_test_over_every_game(check: Callable[[], None]) -> None:
    check()


@pytest.mark.parametrize(("players", "options"), CASES, ids=[str(options) for _, options in CASES])
def test_random_play_keeps_the_contract(players: int, options: dict[str, Any]) -> None:
    test_contract.test_random_play_keeps_the_contract(GAME_ID, players, options)


@pytest.mark.parametrize(("players", "options"), CASES, ids=[str(options) for _, options in CASES])
def test_hints_and_every_ai_level(players: int, options: dict[str, Any]) -> None:
    test_hints.test_every_position_gets_the_normal_move_and_a_reason(GAME_ID, players, options)
    test_ai_levels.test_every_level_plays_only_legal_actions(GAME_ID, players, options)


@pytest.mark.parametrize(("players", "options"), CASES, ids=[str(options) for _, options in CASES])
def test_every_position_renders_valid_messages_with_every_legal_move(players: int, options: dict[str, Any]) -> None:
    render_every_position(GAME_ID, options, players, None, seeds=3)
