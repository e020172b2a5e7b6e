"""The table message is a dashboard: however long a game runs, its text (header, board,
the latest events) stays small, and the Log pages hold every public event."""

from __future__ import annotations

import pytest

import games
from bot.service import TableSnapshot
from cogs.game_log import log_pages
from cogs.layouts import LATEST_EVENTS
from cogs.looks import load_game_uis
from cogs.messages import table_message
from cogs.ui import LATEST_TEXT, latest_events, short_event
from games.ai import choose_action
from games.rng import Rng
from tests.fakediscord import walk_components
from tests.rendering import table_row
from tests.test_rendering import CASES

load_game_uis()
ROOM = 2500
"""Characters of text a table message shows at most, its board included: a phone's screen or two."""


def texts(snap: TableSnapshot) -> list[str]:
    """The text displays of the table message of ``snap``."""
    return [c["content"] for c in walk_components(table_message(snap).view.to_components()) if c["type"] == 10]


@pytest.mark.parametrize("game_id,options,players", CASES)
def test_the_table_message_stays_small_and_the_log_holds_every_event(game_id, options, players):
    game = games.get_game(game_id)
    names = [f"Player {i + 1}" for i in range(players)]
    for seed in range(2):
        state = game.new_game(players, options, seed)
        rng = Rng(seed)
        every = [e.render(names) for e in state.opening_events() if e.private_to is None]
        for _ in range(5000):
            row = table_row(game_id, options, players, state)
            row.recent_events = every[-20:]
            snap = TableSnapshot(row, state.view(None))
            shown = texts(snap)
            assert sum(map(len, shown)) <= ROOM
            if state.is_over():  # the standings take the latest events' place
                assert any(text.startswith("🏆") for text in shown)
                assert not any(short_event(every[-1]) == line for text in shown for line in text.split("\n"))
                break
            if every:
                latest = latest_events(every, LATEST_EVENTS)
                assert latest and latest[-1] == short_event(every[-1]) and "\n".join(latest) in shown
                assert set(latest) <= {short_event(line) for line in every[-LATEST_EVENTS:]}  # whole, never cut
            seat = state.to_act()[0]
            events = state.apply(seat, choose_action(state, seat, rng))
            every += [e.render(names) for e in events if e.private_to is None]
        assert state.is_over()
        assert "\n".join(log_pages(every, "No moves were played.")) == "\n".join(every)


def test_events_are_shown_whole_without_their_asides_and_fewer_when_room_is_short():
    """Issue 38: "ana's stack…" cut mid-sentence. The table shows whole events, dropping an
    older one rather than cutting any."""
    long = ("7♣ beats 4♦ (different suits, higher is stronger): 4♦ is discarded and 7♣ goes to "
            "ben's resource pile.")
    assert short_event(long) == "7♣ beats 4♦: 4♦ is discarded and 7♣ goes to ben's resource pile."
    assert latest_events(["ana drew a card.", "ben drew a card."], 2) == ["ana drew a card.", "ben drew a card."]
    sentence = "ana put a card into their hand and then another one, and said so at length. " * 4
    assert latest_events(["ana drew a card.", sentence], 2) == [sentence.strip()]  # the newest, whole, alone
    assert len(sentence) > LATEST_TEXT and latest_events([sentence], 2) == [sentence.strip()]
    assert latest_events([sentence, "ben drew a card."], 2) == ["ben drew a card."]
