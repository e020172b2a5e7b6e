"""Stored snapshots keep loading: a migration test on snapshots written by earlier code.

``tests/data/snapshots/<game>.json`` holds, per game, states written by the engines
before the shared snapshot codec (commit b1797cb): the start, the middle and the end of
a seeded random game for each player count and option set that changes the state's
shape, plus the first state of every phase. With each snapshot it stores what that code
answered for it: ``view`` for the public and every seat, every seat's legal action codes,
``to_act`` and ``is_over``. Today's engines must load them and answer the same.
Never regenerate these files from the current code: they record the old format.

What changed on purpose since the files were written (:data:`CHANGED`):

- QUASH (issue 10: swap chains played step by step). The snapshot format went from 1
  to 2, which adds ``chain`` (the open swap chain; a format-1 snapshot never has one,
  so it loads as ``[]``), and every view gains ``chain`` (``None``: no card in the
  air). Legal actions would change in advanced positions that offered whole chains
  (``swap:9D,4,6C,7``): those are now single steps (``swap:9D,4,6C``), and a seat
  view's ``legal`` lists them (``swap_count`` counts them). None of the stored advanced
  positions offers a swap (their boards are empty, or scoring has begun:
  :func:`test_stored_quash_positions_offer_no_swap`), so their legal actions and
  every other view key are still answered exactly as stored.
- Q2J (issue 12: the public data the hard AI infers from). The format went from 1 to
  2, which adds ``history`` (the moves since the last deal) and ``known`` (the cards
  shown while the first player was chosen, until played); a format-1 snapshot has neither recorded,
  so both load as ``[]``, and every view gains both keys.
- Queen of Spades (issue 12: what the table saw, for the hard AI's inference). The
  format went from 1 to 2, which adds ``known``, ``let_go`` and ``passed`` (per seat; a
  format-1 snapshot recorded nothing, so each seat's list loads empty), and every view
  gains those keys, empty per seat.
- Every game (issue 32: words as data). Events' ``text`` and outcomes' ``reason`` were
  English strings naming seats ``{p0}``; they are now stored as words not yet in any
  language (:class:`games.i18n.Text` as JSON). An old string loads as a Text that renders
  the same English: :func:`_in_english` renders the new form with seats named ``{pN}``
  before comparing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import games
from games.errors import MalformedAction
from games.i18n import Text

SNAPSHOTS = Path(__file__).parent / "data" / "snapshots"


def _cases() -> list[Any]:
    cases = []
    for path in sorted(SNAPSHOTS.glob("*.json")):
        game_id = path.stem
        stored = json.loads(path.read_text())
        assert stored["game"] == game_id
        for case in stored["cases"]:
            cases.append(pytest.param(game_id, case, id=f"{game_id}-{case['label']}"))
    return cases


def _json(value: Any) -> Any:
    return _in_english(json.loads(json.dumps(value)))


WORDS_KEYS = ("text", "reason")
"""Keys whose values are words: an event's text, an outcome's reason."""
SEAT_PLACEHOLDERS = tuple(f"{{p{seat}}}" for seat in range(8))


def _in_english(value: Any) -> Any:
    """``value`` with every stored Text under :data:`WORDS_KEYS` rendered as the old
    English string (seats as ``{pN}``)."""
    if isinstance(value, list):
        return [_in_english(item) for item in value]
    if not isinstance(value, dict):
        return value
    return {key: Text.from_json(item).render(names=SEAT_PLACEHOLDERS)
            if key in WORDS_KEYS and isinstance(item, dict) else _in_english(item) for key, item in value.items()}


def _per_seat(data: dict[str, Any]) -> list[list[Any]]:
    return [[] for _ in range(data["players"])]


CHANGED: dict[str, dict[str, Any]] = {
    "quash": {"snapshot": {"format": 2, "chain": []}, "view": {"chain": None}},
    "q2j": {"snapshot": {"format": 2, "history": [], "known": []}, "view": {"history": [], "known": []}},
    "queen-of-spades": {"snapshot": {"format": 2, "known": _per_seat, "let_go": _per_seat, "passed": _per_seat},
                        "view": {"known": _per_seat, "let_go": _per_seat, "passed": _per_seat}},
}
"""Per game: keys a stored snapshot gains when loaded today, and keys every view gains
(a function gives the value from the stored snapshot or view)."""


def _gained(game_id: str, part: str, data: dict[str, Any]) -> dict[str, Any]:
    added = CHANGED.get(game_id, {}).get(part, {})
    return {key: value(data) if callable(value) else value for key, value in added.items()}


def _expected_view(game_id: str, view: dict[str, Any]) -> dict[str, Any]:
    return {**view, **_gained(game_id, "view", view)}


def _expected_snapshot(game_id: str, snapshot: dict[str, Any]) -> dict[str, Any]:
    return {**snapshot, **_gained(game_id, "snapshot", snapshot)}


def test_snapshots_are_of_registered_games() -> None:
    """The games that shipped before the codec have old snapshots to keep loading; a game added
    later has none, and needs none."""
    stored = {p.stem for p in SNAPSHOTS.glob("*.json")}
    assert stored and stored <= set(games.GAME_IDS)


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
        assert _json(state.view(seat)) == _expected_view(game_id, view), f"view of seat {key}"


def test_stored_quash_positions_offer_no_swap() -> None:
    """Why the QUASH expectations above hold unchanged for advanced play: no stored
    position offered a swap chain, so swap steps could not replace one."""
    stored = json.loads((SNAPSHOTS / "quash.json").read_text())
    advanced = [case for case in stored["cases"] if case["snapshot"]["options"]["advanced"]]
    assert advanced
    for case in stored["cases"]:
        assert not any(code.startswith("swap:") for legal in case["legal"] for code in legal)
        assert all(view.get("swap_count", 0) == 0 for view in case["views"].values())


UNORDERED = {"war": ("tapped",)}
"""Keys whose lists are sets: War's tapped cards were listed in field order, now in card order."""


def _sorted_sets(game_id: str, snapshot: dict[str, Any]) -> dict[str, Any]:
    return {k: sorted(v) if k in UNORDERED.get(game_id, ()) else v for k, v in snapshot.items()}


@pytest.mark.parametrize(("game_id", "case"), _cases())
def test_stored_snapshot_round_trips(game_id: str, case: dict[str, Any]) -> None:
    game = games.get_game(game_id)
    snapshot = _json(game.from_json(case["snapshot"]).to_json())
    expected = _expected_snapshot(game_id, case["snapshot"])
    assert _sorted_sets(game_id, snapshot) == _sorted_sets(game_id, expected), "the stored format changed"
    again = game.from_json(snapshot)
    assert _json(again.to_json()) == snapshot
    assert _json(again.view(None)) == _expected_view(game_id, case["views"]["None"])


CARD_LISTS = {"q2j": "stock", "war": "discard", "ng": "deck", "queen-of-spades": "draw", "quash": "aside"}
"""A key of each game's snapshot that lists card codes."""


def _refuses(game_id: str, broken: dict[str, Any]) -> None:
    game = games.get_game(game_id)
    snapshot = game.new_game(game.allowed_player_counts()[0], {}, 0).to_json()
    with pytest.raises(MalformedAction, match="Broken"):
        game.from_json({**snapshot, **broken})


@pytest.mark.parametrize("game_id", games.GAME_IDS)
@pytest.mark.parametrize("broken", [{"rng": "12"}, {"opening": [{"text": "an event without a kind"}]}],
                         ids=["rng", "event"])
def test_malformed_shared_fields_are_refused_clearly(game_id: str, broken: dict[str, Any]) -> None:
    _refuses(game_id, broken)


@pytest.mark.parametrize("game_id", sorted(CARD_LISTS))
@pytest.mark.parametrize("value", [["ZZ"], 7], ids=["card", "not-a-list"])
def test_malformed_card_lists_are_refused_clearly(game_id: str, value: Any) -> None:
    _refuses(game_id, {CARD_LISTS[game_id]: value})
