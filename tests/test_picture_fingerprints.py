"""Pictures look as they did when their fingerprints were recorded: the table and hand pictures
of many seeded positions of every game, in every language, give the same pixels (see
:mod:`tests.picture_fingerprints`; a change of look is meant only with a rewritten recording)."""

from __future__ import annotations

import pytest

import games
from tests.picture_fingerprints import fingerprints, recorded


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_pictures_are_drawn_as_recorded(game_id: str) -> None:
    expected = recorded().get(game_id)
    assert expected, f"{game_id} has no recorded pictures: `python -m tests.picture_fingerprints --write`"
    found = fingerprints(game_id)
    assert list(found) == list(expected), "the positions drawn are not those recorded"
    changed = [label for label, value in found.items() if expected[label] != value]
    assert not changed, f"{len(changed)} of {len(found)} pictures changed, e.g. {changed[:3]}"
