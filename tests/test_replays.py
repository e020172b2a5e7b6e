"""Stored games replay exactly as when they were played: every shipped game, over its
player counts and option sets, gives the fingerprints recorded in ``tests/data/replays.json``
(states, events, views, legal moves, refusals and AI choices, move by move; see
:mod:`tests.replays`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.replays import GOLDEN, SEEDS, SHIPPED, cases, fingerprint, hard_choices, label

RECORDED: dict[str, str] = json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_every_case_was_recorded() -> None:
    assert sorted(RECORDED) == sorted([label(*case) for case in cases()] + [f"{g}-hard" for g in SHIPPED])


def _tables() -> list[Any]:
    """One item per game × player count × option set; it plays every recorded seed."""
    tables: dict[str, tuple[str, int, dict[str, Any]]] = {}
    for game_id, players, options, _ in cases():
        tables.setdefault(label(game_id, players, options, 0).rsplit("-s", 1)[0], (game_id, players, options))
    return [pytest.param(*table, id=name) for name, table in tables.items()]


@pytest.mark.parametrize(("game_id", "players", "options"), _tables())
def test_seeded_games_play_as_recorded(game_id: str, players: int, options: dict[str, Any]) -> None:
    for seed in range(SEEDS):
        assert fingerprint(game_id, players, options, seed) == RECORDED[label(game_id, players, options, seed)], seed


@pytest.mark.parametrize("game_id", SHIPPED)
def test_the_hard_ai_chooses_as_recorded(game_id: str) -> None:
    assert hard_choices(game_id) == RECORDED[f"{game_id}-hard"]
