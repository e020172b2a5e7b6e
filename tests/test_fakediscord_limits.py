"""The fake Discord's rate limits (``tests/fakediscord/ratelimits.py``): buckets, headers, 429
bodies, the exempt interaction routes, error 30046, the count of invalid requests, and
discord.py's real HTTP code waiting on them as it does against Discord.

The fake's own rules are checked on a :class:`ManualClock`; discord.py's reactions on the real
clock with the figures scaled down, asserting only what was answered, never how long it took.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import discord
import discord.http
import pytest

from tests import openapi
from tests.discord_play import HAND_BUTTON, make_server, open_table, play_turn, start_bot
from tests.fakediscord import (
    APPLICATION_COMMAND,
    DISCORD_RATE_LIMITS,
    Answer,
    DiscordHarness,
    FakeChannel,
    FakeMessage,
    HTTPError,
    LoopbackDiscord,
    ManualClock,
    RateLimiter,
    RateLimitTable,
    Window,
)
from tests.fakediscord.ratelimits import route_limit

TOKEN = "bot-token"
OLD_MESSAGE_TEXT = "Maximum number of edits to messages older than 1 hour reached. Try again later."
QUICK = DISCORD_RATE_LIMITS.scaled(0.05)
"""Discord's counts in windows 20 times shorter: 5 creates per 0.25 s, 50 requests per 50 ms."""
BACK_TO_BACK = Window(5, 1.0)
"""A window that requests sent back to back surely share, however busy the machine, and that
a test can still wait out."""


@pytest.fixture
async def limited() -> AsyncIterator[tuple[DiscordHarness, ManualClock]]:
    """The fake alone (no bot), Discord's figures, time moved by the test."""
    clock = ManualClock()
    async with DiscordHarness(rate_limits=RateLimiter(clock=clock)) as h:
        yield h, clock


def channels(h: DiscordHarness, count: int) -> list[FakeChannel]:
    guild = next(iter(h.guilds.values()), None) or h.add_guild("Club")
    return [guild.add_channel(f"c{len(guild.channels)}") for _ in range(count)]


async def send(h: DiscordHarness, method: str, path: str, body: Any = None, token: str | None = TOKEN) -> Answer:
    return await h.respond(via="rest", method=method, path=path, query={}, body=body, token=token)


async def post(h: DiscordHarness, channel: FakeChannel, token: str | None = TOKEN) -> Answer:
    return await send(h, "POST", f"/channels/{channel.id}/messages", {"content": "hi"}, token)


async def posted(h: DiscordHarness, channel: FakeChannel) -> FakeMessage:
    answer = await post(h, channel)
    assert answer.status == 200, answer
    return h.message(int(answer.body["id"]))


def edit(h: DiscordHarness, message: FakeMessage, text: str = "edited"):
    return send(h, "PATCH", f"/channels/{message.channel.id}/messages/{message.id}", {"content": text})


# ------------------------------------------------------------------------------ the fake's rules


async def test_off_by_default_nothing_is_limited_and_no_header_is_sent() -> None:
    async with DiscordHarness() as h:
        channel, = channels(h, 1)
        answers = [await post(h, channel) for _ in range(60)]
    assert {a.status for a in answers} == {200}
    assert all(a.headers == {} for a in answers)
    assert h.rate_limits is None


async def test_five_creates_per_five_seconds_per_channel_with_the_headers_discord_sends(limited) -> None:
    h, clock = limited
    general, other = channels(h, 2)
    answers = [await post(h, general) for _ in range(5)]
    assert [a.status for a in answers] == [200] * 5
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["4", "3", "2", "1", "0"]
    first = answers[0].headers
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Reset-After"] == "5.000"
    assert float(first["X-RateLimit-Reset"]) == pytest.approx(h.rate_limits.epoch() + 5, abs=0.01)
    assert first["Via"] and first["X-RateLimit-Bucket"]

    clock.advance(4.0)
    refused = await post(h, general)
    assert refused.status == 429 and refused.error is not None
    assert refused.body == {"message": "You are being rate limited.", "retry_after": 1.0, "global": False, "code": 0}
    openapi.validate_response("POST", f"/channels/{general.id}/messages", refused.body, status=429)
    assert refused.headers["Retry-After"] == "1" and refused.headers["X-RateLimit-Scope"] == "user"
    assert "X-RateLimit-Global" not in refused.headers and refused.headers["Via"]
    assert h.requests[-1].rate_limited == "POST /channels/{id}/messages"
    assert len(h.messages(general)) == 5, "a refused request changes nothing"

    other_answer = await post(h, other)
    assert other_answer.status == 200, "each channel has its own bucket"
    assert other_answer.headers["X-RateLimit-Bucket"] == first["X-RateLimit-Bucket"], \
        "the bucket names the route, not the channel (Discord's X-RateLimit-Bucket)"
    clock.advance(1.0)
    assert (await post(h, general)).headers["X-RateLimit-Remaining"] == "4", "a new window after the reset"
    assert h.rate_limits.limited == {"POST /channels/{id}/messages": 1}


async def test_edits_have_their_own_bucket_and_deletes_five_a_second(limited) -> None:
    h, clock = limited
    channel, = channels(h, 1)
    message = await posted(h, channel)
    assert [(await edit(h, message, str(n))).status for n in range(6)] == [200] * 5 + [429]
    assert h.message(message.id).content == "4"
    victims = [await posted(h, channel) for _ in range(4)]
    clock.advance(5.0)
    victims += [await posted(h, channel) for _ in range(2)]
    delete = [(await send(h, "DELETE", f"/channels/{channel.id}/messages/{m.id}")) for m in victims]
    assert [a.status for a in delete] == [204] * 5 + [429]
    assert delete[-1].body["retry_after"] == 1.0
    clock.advance(1.0)
    assert (await send(h, "DELETE", f"/channels/{channel.id}/messages/{victims[-1].id}")).status == 204


async def test_fifty_requests_a_second_per_token_across_channels(limited) -> None:
    h, clock = limited
    many = channels(h, 51)
    answers = [await post(h, channel) for channel in many]
    assert [a.status for a in answers] == [200] * 50 + [429]
    refused = answers[-1]
    assert refused.body == {"message": "You are being rate limited.", "retry_after": 1.0, "global": True, "code": 0}
    assert refused.headers["X-RateLimit-Global"] == "true" and refused.headers["X-RateLimit-Scope"] == "global"
    assert refused.headers["Retry-After"] == "1" and refused.headers["Via"]
    assert h.requests[-1].rate_limited == "global"
    assert (await post(h, many[-1], token="another-bot")).status == 200, "the global limit is per bot token"
    clock.advance(1.0)
    assert (await post(h, many[-1])).status == 200
    assert h.rate_limits.limited == {"global": 1}


async def test_interaction_callbacks_and_webhooks_do_not_count_towards_the_global_limit(limited) -> None:
    h, clock = limited
    many = channels(h, 50)
    user = h.add_user("ana")
    many[0].guild.add_member(user)
    for channel in many:
        assert (await post(h, channel)).status == 200
    assert (await post(h, many[0])).status == 429, "the global budget is spent"
    interaction = h._new_interaction(APPLICATION_COMMAND, {"id": "1", "name": "ping", "type": 1},
                                     user=user, channel=many[0], label="/ping")
    callback = await send(h, "POST", f"/interactions/{interaction.id}/{interaction.token}/callback",
                          {"type": 4, "data": {"content": "pong"}}, token=None)
    assert callback.status == 200 and callback.headers["X-RateLimit-Remaining"]
    webhook = f"/webhooks/{h.application_id}/{interaction.token}"
    statuses = [(await send(h, "POST", webhook, {"content": f"more {n}"}, token=None)).status for n in range(6)]
    assert statuses == [200] * 5 + [429], "an interaction token has a bucket of its own: 5 per 2 s"
    assert h.rate_limits.limited == {"global": 1, "POST /webhooks/{id}/{token}": 1}
    assert route_limit(DISCORD_RATE_LIMITS, "PATCH", f"{webhook}/messages/@original", h.application_id).exempt
    assert not route_limit(DISCORD_RATE_LIMITS, "POST", "/webhooks/1/other-token", h.application_id).exempt, \
        "only the application's own (interaction) webhooks are exempt"


async def test_editing_a_message_older_than_an_hour_three_times_in_six_seconds_is_error_30046(limited) -> None:
    h, clock = limited
    channel, = channels(h, 1)
    old, fresh = await posted(h, channel), await posted(h, channel)
    old.created_at -= dt.timedelta(hours=1, seconds=1)
    assert [(await edit(h, old, str(n))).status for n in range(3)] == [200] * 3
    refused = await edit(h, old, "too many")
    assert refused.status == 429
    assert refused.body == {"retry_after": 6.0, "global": False, "code": 30046, "message": OLD_MESSAGE_TEXT}
    assert refused.headers["X-RateLimit-Remaining"] == "2", "a sub-limit: the edit bucket itself is not spent"
    assert h.message(old.id).content == "2"
    assert (await edit(h, fresh)).status == 200, "messages under an hour old are not held back"
    clock.advance(6.0)
    assert (await edit(h, old, "later")).status == 200
    assert h.rate_limits.limited == {"30046": 1}

    clock.advance(3600.0)  # time alone makes the fresh message old too
    assert [(await edit(h, fresh, str(n))).status for n in range(4)] == [200] * 3 + [429]
    assert h.requests[-1].rate_limited == "30046"


async def test_401_403_and_429_are_invalid_requests_counted_over_ten_minutes(limited) -> None:
    h, clock = limited
    channel, = channels(h, 1)
    for _ in range(7):
        await post(h, channel)  # 5 created, 2 refused (429)
    message = await posted(h, other := channels(h, 1)[0])
    await send(h, "DELETE", f"/channels/{other.id}/messages/{message.id}")
    assert (await send(h, "DELETE", f"/channels/{other.id}/messages/{message.id}")).status == 404, \
        "a 404 is no invalid request"
    h.close_to_bot(channel)
    clock.advance(5.0)
    forbidden = await post(h, channel)
    assert forbidden.status == 403 and forbidden.headers["X-RateLimit-Limit"] == "5", "errors carry the headers too"
    assert h.rate_limits.invalid_requests() == 3
    clock.advance(596.0)
    assert h.rate_limits.invalid_requests() == 1, "the two 429s left the 10-minute window"
    assert h.rate_limits.invalid_total == 3
    assert DISCORD_RATE_LIMITS.invalid_ban == 10_000 and DISCORD_RATE_LIMITS.invalid_window == 600


async def test_threads_start_from_a_channel_bucket_shared_by_all_whose_429s_are_not_invalid(limited) -> None:
    """Starting threads: a bucket per parent channel (with or without a starting message) of scope
    ``shared``, whose window is minutes long; a 429 there does not count towards a ban."""
    h, clock = limited
    parent, other = channels(h, 2)
    window = DISCORD_RATE_LIMITS.thread_create
    body = {"name": "table", "type": 11}
    message = await posted(h, parent)
    clock.advance(1.0)  # a new second for the global limit
    answers = [await send(h, "POST", f"/channels/{parent.id}/threads", body) for _ in range(window.limit - 1)]
    answers.append(await send(h, "POST", f"/channels/{parent.id}/messages/{message.id}/threads", body))
    assert [a.status for a in answers] == [200] * window.limit
    assert answers[0].headers["X-RateLimit-Reset-After"] == f"{window.seconds:.3f}"
    assert answers[-1].headers["X-RateLimit-Remaining"] == "0"
    clock.advance(window.seconds - 20)
    refused = await send(h, "POST", f"/channels/{parent.id}/threads", body)
    assert refused.status == 429 and refused.headers["X-RateLimit-Scope"] == "shared"
    assert refused.body["retry_after"] == 20.0
    assert (await send(h, "POST", f"/channels/{other.id}/threads", body)).status == 200, "each channel its own"
    assert h.rate_limits.invalid_requests() == 0 and h.rate_limits.limited == {"POST /channels/{id}/threads": 1}
    clock.advance(20)
    assert (await send(h, "POST", f"/channels/{parent.id}/threads", body)).status == 200


async def test_a_bad_token_over_loopback_is_an_invalid_request() -> None:
    async with LoopbackDiscord(rate_limits=True) as fd, aiohttp.ClientSession() as session:
        async with session.get(f"{fd.base_url}/users/@me", headers={"Authorization": "Bot bad-token"}) as resp:
            assert resp.status == 401
    assert fd.rate_limits.invalid_requests() == 1


def test_scaled_figures_keep_the_counts_and_what_an_old_message_is() -> None:
    assert QUICK.message_create.limit == 5 and QUICK.message_create.seconds == pytest.approx(0.25)
    assert QUICK.global_requests.seconds == pytest.approx(0.05)
    assert QUICK.old_message_age == 3600 and QUICK.invalid_window == 600


# ---------------------------------------------------------- discord.py against the limited fake


async def test_the_loopback_server_answers_with_the_headers_and_body_over_http() -> None:
    async with LoopbackDiscord(rate_limits=RateLimiter(clock=ManualClock())) as fd:
        channel = fd.add_guild("Club").add_channel("games")
        async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as session:
            for _ in range(5):
                async with session.post(f"{fd.base_url}/channels/{channel.id}/messages", json={"content": "x"}) as r:
                    assert r.status == 200 and r.headers["X-RateLimit-Limit"] == "5"
            async with session.post(f"{fd.base_url}/channels/{channel.id}/messages", json={"content": "x"}) as r:
                assert r.status == 429 and r.headers["Content-Type"] == "application/json"
                assert r.headers["Via"] and r.headers["Retry-After"] == "5"
                assert await r.json() == {"message": "You are being rate limited.", "retry_after": 5.0,
                                          "global": False, "code": 0}


async def http_client(h: DiscordHarness | LoopbackDiscord) -> discord.http.HTTPClient:
    client = discord.http.HTTPClient(asyncio.get_running_loop())
    await client.static_login(TOKEN)
    return client


def create(channel: FakeChannel) -> discord.http.Route:
    return discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)


LimitedFake = Callable[[RateLimitTable], contextlib.AbstractAsyncContextManager[DiscordHarness | LoopbackDiscord]]


@pytest.fixture(params=["in-process", "loopback"])
def limited_fake(request, monkeypatch) -> LimitedFake:
    """``limited_fake(table)``: the fake with ``table``'s limits, reached by discord.py's real
    HTTP code: in-process through its patched session, or over 127.0.0.1."""
    @contextlib.asynccontextmanager
    async def fake(table: RateLimitTable) -> AsyncIterator[DiscordHarness | LoopbackDiscord]:
        if request.param == "in-process":
            async with DiscordHarness(rate_limits=RateLimiter(table)) as h:
                yield h
        else:
            async with LoopbackDiscord(rate_limits=RateLimiter(table)) as fd:
                monkeypatch.setattr(discord.http.Route, "BASE", fd.base_url)
                yield fd

    return fake


async def test_discord_py_waits_out_an_exhausted_bucket_instead_of_getting_429s(limited_fake: LimitedFake) -> None:
    async with limited_fake(QUICK) as fake:
        channel, = channels(fake, 1)
        client = await http_client(fake)
        try:
            sent = await asyncio.gather(*(client.request(create(channel), json={"content": str(n)})
                                          for n in range(12)))
        finally:
            await client.close()
    assert len(sent) == 12 and len(fake.messages(channel)) == 12
    assert fake.rate_limits.limited == {}, "discord.py read X-RateLimit-Remaining: 0 and waited for the reset"


async def test_discord_py_retries_a_global_429_after_retry_after(limited_fake: LimitedFake) -> None:
    async with limited_fake(dataclasses.replace(QUICK, global_requests=BACK_TO_BACK)) as fake:
        many = channels(fake, 8)
        client = await http_client(fake)  # its GET /users/@me is one of the 5
        try:
            await asyncio.gather(*(client.request(create(channel), json={"content": "hi"}) for channel in many))
        finally:
            await client.close()
    refused = [r for r in fake.requests if r.rate_limited]
    assert len(refused) == 4 and {r.rate_limited for r in refused} == {"global"}
    assert all(len(fake.messages(channel)) == 1 for channel in many), "every refused request was sent again, once"
    assert len(fake.requests) == 1 + 8 + len(refused)


async def test_discord_py_retries_error_30046_and_the_old_message_ends_edited(limited_fake: LimitedFake) -> None:
    async with limited_fake(dataclasses.replace(QUICK, old_message_edit=Window(3, BACK_TO_BACK.seconds))) as fake:
        channel, = channels(fake, 1)
        client = await http_client(fake)
        try:
            message = await client.request(create(channel), json={"content": "old"})
            fake.message(int(message["id"])).created_at -= dt.timedelta(hours=2)
            edit_route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                                            channel_id=channel.id, message_id=int(message["id"]))
            for n in range(5):
                await client.request(edit_route, json={"content": f"edit {n}"})
        finally:
            await client.close()
    assert fake.rate_limits.limited["30046"] >= 1, "the fourth edit in the window was refused, then sent again"
    assert fake.message(int(message["id"])).content == "edit 4"


async def test_without_via_discord_py_takes_a_429_for_a_cloudflare_ban_and_gives_up(monkeypatch) -> None:
    """Why every answer carries ``Via``: a 429 without it (the fake with its limits off, over
    127.0.0.1) is raised at once, where the limiter's 429s above were waited out and retried."""
    async with LoopbackDiscord() as fd:
        monkeypatch.setattr(discord.http.Route, "BASE", fd.base_url)
        channel, = channels(fd, 1)
        fd.refuse_next("POST", rf"/channels/{channel.id}/messages", HTTPError(429, 0, "You are being rate limited."))
        client = await http_client(fd)
        try:
            with pytest.raises(discord.HTTPException) as raised:
                await client.request(create(channel), json={"content": "hi"})
        finally:
            await client.close()
    assert raised.value.status == 429
    assert len(fd.requests_to("POST", "/messages")) == 1, "no retry"


async def test_the_bot_plays_in_process_with_the_limits_on(tmp_path) -> None:
    """The whole bot through discord.py's own request code: lobby, start, moves, hands."""
    async with DiscordHarness(rate_limits=RateLimiter(DISCORD_RATE_LIMITS.scaled(0.02))) as h:
        s = make_server(h, tmp_path)
        await start_bot(h, s.db_path)
        table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=("ben",))
        assert HAND_BUTTON in {b.get("label") for b in h.message(table.id).buttons}
        for _ in range(4):
            await play_turn(s, table)  # the player the table message names finds a move in their hand
        assert all(r.headers for r in h.requests), "every answer carried rate-limit headers"
