"""What players read (issue 38), through Discord: the Log tells a penalty once, prompts offer only
the moves there are, Hint only where something is decided, Play again's invitation says its
instruction once, /history lists each game once, and the round's scores are words too."""

from __future__ import annotations

import pytest

import games
from bot.service import HandSnapshot, TableSnapshot
from cogs.looks import load_game_uis
from cogs.messages import hand_message, table_message
from cogs.ui import short_event, ui_for
from games.ai import choose_action
from games.i18n import LANGUAGES
from games.pictures.base import Names
from games.q2j import Q2JState
from games.queen_of_spades import QoSState
from games.rng import Rng
from games.war.pictures import Pictures as WarPictures
from tests.discord_play import open_hand, open_table, play, play_turn, texts, to_act
from tests.rendering import body, controls, table_row
from tests.test_discord_queen_of_spades import rig, two_player_table
from tests.test_discord_scores import rated_pair_games
from tests.words import event_texts

load_game_uis()


async def log_text(s, table) -> str:
    """Every page of the table's Log, as its reader sees it."""
    shown = await s.h.click(s.h.message(table.id), label="📜 Log", user=s.user("ana"))
    pages = [shown.message.embeds[0]["description"]]
    while shown.message.buttons and not s.h.message(shown.message.id).button("▶").get("disabled"):
        await s.h.click(shown.message, label="▶", user=s.user("ana"))
        pages.append(s.h.message(shown.message.id).embeds[0]["description"])
    return "\n".join(pages)


async def test_the_log_tells_a_penalty_once(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    for _ in range(200):
        mover = to_act(s, table)[0]
        hand = (await open_hand(s, mover, table)).message
        costly = [b for b in hand.buttons if "(+1 draw)" in b["label"]]
        if costly:
            await s.h.click(hand, custom_id=costly[0]["custom_id"], user=mover)
            break
        await play(s, mover, hand)
    else:
        raise AssertionError("nobody had a card costing a penalty draw")
    log = await log_text(s, table)
    assert log.count("draws a penalty card") == 1, log
    assert "as a penalty" not in log, log  # never a second line for the same draw


async def test_between_rounds_the_scores_are_words_in_the_table_and_the_hand(server):
    """With pictures on (the picture draws the scores at 9 px on a phone), the table's header and
    the hand of whoever must press Continue say the round's scores; Continue decides nothing, so
    no Hint is offered with it."""
    s = server
    table = await two_player_table(s, target=400)
    await rig(s, QoSState.from_position(
        [["5C"], ["AS", "3C", "JK"]], sets=[[["QS", "QH", "QD"]], [["9S", "9H", "9D", "2C"]]],
        draw=["4S", "7S"], discard=["8H"], turn=0, dealer=0, phase="lay", scores=[50, 40], options={"target": 400},
        cut={"aimed": 26, "landed": 27, "bonus": True}))
    ana, ben = s.user("ana"), s.user("ben")
    await s.h.click((await open_hand(s, ana, table)).message, label="5♣ · 5 pts", user=ana)  # she goes out

    shown = s.h.message(table.id)
    assert shown.gallery_images()  # the picture, and still the scores in words
    scores = ["**Round 1 scores**", "-# laid − hand + bonus = round → total",
              "ana: 120 − 0 + 200 = **+320** → 370", "ben: 35 − 70 = **-35** → 5"]
    assert all(line in texts(shown)[0].split("\n") for line in scores), texts(shown)
    hand = (await open_hand(s, ben, table)).message
    assert hand.gallery_images() and all(line in texts(hand)[0].split("\n") for line in scores), texts(hand)
    assert [b["label"] for b in hand.buttons] == ["Continue", "🔄 Refresh"]  # no 💡 Hint


async def test_with_nothing_to_play_the_prompt_offers_only_the_draw(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    ana = s.user("ana")
    await rig(s, Q2JState.from_position([["4D", "5C"], ["3D"]], "KS", ["9C", "8C"], turn=0))
    hand = (await open_hand(s, ana, table)).message
    assert "No card of yours beats the top card: draw." in texts(hand)[0].split("\n"), texts(hand)
    assert "Play a card" not in hand.text
    assert [b["label"] for b in hand.buttons] == ["Draw a card", "🔄 Refresh"]  # one move: no Hint either


PROMPT_NEEDS = {"beats the top card, or draw": {"play"}, "play a jack": {"play"}, "play any card": {"play"},
                "take from the discard pile": {"take:discard", "take:pile"}, "Lay or add": {"lay", "extend"},
                "put it on a spot": {"place"}, "swap it into a full one": {"swap"}, "Or swap": {"place"}}
"""Words of a prompt, and the moves of which one at least must be offered for it to say them."""


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_a_prompt_names_only_moves_the_hand_offers(game_id):
    game = games.get_game(game_id)
    ui = ui_for(game_id)
    for players, options in ((game.allowed_player_counts()[0], dict(game.quick_options)),
                             *([(2, {"advanced": True})] if game_id == "quash" else [])):
        state = game.new_game(players, options, 3)
        rng = Rng(3)
        while not state.is_over():
            seat = state.to_act()[0]
            actions = state.legal_actions(seat)
            table = TableSnapshot(table_row(game_id, options, players, state), state.view(None))
            prompt = ui.prompt(HandSnapshot(table, seat, state.view(seat), actions))
            offered = {a.kind for a in actions} | {f"{a.kind}:{a.args[0]}" for a in actions if a.args}
            for words, needs in PROMPT_NEEDS.items():
                assert words not in prompt or needs & offered, (prompt, sorted(offered))
            state.apply(seat, choose_action(state, seat, rng))


async def test_history_lists_each_game_once(server):
    s = server
    await rated_pair_games(s, 2)
    history = await s.h.slash("history", {}, user=s.user("ben"), channel=s.channel)
    menu = history.message.component(custom_id_prefix="dh:logsel")
    read = [history.text, *(f"{o['label']} {o.get('description') or ''}" for o in menu["options"])]
    for line in await s.h.bot.service.results.history(s.guild.id):
        summary = line.summary.render("en", line.names())
        assert "\n".join(read).count(summary) == 1, read
        assert "\n".join(read).count(f"#{line.table_id} Q Squared Joe War") == 1, read
    assert [o["label"] for o in menu["options"]] == ["#2", "#1"]  # the menu picks a game by its number


async def test_a_cut_that_is_no_number_is_refused_in_plain_french(server):
    s = server
    table = await open_table(s, "qos start", {"timer": 0}, "ana", joiners=["ben"])
    dealer = to_act(s, table)[0]
    dealer.locale = "fr"
    hand = (await open_hand(s, dealer, table)).message
    form = await s.h.click(hand, custom_id=hand.component(custom_id_prefix="dh:ask:")["custom_id"], user=dealer)
    refused = await s.h.submit_modal(form, {"value": "abc"})
    assert refused.ephemeral and refused.text == "Tapez un nombre entier en chiffres, pas «\u00a0abc\u00a0»."


async def test_the_table_shows_whole_events_never_cut(server):
    s = server
    table = await open_table(s, "ng start", {"timer": 0}, "ana", joiners=["ben"])
    seen = 0
    for _ in range(16):
        await play_turn(s, table, prefer=("attack", "draw"))
        stored = [short_event(line) for line in event_texts((await s.h.bot.service.table(1)).row)]
        shown = texts(s.h.message(table.id))[-2].split("\n")  # the latest events, above the small print
        assert shown[-1] == stored[-1] and set(shown) <= set(stored), (shown, stored[-2:])
        seen += any(len(line) > 120 for line in shown)
    assert seen, "no long event was shown"


def test_wars_last_attack_names_who_won():
    """The War picture's "2♥ vs A♠ won" read as if A♠ had won: it says whose card won."""
    names = Names(["ana", "ben"])
    attack = {"seat": 0, "attacker": "2H", "target_seat": 1, "target": "AS"}
    said = {compare: WarPictures.verdict({**attack, "compare": compare}, names) for compare in (1, -1, 0)}
    assert [said[c].render() for c in (1, -1, 0)] == ["ana won", "ben won", "equal: both cards discarded"]
    assert [said[c].render("fr") for c in (1, -1, 0)] == ["ana a gagné", "ben a gagné",
                                                        "égalité\xa0: les deux cartes sont défaussées"]


HANDFUL = 5
"""Move buttons a step offers at most: one row (a phone shows a long label's button on a line of
its own, so ten buttons were ten lines)."""
BUTTON_ON_A_PHONE = 30
"""Characters of a button's label a 380-px phone shows whole (about 240 px of 14-px bold text:
`python -m tests.screens` draws a 29-character label with room to spare)."""
MENU_ON_A_PHONE = 26
"""Characters of a menu's placeholder a 380-px phone shows before cutting it (15-px text)."""
PLAYERS = ("Amélie", "Bruno", "Chloé", "David", "Emma", "Farid", "Gaël", "Hugo", "Inès", "Jules")
"""Names of the length people pick: labels name players, and a longer name is cut at the label's
end, after the move's outcome (labels put it first)."""
POSITIONS = 250
"""Positions looked at in a game (QUASH's advanced moves are slow to list)."""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_label_fits_a_phone_in_every_language(game_id, language):
    """Issue 38: eleven rows of buttons at a QUASH tiebreak, a French label too wide for a
    button. A step offers a handful of buttons at most, each label whole on a phone, and a
    menu's placeholder says what it holds before a phone cuts it."""
    game = games.get_game(game_id)
    ui = ui_for(game_id, language)
    too_long: set[str] = set()
    for players, options in ((game.allowed_player_counts()[0], dict(game.quick_options)),
                             (game.allowed_player_counts()[-1], dict(game.quick_options)),
                             *([(2, {"advanced": True})] if game_id == "quash" else [])):
        state = game.new_game(players, options, 5)
        rng = Rng(5)
        for _ in range(POSITIONS):
            row = table_row(game_id, options, players, state)
            for seat in row.seats:
                seat.name = PLAYERS[seat.seat]
            table = TableSnapshot(row, state.view(None))
            messages = [body(table_message(table, language))]
            if state.is_over():
                break
            seat = state.to_act()[0]
            hand = HandSnapshot(table, seat, state.view(seat), state.legal_actions(seat))
            messages.append(body(hand_message(hand, language=language)))
            messages += [body(hand_message(hand, step=value, language=language))
                         for menu in ui.move_layout(hand).menus for value, _ in menu.choices[:2]]
            for message in messages:
                found = controls(message["components"])
                assert sum(c["custom_id"].startswith("dh:mv:") for c in found if c["type"] == 2) <= HANDFUL
                too_long |= {c["label"] for c in found if c["type"] == 2 and len(c["label"]) > BUTTON_ON_A_PHONE}
                too_long |= {c["placeholder"] for c in found if c["type"] == 3 and len(c["placeholder"]) > MENU_ON_A_PHONE}
            state.apply(seat, choose_action(state, seat, rng))
    assert not too_long, sorted(too_long)


def test_a_quash_tiebreak_of_eight_cards_is_one_menu():
    """The tiebreak that stacked eleven rows of buttons on a phone: its eight cards are a menu
    saying what it holds, beside Refresh and Hint."""
    game = games.get_game("quash")
    options = dict(game.quick_options)
    state, rng = game.new_game(2, options, 3), Rng(3)
    while True:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if any(a.kind == "tiebreak" for a in legal):
            break
        state.apply(seat, legal[rng.below(len(legal))])
    assert len(legal) == 8
    table = TableSnapshot(table_row("quash", options, 2, state), state.view(None))
    message = body(hand_message(HandSnapshot(table, seat, state.view(seat), state.legal_actions(seat))))
    found = controls(message["components"])
    assert [c["placeholder"] for c in found if c["type"] == 3] == ["Play a card face down…"]
    assert [c["label"] for c in found if c["type"] == 2] == ["🔄 Refresh", "💡 Hint (game won't be rated)"]
