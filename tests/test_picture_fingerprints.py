"""Pictures look as they did when their fingerprints were recorded: the table and hand pictures
of many seeded positions of every game, in every language, give the same pixels (see
:mod:`tests.picture_fingerprints`; a change of look is meant only with a rewritten recording),
and bands of pictures kept drawn are laid again as they were drawn."""

from __future__ import annotations

import pytest

import games
from games.pictures import pictures_for
from games.pictures.samples import SAMPLE_NAMES, random_positions
from tests.picture_fingerprints import fingerprints, recorded


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_pictures_are_drawn_as_recorded(game_id: str) -> None:
    expected = recorded().get(game_id)
    assert expected, f"{game_id} has no recorded pictures: `python -m tests.picture_fingerprints --write`"
    found = fingerprints(game_id)
    assert list(found) == list(expected), "the positions drawn are not those recorded"
    changed = [label for label, value in found.items() if expected[label] != value]
    assert not changed, f"{len(changed)} of {len(found)} pictures changed, e.g. {changed[:3]}"


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_kept_bands_are_laid_as_drawn(game_id: str) -> None:
    """A picture whose bands were just drawn (``Canvas.band``) is the same when drawn again from
    them: pixels, labels, cards and smallest text."""
    game = games.get_game(game_id)
    drawer = pictures_for(game_id, "fr")
    players = game.allowed_player_counts()[-1]
    names = SAMPLE_NAMES[:players]
    for move, state in enumerate(random_positions(game, players, dict(game.quick_options), 5)):
        if move % 3:
            continue
        acting = state.to_act()
        legal = [action.code() for action in state.legal_actions(acting[0])] if acting else []
        view = state.view(acting[0] if acting else 0)
        for draw in (lambda: drawer.table(state.view(None), names), lambda: drawer.hand(view, legal, names)):
            first, again = draw(), draw()
            if first is None or again is None:
                assert first is again is None
                continue
            assert (again.png(), again.labels, again.cards, again.smallest_text) == \
                   (first.png(), first.labels, first.cards, first.smallest_text), f"move {move}"
