"""Every available game passes the shared engine contract (tests/contract.py)."""

from __future__ import annotations

from typing import Any

import pytest

import games
from games.base import Action
from games.errors import GameError, MalformedAction
from tests.contract import check_action_forms, check_contract


def _q2j_configs() -> list[tuple[int, dict[str, Any], int]]:
    """(players, options, seeds) for every q2j variant × match × player count."""
    configs = []
    for variant in ("standard", "classic", "faceup", "challenge", "countdown"):
        for match in ("single", "elimination"):
            counts = (2,) if variant == "challenge" else range(2, 11)
            for players in counts:
                # Elimination matches and countdown games run many games long: fewer seeds.
                long = (match == "elimination") + (variant == "countdown")
                seeds = (8, 3, 1)[long] if players > 2 else (16, 5, 2)[long]
                configs.append((players, {"variant": variant, "match": match}, seeds))
    for short in ("random", 0, 1):
        configs.append((2, {"variant": "challenge", "short_hand": short}, 8))
    return configs


# Per-game tables; a game missing here is checked with default options at every player count.
CONFIGS: dict[str, list[tuple[int, dict[str, Any], int]]] = {
    "q2j": _q2j_configs(),
    # Random players rarely reach a target score at big tables: bound matches by rounds.
    "queen-of-spades": [(n, {"rounds": 2}, 3) for n in range(2, 9)],
}


def _cases() -> list[Any]:
    cases = []
    for game_id in games.available_game_ids():
        try:
            game = games.get_game(game_id)
        except Exception:  # a broken engine fails its own case below, not the whole collection
            cases.append(pytest.param(game_id, 0, {}, 0, id=f"{game_id}-does-not-load"))
            continue
        table = CONFIGS.get(game_id) or [(n, {}, 3) for n in game.allowed_player_counts()]
        for players, options, seeds in table:
            for seed in range(seeds):
                label = f"{game_id}-{players}p-" + "-".join(f"{k}={v}" for k, v in options.items()) + f"-s{seed}"
                cases.append(pytest.param(game_id, players, options, seed, id=label))
    return cases


@pytest.mark.parametrize(("game_id", "players", "options", "seed"), _cases())
def test_random_play_keeps_the_contract(game_id: str, players: int, options: dict[str, Any], seed: int) -> None:
    check_contract(game_id, players, options, seed)


@pytest.mark.parametrize("game_id", games.available_game_ids())
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


@pytest.mark.parametrize("game_id", games.available_game_ids())
def test_actions_round_trip(game_id: str) -> None:
    game = games.get_game(game_id)
    for seed in range(3):
        state = game.new_game(game.allowed_player_counts()[0], {}, seed)
        for seat in state.to_act():
            for action in state.legal_actions(seat):
                assert isinstance(action, Action)
                check_action_forms(game, action)


def test_registry_knows_every_available_game() -> None:
    for game_id in games.available_game_ids():
        game = games.get_game(game_id)
        assert game.id == game_id
    with pytest.raises(GameError):
        games.get_game("no-such-game")


@pytest.mark.parametrize("game_id", games.available_game_ids())
def test_broken_snapshots_are_refused_clearly(game_id: str) -> None:
    game = games.get_game(game_id)
    snapshot = game.new_game(game.allowed_player_counts()[0], {}, 0).to_json()
    with pytest.raises(MalformedAction, match="Not a"):
        game.from_json({**snapshot, "game": "another-game"})
    with pytest.raises(MalformedAction, match="Broken"):
        game.from_json({k: v for k, v in snapshot.items() if k != "players"})
    with pytest.raises(MalformedAction):
        game.from_json({})
