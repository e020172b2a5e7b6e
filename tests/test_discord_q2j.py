"""Q Squared Joe through Discord: the real bot, discord.py's own dispatch, a real
SQLite file, and REST recorded and validated against Discord's OpenAPI spec."""

from __future__ import annotations

import asyncio

import pytest

from tests.discord_play import (
    HAND_BUTTON,
    add_ai,
    forge_click,
    move_choices,
    open_hand,
    open_table,
    picture_text,
    play,
    play_to_the_end,
    play_turn,
    start_bot,
    status_line,
    to_act,
)
from tests.fakediscord import HTTPError as _HTTPError
from tests.words import event_texts


def stored(s):
    return s.h.bot.service.storage


async def test_commands_are_synced_with_descriptions(server):
    names = {c["name"] for c in server.h.commands()}
    assert {"q2j", "war", "ng", "table", "settings"} <= names
    q2j = next(c for c in server.h.commands() if c["name"] == "q2j")
    start = q2j["options"][0]
    assert start["name"] == "start" and start["description"]
    assert {o["name"] for o in start["options"]} == {"variant", "match", "timer", "short_hand", "hints"}


async def test_classic_game_with_an_ai_seat_played_to_the_end(server):
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"], ai=1)
    text, shown = s.h.message(table.id).text, picture_text(s.h.message(table.id))
    assert "Classic" in text and "Top **" in text and "ana" in shown and "🤖 AI 1" in shown
    moves = await play_to_the_end(s, table)
    final = s.h.message(table.id)
    assert status_line(final).startswith("🏁") and [b["label"] for b in final.buttons] == ["📜 Log", "🔁 Play again"], final.text
    row = await stored(s).get_table(1)
    assert row.status == "finished" and row.outcome["winners"]
    log = await stored(s).move_log(1)
    assert len([m for m in log if not m[2]]) == moves  # every human move is in the log
    # The game is over: an old My hand or move button says so and changes nothing.
    late = await forge_click(s, final, "dh:hand:1", s.user("ana"))
    assert late.ephemeral and "ended" in late.text
    move = await forge_click(s, final, f"dh:mv:1:{row.version}:draw", s.user("ana"))
    assert move.ephemeral and "ended" in move.text
    assert (await stored(s).get_table(1)).version == row.version


async def test_faceup_game_of_three_shows_every_hand_on_the_table(server):
    s = server
    table = await open_table(s, "q2j start", {"variant": "faceup", "timer": 0}, "ana", joiners=["ben", "cat"])
    board = picture_text(s.h.message(table.id))
    for seat in range(3):
        hand = await s.h.bot.service.play.hand(1, s.player(s.user(["ana", "ben", "cat"][seat])))
        shown = " ".join(hand.view["hand"])
        assert hand.view["hand"] and all(card[:-1] in board for card in shown.split())
    await play_to_the_end(s, table)
    assert status_line(s.h.message(table.id)).startswith("🏁")


async def test_standard_game_hides_hands_and_offers_only_legal_moves(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    waiter = next(u for u in s.users.values() if u.name in ("ana", "ben") and u is not mover)
    hand = await open_hand(s, mover, table)
    legal = {a.code() for a in (await s.h.bot.service.play.hand(1, s.player(mover))).actions}
    assert {value for _, _, value in move_choices(hand.message)} == legal
    other = await open_hand(s, waiter, table)
    assert move_choices(other.message) == [] and "Waiting for" in other.text
    hidden = (await s.h.bot.service.play.hand(1, s.player(waiter))).view["hand"]
    public = s.h.message(table.id).text
    assert not any(f" {c} " in f" {public} " for c in hidden)


async def test_lobby_refusals_change_nothing(server):
    s = server
    ana, ben, cat = s.user("ana"), s.user("ben"), s.user("cat")
    await s.h.slash("q2j start", {"timer": 0}, user=ana, channel=s.channel)
    lobby = s.h.latest_public(s.channel)

    too_few = await s.h.click(lobby, label="Start", user=ana)
    assert too_few.ephemeral and "needs 2–10 players" in too_few.text
    await s.h.click(lobby, label="Join", user=ben)
    again = await s.h.click(lobby, label="Join", user=ben)
    assert again.ephemeral and "already at this table" in again.text
    not_host = await s.h.click(lobby, label="Start", user=ben)
    assert not_host.ephemeral and "Only the host" in not_host.text
    stranger_leaves = await s.h.click(lobby, label="Leave", user=cat)
    assert "not at this table" in stranger_leaves.text
    second = await s.h.slash("q2j start", {}, user=cat, channel=s.channel)
    assert second.ephemeral and "already open in this channel" in second.text
    bad = await s.h.slash("q2j start", {"variant": "classic", "short_hand": "0"}, user=cat,
                          channel=s.guild.add_channel("other"))
    assert bad.ephemeral and "short_hand" in bad.text
    row = await stored(s).get_table(1)
    assert row.status == "lobby" and [seat.name for seat in row.seats] == ["ana", "ben"]

    await s.h.click(lobby, label="Start", user=ana)
    # The Join button is gone from the started table; an old client may still send its click.
    late = await forge_click(s, s.h.message(lobby.id), "dh:lobby:1:join", cat)
    assert late.ephemeral and "already started" in late.text
    assert len((await stored(s).get_table(1)).seats) == 2


def lobby_buttons(s, lobby) -> dict[str, bool]:
    """The lobby's buttons as shown now: label → whether it can be clicked."""
    return {b["label"]: not b.get("disabled") for b in s.h.message(lobby.id).buttons}


async def test_the_lobby_offers_only_what_can_be_done_now(server):
    s = server
    ana = s.user("ana")
    await s.h.slash("war start", {"timer": 0}, user=ana, channel=s.channel)
    lobby = s.h.latest_public(s.channel)
    assert lobby_buttons(s, lobby) == {"Join": True, "Leave": True, "Add AI": True, "Start": True, "Cancel": True}
    await add_ai(s, lobby, ana)
    assert lobby_buttons(s, lobby)["Remove AI"]
    for _ in range(2):
        await add_ai(s, lobby, ana)
    # Four of four seats: Join and Add AI are greyed out (Discord sends no click for them).
    assert lobby_buttons(s, lobby) == {"Join": False, "Leave": True, "Add AI": False, "Remove AI": True,
                                       "Start": True, "Cancel": True}
    assert "Every seat is taken" in s.h.message(lobby.id).text
    with pytest.raises(AssertionError, match="disabled"):
        await s.h.click(lobby, label="Join", user=s.user("ben"))
    full = await forge_click(s, s.h.message(lobby.id), "dh:lobby:1:join", s.user("ben"))  # an old client
    assert full.ephemeral and "full" in full.text
    assert len((await stored(s).get_table(1)).seats) == 4
    for _ in range(3):
        await s.h.click(lobby, label="Remove AI", user=ana)
    assert lobby_buttons(s, lobby) == {"Join": True, "Leave": True, "Add AI": True, "Start": True, "Cancel": True}
    none_left = await forge_click(s, s.h.message(lobby.id), "dh:lobby:1:unai", ana)
    assert none_left.ephemeral and "no AI player to remove" in none_left.text


async def test_move_refusals_change_nothing(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    waiter = s.user("ben") if mover.name == "ana" else s.user("ana")
    before = await stored(s).get_table(1)

    # Someone not at the table.
    outsider = await s.h.click(table, label=HAND_BUTTON, user=s.user("cat"))
    assert outsider.ephemeral and "not playing" in outsider.text
    # Out of turn: the waiting player forges the mover's draw button.
    out_of_turn = await forge_click(s, s.h.message(table.id), f"dh:mv:1:{before.version}:draw", waiter)
    assert out_of_turn.ephemeral and "not your turn" in out_of_turn.text.lower()
    # Another seat's controls: a move of the mover's own hand, clicked by the other player.
    hand = await open_hand(s, mover, table)
    _, custom_id, _ = move_choices(hand.message)[0]
    if custom_id.startswith("dh:mv:"):
        stolen = await forge_click(s, s.h.message(table.id), custom_id, waiter)
        assert stolen.ephemeral and "not your turn" in stolen.text.lower()
    # A card the mover does not hold, and a malformed move.
    held = (await s.h.bot.service.play.hand(1, s.player(mover))).view["hand"]
    absent = next(c for c in ("AS", "AH", "AD", "AC", "2S", "2H") if c not in held)
    illegal = await forge_click(s, s.h.message(table.id), f"dh:mv:1:{before.version}:play:{absent}", mover)
    assert illegal.ephemeral and "don't hold" in illegal.text, illegal.text
    nonsense = await forge_click(s, s.h.message(table.id), f"dh:mv:1:{before.version}:fly:XX", mover)
    assert nonsense.ephemeral
    # Unknown and forged custom_ids.
    unknown = await forge_click(s, s.h.message(table.id), "dh:mv:999:0:draw", mover)
    assert unknown.ephemeral and "isn't for a table in this channel" in unknown.text
    garbage = await forge_click(s, s.h.message(table.id), "not-a-deckhand-control", mover)
    assert garbage.ephemeral and "recognises" in garbage.text
    after = await stored(s).get_table(1)
    assert (after.version, after.state) == (before.version, before.state)
    assert await stored(s).move_log(1) == []


async def test_stale_and_double_clicks_apply_a_move_once(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    hand = await open_hand(s, mover, table)
    draw = next(c for c in move_choices(hand.message) if c[2] == "draw")[1]
    # Two clicks of the same button at the same moment: one move, one refusal.
    first, second = await asyncio.gather(
        s.h.click(hand.message, custom_id=draw, user=mover), s.h.click(hand.message, custom_id=draw, user=mover),
    )
    assert len(await stored(s).move_log(1)) == 1
    # Both answers edit the same hand message, in either order: look at what each sent.
    texts = " ".join(str(r.body) for r in first.requests + second.requests)
    assert "earlier turn" in texts or "same moment" in texts
    # The old hand message's button, now from an earlier state: refused, hand refreshed.
    old = await forge_click(s, s.h.message(table.id), draw, mover)
    assert old.ephemeral and "earlier turn" in old.text
    assert len(await stored(s).move_log(1)) == 1


async def test_restart_mid_game_then_finish(server, tmp_path):
    s = server
    table = await open_table(s, "q2j start", {"variant": "standard", "timer": 0}, "ana", joiners=["ben", "cat"])
    for _ in range(5):
        await play_turn(s, table)
    before = await stored(s).get_table(1)
    mover = to_act(s, table)[0]
    hand = await open_hand(s, mover, table)  # opened before the restart

    await s.h.stop()
    await start_bot(s.h, s.db_path, seed=None)
    restored = await stored(s).get_table(1)
    assert (restored.version, restored.state) == (before.version, before.state)
    # The hand message opened before the restart still plays.
    await play(s, mover, s.h.message(hand.message.id))
    assert (await stored(s).get_table(1)).version == before.version + 1
    await play_to_the_end(s, table)
    assert (await stored(s).get_table(1)).status == "finished"


async def test_table_commands(server):
    s = server
    ana, ben, cat = s.user("ana"), s.user("ben"), s.user("cat")
    none = await s.h.slash("table status", {}, user=ana, channel=s.channel)
    assert none.ephemeral and "no open table" in none.text
    table = await open_table(s, "q2j start", {"timer": 5}, "ana", joiners=["ben"])
    status = await s.h.slash("table status", {}, user=cat, channel=s.channel)
    assert "ana" in status.text and "ben" in status.text and "Turn timer" in status.text
    hand = await s.h.slash("table hand", {}, user=ben, channel=s.channel)
    assert hand.ephemeral and "Your hand" in hand.text
    refused = await s.h.slash("table end", {}, user=ben, channel=s.channel)
    assert "Only the host" in refused.text
    left = await s.h.slash("table leave", {}, user=ben, channel=s.channel)
    assert left.ephemeral and "AI plays your seat" in left.text
    row = await stored(s).get_table(1)
    assert row.seats[1].is_ai and row.status == "running"
    assert "ben left" in s.h.message(table.id).text
    ended = await s.h.slash("table end", {}, user=s.admin, channel=s.channel)
    assert ended.ephemeral and (await stored(s).get_table(1)).status == "abandoned"
    final = s.h.message(table.id)
    assert status_line(final).startswith("🛑") and [b["label"] for b in final.buttons] == ["📜 Log", "🔁 Play again"]
    after = await forge_click(s, final, "dh:hand:1", ana)
    assert after.ephemeral and "ended" in after.text


async def test_turn_is_pinged_and_old_pings_removed(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    pings = [m for m in s.h.public_messages(s.channel) if m.id != table.id and not m.deleted]
    assert len(pings) == 1 and to_act(s, table)[0].mention in pings[0].content
    await play_turn(s, table)
    live = [m for m in s.h.public_messages(s.channel) if m.id != table.id and not m.deleted]
    assert len(live) == 1 and to_act(s, table)[0].mention in live[0].content


async def test_tables_open_in_threads_when_the_server_prefers(server):
    s = server
    await s.h.slash("settings threads", {"enabled": True}, user=s.admin, channel=s.channel)
    reply = await s.h.slash("q2j start", {}, user=s.user("ana"), channel=s.channel)
    assert reply.ephemeral and "table is open" in reply.text
    row = await stored(s).get_table(1)
    assert row.channel_id != s.channel.id  # the lobby lives in the new thread
    lobby = s.h.message(row.lobby_message_id)
    assert lobby.channel.id == row.channel_id and lobby.buttons


async def test_sent_messages_are_not_kept_in_memory(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    for _ in range(3):
        await open_hand(s, s.user("ana"), table)
        await play_turn(s, table)
    # Every control is a dynamic item dispatched from its custom_id, so discord.py keeps
    # no view per sent message; a plain (non-dynamic) button would be kept forever.
    assert s.h.bot._connection._view_store._views == {}
    # Nor does it time them out: a view sent with an ephemeral message (each "My hand")
    # would otherwise be held, with a task of its own, for 15 minutes.
    timers = [t for t in asyncio.all_tasks() if t.get_coro().__qualname__.endswith("__timeout_task_impl")]
    assert not timers, f"{len(timers)} views held until they time out"


@pytest.mark.parametrize("where", ["channel", "thread", "thread's channel"])
async def test_deleting_a_tables_channel_ends_it_at_once(server, where):
    """A moderator deletes the channel of a running game (or the thread of a lobby, or the
    channel that thread is in) nobody will move at: the table ends then, not at a next move
    that may never come, and the bot sends nothing there (the fake counts a request to a
    deleted channel as a failure)."""
    s = server
    if where.startswith("thread"):  # a lobby, in the thread its start opened
        await s.h.slash("settings threads", {"enabled": True}, user=s.admin, channel=s.channel)
        await s.h.slash("q2j start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
        [channel] = [c for c in s.guild.channels.values() if c.is_thread]
    else:  # a running game
        await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
        channel = s.channel
    assert await stored(s).open_table_in(channel.id) == 1
    requests = await s.h.delete_channel(s.channel if where == "thread's channel" else channel)
    assert requests == []
    row = await stored(s).get_table(1)
    if where.startswith("thread"):
        assert row.status == "cancelled"
    else:
        assert row.status == "abandoned" and event_texts(row)[-1].endswith("The table's channel was deleted.")
    assert await stored(s).open_table_in(channel.id) is None
    assert s.h.bot.publisher.tables_held() == 0


async def test_a_table_whose_channel_is_deleted_is_ended(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])

    def unknown_channel(h, request, match):
        raise _HTTPError(404, 10003, "Unknown Channel")

    s.h.add_route("PATCH", rf"/channels/{s.channel.id}/messages/\d+", unknown_channel)
    s.h.add_route("POST", rf"/channels/{s.channel.id}/messages", unknown_channel)
    s.h.add_route("DELETE", rf"/channels/{s.channel.id}/messages/\d+", unknown_channel)
    await play_turn(s, table)
    row = await stored(s).get_table(1)
    assert row.status == "abandoned" and "channel was deleted" in event_texts(row)[-1]
    assert await stored(s).open_table_in(s.channel.id) is None


async def test_a_forgotten_lobby_gives_way_to_a_new_table(server, monkeypatch):
    """A lobby never started is cancelled, its message saying so, when someone starts a table
    in its channel after the wait (set to nothing here, since the bot reads the real clock)."""
    s = server
    old = await open_table(s, "q2j start", {"timer": 0}, "ana", start=False)
    monkeypatch.setattr("bot.service.lobby.LOBBY_WAIT_SECONDS", 0)
    reply = await s.h.slash("q2j start", {}, user=s.user("ben"), channel=s.channel)
    assert reply.ephemeral and "table is open" in reply.text, reply.text
    await s.h.bot.service.wait_idle()
    assert "This table was cancelled." in s.h.message(old.id).text and not s.h.message(old.id).buttons
    new = s.h.latest_public(s.channel)
    assert new.id != old.id and new.button("Join")
    assert (await stored(s).get_table(2)).host_id == s.user("ben").id


async def test_a_host_starting_again_where_their_lobby_is_open_is_shown_it(server):
    """After a restart, a host may not know their lobby survived: asking again here answers
    with its link instead of a refusal, and opens nothing new."""
    s = server
    await s.h.slash("q2j start", {}, user=s.user("ana"), channel=s.channel)
    lobby = s.h.latest_public(s.channel)
    again = await s.h.slash("war start", {}, user=s.user("ana"), channel=s.channel)
    assert again.ephemeral and "Q Squared Joe table is open" in again.text and str(lobby.id) in again.text
    assert s.h.latest_public(s.channel).id == lobby.id and await stored(s).get_table(2) is None


async def test_a_host_with_an_open_lobby_opens_no_second_one(server):
    """With threads on, every start makes a thread: a second lobby by the same host is refused
    before any thread is made, and the answer links the open one."""
    s = server
    await s.h.slash("settings threads", {"enabled": True}, user=s.admin, channel=s.channel)
    await s.h.slash("q2j start", {}, user=s.user("ana"), channel=s.channel)
    first = await stored(s).get_table(1)
    again = await s.h.slash("war start", {}, user=s.user("ana"), channel=s.channel)
    assert again.ephemeral and f"You already have a lobby open in <#{first.channel_id}>" in again.text
    assert len([c for c in s.guild.channels.values() if c.is_thread]) == 1
    other = await s.h.slash("war start", {}, user=s.user("ben"), channel=s.channel)
    assert "table is open" in other.text
