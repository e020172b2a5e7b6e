"""Stored games replay exactly as when they were played: every shipped game, over its
player counts and option sets, gives the fingerprints recorded in ``tests/data/replays.json``
(states, events, views, legal moves, refusals and AI choices, move by move; see
:mod:`tests.replays`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.replays import GOLDEN, SHIPPED, cases, fingerprint, hard_choices, label

RECORDED: dict[str, str] = json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_every_case_was_recorded() -> None:
    assert sorted(RECORDED) == sorted([label(*case) for case in cases()] + [f"{g}-hard" for g in SHIPPED])


@pytest.mark.parametrize(("game_id", "players", "options", "seed"),
                         [pytest.param(*case, id=label(*case)) for case in cases()])
def test_a_seeded_game_plays_as_recorded(game_id: str, players: int, options: dict[str, Any], seed: int) -> None:
    assert fingerprint(game_id, players, options, seed) == RECORDED[label(game_id, players, options, seed)]


@pytest.mark.parametrize("game_id", SHIPPED)
def test_the_hard_ai_chooses_as_recorded(game_id: str) -> None:
    assert hard_choices(game_id) == RECORDED[f"{game_id}-hard"]
