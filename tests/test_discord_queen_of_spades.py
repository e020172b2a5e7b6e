"""Queen of Spades through Discord: the real bot, discord.py's own dispatch, a real
SQLite file, and REST recorded and validated against Discord's OpenAPI spec.

Whole rounds and a short match are played by clicks (the dealer's cut through
its form, takes, two-step lays, discard menus, Continue between rounds), with
restarts mid-round and between rounds; rigged positions (``QoSState.from_position``
written into the stored table) cover a pile pickup into a hand of more than 25
cards, the round-end breakdown with both bonuses, and forged clicks that must be
refused with a clear reason and nothing changed. ``server`` (tests/conftest.py) is
the guild with four players and the bot on a fresh SQLite file.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.cards import parse_card
from games.queen_of_spades import QoSState
from tests.discord_play import (
    forge_click,
    move_choices,
    open_hand,
    open_table,
    pictures_off,
    start_bot,
    status_line,
    texts,
    to_act,
)
from tests.words import event_texts

CUT = "Cut the deck…"
CONTINUE = "Continue"
LAY_MENU = "Lay or add to a set…"
DISCARD_MENU = "Discard: choose a rank…"
# What the clicking players prefer: pick up the pile, lay and add, then draw, then discard.
PREFER = ("next", "take:pile", "lay:", "extend:", "take:draw", "take:discard", "discard:")


def stored(s):
    return s.h.bot.service.storage


async def row_of(s, table_id: int = 1):
    return await stored(s).get_table(table_id)


async def frozen(s, table_id: int = 1):
    """What must not change when a move is refused: version, state and the move log."""
    row = await row_of(s, table_id)
    return row.version, row.state, await stored(s).move_log(table_id)


@pytest.fixture
async def server(server):
    """The shared server with pictures off, as a server may have them: these tests read the
    table's text (its header and the text board in the picture's place)."""
    await pictures_off(server)
    yield server


def board(s, table) -> str:
    """The table message's text: its header and the text board."""
    return s.h.message(table.id).text


def pretty(code: str) -> str:
    return parse_card(code).pretty


async def rig(s, state: QoSState, table_id: int = 1) -> None:
    """Replace the stored game with a hand-built position; the service reloads it."""
    snapshot = json.dumps(state.to_json())
    await stored(s).run_write(
        lambda conn: conn.execute("UPDATE tables SET state = ? WHERE id = ?", (snapshot, table_id)))
    s.h.bot.service.tables.forget(table_id)


async def cut_by_form(s, dealer, hand_message, aim: str):
    """The dealer presses "Cut the deck…" and answers the form."""
    opened = await s.h.click(hand_message, label=CUT, user=dealer)
    assert opened.modal is not None, opened.text
    return await s.h.submit_modal(opened, {"value": aim})


async def take_turn(s, table, aim: str = "40", prefer=PREFER):
    """The first player the table pings opens their hand and plays until someone else
    is to act: a cut through the form, or a take, any lays, and a discard."""
    mover = to_act(s, table)[0]
    hand = (await open_hand(s, mover, table)).message
    for _ in range(40):
        hand = s.h.message(hand.id)
        if hand.find_components(label=CUT):
            await cut_by_form(s, mover, hand, aim)
            return mover
        choices = move_choices(hand)
        if not choices:
            return mover
        kind, custom_id, value = min(
            choices, key=lambda c: next((i for i, k in enumerate(prefer) if c[2].startswith(k)), 99))
        if custom_id.startswith("dh:st:"):  # the first step of a lay: the set, then the count
            await s.h.select(hand, [value], custom_id=custom_id, user=mover)
            continue
        if kind == "button":
            await s.h.click(hand, custom_id=custom_id, user=mover)
        else:
            await s.h.select(hand, [value], custom_id=custom_id, user=mover)
        if value.startswith(("discard", "next")):
            return mover
    raise AssertionError(f"{mover.name} never finished the turn")


async def play_round(s, table, limit: int = 400) -> list[str]:
    """Turns until the round (or the match) is scored; returns who moved, in order."""
    movers = []
    for _ in range(limit):
        view = (await s.h.bot.service.table(1)).view
        if view["phase"] in ("round_over", "match_over"):
            return movers
        movers.append((await take_turn(s, table)).name)
    raise AssertionError(f"the round did not end in {limit} turns")


async def restart(s):
    await s.h.stop()
    await start_bot(s.h, s.db_path, seed=None)


# ---------------------------------------------------------------------------- the command


async def test_qos_command_is_synced_with_its_options(server):
    qos = next(c for c in server.h.commands() if c["name"] == "qos")
    start = qos["options"][0]
    assert start["name"] == "start" and start["description"]
    assert {o["name"] for o in start["options"]} == {"target", "rounds", "timer", "hints"}
    assert all(o["description"] for o in start["options"])


# ---------------------------------------------------------------------------- the cut


async def test_cut_through_the_form_is_announced_on_the_table(server):
    s = server
    table = await open_table(s, "qos start", {"timer": 0}, "ana", joiners=["ben"])
    dealer = to_act(s, table)[0]
    other = s.user("ben") if dealer.name == "ana" else s.user("ana")
    assert status_line(s.h.message(table.id)) == f"▶ {dealer.mention} to cut the deck"

    waiting = await open_hand(s, other, table)
    assert move_choices(waiting.message) == [] and not waiting.message.find_components(label=CUT)
    assert f"Waiting for {dealer.name}" in waiting.text

    hand = await open_hand(s, dealer, table)
    assert "You deal this round. Cut 26 or 27 cards for the 100 bonus" in hand.text
    assert {b["label"] for b in hand.message.buttons} >= {CUT, "Deal without cutting"}
    opened = await s.h.click(hand.message, label=CUT, user=dealer)
    field = next(c for c in opened.modal["components"][0]["components"] if c["custom_id"] == "value")
    assert opened.modal["title"] == CUT and field["label"] == "A number from 1 to 108"

    before = await frozen(s)
    for answer, reason in (("abc", "whole number"), ("-5", "whole number"), ("4.5", "whole number"),
                           ("0", "Cut from 1 to 108 cards, not 0"), ("200", "Cut from 1 to 108 cards, not 200")):
        refused = await s.h.submit_modal(opened, {"value": answer})
        assert refused.ephemeral and reason in refused.text, (answer, refused.text)
        assert await frozen(s) == before, answer
    # The waiting player can't cut, even with a forged form button.
    forged = await forge_click(s, s.h.message(table.id), f"dh:ask:1:{before[0]}:cut:1:108", other)
    assert forged.modal is None  # refused at once, before any form opens
    assert forged.ephemeral and "isn't one of your moves" in forged.text, forged.text
    assert await frozen(s) == before

    second = await s.h.click(hand.message, label=CUT, user=dealer)  # the same form, opened twice
    done = await s.h.submit_modal(opened, {"value": "39"})
    assert done.ephemeral and "Your hand (13)" in done.text
    cut = (await s.h.bot.service.table(1)).view["cut"]
    assert cut["aimed"] == 39 and 35 <= cut["landed"] <= 43 and not cut["bonus"]
    text = board(s, table)
    assert "Cut:" not in text and "💯" not in text  # a cut without its bonus is an event, not on the board all round
    assert f"{dealer.name} aimed to cut 39 and cut {cut['landed']} cards" in s.h.message(table.id).text
    assert status_line(s.h.message(table.id)) == f"▶ {other.mention} to take a card"  # the seat after the dealer
    # The second copy of the form is from before the cut: refused, nothing changes.
    after = await frozen(s)
    stale = await s.h.submit_modal(second, {"value": "26"})
    assert "earlier turn" in stale.text and await frozen(s) == after


async def test_dealing_without_a_cut_says_so(server):
    s = server
    table = await open_table(s, "qos start", {"timer": 0}, "ana", joiners=["ben"])
    dealer = to_act(s, table)[0]
    hand = await open_hand(s, dealer, table)
    await s.h.click(hand.message, label="Deal without cutting", user=dealer)
    assert "Cut:" not in board(s, table)
    assert f"{dealer.name} dealt without cutting: no cut bonus this round." in s.h.message(table.id).text


# ---------------------------------------------------------------------------- whole rounds


async def test_short_match_by_clicks_with_restarts_mid_round_and_between_rounds(server):
    s = server
    humans = ["ana", "ben", "cat"]
    table = await open_table(s, "qos start", {"timer": 0, "rounds": 2}, "ana", joiners=["ben", "cat"], ai=1)
    assert "at most 2 rounds" in s.h.message(table.id).text
    for _ in range(6):
        await take_turn(s, table)
    assert (await s.h.bot.service.table(1)).view["phase"] in ("take", "lay", "discard")

    # A restart mid-round: nothing lost, and a hand opened before it still plays.
    mover = to_act(s, table)[0]
    hand = await open_hand(s, mover, table)
    before = await frozen(s)
    await restart(s)
    assert await frozen(s) == before
    draw = next(c for c in move_choices(s.h.message(hand.message.id)) if c[2] == "take:draw")
    await s.h.click(s.h.message(hand.message.id), custom_id=draw[1], user=mover)
    assert (await row_of(s)).version == before[0] + 1
    await take_turn(s, table)  # the same player finishes the turn: lays, then discards
    movers = await play_round(s, table)
    assert set(humans) <= set(movers)

    log = await stored(s).move_log(1)
    assert any(a["kind"] == "take" and a["args"][0] == "pile" and not ai for _, a, ai in log), "no pile pickup"
    assert any(a["kind"] == "lay" and not ai for _, a, ai in log) and any(a["kind"] == "extend" for _, a, _ in log)

    # The round is scored: the breakdown is on the table, and every human must continue.
    snap = await s.h.bot.service.table(1)
    view = snap.view
    assert view["phase"] == "round_over" and view["round"] == 1
    assert view["last_round"]["cut"]["aimed"] == 40  # the human dealer cut through the form
    text = board(s, table)
    assert "**Round 1 scores**\n-# laid − hand + bonus = round → total" in text
    for seat, row in enumerate(view["last_round"]["rows"]):
        line = next(x for x in text.splitlines() if x.startswith(f"{snap.names[seat]}: {row['laid']} − "))
        assert line.startswith(f"{snap.names[seat]}: {row['laid']} − {row['hand']}")
        assert line.endswith(f"= **{row['round']:+d}** → {row['total']}")
        assert f"**{snap.names[seat]}** — " in text and f"score {row['total']}" in text
    assert status_line(s.h.message(table.id)).endswith("to press **Continue** in **My hand**")
    assert view["ready"] == [False, False, False, True]  # the AI seat continued by itself
    assert sorted(u.name for u in to_act(s, table)) == humans

    refused = await forge_click(s, s.h.message(table.id), f"dh:mv:1:{(await row_of(s)).version}:take:draw",
                                s.user("ana"))
    assert refused.ephemeral and "round is over" in refused.text
    assert "press Continue" in refused.text  # the button's own words, not a command
    events = event_texts(await stored(s).get_table(1))
    assert "Round 1 is over: everyone, press **Continue** in **My hand** when you're ready for round 2." in events
    scores = next(line for line in events if line.startswith("Round 1 scores: "))
    assert "hand -" not in scores and all(f"{row['hand']} left in hand" in scores
                                          for row in view["last_round"]["rows"] if row["hand"])
    totals = view["scores"]

    # A restart between rounds keeps the totals and who still has to continue.
    before = await frozen(s)
    await restart(s)
    assert await frozen(s) == before
    assert (await s.h.bot.service.table(1)).view["scores"] == totals

    for i, name in enumerate(humans):
        user = s.user(name)
        hand = await open_hand(s, user, table)
        assert [c[2] for c in move_choices(hand.message)] == ["next"]
        clicked = await s.h.click(hand.message, label=CONTINUE, user=user)
        if i < len(humans) - 1:
            rest = ", ".join(humans[i + 1:])
            assert move_choices(clicked.message) == [] and f"Waiting for {rest}." in clicked.text
            assert status_line(s.h.message(table.id)).startswith("▶ " + ", ".join(s.user(n).mention for n in humans[i + 1:]))
            stale = await forge_click(s, clicked.message, f"dh:mv:1:{before[0] + i}:next", user)
            assert stale.ephemeral and "earlier turn" in stale.text
            current = await frozen(s)
            again = await forge_click(s, clicked.message, f"dh:mv:1:{current[0]}:next", user)
            assert again.ephemeral and "already ready for round 2" in again.text, again.text
            assert await frozen(s) == current

    view = (await s.h.bot.service.table(1)).view
    dealer = (view["history"][0]["dealer"] + 1) % 4  # the deal rotates; an AI dealer cuts by itself
    assert view["round"] == 2 and view["dealer"] == dealer and view["phase"] == ("take" if dealer == 3 else "cut")
    assert view["scores"] == totals
    text = board(s, table)
    assert "Round 2 · dealer" in text and "Round 1 scores" not in text
    for seat, name in enumerate([*humans, "🤖 AI 1"]):
        assert f"**{name}** — " in text and f"score {totals[seat]}" in text

    await play_round(s, table)
    final = s.h.message(table.id)
    row = await row_of(s)
    assert row.status == "finished" and status_line(final).startswith("🏁") and [b["label"] for b in final.buttons] == ["📜 Log", "🔁 Play again"]
    last = row.state["history"][-1]
    assert last["round"] == 2 and [r["total"] for r in last["rows"]] == list(row.outcome["scores"])
    assert [r["total"] - r["round"] for r in last["rows"]] == totals
    assert "**Round 2 scores**" in board(s, final) and "After 2 rounds" in status_line(final)
    # Finished stays finished across a restart; old controls say the game ended.
    before = await frozen(s)
    await restart(s)
    assert await frozen(s) == before
    late = await forge_click(s, final, f"dh:mv:1:{before[0]}:next", s.user("ana"))
    assert late.ephemeral and "ended" in late.text


# ---------------------------------------------------------------------------- rigged positions

ANA_HAND = ["AS", "3C", "4C", "5H", "6D", "8S", "9H", "10C", "QS", "QD", "KS", "KH", "KD"]
PILE = ["JS", "JH", "JD", "JC", "4H", "4D", "5S", "5C", "6S", "6H", "8H", "8D", "9S", "9C", "10S", "10H",
        "AH", "AD", "JK", "QH"]  # bottom → top: Q♥ on top
BEN_HAND = ["2S", "2H", "3S", "3H", "3D", "5D", "6C", "8C", "9D", "10D", "QC", "KC", "7C"]


async def two_player_table(s, **options):
    table = await open_table(s, "qos start", {"timer": 0, **options}, "ana", joiners=["ben"])
    row = await row_of(s)
    assert [seat.name for seat in row.seats] == ["ana", "ben"]
    return table


def hand_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("**Your hand"))


def rank_rows(text: str) -> list[str]:
    """A big hand's lines, one per rank (``K ×3: K♠ K♥ K♦``), below its heading."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("**Your hand")) + 1
    return [line for line in lines[start:] if " ×" in line.split(":")[0]]


def offered(message, prefix: str) -> list[str]:
    return [value for _, _, value in move_choices(message) if value.startswith(prefix)]


async def discards_by_rank(s, message, user) -> list[str]:
    """Every discard a long hand offers: each rank of the discard menu chosen in turn, its card
    buttons read, then Back."""
    found = []
    for option in s.h.message(message.id).component(placeholder=DISCARD_MENU)["options"]:
        step = await s.h.select(s.h.message(message.id), [option["value"]], placeholder=DISCARD_MENU, user=user)
        buttons = [b for b in step.message.buttons if b["custom_id"].startswith("dh:mv:")]
        assert 1 <= len(buttons) <= 10 and all(" pts" in b["label"] for b in buttons)
        found += [b["custom_id"].split(":", 4)[4] for b in buttons]
        await s.h.click(step.message, label="← Back", user=user)
    return found


async def test_pile_pickup_into_a_hand_of_thirty_cards_with_every_card_reachable(server):
    s = server
    table = await two_player_table(s)
    await rig(s, QoSState.from_position(
        [ANA_HAND, BEN_HAND], sets=[[], [["7S", "7H", "7D"]]], draw=["4S", "7S", "KC"], discard=PILE,
        turn=0, phase="take", scores=[120, -35], round_no=3))
    ana, ben = s.user("ana"), s.user("ben")
    hand = await open_hand(s, ana, table)
    labels = [b["label"] for b in hand.message.buttons]
    assert "Take pile (Q♥ + 2 of yours)" in labels and "Draw" in labels
    assert not any("lone discard" in label for label in labels)  # the pile holds more than one card
    assert f"Discard pile: 20, top {pretty('QH')}" in hand.text

    taken = await s.h.click(hand.message, label="Take pile (Q♥ + 2 of yours)", user=ana)
    view = (await s.h.bot.service.play.hand(1, s.player(ana))).view
    assert len(view["hand"]) == 30 and view["laid"][0][0]["cards"] == ["QS", "QH", "QD"]
    # The private hand lists every card, one line per rank with its count (A … K, then
    # jokers), suits ♠ ♥ ♦ ♣: no rank breaks across lines.
    assert hand_line(taken.text) == "**Your hand (30):**"
    rows = rank_rows(taken.text)
    assert rows[:4] == ["A ×3: A♠ A♥ A♦", "3 ×1: 3♣", "4 ×3: 4♥ 4♦ 4♣", "5 ×3: 5♠ 5♥ 5♣"]
    assert rows[-2:] == ["K ×3: K♠ K♥ K♦", "🃏 ×1: 🃏"]
    assert Counter(card for row in rows for card in row.split(": ")[1].split()) == Counter(pretty(c) for c in view["hand"])
    assert "**Your sets:** Q♠ Q♥ Q♦" in taken.text
    # A discard is chosen by rank first, then the card: a menu of ranks, then a few buttons.
    ranks = taken.message.component(placeholder=DISCARD_MENU)
    assert ranks["options"][0]["label"] == "Discard aces (3 in hand)" and len(ranks["options"]) == len(rows)
    assert not [c for c in taken.message.selects if c["custom_id"].startswith("dh:ms:")]
    assert sorted(await discards_by_rank(s, taken.message, ana)) == sorted(f"discard:{c}" for c in set(view["hand"]))
    steps = taken.message.component(placeholder=LAY_MENU)
    assert {o["value"] for o in steps["options"]} == {f"lay:{r}," for r in ("A", 4, 5, 6, 8, 9, 10, "J", "K")}
    assert {o["label"] for o in steps["options"]} >= {"Lay a set of jacks (4 in hand)", "Lay a set of 10s (3 in hand)",
                                                      "Lay a set of aces (3 in hand)"}

    # The public table: the new set, the running scores, the emptied discard pile.
    text = board(s, table)
    assert "Round 3 · dealer ben · draw 3 · discard 0" in text
    assert "▶ 1. **ana** — 30 cards · score 120\n  Q♠ Q♥ Q♦" in text
    assert "• 2. **ben** — 13 cards · score -35\n  7♠ 7♥ 7♦" in text
    assert status_line(s.h.message(table.id)) == f"▶ {ana.mention} to lay sets and discard"
    assert "ana took the discard pile: laid its top Q♥ with Q♠ Q♦" in s.h.message(table.id).text

    # A lay in two steps: the set, then how many (Back returns to the whole hand).
    await s.h.select(taken.message, ["lay:J,"], placeholder=LAY_MENU, user=ana)
    step = s.h.message(taken.message.id)
    assert [b["label"] for b in step.buttons] == ["3 jacks (30 pts)", "4 jacks (40 pts)", "← Back", "💡 Hint (game won't be rated)"]
    back = await s.h.click(step, label="← Back", user=ana)
    assert back.message.component(placeholder=LAY_MENU)
    await s.h.select(back.message, ["lay:J,"], placeholder=LAY_MENU, user=ana)
    laid = await s.h.click(s.h.message(taken.message.id), label="4 jacks (40 pts)", user=ana)
    assert "Your hand (26)" in laid.text and "**Your sets:** Q♠ Q♥ Q♦ · J♠ J♥ J♦ J♣" in laid.text
    assert "  Q♠ Q♥ Q♦ · J♠ J♥ J♦ J♣" in board(s, table)

    # The discard, its rank then the card, ends the turn.
    jokers = await s.h.select(laid.message, ["discard:joker,"], placeholder=DISCARD_MENU, user=ana)
    assert "**Discard jokers (1 in hand)**: now choose below." in jokers.text
    await s.h.click(jokers.message, label="🃏 · 50 pts", user=ana)
    text = board(s, table)
    assert status_line(s.h.message(table.id)) == f"▶ {ben.mention} to take a card" and "discard 1 (top 🃏)" in text
    assert [u.name for u in to_act(s, table)] == ["ben"]
    other = await open_hand(s, ben, table)
    assert "Take 🃏" in [b["label"] for b in other.message.buttons]


async def test_a_hand_of_every_card_offers_every_discard(server):
    s = server
    table = await two_player_table(s)
    everything = [r + suit for r in ("A", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
                  for suit in "SHDC"] + ["2S", "2H", "2D", "2C", "JK", "JK", "QS", "9D"]
    await rig(s, QoSState.from_position([everything, ["5C"]], turn=0, phase="lay", draw=["4S"]))
    hand = await open_hand(s, s.user("ana"), table)
    rows = rank_rows(hand.text)
    assert hand_line(hand.text) == f"**Your hand ({len(everything)}):**"
    assert rows[:2] == ["A ×4: A♠ A♥ A♦ A♣", "2 ×4: 2♠ 2♥ 2♦ 2♣"]
    assert "Q ×5: Q♠ Q♠ Q♥ Q♦ Q♣" in rows and rows[-1] == "🃏 ×2: 🃏 🃏"
    assert sorted(await discards_by_rank(s, hand.message, s.user("ana"))) == sorted(f"discard:{c}" for c in set(everything))
    assert not [c for c in hand.message.selects if c["custom_id"].startswith("dh:ms:")]
    steps = hand.message.component(placeholder=LAY_MENU)
    ranks = ("A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "joker")  # two jokers and a wild make a set
    assert [o["value"] for o in steps["options"]] == [f"lay:{r}," for r in ranks]
    # The longest second step still fits: every count of queens, with and without a wild.
    await s.h.select(hand.message, ["lay:Q,"], placeholder=LAY_MENU, user=s.user("ana"))
    codes = offered(s.h.message(hand.message.id), "lay:Q,")
    assert set(codes) == {"lay:Q,3", "lay:Q,4", "lay:Q,5", "lay:Q,2,w", "lay:Q,3,w", "lay:Q,4,w", "lay:Q,5,w"}


async def test_bad_moves_are_refused_clearly_and_change_nothing(server):
    s = server
    table = await two_player_table(s)
    await rig(s, QoSState.from_position(
        [["AS", "QS", "KS", "KH", "5C", "6D", "8S", "9H"], ["3S", "3H", "3D", "7C", "9D"]],
        sets=[[], [["10S", "10H", "10D"]]], draw=["4S", "7S", "KC"], discard=["4C", "QH"], turn=0, phase="take"))
    ana, ben, cat = s.user("ana"), s.user("ben"), s.user("cat")
    message = s.h.message(table.id)

    async def refused(user, code: str, reason: str, version: int | None = None):
        before = await frozen(s)
        result = await forge_click(s, message, f"dh:mv:1:{before[0] if version is None else version}:{code}", user)
        assert result.ephemeral and reason in result.text, (code, result.text)
        assert await frozen(s) == before, code

    hand = await open_hand(s, ana, table)
    assert [b["label"] for b in hand.message.buttons] == ["Draw", "🔄 Refresh"]  # one move: no Hint
    # Ana's take phase: no discard, lay or pile pickup without the pair; nobody else acts.
    await refused(ana, "discard:QS", "First take a card")
    await refused(ana, "lay:K,2", "First take a card: from the draw pile or the discard pile")  # no move codes
    await refused(ana, "take:pile,2", "You hold 1 queen, not 2: you can't lay the pile's top Q♥ with 2")
    await refused(ana, "take:discard", "can only be taken into a new natural set with two or more matching cards")
    await refused(ana, "take:pile,1", "at least two queens from your hand")
    await refused(ana, "next", "The round is still being played")
    await refused(ana, "cut:40", "Only the dealer cuts or deals")
    await refused(ana, "fly:XX", "Unknown move 'fly'")
    await refused(ben, "take:draw", "not your turn")
    await refused(ben, "discard:3S", "not your turn")
    await refused(cat, "take:draw", "not playing at this table")
    waiting = await open_hand(s, ben, table)
    assert move_choices(waiting.message) == [] and "Waiting for ana." in waiting.text

    drew = await s.h.click(hand.message, label="Draw", user=ana)
    assert "Your hand (9)" in drew.text and "K♠ K♥ K♣" in drew.text and "drew K♣" in drew.text
    assert "Discard pile, bottom → top: 4♣ Q♥" in board(s, table)
    # Ana's lay phase: invalid sets and a second take are refused; Ben still can't act.
    await refused(ana, "take:draw", "You have already taken a card this turn")
    await refused(ana, "lay:K,2", "A set needs at least three cards")
    await refused(ana, "lay:Q,3", "You hold 1 queen, not 3")
    await refused(ana, "lay:K,2,w", "You have no 2 to use as a wild")
    await refused(ana, "lay:K,1,w,w", "At most one wild 2 per set")
    await refused(ana, "extend:10,1", "You have no set of 10s to add to (you can only add to your own sets); "
                                         "lay a new one (“Lay a set of 10s”) with at least three cards")
    await refused(ana, "lay:K,9", "You hold 3 kings, not 9")
    await refused(ana, "discard:JD", "You don't hold J♦")
    await refused(ben, "discard:3S", "not your turn")
    await refused(ana, "take:draw", "earlier turn", version=(await row_of(s)).version - 1)
    # A wild 2 in a laid set is named as a wild, not shown as "+2♦".
    await rig(s, QoSState.from_position([["AS", "5C"], ["3S", "9D"]], sets=[[], [["10S", "10H", "2D"]]],
                                        draw=["4S"], turn=0, phase="take"))
    assert "**Your sets:** 10♠ 10♥ + 2♦ (wild)" in (await open_hand(s, ben, table)).text
    await s.h.click((await open_hand(s, ana, table)).message, label="Draw", user=ana)
    assert "10♠ 10♥ + 2♦ (wild)" in board(s, table)
    assert "Lay a set of kings (3 in hand)" in [o["label"] for o in drew.message.component(placeholder=LAY_MENU)["options"]]


async def test_round_end_breakdown_with_both_bonuses_then_the_target_ends_the_match(server):
    s = server
    table = await two_player_table(s, target=400)
    await rig(s, QoSState.from_position(
        [["5C"], ["AS", "3C", "JK"]], sets=[[["QS", "QH", "QD"]], [["9S", "9H", "9D", "2C"]]],
        draw=["4S", "7S"], discard=["8H"], turn=0, dealer=0, phase="lay", scores=[50, 40], options={"target": 400},
        cut={"aimed": 26, "landed": 27, "bonus": True}))
    ana, ben = s.user("ana"), s.user("ben")
    hand = await open_hand(s, ana, table)
    await s.h.click(hand.message, label="5♣ · 5 pts", user=ana)  # her last card: she goes out

    text = board(s, table)
    assert "💯 ana's cut landed on 27: 100 bonus this round." in text
    assert "**Round 1 scores**\n-# laid − hand + bonus = round → total" in text
    assert "ana: 120 − 0 + 200 = **+320** → 370" in text and "ben: 35 − 70 = **-35** → 5" in text
    assert "left in hand: A♠ 3♣ 🃏" in text  # the text board shows the hands the round ended with
    assert "• 1. **ana** — 0 cards · score 370" in text and "• 2. **ben** — 3 cards · score 5" in text
    assert status_line(s.h.message(table.id)) == f"▶ {ana.mention}, {ben.mention} to press **Continue** in **My hand**"
    assert "ana discarded their last card and went out: +100!" in event_texts(await row_of(s))
    assert sorted(u.name for u in to_act(s, table)) == ["ana", "ben"]

    await s.h.click((await open_hand(s, ben, table)).message, label=CONTINUE, user=ben)
    assert status_line(s.h.message(table.id)) == f"▶ {ana.mention} to press **Continue** in **My hand**"
    before = await frozen(s)
    await restart(s)
    assert await frozen(s) == before
    assert status_line(s.h.message(table.id)) == f"▶ {ana.mention} to press **Continue** in **My hand**"
    await s.h.click((await open_hand(s, ana, table)).message, label=CONTINUE, user=ana)
    text = board(s, table)
    assert "Round 2 · dealer ben" in text and status_line(s.h.message(table.id)) == f"▶ {ben.mention} to cut the deck"
    assert "score 370" in text and "score 5" in text and "Round 1 scores" not in text and "💯" not in text
    assert [u.name for u in to_act(s, table)] == ["ben"]

    # Round 2, rigged: ben goes out, and ana's laid Q♠ takes her past the target of 400.
    scores = (await s.h.bot.service.table(1)).view["scores"]
    await rig(s, QoSState.from_position(
        [["5C", "6C"], ["KH"]], sets=[[["QS", "QH", "QD"]], [["4S", "4H", "4D"]]], draw=["7S"], turn=1,
        dealer=1, phase="lay", scores=scores, round_no=2, options={"target": 400}))
    await s.h.click((await open_hand(s, ben, table)).message, label="K♥ · 10 pts", user=ben)
    final = s.h.message(table.id)
    row = await row_of(s)
    assert row.status == "finished" and status_line(final).startswith("🏁") and [b["label"] for b in final.buttons] == ["📜 Log", "🔁 Play again"]
    assert status_line(final) == "🏁 ana reached the target of 400 with 480 points."
    text = board(s, table)
    # The board keeps the last round's breakdown, without the stale round and turn lines …
    assert "**Round 2 scores**" in text and "Round 2 · dealer" not in text and "to discard" not in text
    # … and the shared ending block says who won, the ranking in points, and the rounds played.
    standings = next(t for t in texts(final) if t.startswith("🏆"))
    assert standings.split("\n")[:3] == ["🏆 **ana** wins", "1. **ana** — 480 pts", "2. **ben** — 120 pts"]
    assert standings.split("\n")[3].startswith("-# 2 rounds · Played in ")
    assert "ana: laid 120 − hand 10 (5♣ 6♣) = **+110** → 480" in text
    assert "ben: laid 15 − hand 0 + out 100 = **+115** → 120" in text
    assert list(row.outcome["scores"]) == [480, 120] and list(row.outcome["winners"]) == [0]
