"""Stored games replay exactly as when they were played: every game whose fingerprints were
recorded (``tests/data/replays/<game>.json``), over its player counts and option sets, gives
them again (states, events, views, legal moves, refusals and AI choices, move by move; see
:mod:`tests.replays`). A game recorded nowhere yet (a new one) is skipped with the command that
records it."""

from __future__ import annotations

from typing import Any, NoReturn

import pytest

import games
from tests.replays import RECORDINGS, SEEDS, cases, fingerprint, hard_choices, label, recorded, recording


def _unrecorded(game_id: str) -> NoReturn:
    pytest.skip(f"{game_id} has no recorded fingerprints: `python -m tests.replays {game_id}` records them "
                f"in tests/data/replays/{recording(game_id).name}")


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_case_was_recorded(game_id: str) -> None:
    found = recorded(game_id)
    if found is None:
        _unrecorded(game_id)
    assert sorted(found) == sorted([label(*case) for case in cases(game_id)] + [f"{game_id}-hard"])


def test_every_recording_is_of_a_registered_game() -> None:
    assert {path.stem for path in RECORDINGS.glob("*.json")} <= set(games.GAME_IDS)


def _tables() -> list[Any]:
    """One item per recorded game × player count × option set, which plays every recorded seed;
    one item per game recorded nowhere, which says so."""
    tables: list[Any] = []
    for game_id in games.GAME_IDS:
        if recorded(game_id) is None:
            tables.append(pytest.param(game_id, 0, {}, id=f"{game_id}-unrecorded"))
            continue
        for players, options in dict.fromkeys((players, tuple(sorted(options.items())))
                                              for _, players, options, _ in cases(game_id)):
            tables.append(pytest.param(game_id, players, dict(options),
                                       id=label(game_id, players, dict(options), 0).rsplit("-s", 1)[0]))
    return tables


@pytest.mark.parametrize(("game_id", "players", "options"), _tables())
def test_seeded_games_play_as_recorded(game_id: str, players: int, options: dict[str, Any]) -> None:
    found = recorded(game_id)
    if found is None:
        _unrecorded(game_id)
    for seed in range(SEEDS):
        assert fingerprint(game_id, players, options, seed) == found[label(game_id, players, options, seed)], seed


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_the_hard_ai_chooses_as_recorded(game_id: str) -> None:
    found = recorded(game_id)
    if found is None:
        _unrecorded(game_id)
    assert hard_choices(game_id) == found[f"{game_id}-hard"]
