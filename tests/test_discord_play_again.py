"""Play again: an ended table opens a new lobby in the same place with the same game and
options, the old table's people mentioned and seated as they join, its AI seats kept (with
their levels); after a restart too; refused politely when it can't."""

from __future__ import annotations

from tests.discord_play import forge_click, open_table, play_to_the_end, start_bot, status_line, texts

PLAY_AGAIN = "🔁 Play again"
OPTIONS = {"variant": "classic", "timer": 3}


async def ended_game_with_a_hard_ai(s):
    """ana and ben against a hard AI at Q2J Classic, played to the end; the table message."""
    lobby = await open_table(s, "q2j start", OPTIONS, "ana", joiners=["ben"], ai=1, start=False, level="hard")
    await s.h.click(lobby, label="Start", user=s.user("ana"))
    await play_to_the_end(s, lobby, prefer=("play", "draw"))
    return s.h.message(lobby.id)


async def table_ended_with_a_hard_ai(s):
    """As :func:`ended_game_with_a_hard_ai`, but ended by ``/table end`` as soon as it starts."""
    lobby = await open_table(s, "q2j start", OPTIONS, "ana", joiners=["ben"], ai=1, start=False, level="hard")
    await s.h.click(lobby, label="Start", user=s.user("ana"))
    await s.h.slash("table end", {}, user=s.user("ana"), channel=s.channel)
    return s.h.message(lobby.id)


async def test_play_again_opens_the_same_table_with_the_players_invited_and_the_ai_kept(server):
    s = server
    table = await ended_game_with_a_hard_ai(s)
    assert PLAY_AGAIN in [b["label"] for b in table.buttons]
    answer = await s.h.click(table, label=PLAY_AGAIN, user=s.user("ben"))
    assert answer.ephemeral and "table is open" in answer.text

    lobby = s.h.latest_public(s.channel)
    assert lobby.id != table.id and lobby.channel.id == table.channel.id
    assert lobby.mentions == [s.user("ben").id, s.user("ana").id]  # the host, and ana invited
    head = texts(lobby)[0]
    assert f"🔁 <@{s.user('ben').id}> invites <@{s.user('ana').id}> to another round of" in head
    assert head.count("**Join**") == 1, head  # the lobby's own instruction, said once
    post = next(r for r in s.h.requests if r.message_id == lobby.id)
    assert post.body["allowed_mentions"]["parse"] == ["users"]
    old, new = (await s.h.bot.service.table(1)).row, (await s.h.bot.service.table(2)).row
    assert (new.game_id, new.options, new.timer_minutes, new.status) == (old.game_id, old.options, 3, "lobby")
    assert [(seat.name, seat.user_id, seat.is_ai, seat.ai_level) for seat in new.seats] == [
        ("ben", s.user("ben").id, False, None), ("AI 1", None, True, "hard")]
    assert "🤖 AI 1 · hard" in lobby.text  # the level is shown in the lobby, once
    assert new.host_id == s.user("ben").id

    await s.h.click(lobby, label="Join", user=s.user("ana"))  # seated as she joins
    lobby = s.h.message(lobby.id)
    assert s.user("ana").id in lobby.mentions  # the invitation stays above the lobby
    assert [seat.name for seat in (await s.h.bot.service.table(2)).row.seats] == ["ben", "AI 1", "ana"]
    await s.h.click(lobby, label="Start", user=s.user("ben"))
    assert status_line(s.h.message(lobby.id)).startswith("▶ ")


async def test_play_again_is_refused_when_the_channel_is_busy_or_to_strangers(server):
    s = server
    table = await table_ended_with_a_hard_ai(s)
    stranger = await s.h.click(table, label=PLAY_AGAIN, user=s.user("cat"))
    assert stranger.ephemeral and "Only the players of this game" in stranger.text
    assert (await s.h.bot.service.storage.open_table_in(s.channel.id)) is None

    await s.h.click(table, label=PLAY_AGAIN, user=s.user("ana"))
    busy = await s.h.click(table, label=PLAY_AGAIN, user=s.user("ben"))
    assert busy.ephemeral and "already open in this channel" in busy.text
    assert len([m for m in s.h.public_messages(s.channel) if m.components and "· #" in texts(m)[0]]) == 2

    moderator = await s.h.click(table, label=PLAY_AGAIN, user=s.admin)  # allowed, but the channel is busy
    assert "already open in this channel" in moderator.text


async def test_play_again_works_after_a_restart_and_after_a_table_was_ended(server):
    s = server
    table = await open_table(s, "war start", {"loss": "field-empty", "timer": 0}, "ana", joiners=["ben"])
    await s.h.slash("table end", {}, user=s.user("ana"), channel=s.channel)
    await s.h.stop()
    await start_bot(s.h, s.db_path, seed=None)
    answer = await s.h.click(s.h.message(table.id), label=PLAY_AGAIN, user=s.user("ana"))
    assert answer.ephemeral and "table is open" in answer.text
    new = (await s.h.bot.service.table(2)).row
    assert new.options == {"loss": "field-empty"} and [seat.name for seat in new.seats] == ["ana"]
    assert s.h.latest_public(s.channel).mentions == [s.user("ana").id, s.user("ben").id]


async def test_play_again_opens_in_the_same_thread(server):
    s = server
    await s.h.slash("settings threads", {"enabled": True}, user=s.admin, channel=s.channel)
    await s.h.slash("war start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
    service = s.h.bot.service
    thread_id = (await service.table(1)).row.channel_id
    thread = s.h.channel(thread_id)
    lobby = s.h.latest_public(thread)
    await s.h.click(lobby, label="Join", user=s.user("ben"))
    await s.h.click(lobby, label="Start", user=s.user("ana"))
    await s.h.slash("table end", {}, user=s.user("ana"), channel=thread)
    answer = await s.h.click(s.h.message(lobby.id), label=PLAY_AGAIN, user=s.user("ben"))
    assert "table is open" in answer.text
    new = (await service.table(2)).row
    assert new.channel_id == thread_id and s.h.latest_public(thread).id == new.lobby_message_id
    assert len([c for c in s.guild.channels.values() if c.parent_id]) == 1  # no second thread


async def test_play_again_is_refused_from_another_channel(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    await s.h.slash("table end", {}, user=s.user("ana"), channel=s.channel)
    lounge = s.guild.add_channel("lounge")
    elsewhere = await s.h.bot.get_partial_messageable(lounge.id, guild_id=s.guild.id).send("hello")
    custom_id = next(b["custom_id"] for b in s.h.message(table.id).buttons if b["label"] == PLAY_AGAIN)
    refused = await forge_click(s, s.h.message(elsewhere.id), custom_id, s.user("ana"))
    assert refused.ephemeral and "isn't for a table in this channel" in refused.text
    assert await s.h.bot.service.storage.open_table_in(lounge.id) is None
    assert await s.h.bot.service.storage.open_table_in(s.channel.id) is None


async def test_a_cancelled_play_again_lobby_drops_its_invitation(server):
    s = server
    table = await table_ended_with_a_hard_ai(s)
    await s.h.click(table, label=PLAY_AGAIN, user=s.user("ben"))
    lobby = s.h.latest_public(s.channel)
    assert "invites" in lobby.text
    await s.h.click(lobby, label="Cancel", user=s.user("ben"))
    lobby = s.h.message(lobby.id)
    assert "invites" not in lobby.text and not lobby.buttons and "cancelled" in lobby.text

