"""Every registered game's table and hand messages, for every state random play reaches,
are valid Discord message bodies (Discord's OpenAPI spec) and offer every legal move.

This runs the renderers directly over many positions; the Discord-level tests
check the same bodies again as they are sent through discord.py.
"""

from __future__ import annotations

import importlib.util

import pytest

import games
from bot.service import HandSnapshot, TableSnapshot
from cogs.looks import load_game_uis
from cogs.ui import DefaultUI, register, ui_for
from games.ai import choose_action
from games.rng import Rng
from tests.rendering import render_every_position, table_row

CASES = [
    ("q2j", {"variant": "standard"}, 2), ("q2j", {"variant": "faceup"}, 10), ("q2j", {"variant": "countdown"}, 4),
    ("q2j", {"match": "elimination"}, 5), ("war", {}, 2), ("war", {}, 4), ("ng", {}, 2), ("ng", {"faceup": True}, 4),
    ("queen-of-spades", {"rounds": 1}, 2), ("queen-of-spades", {"rounds": 1}, 5), ("queen-of-spades", {"rounds": 1}, 8),
    ("quash", {"finish": 10}, 2), ("quash", {"finish": 10}, 4),
]
# Advanced QUASH follows thousands of swap-chain menus a game: one whole game each.
ONE_GAME = [("quash", {"advanced": True, "finish": 5}, 2), ("quash", {"advanced": True, "finish": 5}, 4)]
# Every registered game renders: one with no case above plays with its defaults.
CASES += [(game_id, {}, games.get_game(game_id).min_players)
          for game_id in games.GAME_IDS if game_id not in {case[0] for case in CASES}]

load_game_uis()


@pytest.mark.parametrize("game_id,options,players,seeds", [(*case, 2) for case in CASES] + [(*case, 1) for case in ONE_GAME])
def test_every_position_renders_valid_messages_with_every_legal_move(game_id, options, players, seeds):
    render_every_position(game_id, options, players, None, seeds)


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_a_game_without_a_discord_module_is_playable_with_the_default_look(game_id):
    game = games.get_game(game_id)
    own = ui_for(game_id)
    register(DefaultUI(game))
    try:
        render_every_position(game_id, {}, game.min_players, 40, seeds=1)
    finally:
        register(own)


def test_every_registered_game_gets_its_discord_module_or_the_default_look():
    uis = load_game_uis()
    assert [ui.game.id for ui in uis] == list(games.GAME_IDS)
    for ui in uis:
        module = f"cogs.looks.{ui.game.package}"
        assert type(ui).__module__ == module if importlib.util.find_spec(module) else type(ui) is DefaultUI

HINT_WORDS = {"attack": "Attack", "defend": "Defend", "recover": "Recover", "draw": "Draw", "pick": "Pick",
              "sacrifice": "Sacrifice"}


@pytest.mark.parametrize("game_id", ["war", "ng"])
def test_the_hand_says_how_to_make_only_the_moves_offered(game_id):
    """The line saying what a hand may do explains the moves chosen in steps that are offered,
    and never a move the player doesn't have."""
    game = games.get_game(game_id)
    seen = set()
    for seed in range(3):
        state = game.new_game(2, {}, seed)
        rng = Rng(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            snap = TableSnapshot(table_row(game_id, {}, 2, state), state.view(None))
            actions = state.legal_actions(seat)
            prompt = ui_for(game_id).prompt(HandSnapshot(snap, seat, state.view(seat), actions))
            kinds = {a.kind for a in actions}
            for kind, word in HINT_WORDS.items():
                if kind not in kinds:
                    assert word not in prompt, (kinds, prompt)
                elif kind in ui_for(game_id).steps:
                    assert word in prompt, (kinds, prompt)
            seen.add(frozenset(kinds))
            state.apply(seat, choose_action(state, seat, rng))
    assert any("attack" not in kinds for kinds in seen)  # turns without an attack were checked


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_the_board_numbers_every_seat_as_the_pictures_name_it(game_id):
    """Pictures carry no names, only "Seat 2": the table text gives each name that number."""
    game = games.get_game(game_id)
    for players in sorted({game.min_players, min(4, game.max_players)}):
        state = game.new_game(players, {}, 5)
        snap = TableSnapshot(table_row(game_id, {}, players, state), state.view(None))
        board = ui_for(game_id).board(snap)
        for seat, name in enumerate(snap.names):
            assert f"{seat + 1}. **{name}**" in board or f"{seat + 1}. {name}" in board, (seat, board)
