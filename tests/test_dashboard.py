"""The table message is a dashboard: however long a game runs, its embed (board and
latest events) stays small, and the Log pages hold every public event."""

from __future__ import annotations

import pytest

import games
from bot.service import TableSnapshot
from cogs.game_log import log_pages
from cogs.games import load_game_uis
from cogs.ui import DASHBOARD, DASHBOARD_EVENTS, short_event, table_embed
from games.ai import choose_action
from games.rng import Rng

from tests.rendering import table_row
from tests.test_rendering import CASES

load_game_uis()


def embed_size(embed) -> int:
    return len(embed.description or "") + sum(len(f.name) + len(f.value) for f in embed.fields)


@pytest.mark.parametrize("game_id,options,players", CASES)
def test_the_table_embed_stays_small_and_the_log_holds_every_event(game_id, options, players):
    game = games.get_game(game_id)
    names = [f"Player {i + 1}" for i in range(players)]
    for seed in range(2):
        state = game.new_game(players, options, seed)
        rng = Rng(seed)
        every = [e.render(names) for e in state.opening_events() if e.private_to is None]
        for _ in range(5000):
            row = table_row(game_id, options, players, state)
            row.recent_events = every[-20:]
            _, embed = table_embed(TableSnapshot(row, state.view(None)))
            assert embed_size(embed) <= DASHBOARD
            fields = {f.name: f.value for f in embed.fields}
            latest = fields["Latest"].split("\n") if "Latest" in fields else []
            if state.is_over():
                assert fields["Final standings"].startswith("🏆")
            assert 1 <= len(latest) <= DASHBOARD_EVENTS if every else not latest
            assert latest == [short_event(line) for line in every[-len(latest):]] if latest else True
            if state.is_over():
                break
            seat = state.to_act()[0]
            events = state.apply(seat, choose_action(state, seat, rng))
            every += [e.render(names) for e in events if e.private_to is None]
        assert state.is_over()
        assert "\n".join(log_pages(every)) == "\n".join(every)


def test_short_events_drop_the_rule_explanation():
    long = ("7♣ beats 4♦ (different suits, higher is stronger): 4♦ is discarded and 7♣ goes to "
            "ben's resource pile")
    assert short_event(long) == "7♣ beats 4♦: 4♦ is discarded and 7♣ goes to ben's resource pile"
    assert short_event("ana drew a card.") == "ana drew a card."
    assert len(short_event("x" * 400)) <= 120
