"""Showing tables within Discord's request budget (cogs/publisher.py), through the real bot
and the fake Discord: only a table's newest state is shown, a refused edit is shown again
later with nothing lost, and each turn's ping reaches its player once, riding on the
interactions people make (outside the global budget) whenever it can."""

from __future__ import annotations

import re

import pytest

from tests.discord_play import HAND_BUTTON, make_server, open_hand, open_table, play, play_turn, start_bot, to_act
from tests.fakediscord import DiscordHarness, FakeUser, HTTPError

BUDGETED = re.compile(r"^/(?!interactions/|webhooks/)")


@pytest.fixture
async def slow_budget(tmp_path):
    """The ``server`` fixture with a bot allowed 2 budgeted requests a second."""
    async with DiscordHarness() as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path, rest_rate=2.0)
        yield s


def table_edits(s, table) -> list:
    return s.h.requests_to("PATCH", rf"/channels/\d+/messages/{table.id}")


def live_pings(s, table) -> list:
    return [m for m in s.h.public_messages(s.channel) if m.id != table.id and not m.deleted]


async def shown(s) -> str | None:
    return (await s.h.bot.service.storage.get_table(1)).shown


async def stored(s) -> str:
    row = await s.h.bot.service.storage.get_table(1)
    return f"{row.status}@{row.version}"


async def test_a_burst_of_moves_ends_on_the_newest_state_in_few_edits(slow_budget):
    s = slow_budget
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    service = s.h.bot.service
    before = len(table_edits(s, table))
    for _ in range(20):  # as fast as the service takes them, nobody waiting for Discord
        snap = await service.table(1)
        if snap.row.status != "running":
            break
        player = snap.player(snap.view["to_act"][0])
        hand = await service.play.hand(1, player)
        await service.play.move(1, player, hand.version, hand.actions[0])
    await s.h.settle()
    assert await shown(s) == await stored(s)
    assert len(table_edits(s, table)) - before <= 5


async def test_an_edit_discord_kept_refusing_is_shown_again_and_nothing_is_lost(server):
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    s.h.refuse_next("PATCH", rf"/channels/\d+/messages/{table.id}", HTTPError(429, 0, "You are being rate limited."))
    mover = await play_turn(s, table)
    await s.h.settle()
    assert await shown(s) == await stored(s)
    waiter = to_act(s, table)[0]
    assert waiter is not mover
    [ping] = live_pings(s, table)
    assert waiter.mention in ping.content


async def test_too_many_edits_of_an_old_message_wait_and_are_shown(server):
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    s.h.refuse_next("PATCH", rf"/channels/\d+/messages/{table.id}",
                    HTTPError(429, 30046, "Maximum number of edits to messages older than 1 hour reached."))
    await play_turn(s, table)
    await s.h.settle()
    assert await shown(s) == await stored(s)


async def test_every_turn_pings_its_player_once_and_no_ping_outlives_its_turn(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    notified: list[str] = []
    turns: list[str] = []
    last = None
    for _ in range(400):
        if (await s.h.bot.service.table(1)).row.status != "running":
            break
        acting = to_act(s, table)[0]
        if acting is not last:
            turns.append(acting.name)
            last = acting
        mark = len(s.h.requests)
        await play_turn(s, table)
        for request in s.h.requests[mark:]:
            allowed = (request.body or {}).get("allowed_mentions") if isinstance(request.body, dict) else None
            if allowed and allowed.get("users"):
                notified += [s.by_id(int(u)).name for u in allowed["users"]]
        assert len(live_pings(s, table)) <= 1
    assert (await s.h.bot.service.table(1)).row.status == "finished"
    assert notified == turns[1:]  # the first turn was pinged by the start, before the loop
    assert live_pings(s, table) == []


async def test_a_move_costs_one_budgeted_request_at_most_and_pings_ride_on_interactions(server):
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    for expired in (False, True):
        if expired:  # no click's token edits the table message any more: its edits spend the budget
            s.h.expire_tokens()
            await play_turn(s, table)  # the start click's token is refused once, then forgotten
        for _ in range(3):
            mover = to_act(s, table)[0]
            hand = await open_hand(s, mover, table)
            mark = len(s.h.requests)
            await play(s, mover, hand.message)
            budgeted = [(r.method, r.path) for r in s.h.requests[mark:] if BUDGETED.match(r.path)]
            assert budgeted == ([("PATCH", f"/channels/{s.channel.id}/messages/{table.id}")] if expired else [])
    pings = [m for m in s.h.public_messages(s.channel) if m.id != table.id]
    assert pings and all(m.kind == "followup" for m in pings[1:])


async def test_a_lobby_changed_in_a_burst_ends_on_its_last_change(slow_budget):
    s = slow_budget
    await s.h.slash("war start", {"timer": 0}, user=s.user("ana"), channel=s.channel)
    lobby = s.h.latest_public(s.channel)
    service = s.h.bot.service
    ana, ben, cat = (s.player(s.user(name)) for name in ("ana", "ben", "cat"))
    await service.lobbies.join(1, ben)
    await service.lobbies.join(1, cat)
    await service.lobbies.leave(1, ben)
    await service.lobbies.cancel(1, ana, is_admin=False)
    await s.h.settle()
    text = s.h.message(lobby.id).text
    assert "cancelled" in text.lower() and "cat" in text and "ben" not in text
    assert s.h.message(lobby.id).buttons == []


@pytest.fixture
async def discord_limits(tmp_path):
    """The ``server`` fixture behind Discord's real rate limits (50 requests a second per bot,
    5 message creates and edits per 5 s per channel...), with 60 channels."""
    async with DiscordHarness(rate_limits=True) as h:
        s = make_server(h, tmp_path)
        s.channels = [s.guild.add_channel(f"table-{n}") for n in range(60)]
        await start_bot(h, s.db_path)
        yield s


async def test_many_tables_at_once_stay_within_discords_limits_and_all_end_shown(discord_limits):
    """Sixty games start at once, with a move each: more table messages to post and edit than
    Discord takes in a second. The pacer spreads them out: Discord refuses none, and every
    table ends showing its latest state."""
    s = discord_limits
    service = s.h.bot.service
    ana, ben = s.player(s.user("ana")), s.player(s.user("ben"))
    for channel in s.channels:
        lobby = await service.lobbies.open(guild_id=s.guild.id, channel_id=channel.id, game_id="war",
                                         options={}, host=ana, timer_minutes=0)
        await service.lobbies.join(lobby.row.id, ben)
        snap = await service.lobbies.start(lobby.row.id, ana)
        mover = snap.player(snap.view["to_act"][0])
        hand = await service.play.hand(snap.row.id, mover)
        await service.play.move(snap.row.id, mover, hand.version, hand.actions[0])
    await s.h.wait_until(lambda: not s.h.bot.pacer.waiting(), timeout=60, what="the pacer to run dry")
    await s.h.settle(timeout=30)
    assert dict(s.h.rate_limits.limited) == {}
    for table_id in range(1, len(s.channels) + 1):
        row = await service.storage.get_table(table_id)
        assert row.shown == f"{row.status}@{row.version}", table_id


async def test_a_ping_its_click_cannot_carry_goes_through_the_channel_and_a_refused_one_waits_for_the_next_turn(
        server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    followups, posts = r"/webhooks/\d+/[^/]+", rf"/channels/{s.channel.id}/messages"

    async def turn(*refusals: tuple[str, str, HTTPError]) -> FakeUser:
        """A move whose ping Discord answers with ``refusals`` first; returns who is to act after it."""
        for refusal in refusals:
            s.h.refuse_next(*refusal)
        await play_turn(s, table)
        await s.h.settle()
        assert await shown(s) == await stored(s)  # the table shows the move whatever became of the ping
        return to_act(s, table)[0]

    # Discord no longer takes the click's follow-ups (its interaction went): the ping goes through the channel.
    waiter = await turn(("POST", followups, HTTPError(404, 10015, "Unknown Webhook")))
    (ping,) = live_pings(s, table)
    assert waiter.mention in ping.content and ping.kind == "channel"
    # The channel's post fails too (Discord's server error): no ping for that turn, none tried again ...
    mark = len(s.h.requests_to("POST", posts))
    unpinged = await turn(("POST", followups, HTTPError(404, 10015, "Unknown Webhook")),
                          ("POST", posts, HTTPError(500, 0, "Internal Server Error")))
    assert unpinged is not waiter and len(s.h.requests_to("POST", posts)) == mark + 1
    assert live_pings(s, table) == [ping]
    # ... or a moderator took Deckhand's Send Messages: the same, until a click says it may post again.
    await turn(("POST", followups, HTTPError(404, 10015, "Unknown Webhook")),
               ("POST", posts, HTTPError(403, 50013, "Missing Permissions")))
    assert live_pings(s, table) == [ping]
    ping.deleted = True  # a moderator deletes the ping of a turn that is over before Deckhand does
    pinged = await turn()
    (latest,) = live_pings(s, table)
    assert pinged.mention in latest.content
    assert len(s.h.requests_to("DELETE", rf"/channels/{s.channel.id}/messages/{ping.id}")) == 1  # gone: not again


async def test_a_table_message_someone_deleted_is_posted_again_and_the_game_plays_on_there(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    s.h.expire_tokens()  # no click's token edits the table message: its edits take the channel's route
    await play_turn(s, table)  # the start click's token is refused once, then forgotten
    await s.h.settle()
    table.deleted = True  # a moderator deletes the table message
    service = s.h.bot.service
    snap = await service.table(1)
    player = snap.player(snap.view["to_act"][0])
    hand = await service.play.hand(1, player)
    await service.play.move(1, player, hand.version, hand.actions[0])  # a move not made by a click (a timer's)
    await s.h.settle()
    row = (await service.table(1)).row
    again = s.h.message(row.table_message_id)
    assert again.id != table.id and not again.deleted and again.find_components(label=HAND_BUTTON)
    assert await shown(s) == await stored(s)
    moves = row.version
    await play_turn(s, again)  # played from the new message
    await s.h.settle()
    assert (await service.table(1)).row.version > moves
