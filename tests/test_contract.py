"""Every registered game passes the shared engine contract (tests/contract.py): the games
and the tables to try come from the registry, so a new game is checked without edits here."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

import pytest

import games
from games.base import Action
from games.errors import GameError, MalformedAction
from tests.contract import check_action_forms, check_contract, contract_cases, option_values

TWO_PLAYER_SEEDS = 6
"""Seeds per two-player table; bigger tables take longer, so they get fewer."""
SEEDS = 3


def _cases() -> list[Any]:
    cases = []
    for game in games.all_games():
        for players, options in contract_cases(game):
            for seed in range(TWO_PLAYER_SEEDS if players == 2 else SEEDS):
                label = f"{game.id}-{players}p-" + "-".join(f"{k}={v}" for k, v in options.items()) + f"-s{seed}"
                cases.append(pytest.param(game.id, players, options, seed, id=label))
    return cases


@pytest.mark.parametrize(("game_id", "players", "options", "seed"), _cases())
def test_random_play_keeps_the_contract(game_id: str, players: int, options: dict[str, Any], seed: int) -> None:
    check_contract(game_id, players, options, seed)


def test_every_option_choice_is_played() -> None:
    for game in games.all_games():
        cases = contract_cases(game)
        assert {players for players, _ in cases} == set(game.allowed_player_counts())
        for spec in game.options:
            if option_values(spec):
                assert {options[spec.name] for _, options in cases} == set(option_values(spec)), (game.id, spec.name)


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_unknown_options_and_values_are_refused(game_id: str) -> None:
    game = games.get_game(game_id)
    players = game.allowed_player_counts()[0]
    with pytest.raises(GameError, match="Unknown option"):
        game.new_game(players, {"no_such_option": 1}, 0)
    for spec in game.options:
        with pytest.raises(GameError, match=spec.name):
            game.new_game(players, {spec.name: object()}, 0)
    for bad in (min(game.allowed_player_counts()) - 1, max(game.allowed_player_counts()) + 1, "2", True):
        with pytest.raises(GameError):
            game.new_game(bad, {}, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_actions_round_trip(game_id: str) -> None:
    game = games.get_game(game_id)
    for seed in range(3):
        state = game.new_game(game.allowed_player_counts()[0], {}, seed)
        for seat in state.to_act():
            for action in state.legal_actions(seat):
                assert isinstance(action, Action)
                check_action_forms(game, action)


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_things_not_shaped_like_an_action_are_refused_unchanged(game_id: str) -> None:
    """Whatever reaches ``apply`` (a decoded custom_id, a stored move), a value that is not a
    kind with a tuple of args is refused as malformed ("Not a War move: …") and changes nothing."""
    game = games.get_game(game_id)
    state = game.new_game(game.allowed_player_counts()[0], {}, 0)
    seat = state.to_act()[0]
    before = state.to_json()
    kind = state.legal_actions(seat)[0].kind
    for junk in (None, 7, "draw", (), (kind,), (kind, (), ()), (kind, ["QS"]), (kind, "QS"), (3, ())):
        with pytest.raises(MalformedAction, match=r"^Not an? [\w ]+ move: "):
            state.apply(seat, junk)
        assert state.to_json() == before


def test_the_registry_finds_every_game_package_in_order() -> None:
    shipped = ("q2j", "war", "ng", "queen-of-spades", "quash")
    assert [g for g in games.GAME_IDS if g in shipped] == list(shipped)
    assert [g.order for g in games.all_games()] == sorted(g.order for g in games.all_games())
    for game in games.all_games():
        assert games.get_game(game.id) is game
        assert game.rules is not None
        assert (game.rules.id, game.rules.in_language().name, game.rules.command) == (game.id, game.name, f"/{game.command} start")
    with pytest.raises(GameError):
        games.get_game("no-such-game")


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_broken_snapshots_are_refused_clearly(game_id: str) -> None:
    game = games.get_game(game_id)
    snapshot = game.new_game(game.allowed_player_counts()[0], {}, 0).to_json()
    with pytest.raises(MalformedAction, match="Not a"):
        game.from_json({**snapshot, "game": "another-game"})
    with pytest.raises(MalformedAction, match="Broken"):
        game.from_json({k: v for k, v in snapshot.items() if k != "players"})
    with pytest.raises(MalformedAction):
        game.from_json({})


def _imported(path: Path, package: str) -> set[tuple[str, str]]:
    """``(module, name)`` for every ``from … import name`` in a file of ``package``, inside functions too."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = parts[: len(parts) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found |= {(module, alias.name) for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {(alias.name, "") for alias in node.names}
    return found


def test_no_engine_reaches_into_another() -> None:
    """Engines share games.cards, games.concept and the like; of another game they may use
    only the public Q2J ``compare``."""
    packages = {game.state_class.__module__.rsplit(".", 1)[0] for game in games.all_games()}
    for package in packages:
        for path in Path(importlib.import_module(package).__file__).parent.glob("*.py"):
            for module, name in _imported(path, package):
                other = next((p for p in packages if p != package and (module == p or module.startswith(p + "."))), None)
                if other is not None:
                    assert (module, name) == ("games.q2j", "compare"), f"{path} imports {module}.{name}"
