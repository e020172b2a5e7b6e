"""Stored snapshots keep loading: a migration test on snapshots written by earlier code.

``tests/data/snapshots/<game>.json`` holds, per game, states written by the engines
before the shared snapshot codec (commit b1797cb): the start, the middle and the end of
a seeded random game for each player count and option set that changes the state's
shape, plus the first state of every phase. With each snapshot it stores what that code
answered for it: ``view`` for the public and every seat, every seat's legal action codes,
``to_act`` and ``is_over``. Today's engines must load them and answer the same.
Never regenerate these files from the current code: they record the old format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import games

SNAPSHOTS = Path(__file__).parent / "data" / "snapshots"


def _cases() -> list[Any]:
    cases = []
    for game_id in games.GAME_IDS:
        stored = json.loads((SNAPSHOTS / f"{game_id}.json").read_text())
        assert stored["game"] == game_id
        for case in stored["cases"]:
            cases.append(pytest.param(game_id, case, id=f"{game_id}-{case['label']}"))
    return cases


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_every_game_has_stored_snapshots() -> None:
    assert sorted(p.stem for p in SNAPSHOTS.glob("*.json")) == sorted(games.GAME_IDS)


@pytest.mark.parametrize(("game_id", "case"), _cases())
def test_stored_snapshot_loads_and_answers_the_same(game_id: str, case: dict[str, Any]) -> None:
    game = games.get_game(game_id)
    state = game.from_json(case["snapshot"])
    assert state.to_act() == case["to_act"]
    assert state.is_over() == case["is_over"]
    for seat, legal in enumerate(case["legal"]):
        assert [a.code() for a in state.legal_actions(seat)] == legal, f"seat {seat}"
    for key, view in case["views"].items():
        seat = None if key == "None" else int(key)
        assert _json(state.view(seat)) == view, f"view of seat {key}"


@pytest.mark.parametrize(("game_id", "case"), _cases())
def test_stored_snapshot_round_trips(game_id: str, case: dict[str, Any]) -> None:
    game = games.get_game(game_id)
    snapshot = _json(game.from_json(case["snapshot"]).to_json())
    again = game.from_json(snapshot)
    assert _json(again.to_json()) == snapshot
    assert _json(again.view(None)) == case["views"]["None"]
