"""Every registered game passes the shared engine contract (tests/contract.py): the games
and the tables to try come from the registry, so a new game is checked without edits here.

One item per game × player count × option set plays every seed of that table; what a
game's own rules say of its endings, the extra tables a game needs, and AI-seat tables
are listed here by game."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import json
import pkgutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

import games
from games.base import Action, GameState
from games.errors import GameError, MalformedAction
from tests.contract import check_action_forms, check_ai_game, check_contract, contract_cases, option_values

MORE_OPTIONS: dict[str, tuple[dict[str, Any], ...]] = {
    "quash": ({"finish": 30}, {"advanced": True, "finish": 20}),
    "queen-of-spades": ({"rounds": 1}, {"rounds": 3, "target": 150}),
}
"""Tables tried besides the registry's, at every player count: longer QUASH tracks (tiebreaks,
deeper chains) and Queen of Spades matches that end after one round or at a low target."""


def seeds(game_id: str, players: int, options: Mapping[str, Any]) -> range:
    """Seeds per table. Games that play out in milliseconds get more (War, NG, basic QUASH,
    Queen of Spades), and basic QUASH to 30 enough that random play meets a tiebreak (seeds 14
    with two players, 0 and 10 with four); the others 6 for two players and 3 for more, but 2 for the longest:
    the longer advanced QUASH track (chain searches cost) and Q2J elimination matches of 6 to
    10 players (5 to 9 games of random play, up to 16,000 moves each)."""
    if game_id == "war" or (game_id == "quash" and options == {"finish": 30}):
        return range(15 if game_id == "quash" else 20)
    if game_id == "ng" or (game_id == "quash" and not options.get("advanced")):
        return range(12)
    if (options.get("advanced") and options["finish"] > 12) or (options.get("match") == "elimination" and players >= 6):
        return range(2)
    return range(6 if players == 2 or game_id == "queen-of-spades" else 3)


def check_every(game_id: str, options: Mapping[str, Any]) -> int:
    """Steps between deep checks, on average: short games are checked more often; advanced QUASH,
    whose turns list hundreds of swap chains, less."""
    if game_id == "quash":
        return 40 if options.get("advanced") else 10
    return {"war": 10, "queen-of-spades": 15}.get(game_id, 25)


WINNERS_VARY = ("war", "quash", "queen-of-spades")
"""Games whose winners differ from seed to seed at every table (not so for a 9-seat Q2J single
game, which seat 0 often wins)."""


def _cases() -> list[Any]:
    cases = []
    for game in games.all_games():
        more = [(players, {**game.quick_options, **options})
                for players in game.allowed_player_counts() for options in MORE_OPTIONS.get(game.id, ())]
        for players, options in contract_cases(game) + more:
            label = f"{game.id}-{players}p-" + "-".join(f"{k}={v}" for k, v in options.items())
            cases.append(pytest.param(game.id, players, options, id=label))
    return cases


@pytest.mark.parametrize(("game_id", "players", "options"), _cases())
def test_random_play_keeps_the_contract(game_id: str, players: int, options: dict[str, Any]) -> None:
    """One table, every seed: the contract in each game, and across them that the seed reaches the end."""
    states = [check_contract(game_id, players, options, seed, check_every=check_every(game_id, options))
              for seed in seeds(game_id, players, options)]
    outcomes = [state.outcome() for state in states]
    assert len({json.dumps(o.to_json(), sort_keys=True) for o in outcomes}) > 1, "every seed, the same outcome"
    if game_id in WINNERS_VARY:
        assert len({o.winners for o in outcomes}) > 1, "every seed, the same winners"
    ENDINGS.get(game_id, lambda *_: None)(states, players, options)


def _ng_endings(states: list[GameState], players: int, options: Mapping[str, Any]) -> None:
    assert all(state.outcome().winners for state in states), "an NG game always has a winner"


def _queen_of_spades_endings(states: list[GameState], players: int, options: Mapping[str, Any]) -> None:
    for state in states:
        assert state.history and len(state.history) == state.round_no, "one history entry per round"
    ends = {state.end for state in states}
    if "target" not in options:
        assert "rounds" in ends
    elif players == 2:
        assert "target" in ends


def _quash_endings(states: list[GameState], players: int, options: Mapping[str, Any]) -> None:
    if options == {"finish": 30}:
        tiebreaks = [r for state in states for r in state.results if r["how"] == "tiebreak"]
        assert tiebreaks, "no scoring waited for secret cards"


ENDINGS: dict[str, Callable[[list[GameState], int, Mapping[str, Any]], None]] = {
    "ng": _ng_endings, "queen-of-spades": _queen_of_spades_endings, "quash": _quash_endings,
}
"""What a game's own rules say of every end, checked on the finished games of one table."""


AI_TABLES = [
    *(("war", players, {"loss": loss}, range(8)) for players in (2, 3, 4) for loss in ("no-cards", "field-empty")),
    *(("ng", players, {"faceup": faceup}, range(4)) for players in (2, 3, 4) for faceup in (False, True)),
    *(("quash", players, {"finish": 20}, range(3)) for players in (2, 4)),
    *(("quash", players, {"advanced": True, "finish": 20}, range(2)) for players in (2, 4)),
    *(("queen-of-spades", players, {"target": 600, "rounds": 6}, range(2)) for players in (2, 3, 5, 7)),
]
"""Tables where every seat is an AI: they reach positions random play rarely shows (long
defended stacks, runs and won tiebreaks, big sets and players going out, stall ends)."""


@pytest.mark.parametrize(("game_id", "players", "options", "ai_seeds"), [
    pytest.param(*table, id=f"{table[0]}-{table[1]}p-" + "-".join(f"{k}={v}" for k, v in table[2].items()))
    for table in AI_TABLES
])
def test_ai_play_keeps_the_contract(game_id: str, players: int, options: dict[str, Any], ai_seeds: range) -> None:
    for seed in ai_seeds:
        check_ai_game(game_id, players, options, seed, max_steps=20_000 if game_id == "queen-of-spades" else 5_000)


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
    """Every package (or module) of ``games/`` that defines ``GAME`` is registered, in the games'
    ``order`` and then by id (any order is allowed: two games may share one), and a game declares
    its id, name and command once: its state class and rules take them from it."""
    found = {info.name for info in pkgutil.iter_modules(games.__path__)
             if not info.name.startswith("_") and isinstance(getattr(importlib.import_module(f"games.{info.name}"),
                                                                      "GAME", None), games.Game)}
    assert found <= {game.package for game in games.all_games()} and found
    assert list(games.all_games()) == sorted(games.all_games(), key=lambda g: (g.order, g.id))
    assert games.GAME_IDS == tuple(g.id for g in games.all_games())
    for game in games.all_games():
        assert games.get_game(game.id) is game and game.state_class.game_id == game.id
        assert game.rules is not None
        assert (game.rules.id, game.rules.in_language().name, game.rules.command) == (game.id, game.name, f"/{game.command} start")
    with pytest.raises(GameError):
        games.get_game("no-such-game")


def test_a_state_class_plays_one_game() -> None:
    war = games.get_game("war")
    assert dataclasses.replace(war, name="War again").state_class.game_id == "war"
    with pytest.raises(GameError, match="WarState is the state of 'war', not of 'war-again'"):
        dataclasses.replace(war, id="war-again")


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
