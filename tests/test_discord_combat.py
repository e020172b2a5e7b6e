"""Q2J War and Q2J NG through Discord: full games by clicks, refusals, restart."""

from __future__ import annotations

import pytest

from tests.discord_play import (
    choose_first_attacker,
    forge_click,
    open_hand,
    open_table,
    picture_text,
    play,
    play_to_the_end,
    start_bot,
    status_line,
    to_act,
)
from tests.words import event_texts

WAR_PREFER = ("attack", "recover", "draw")
NG_PREFER = ("attack", "sacrifice", "defend", "pick", "draw")




def storage(s):
    return s.h.bot.service.storage


async def state_of(s, table_id: int = 1):
    snap = await s.h.bot.service.table(table_id)
    return snap


@pytest.mark.parametrize("ai", [0, 2])
async def test_war_game_played_to_the_end(server, ai):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"], ai=ai)
    assert picture_text(s.h.message(table.id)).count("— deck") == 2 + ai
    await play_to_the_end(s, table, prefer=WAR_PREFER)
    row = await storage(s).get_table(1)
    assert row.status == "finished" and status_line(s.h.message(table.id)).startswith("🏁")


async def test_war_attack_is_two_steps_and_each_target_says_its_outcome_first(server):
    s = server
    table, mover, hand = await choose_first_attacker(s, "war start")
    message = s.h.message(hand.message.id)
    assert "**Attack with " in message.text  # the attacking card is named above its targets
    targets = [b["label"] for b in message.buttons if b["custom_id"].startswith("dh:mv:")]
    assert len(targets) == 5 and all(t.split(" · ")[0] in ("Wins", "Tie", "Loses") for t in targets), targets
    back = await s.h.click(hand.message, label="← Back", user=mover)
    assert back.message.component(placeholder="Attack with…")


async def test_war_refusals_change_nothing(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    waiter = s.user("ben") if mover.name == "ana" else s.user("ana")
    snap = await state_of(s)
    version = snap.row.version
    me = snap.row.seat_of(mover.id).seat
    mine = [slot["card"] for slot in snap.view["fields"][me]]
    theirs = [slot["card"] for slot in snap.view["fields"][1 - me]]
    message = s.h.message(table.id)

    full = await forge_click(s, message, f"dh:mv:1:{version}:draw", mover)
    assert full.ephemeral and "full" in full.text.lower(), full.text
    own = await forge_click(s, message, f"dh:mv:1:{version}:attack:{mine[0]},{mine[1]}", mover)
    assert own.ephemeral and "own" in own.text.lower(), own.text
    out_of_turn = await forge_click(s, message, f"dh:mv:1:{version}:attack:{theirs[0]},{mine[0]}", waiter)
    assert out_of_turn.ephemeral and "not your turn" in out_of_turn.text.lower()
    assert (await storage(s).get_table(1)).version == version

    # Attack once so a card is tapped, then try to attack with it again on the next turn.
    hand = await open_hand(s, mover, table)
    await play(s, mover, hand.message, prefer=("attack",))
    stale = await forge_click(s, message, f"dh:mv:1:{version}:attack:{mine[0]},{theirs[0]}", mover)
    assert stale.ephemeral and "earlier turn" in stale.text
    while True:  # let the other player move, until the mover has a tapped card and the turn
        snap = await state_of(s)
        current = to_act(s, table)[0]
        tapped = [slot["card"] for slot in snap.view["fields"][me] if slot["tapped"]]
        if current is mover and tapped:
            break
        hand = await open_hand(s, current, table)
        await play(s, current, hand.message, prefer=("recover", "draw", "attack") if current is not mover else ("attack",))
        assert snap.row.status == "running"
    target = snap.view["fields"][1 - me][0]["card"]
    refused = await forge_click(s, message, f"dh:mv:1:{snap.row.version}:attack:{tapped[0]},{target}", mover)
    assert refused.ephemeral and "tapped" in refused.text.lower(), refused.text
    assert (await storage(s).get_table(1)).version == snap.row.version


async def test_war_restart_mid_game_then_finish(server_on_each_backend):
    s = server_on_each_backend
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben", "cat"])
    for _ in range(6):
        mover = to_act(s, table)[0]
        await play(s, mover, (await open_hand(s, mover, table)).message, WAR_PREFER)
    before = await storage(s).get_table(1)
    await s.h.stop()
    await start_bot(s.h, s.db_path, seed=None)
    after = await storage(s).get_table(1)
    assert (after.version, after.state) == (before.version, before.state)
    await play_to_the_end(s, table, prefer=WAR_PREFER)
    assert (await storage(s).get_table(1)).status == "finished"


@pytest.mark.parametrize("players,faceup", [(2, False), (4, True)])
async def test_ng_game_played_to_the_end(server, players, faceup):
    s = server
    joiners = ["ben", "cat", "dan"][: players - 1]
    table = await open_table(s, "ng start", {"faceup": faceup, "timer": 0}, "ana", joiners=joiners)
    assert ("Deck (top last)" in picture_text(s.h.message(table.id))) is faceup
    events = event_texts(await storage(s).get_table(1))
    assert any(line.endswith(" starts (drawn by lot).") for line in events)  # plain words, no "seeded draw"
    await play_to_the_end(s, table, prefer=NG_PREFER)
    assert (await storage(s).get_table(1)).status == "finished"


async def test_ng_blind_hand_attacks_show_positions_not_cards(server):
    s = server
    table = await open_table(s, "ng start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    hand = await open_hand(s, mover, table)
    menu = hand.message.component(placeholder="Attack with…")
    await s.h.select(hand.message, [menu["options"][0]["value"]], placeholder="Attack with…", user=mover)
    labels = [o["label"] for c in s.h.message(hand.message.id).selects for o in c["options"]]
    labels += [b["label"] for b in s.h.message(hand.message.id).buttons]
    blind = [label for label in labels if "hand card" in label]
    assert blind and not any(":" in label for label in blind)  # a position, never a card
    snap = await state_of(s)
    waiter_seat = 1 - snap.row.seat_of(mover.id).seat
    secret = (await s.h.bot.service.play.hand(1, snap.player(waiter_seat))).view["hand"]
    from games.cards import parse_card
    shown = " ".join(labels)
    assert not any(parse_card(c).pretty in shown for c in secret if c not in " ".join(str(x) for x in snap.view["resources"]))


async def test_ng_refusals_and_restart(server):
    s = server
    table = await open_table(s, "ng start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    waiter = s.user("ben") if mover.name == "ana" else s.user("ana")
    snap = await state_of(s)
    message = s.h.message(table.id)
    late = await forge_click(s, message, f"dh:mv:1:{snap.row.version}:draw", waiter)
    assert late.ephemeral and "not your turn" in late.text.lower()
    hand = await open_hand(s, mover, table)
    await play(s, mover, hand.message, NG_PREFER)
    stale = await forge_click(s, message, f"dh:mv:1:{snap.row.version}:draw", mover)
    assert stale.ephemeral and "earlier turn" in stale.text
    before = await storage(s).get_table(1)
    assert before.version == snap.row.version + 1
    await s.h.stop()
    await start_bot(s.h, s.db_path, seed=None)
    assert (await storage(s).get_table(1)).state == before.state
    await play_to_the_end(s, table, prefer=NG_PREFER)
    assert (await storage(s).get_table(1)).status == "finished"
