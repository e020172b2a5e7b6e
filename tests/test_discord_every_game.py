"""Every registered game, started by its generated ``/<game> start`` command through the
real bot, plays to its result by clicks: one person against AI seats, on SQLite and on
PostgreSQL."""

from __future__ import annotations

import re

import pytest

import games
from cogs.ui import GameUI, ui_for
from tests.discord_play import open_table, play_to_the_end, status_line, texts

PLACE = re.compile(r"\d+\. \*\*.+\*\*( & \*\*.+\*\*)*( — (?P<result>.+))?")


def gives_results(game: games.Game) -> bool:
    """Whether the ending shows each place's result: the game's look says it, or the game gives
    its scores a unit (``Game.standing`` or ``Game.points``) for the default look to show."""
    return type(ui_for(game.id)).standing is not GameUI.standing or game.standing_text(0) is not None


async def ending_of_a_game_played_to_the_end(server, game_id: str) -> list[str]:
    """Start the game by its command, play it to the end by clicks (one person against AI
    seats) and return its ending's place lines, once the ending has the shape every game's has."""
    game = games.get_game(game_id)
    table = await open_table(server, f"{game.command} start", dict(game.quick_options), "ana",
                             ai=game.allowed_player_counts()[0] - 1)
    assert "<@" in status_line(server.h.message(table.id)), "the table names whose turn it is"
    moves = await play_to_the_end(server, table, limit=2000)
    assert moves > 0
    final = server.h.message(table.id)
    assert status_line(final).startswith("🏁"), final.text
    # Every game ends in the same shape: the winner, each place with its result in the game's unit, how long it took.
    block = next(text for text in texts(final) if text.startswith("🏆")).split("\n")
    assert block[0].endswith((" wins", " win")) or block[0] == "🏆 No winner"
    places = [PLACE.fullmatch(line) for line in block[1:-1]]
    assert places and all(places), block
    assert all(bool(place["result"]) == gives_results(game) for place in places if place), block
    assert block[-1].startswith("-# ") and "Played in " in block[-1]
    return block[1:-1]


@pytest.mark.parametrize("game_id", games.GAME_IDS)
async def test_every_game_starts_from_its_command_and_plays_to_the_end(server_on_each_backend, game_id):
    await ending_of_a_game_played_to_the_end(server_on_each_backend, game_id)
