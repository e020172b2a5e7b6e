"""Events and outcomes store their words as data (a Text's plain form) and read back in any
language; those stored before words were data (English sentences naming seats ``{p0}``,
``{p1}``…) still read back, their seats named."""

from __future__ import annotations

import json

import games
from games.base import Event, Outcome, stored_text
from games.cards import parse_card
from games.i18n import Seat, say
from games.rng import Rng

NAMES = ["ana", "ben", "cy"]


def test_an_event_reads_back_from_its_stored_form_in_any_language() -> None:
    event = Event("draw", say("{player} drew {card}.", player=Seat(1), card=parse_card("QH")), 1, private_to=1)
    back = Event.from_json(json.loads(json.dumps(event.to_json())))
    assert back == event
    assert back.render(NAMES) == "ben drew Q♥." and back.render(NAMES, "fr") == "ben a pioché D♥."


def test_an_event_stored_before_words_were_data_still_reads_back() -> None:
    old = {"kind": "play", "text": "{p0} played Q♥ on {p2}'s 9♠ {not a seat}.", "seat": 0, "private_to": None}
    event = Event.from_json(old)
    assert event.render(NAMES) == event.render(NAMES, "fr") == "ana played Q♥ on cy's 9♠ {not a seat}."
    assert event.render([]) == "Seat 1 played Q♥ on Seat 3's 9♠ {not a seat}."
    assert Event.from_json(event.to_json()) == event
    assert stored_text("Dealt 13 cards each.").render("fr") == "Dealt 13 cards each."


def test_an_outcome_reads_back_its_reason_old_or_new() -> None:
    game = games.get_game("war")
    state = game.new_game(2, {}, 3)
    rng = Rng(3)
    while state.to_act():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    outcome = state.outcome()
    assert outcome is not None
    assert Outcome.from_json(json.loads(json.dumps(outcome.to_json()))) == outcome
    old = {**outcome.to_json(), "reason": "{p1} is the last player with cards (3 cards left)."}
    assert Outcome.from_json(old).reason.render(names=NAMES) == "ben is the last player with cards (3 cards left)."
    assert Outcome.from_json({}).reason.render(names=NAMES) == ""
