"""QUASH through Discord: the real bot, discord.py's own dispatch, a real SQLite
file, and every REST body validated against Discord's OpenAPI spec.

Sides picked in the lobby, whole matches and rounds by clicks (the moves built
the way people build them: card menu, spot buttons, swap chains step by step),
scoring revealed spot by spot, secret tiebreak choices, refusals that change
nothing, and a restart in the middle of a tiebreak. Positions that need equal
spots are either found with deterministic seeds or written into the stored
table (``rig``)."""

from __future__ import annotations

import json
import random
import re

import pytest

from cogs.ui import ui_for
from games.cards import parse_card
from games.quash import QuashAction, QuashState
from tests.discord_play import (
    add_ai,
    board,
    forge_click,
    forge_select,
    open_hand,
    open_table,
    pictures_off,
    start_bot,
    status_line,
    texts,
    to_act,
)
from tests.words import event_texts

# A full board (RULINGS §6 examples): RED's Q♥ on spot 3 ties BLACK's Q♠; RED's spot 7 fails.
RED = ["9D 10D JD", "4S 9S", "QH", "2C 3C 4C", "7S JH", "5D", "10C KC AD", "6C 7D", "8H"]
BLACK = ["8C 9H 10S", "5C 6H", "QS", "2H 3S 4D", "8S 3H", "AS", "JC QD KS", "10H JS", "7C"]
EMPTY = [""] * 9
SWAP_MENU = "Or swap into a full spot…"
SPOT_MENU = "Choose its spot…"
FACE_DOWN_MENU = "Play a card face down…"
SPOT_LINE = re.compile(r"^Spot (\d) — (triple|double|single): ")


@pytest.fixture
async def server(server):
    """The shared server with pictures off, as a server may have them: these tests read the
    table's text board."""
    await pictures_off(server)
    yield server


@pytest.fixture
async def server_on_each_backend(server_on_each_backend):
    await pictures_off(server_on_each_backend)
    yield server_on_each_backend


def storage(s):
    return s.h.bot.service.storage


def table_number(message) -> int:
    """The table's number, as its heading says it ("### QUASH · #3")."""
    return int(texts(message)[0].split("\n")[0].rsplit("#", 1)[1])


def with_spot(board: list[str], spot: int, cards: str) -> list[str]:
    out = list(board)
    out[spot - 1] = cards
    return out


async def rig(s, state: QuashState, table_id: int = 1) -> None:
    """Write a hand-built position into the stored table; the service reloads it."""
    text = json.dumps(state.to_json())
    await storage(s).run_write(lambda conn: conn.execute("UPDATE tables SET state = ? WHERE id = ?", (text, table_id)))
    s.h.bot.service.tables.forget(table_id)


async def stored(s, table_id: int = 1):
    row = await storage(s).get_table(table_id)
    return row.version, row.state, len(await storage(s).move_log(table_id))


def board_text(s, table) -> str:
    return board(s.h.message(table.id))


def status_text(s, table) -> str:
    """The table message's header: whose turn, the round and the track."""
    return texts(s.h.message(table.id))[0]


async def latest(s, table) -> list[str]:
    """The table's latest (20) events in full, as the Log ends (the dashboard shows the newest
    shortened). Tests that rig a position read these: the Log replays the real deal."""
    return event_texts(await storage(s).get_table(table_number(s.h.message(table.id))))


def board_row(s, table, spot: int) -> str:
    return next(line for line in board_text(s, table).split("\n") if line.startswith(f"`{spot}` "))


def spot_numbers(lines: list[str]) -> list[int]:
    return [int(m[1]) for m in map(SPOT_LINE.match, lines) if m]


async def click_action(s, user, hand_message, action):
    """Play ``action`` the way a person does: choose the card (and in a chain each
    next step) in the menus until the move itself is offered, then click it."""
    table_id = int(next(c["custom_id"] for c in hand_message.walk() if c.get("custom_id", "").startswith("dh:hand:"))
                   .rsplit(":", 1)[1])
    snap = await s.h.bot.service.play.hand(table_id, s.player(user))
    key, code = ui_for("quash").step_key(action, snap), action.code()
    for _ in range(8):
        msg = s.h.message(hand_message.id)
        for comp in msg.walk():
            custom_id = comp.get("custom_id", "")
            if custom_id.startswith("dh:mv:") and custom_id.split(":", 4)[4] == code:
                return await s.h.click(msg, custom_id=custom_id, user=user)
            if custom_id.startswith("dh:ms:") and any(o["value"] == code for o in comp["options"]):
                return await s.h.select(msg, [code], custom_id=custom_id, user=user)
        steps = [(c["custom_id"], o["value"]) for c in msg.walk() if c.get("custom_id", "").startswith("dh:st:")
                 for o in c["options"] if key.startswith(o["value"])]
        assert steps, f"{code} is not offered to {user.name}: {msg.text}"
        await s.h.select(msg, [steps[0][1]], custom_id=steps[0][0], user=user)
    raise AssertionError(f"{code} took too many steps")


async def play_by_policy(s, table, rng: random.Random, stop, limit: int = 200) -> list[str]:
    """Whoever is to act opens their hand and plays a seeded random legal move through
    the menus, until ``stop()``; returns every distinct tiebreak status the board showed."""
    tiebreaks: list[str] = []
    for _ in range(limit):
        if stop():
            return tiebreaks
        mover = to_act(s, table)[0]
        actions = (await s.h.bot.service.play.hand(1, s.player(mover))).actions
        hand = await open_hand(s, mover, table)
        await click_action(s, mover, hand.message, rng.choice(actions))
        status = [line for line in board_text(s, table).split("\n") if "Tiebreaker for spot" in line]
        if status and status[0] not in tiebreaks:
            tiebreaks.append(status[0])
    raise AssertionError(f"not done after {limit} moves")


async def every_logged_line(s, table) -> list[str]:
    """Every event of the game in order, as the table's Log button shows them."""
    return await s.h.bot.service.results.move_log(table_number(s.h.message(table.id)), s.guild.id)


# ------------------------------------------------------------------ the lobby: sides


async def test_two_players_pick_sides_with_switch_side(server):
    s = server
    ana, ben, cat = s.user("ana"), s.user("ben"), s.user("cat")
    await s.h.slash("quash start", {"finish": 10, "timer": 0}, user=ana, channel=s.channel)
    lobby = s.h.latest_public(s.channel)
    assert "First to 10" in lobby.text and "1. ana — host · RED" in lobby.text
    alone = await s.h.click(lobby, label="Switch side", user=ana)
    assert alone.ephemeral and "Nobody sits opposite you" in alone.text
    await s.h.click(lobby, label="Join", user=ben)
    assert "2. ben · BLACK" in s.h.message(lobby.id).text
    stranger = await s.h.click(lobby, label="Switch side", user=cat)
    assert stranger.ephemeral and "not at this table" in stranger.text
    await s.h.click(lobby, label="Switch side", user=ana)
    text = s.h.message(lobby.id).text
    assert "1. ben · RED" in text and "2. ana — host · BLACK" in text
    await s.h.click(lobby, label="Start", user=ana)  # the host starts from any seat
    table = s.h.message(lobby.id)
    board = board_text(s, table)
    assert "🎯 **RED**: 1. ben · 🎱 **BLACK**: 2. ana" in board
    assert "🎯 RED **0** · 🎱 BLACK **0** · first to 10" in status_text(s, table)
    assert "Sides — RED: ben; BLACK: ana. First to 10 points wins." in (await latest(s, table))
    assert "You play for **RED**." in (await open_hand(s, ben, table)).text
    assert "You play for **BLACK**." in (await open_hand(s, ana, table)).text
    # The board shows both sides' nine spots, in three sections, all open.
    assert [board_row(s, table, n).split(" — ")[0] for n in range(1, 10)] == [
        f"`{n}` {kind}" for n, kind in zip(range(1, 10), ["triple", "double", "single"] * 3)]
    assert board_row(s, table, 1).endswith("🎯 ▢ ▢ ▢ · 🎱 ▢ ▢ ▢") and board.count("\n\n") == 3
    assert "✓ won the spot · ✗ failed run · ▢ open slot · ◀ the spot being scored" in board.split("\n")[:3]
    # The hand shows your side as three lines of three spots, each spot unbroken (no-break spaces).
    lines = (await open_hand(s, ben, table)).text.split("\n")
    side = lines[lines.index("**Your side:**") + 1:][:3]
    assert side == ["`1` ▢\u00a0▢\u00a0▢ · `2` ▢\u00a0▢ · `3` ▢", "`4` ▢\u00a0▢\u00a0▢ · `5` ▢\u00a0▢ · `6` ▢",
                    "`7` ▢\u00a0▢\u00a0▢ · `8` ▢\u00a0▢ · `9` ▢"]
    assert not any("partner" in line for line in lines)  # two players: no partner


async def test_four_players_in_teams_of_a_human_and_an_ai(server):
    s = server
    ana, cat = s.user("ana"), s.user("cat")
    await s.h.slash("quash start", {"finish": 30, "timer": 0}, user=ana, channel=s.channel)
    lobby = s.h.latest_public(s.channel)
    for name in ("ben", "cat"):
        await s.h.click(lobby, label="Join", user=s.user(name))
    await add_ai(s, lobby, ana)
    text = s.h.message(lobby.id).text
    assert all(seat in text for seat in ("1. ana — host · RED", "2. ben · BLACK", "3. cat · RED", "4. 🤖 AI 1 · normal · BLACK"))
    # cat crosses over to BLACK: the AI takes cat's seat on RED. Teams are seats 1+3 and 2+4.
    await s.h.click(lobby, label="Switch side", user=cat)
    text = s.h.message(lobby.id).text
    assert "3. 🤖 AI 1 · normal · RED" in text and "4. cat · BLACK" in text
    await s.h.click(lobby, label="Start", user=ana)
    table = s.h.message(lobby.id)
    assert "🎯 **RED**: 1. ana, 3. 🤖 AI 1 · 🎱 **BLACK**: 2. ben, 4. cat" in board_text(s, table)
    assert "🎯 RED **0** · 🎱 BLACK **0** · first to 30" in status_text(s, table)
    assert "Sides — RED: ana and 🤖 AI 1; BLACK: ben and cat. First to 30 points wins." in (await latest(s, table))
    row = await storage(s).get_table(1)
    assert [(seat.name, seat.is_ai) for seat in row.seats] == [("ana", False), ("ben", False), ("AI 1", True),
                                                                ("cat", False)]
    # A few turns round the table: the AI places for RED between the humans, on RED's side.
    for _ in range(6):
        mover = to_act(s, table)[0]
        hand = await open_hand(s, mover, table)
        assert f"You play for **{'RED' if mover is ana else 'BLACK'}**." in hand.text
        actions = (await s.h.bot.service.play.hand(1, s.player(mover))).actions
        await click_action(s, mover, hand.message, actions[0])
    log = await storage(s).move_log(1)
    assert any(by_ai and seat == 2 for seat, _, by_ai in log) and not any(by_ai and seat != 2 for seat, _, by_ai in log)
    assert any(line.startswith("🤖 AI 1 placed") and "on RED's spot" in line for line in (await latest(s, table)))
    view = (await s.h.bot.service.table(1)).view
    assert sum(len(spot["cards"]) for spot in view["board"][0]) == sum(1 for seat, _, _ in log if seat % 2 == 0)
    # ana's hand names her partner and shows the AI's placements on their shared side.
    placed = [action["args"][0] for seat, action, _ in log if seat == 2]
    mine = (await open_hand(s, ana, table)).text
    assert "Your partner **🤖 AI 1** (RED) places on these spots too" in mine
    side = mine.split("**Your side:**\n")[1]
    assert placed and all(parse_card(card).pretty in side for card in placed)


# ------------------------------------------------------------------ whole games by clicks


async def test_two_player_match_by_clicks_with_a_tiebreaker(server):
    s = server
    table = await open_table(s, "quash start", {"finish": 12, "timer": 0}, "ana", joiners=["ben"])

    def round_over() -> bool:
        return status_line(s.h.message(table.id)).startswith("🏁") or "Round 2 ·" in s.h.message(table.id).text

    tiebreaks = await play_by_policy(s, table, random.Random(16), round_over)
    assert tiebreaks and all(": waiting for" in t for t in tiebreaks)
    # Round 1 is scored: its spots were revealed one by one in the Latest lines…
    shown = (await every_logged_line(s, table))
    numbers = spot_numbers(shown)
    assert numbers == sorted(numbers) and numbers[-1] == 9
    assert "Round 1 is scored" in " ".join(await latest(s, table))
    assert (await latest(s, table))[-1].startswith("Round 2: ")
    # … and the board keeps the whole round's result, spot by spot, while round 2 is placed.
    board = board_text(s, table)
    assert "**Round 1 scored**" in board
    summary = board.split("**Round 1 scored**")[1]
    assert all(f"`{n}` " in summary for n in range(1, 10)) and "tiebreak" in summary

    await play_by_policy(s, table, random.Random(17), lambda: status_line(s.h.message(table.id)).startswith("🏁"))
    final = s.h.message(table.id)
    assert [b["label"] for b in final.buttons] == ["📜 Log", "🔁 Play again"] and "reached the finish (12) first" in status_line(final)
    row = await storage(s).get_table(1)
    assert row.status == "finished" and row.outcome["winners"]
    assert max(row.state["track"]) >= 12
    assert any("wins the match!" in line for line in (await latest(s, table)))
    assert "First to 12" in s.h.message(table.id).text


async def test_four_player_round_by_clicks_with_a_team_tiebreaker(server):
    s = server
    ana, ben, cat, dan = (s.user(n) for n in ("ana", "ben", "cat", "dan"))
    table = await open_table(s, "quash start", {"finish": 30, "timer": 0}, "ana", joiners=["ben", "cat", "dan"])
    assert "🎯 **RED**: 1. ana, 3. cat · 🎱 **BLACK**: 2. ben, 4. dan" in board_text(s, table)
    rng = random.Random(16)
    tiebreak_seen = False
    for _ in range(60):
        if "Round 2 ·" in s.h.message(table.id).text:
            break
        if "Tiebreaker for spot" in board_text(s, table) and not tiebreak_seen:
            tiebreak_seen = True
            # The teams' first seats choose; both are pinged; partners see the pooled leftovers.
            assert set(to_act(s, table)) == {ana, ben}
            ping = [m for m in s.h.public_messages(s.channel) if m.id != table.id and not m.deleted][-1]
            assert ana.mention in ping.content and ben.mention in ping.content
            snap = await s.h.bot.service.table(1)
            for partner, chooser in ((cat, ana), (dan, ben)):
                theirs = await open_hand(s, partner, table)
                assert "Your leftover cards" in theirs.text and "Waiting for ana, ben." in theirs.text
                assert theirs.message.buttons == [theirs.message.button("🔄 Refresh")]
                pool = (await s.h.bot.service.play.hand(1, s.player(chooser))).view["hand"]
                assert (await s.h.bot.service.play.hand(1, s.player(partner))).view["hand"] == pool
            assert snap.view["leftover_counts"][0] > 0
            chooser_hand = await open_hand(s, ana, table)
            labels = [b["label"] for b in chooser_hand.message.buttons]
            faces = chooser_hand.message.component(placeholder=FACE_DOWN_MENU)["options"]
            assert "Let cat choose our tiebreak cards" in labels and all(o["label"].endswith("face down") for o in faces)
        mover = to_act(s, table)[0]
        actions = (await s.h.bot.service.play.hand(1, s.player(mover))).actions
        hand = await open_hand(s, mover, table)
        await click_action(s, mover, hand.message, rng.choice(actions))
    assert tiebreak_seen and "Round 2 ·" in s.h.message(table.id).text
    shown = (await every_logged_line(s, table))
    assert any("pools its leftover cards for tiebreakers" in line for line in shown)
    assert any(re.match(r"Tiebreaker for spot \d: RED .+ against BLACK ", line) for line in shown)
    log = await storage(s).move_log(1)
    assert {seat for seat, _, _ in log} == {0, 1, 2, 3} and not any(by_ai for _, _, by_ai in log)
    assert sum(1 for _, action, _ in log if action["kind"] == "place") == 36
    summary = board_text(s, table).split("**Round 1 scored**")[1]
    assert all(f"`{n}` " in summary for n in range(1, 10))


# ------------------------------------------------------------------ tiebreaks and the scoring reveal


def last_placement(track=(0, 0), finish: int = 30) -> QuashState:
    """RED (seat 0) places 8♥ on spot 9, the round's last slot; spot 3 then ties (Q♥ against Q♠)."""
    return QuashState.from_position(2, board=[with_spot(RED, 9, ""), BLACK], hands=[["8H", "2D", "6S", "AC"],
                                    ["5H", "6D", "KD"]], turn=0, track=track, finish=finish)


async def test_tiebreak_is_chosen_in_secret_and_scoring_is_revealed_spot_by_spot(server):
    s = server
    ana, ben = s.user("ana"), s.user("ben")
    table = await open_table(s, "quash start", {"finish": 30, "timer": 0}, "ana", joiners=["ben"])
    await rig(s, last_placement())
    hand = await open_hand(s, ana, table)
    await click_action(s, ana, hand.message, QuashAction("place", ("8H", 9)))

    # Scoring: spots 1 and 2 one line each, then spot 3 ties and waits for both sides.
    lines = (await latest(s, table))
    start = lines.index("ana placed 8♥ on RED's spot 9 (single).")
    assert lines[start + 1].startswith("Every spot is full. The cards left in hand are kept for tiebreakers (RED 3, BLACK 3)")
    assert lines[start + 2].startswith("Spot 1 — triple: RED 9♦ 10♦ J♦ (same suit) beats BLACK 8♣ 9♥ 10♠")
    assert lines[start + 3].startswith("Spot 2 — double: BLACK 5♣ 6♥ beats RED 4♠ 9♠ (failed)")
    assert lines[start + 4:] == ["Spot 3 — single: RED Q♥ ties BLACK Q♠: tiebreaker!",
                                 "Tiebreaker for spot 3: ana and ben each choose a leftover card in secret."]
    board = board_text(s, table)
    assert "🎯 RED **1** · 🎱 BLACK **2**" in status_text(s, table)
    assert board_row(s, table, 1).endswith("🎯 9♦ 10♦ J♦ ✓ · 🎱 8♣ 9♥ 10♠")
    assert board_row(s, table, 2).endswith("🎯 4♠ 9♠ ✗ · 🎱 5♣ 6♥ ✓")  # the failed sequence, marked
    assert board_row(s, table, 3).endswith("🎯 Q♥ · 🎱 Q♠ ◀ tiebreak")  # the spot being tied, marked
    assert "**Tiebreaker for spot 3**: waiting for ana, ben to choose a card (leftovers: RED 3, BLACK 3)." in board
    assert set(to_act(s, table)) == {ana, ben}
    ping = [m for m in s.h.public_messages(s.channel) if m.id != table.id and not m.deleted]
    assert len(ping) == 1 and ana.mention in ping[0].content and ben.mention in ping[0].content

    # Each side gets its choices privately: its own leftover cards as buttons.
    theirs = await open_hand(s, ben, table)
    assert theirs.ephemeral and "**Your leftover cards (3):** 5♥ 6♦ K♦" in theirs.text
    assert [b["label"] for b in theirs.message.buttons] == [
        "Play 5♥ face down", "Play 6♦ face down", "Play K♦ face down", "🔄 Refresh", "💡 Hint (game won't be rated)"]
    mine = await open_hand(s, ana, table)
    assert [b["label"] for b in mine.message.buttons][:3] == ["Play 2♦ face down", "Play 6♠ face down", "Play A♣ face down"]
    # A card RED doesn't hold, or a placement now, is refused and changes nothing.
    before = await stored(s)
    for code, words in (("tiebreak:KD", "K♦ is not among your leftover cards"),
                        ("place:2D,9", "Scoring has started: the only move now is a tiebreak card")):
        refused = await forge_click(s, s.h.message(table.id), f"dh:mv:1:{before[0]}:{code}", ana)
        assert refused.ephemeral and words in refused.text, refused.text
    assert await stored(s) == before
    chose = await s.h.click(mine.message, label="Play A♣ face down", user=ana)
    assert chose.ephemeral and "You chose A♣ for the tiebreaker." in chose.text
    assert "Your side's face-down tiebreak card: A♣" in chose.text and "Waiting for ben." in chose.text

    # Nobody else sees it: not the table, not BLACK's hand; the reveal waits for BLACK.
    public = s.h.message(table.id).text
    assert "A♣" not in public and "ana chose RED's tiebreak card, face down." in public
    assert "waiting for ben to choose a card (leftovers: RED 2, BLACK 3)" in public
    assert "Tiebreaker for spot 3: RED" not in public and "Spot 4" not in public
    assert to_act(s, table) == [ben]
    twice = await forge_click(s, s.h.message(table.id), f"dh:mv:1:{(await stored(s))[0]}:tiebreak:2D", ana)
    assert twice.ephemeral and "It's not your turn" in twice.text
    refreshed = await s.h.click(theirs.message, label="🔄 Refresh", user=ben)
    assert "A♣" not in refreshed.text and "face-down" not in refreshed.text
    assert all("A♣" not in m.text for m in s.h.messages(s.channel) if not (m.ephemeral and m.visible_to == ana.id))

    await s.h.click(refreshed.message, label="Play K♦ face down", user=ben)
    shown = (await latest(s, table))
    reveal = shown.index("Tiebreaker for spot 3: RED A♣ against BLACK K♦: RED wins the spot: +1 RED (RED 2 · BLACK 2).")
    assert shown.index("ben chose BLACK's tiebreak card, face down.") == reveal - 1
    assert spot_numbers(shown[reveal:]) == [4, 5, 6, 7, 8, 9]
    assert shown[reveal + 1].startswith("Spot 4 — triple: RED 2♣ 3♣ 4♣ (same suit) beats BLACK 2♥ 3♠ 4♦")
    assert (await latest(s, table))[-2:] == ["Round 1 is scored: RED +5, BLACK +7 (RED 5 · BLACK 7).",
                                     "Round 2: ana deals 13 cards each; the draw pile holds 26 cards. ben plays first."]
    board = board_text(s, table)
    assert status_text(s, table).split("\n")[2].startswith("Round 2 · ") and "Dealer: ana" in board
    assert "Tiebreaker" not in board
    summary = board.split("**Round 1 scored** — RED +5 · BLACK +7")[1]
    assert "`3` 🎯 +1 (tiebreak)" in summary and "`5` both failed, +1 each" in summary
    assert "`7` 🎱 +2 (run vs failed)" in summary
    # The result stays until round 2's first placement, then the board is round 2's alone.
    await click_action(s, ben, (await open_hand(s, ben, table)).message,
                       (await s.h.bot.service.play.hand(1, s.player(ben))).actions[0])
    assert "**Round 1 scored**" not in board_text(s, table)


async def test_a_round_of_three_quashes_keeps_every_spot_on_the_board(server):
    s = server
    ana = s.user("ana")
    table = await open_table(s, "quash start", {"timer": 0}, "ana", joiners=["ben"])
    # RED sweeps spots 1-3 and 7-9, BLACK spots 4-6: more scoring lines than the Latest field holds.
    red = ["9D 10D JD", "QC KD", "KH", "2C 3H 4C", "7H 8D", "5D", "QH KC AD", "10H JS", ""]
    black = ["8C 9H 10S", "5C 6H", "QS", "5S 6S 7S", "JC QD", "AS", "2H 3S 4D", "8S 9S", "7C"]
    await rig(s, QuashState.from_position(2, board=[red, black], hands=[["AH", "2D"], ["3D"]], turn=0))
    await click_action(s, ana, (await open_hand(s, ana, table)).message, QuashAction("place", ("AH", 9)))
    # Each spot and each QUASH is announced on its own line, in scoring order …
    assert (await latest(s, table))[-3:] == [
        "QUASH! RED won spots 7, 8 and 9: +2 RED (RED 10 · BLACK 5).",
        "Round 1 is scored: RED +10, BLACK +5 (RED 10 · BLACK 5).",
        "Round 2: ana deals 13 cards each; the draw pile holds 26 cards. ben plays first."]
    shown = (await latest(s, table))
    assert shown.index("QUASH! BLACK won spots 4, 5 and 6: +2 BLACK (RED 5 · BLACK 5).") == shown.index(
        "Spot 6 — single: BLACK A♠ beats RED 5♦ — higher card: +1 BLACK (RED 5 · BLACK 3).") + 1
    assert spot_numbers(shown)[-6:] == [4, 5, 6, 7, 8, 9]
    # … but the Latest field keeps only the newest lines, so the board keeps the whole round.
    board = board_text(s, table)
    assert "🎯 RED **10** · 🎱 BLACK **5**" in status_text(s, table)
    summary = board.split("**Round 1 scored** — RED +10 · BLACK +5\n")[1].split("\n")
    assert summary == [
        "`1` 🎯 +1 (higher top card) · `2` 🎯 +1 (higher top card) · `3` 🎯 +1 (higher card) · QUASH 🎯 +2",
        "`4` 🎱 +1 (higher top card) · `5` 🎱 +1 (higher top card) · `6` 🎱 +1 (higher card) · QUASH 🎱 +2",
        "`7` 🎯 +1 (higher top card) · `8` 🎯 +1 (higher top card) · `9` 🎯 +1 (higher card) · QUASH 🎯 +2",
    ]


async def test_restart_in_the_middle_of_a_tiebreak_and_the_race_to_the_finish(server):
    s = server
    ana, ben = s.user("ana"), s.user("ben")
    table = await open_table(s, "quash start", {"finish": 5, "timer": 0}, "ana", joiners=["ben"])
    await rig(s, last_placement(track=(3, 0), finish=5))
    await click_action(s, ana, (await open_hand(s, ana, table)).message, QuashAction("place", ("8H", 9)))
    assert "Tiebreaker for spot 3" in board_text(s, table)
    await click_action(s, ana, (await open_hand(s, ana, table)).message, QuashAction("tiebreak", ("AC",)))
    theirs = await open_hand(s, ben, table)  # opened before the restart
    before = await stored(s)

    await s.h.stop()
    await start_bot(s.h, s.db_path, seed=None)
    assert await stored(s) == before
    assert "A♣" not in s.h.message(table.id).text
    again = await open_hand(s, ana, table)
    assert "Your side's face-down tiebreak card: A♣" in again.text and not again.message.find_components(
        custom_id_prefix="dh:mv:")
    # BLACK's hand message from before the restart still plays: the reveal, and RED reaches 5.
    await s.h.click(s.h.message(theirs.message.id), label="Play 5♥ face down", user=ben)
    final = s.h.message(table.id)
    assert status_line(final) == "🏁 RED (ana) reached the finish (5) first (RED 5 · BLACK 2)."
    assert [b["label"] for b in final.buttons] == ["📜 Log", "🔁 Play again"]
    assert (await latest(s, table))[-2:] == [
        "Tiebreaker for spot 3: RED A♣ against BLACK 5♥: RED wins the spot: +1 RED (RED 5 · BLACK 2).",
        "RED reaches the finish (5 of 5) on spot 3: RED (ana) wins the match! The rest of round 1 is not scored."]
    # The reveal stopped at spot 3: nothing after it was scored.
    assert not [n for n in spot_numbers(await latest(s, table)) if n > 3]
    assert board_row(s, table, 3).endswith("🎯 Q♥ ✓ · 🎱 Q♠")
    for n in range(4, 10):
        assert "✓" not in board_row(s, table, n)
    row = await storage(s).get_table(1)
    assert row.status == "finished" and row.outcome["winners"] == [0]
    late = await forge_click(s, final, f"dh:mv:1:{row.version}:tiebreak:2D", ana)
    assert late.ephemeral and "ended" in late.text


async def test_team_chooser_hands_the_choice_to_an_ai_partner(server):
    s = server
    ana, ben, cat = s.user("ana"), s.user("ben"), s.user("cat")
    await s.h.slash("quash start", {"timer": 0}, user=ana, channel=s.channel)
    lobby = s.h.latest_public(s.channel)
    await s.h.click(lobby, label="Join", user=ben)
    await add_ai(s, lobby, ana)
    await s.h.click(lobby, label="Join", user=cat)
    await s.h.click(lobby, label="Start", user=ana)
    table = s.h.message(lobby.id)  # RED: ana and AI 1 · BLACK: ben and cat
    # cat (BLACK) makes the round's last placement; spot 3 ties.
    hands = [["2D", "6S"], ["5H"], ["AC"], ["7C", "6D", "KD"]]
    state = QuashState.from_position(4, board=[RED, with_spot(BLACK, 9, "")], hands=hands, turn=3)
    await rig(s, state)
    await click_action(s, cat, (await open_hand(s, cat, table)).message, QuashAction("place", ("7C", 9)))
    assert "Each team pools its leftover cards for tiebreakers (RED 3, BLACK 3); ana chooses RED's and ben " \
           "BLACK's." in " ".join(await latest(s, table))
    assert set(to_act(s, table)) == {ana, ben}
    before = await stored(s)

    # Acting for the other team, or out of turn, is refused and changes nothing.
    version = before[0]
    message = s.h.message(table.id)
    partner = await forge_click(s, message, f"dh:mv:1:{version}:tiebreak:KD", cat)
    assert partner.ephemeral and "not your turn" in partner.text.lower()
    steal = await forge_click(s, message, f"dh:mv:1:{version}:tiebreak:AC", ben)
    assert steal.ephemeral and "A♣ is not among your team's leftover cards" in steal.text
    wrong = await forge_click(s, message, f"dh:mv:1:{version}:chooser:0", ben)
    assert wrong.ephemeral and "Only your partner (seat 4)" in wrong.text
    ai_seat = await forge_click(s, message, f"dh:mv:1:{version}:tiebreak:6S", s.user("dan"))
    assert ai_seat.ephemeral and "not playing" in ai_seat.text
    assert await stored(s) == before

    hand = await open_hand(s, ana, table)
    await s.h.click(hand.message, label="Let 🤖 AI 1 choose our tiebreak cards", user=ana)
    # The AI chose at once, face down: the table says so but not which card; ana (its partner) sees it.
    public = s.h.message(table.id).text
    assert "ana hands RED's tiebreak choice to 🤖 AI 1." in public and "🤖 AI 1 chose RED's tiebreak card, face down." in public
    pending = (await s.h.bot.service.play.hand(1, s.player(ana))).view["your_tiebreak_card"]
    assert pending in ("2D", "6S", "AC")
    shown = parse_card(pending).pretty
    assert shown not in public
    assert f"Your side's face-down tiebreak card: {shown}" in (await open_hand(s, ana, table)).text
    assert shown not in (await open_hand(s, cat, table)).text
    assert to_act(s, table) == [ben]
    theirs = await open_hand(s, ben, table)
    assert "Let cat choose our tiebreak cards" in [b["label"] for b in theirs.message.buttons]
    await s.h.click(theirs.message, label="Play K♦ face down", user=ben)
    assert any(line.startswith(f"Tiebreaker for spot 3: RED {shown} against BLACK K♦") for line in (await latest(s, table)))
    view = (await s.h.bot.service.table(1)).view
    assert view["chooser"] == [2, 1]  # AI 1 keeps choosing for RED until it hands the choice back


# ------------------------------------------------------------------ bad inputs


async def test_bad_placements_and_forged_steps_are_refused_with_nothing_changed(server):
    s = server
    ana, ben = s.user("ana"), s.user("ben")
    table = await open_table(s, "quash start", {"timer": 0}, "ana", joiners=["ben"])
    red = with_spot(EMPTY, 1, "6C 7D 8D")
    state = QuashState.from_position(2, board=[red, with_spot(EMPTY, 3, "KS")], hands=[["9D", "2S"], ["3H"]],
                                     turn=0, pile=["4H", "5H"])
    await rig(s, state)
    before = await stored(s)
    version = before[0]
    message = s.h.message(table.id)

    async def refused(custom_id, user, *words):
        result = await forge_click(s, message, custom_id, user)
        assert result.ephemeral and all(w in result.text for w in words), result.text
        assert await stored(s) == before

    await refused(f"dh:mv:1:{version}:place:9D,1", ana, "Spot 1 (triple) is full", "9♦ needs a spot with an open slot")
    await refused(f"dh:mv:1:{version}:place:3H,2", ben, "It's not your turn")  # the other side's move
    await refused(f"dh:mv:1:{version}:place:3H,2", ana, "You don't hold 3♥")
    await refused(f"dh:mv:1:{version}:place:9D,10", ana, "not a spot")
    await refused(f"dh:mv:1:{version}:swap:9D,1,6C,2", ana, "Swap chains are only allowed in advanced play")
    await refused(f"dh:mv:1:{version}:tiebreak:9D", ana, "no tiebreaker to play now")

    # Forged menu choices: a card not in the hand, a spot that is full, a half token.
    hand = await open_hand(s, ana, table)
    step = hand.message.component(placeholder="Place a card…")["custom_id"]
    for value in ("KD>", "9D>1>", "9D>1", "1", "9"):
        result = await forge_select(s, hand.message, step, [value], ana)
        assert result.ephemeral and "That choice isn't available now." in result.text, (value, result.text)
    assert await stored(s) == before
    # Placing on a full spot isn't even offered.
    await s.h.select(hand.message, ["9D>"], placeholder="Place a card…", user=ana)
    spots = [o["label"] for o in s.h.message(hand.message.id).component(placeholder=SPOT_MENU)["options"]]
    assert not any("Spot 1 " in label for label in spots) and "Spot 2: ▢ ▢" in spots
    assert "**9♦**: now choose below." in s.h.message(hand.message.id).text  # the card chosen, above its spots


async def test_advanced_swap_chain_played_step_by_step_with_a_restart_and_a_take_back(server_on_each_backend):
    s = server_on_each_backend
    ana = s.user("ana")
    table = await open_table(s, "quash start", {"advanced": True, "timer": 0}, "ana", joiners=["ben"])
    assert "advanced (hidden cards, swaps)" in s.h.message(table.id).text
    red = with_spot(with_spot(EMPTY, 1, "6C 7D 8D"), 4, "5H 7S")
    state = QuashState.from_position(2, board=[red, EMPTY], hands=[["9D", "2S"], ["2H"]], turn=0, advanced=True)
    await rig(s, state)
    before = await stored(s)
    version = before[0]

    # An advanced placement that can never become a run, a swap step that can't fit, an old whole chain.
    never = await forge_click(s, s.h.message(table.id), f"dh:mv:1:{version}:place:2S,4", ana)
    assert never.ephemeral and "2♠ can't go to spot 4: 2♠ 5♥ 7♠ could never become a run" in never.text
    bad = await forge_click(s, s.h.message(table.id), f"dh:mv:1:{version}:swap:9D,4,7S", ana)
    assert bad.ephemeral and "9♦ can't take 7♠'s place in spot 4: 5♥ 9♦ could never become a run" in bad.text
    full = await forge_click(s, s.h.message(table.id), f"dh:mv:1:{version}:swap:9D,1,6C,4,5H,1", ana)
    assert full.ephemeral and "Spot 1 (triple) is full" in full.text
    assert await stored(s) == before

    hand = (await open_hand(s, ana, table)).message
    assert [o["label"] for o in hand.component(placeholder="Place a card…")["options"]] == ["2♠", "9♦"]
    await s.h.select(hand, ["9D>"], placeholder="Place a card…", user=ana)
    hand = s.h.message(hand.id)
    # Placements first (a menu of more than a handful of spots); below them the spots where 9♦ can
    # swap a card out are a menu, then a button per card, written as the chain step it makes.
    menu = hand.component(placeholder=SWAP_MENU)
    assert [o["value"] for o in menu["options"]] == ["9D>1>", "9D>4>"]
    assert menu["options"][0]["label"] == "Swap into spot 1: 6♣ 7♦ 8♦"
    controls = [c for c in hand.walk() if c.get("type") in (2, 3)]
    spots = hand.component(placeholder=SPOT_MENU)
    assert "Spot 2: ▢ ▢" in [o["label"] for o in spots["options"]] and controls.index(menu) > controls.index(spots)
    await s.h.select(hand, ["9D>1>"], placeholder=SWAP_MENU, user=ana)
    step = await s.h.click(s.h.message(hand.id), label="9♦→1 ⇒ 6♣", user=ana)

    # 6♣ is in the air: ana still plays, and everyone sees the chain so far.
    hand = s.h.message(step.message.id)
    assert "**6♣ is in the air**" in hand.text and "⛓ 9♦→1 ⇒ 6♣ in the air" in hand.text
    assert not hand.find_components(placeholder="Place a card…")
    labels = [b["label"] for b in hand.buttons]
    spots = [o["label"] for o in hand.component(placeholder=SPOT_MENU)["options"]]
    assert "Spot 2: ▢ ▢" in spots and "↩ Take the whole chain back" in labels
    assert not any(label.startswith("2♠") for label in labels + spots)
    assert "⛓ ana is swapping on RED's side: 9♦→1 ⇒ 6♣ in the air." in board_text(s, table)
    assert board_row(s, table, 1).startswith("`1` triple — 🎯 7♦ 8♦ 9♦ ·")
    assert [u.name for u in to_act(s, table)] == ["ana"]

    # A restart mid-chain resumes it.
    mid = await stored(s)
    await s.h.stop()
    await start_bot(s.h, s.db_path, seed=None)
    assert await stored(s) == mid
    again = (await open_hand(s, ana, table)).message
    assert "**6♣ is in the air**" in again.text and "⛓ ana is swapping" in board_text(s, table)

    # Take the whole chain back: the side as the turn began.
    await s.h.click(again, label="↩ Take the whole chain back", user=ana)
    assert "ana took a swap chain back; RED's side is as it was." in (await latest(s, table))
    assert "⛓" not in board_text(s, table) and board_row(s, table, 1).startswith("`1` triple — 🎯 6♣ 7♦ 8♦ ·")

    # Now a chain of two displacements: 9♦ for 6♣ in spot 1, 6♣ for 7♠ in spot 4, 7♠ onto spot 9.
    hand = (await open_hand(s, ana, table)).message
    await s.h.select(hand, ["9D>"], placeholder="Place a card…", user=ana)
    await s.h.select(s.h.message(hand.id), ["9D>1>"], placeholder=SWAP_MENU, user=ana)
    await s.h.click(s.h.message(hand.id), label="9♦→1 ⇒ 6♣", user=ana)
    await s.h.select(s.h.message(hand.id), ["6C>4>"], placeholder=SWAP_MENU, user=ana)
    await s.h.click(s.h.message(hand.id), label="6♣→4 ⇒ 7♠", user=ana)
    assert "**7♠ is in the air**" in s.h.message(hand.id).text
    spots = s.h.message(hand.id).component(placeholder=SPOT_MENU)
    ninth = next(o["value"] for o in spots["options"] if o["label"] == "Spot 9: ▢")
    done = await s.h.select(s.h.message(hand.id), [ninth], placeholder=SPOT_MENU, user=ana)
    assert done.ephemeral and "Waiting for ben." in done.text
    assert "ana swapped on RED's side: 9♦→1 ⇒ 6♣→4 ⇒ 7♠→9." in (await latest(s, table))
    assert board_row(s, table, 1).endswith("🎯 7♦ 8♦ 9♦ · 🎱 ▢ ▢ ▢")
    assert "🎯 5♥ 6♣ ▢" in board_row(s, table, 4) and "🎯 7♠ ·" in board_row(s, table, 9)
    log = await storage(s).move_log(1)
    assert [action for _, action, _ in log] == [
        {"kind": "swap", "args": ["9D", 1, "6C"]}, {"kind": "takeback", "args": []},
        {"kind": "swap", "args": ["9D", 1, "6C"]}, {"kind": "swap", "args": ["6C", 4, "7S"]},
        {"kind": "place", "args": ["7S", 9]}]
