"""The process's request budget (bot/budget.py) and the meter that feeds it (bot/request_meter.py).

Orders and counts are asserted, never durations: the pacer runs on time of the test's own."""

from __future__ import annotations

import asyncio

import pytest

from bot.budget import DEFAULT_RATE, Pacer, Priority, Route, process_rate
from bot.request_meter import INVALID_WARNING, RequestMeter, classify
from bot.shards import Shards
from tests.fakediscord.ratelimits import RateLimited, RateLimiter, route_limit

FAST = 1000.0
"""Requests a second: a token every millisecond."""


class Time:
    """The pacer's clock in a test: it moves only when the pacer waits."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


def paced(rate: float = FAST) -> Pacer:
    time = Time()
    return Pacer(rate, clock=time, sleep=time.sleep)


async def made(pacer: Pacer, priority: Priority = Priority.TURN, channel: int = 1, route: Route = Route.OTHER) -> None:
    """One budgeted request, answered at once."""
    async with pacer.request(priority, channel, route):
        pass


async def drain(pacer: Pacer) -> None:
    """Let the budget come free, then spend it, so every later request waits for the budget."""
    pacer._clock.now += 1.0  # type: ignore[attr-defined]
    for _ in range(pacer.limit):
        await made(pacer)


async def granted_in_order(pacer: Pacer, requests: list[tuple[str, Priority, int, Route]]) -> list[str]:
    order: list[str] = []

    async def one(name: str, priority: Priority, channel: int, route: Route) -> None:
        await made(pacer, priority, channel, route)
        order.append(name)

    tasks = [asyncio.create_task(one(*request)) for request in requests]
    await asyncio.sleep(0)  # every request is waiting before the first is granted
    await asyncio.gather(*tasks)
    return order


async def test_a_seconds_budget_goes_at_once_then_each_request_waits_for_one_to_stop_counting():
    pacer = paced()
    await drain(pacer)
    assert pacer.granted == FAST and pacer.waited == 0
    await made(pacer)
    assert pacer.waited == 1 and pacer._clock() == pytest.approx(102.0)  # a second after the first answer
    pacer.close()


async def test_a_process_starts_with_no_burst():
    """The process it replaced may have spent this second's budget: it comes free at the rate."""
    pacer = paced()
    await made(pacer)
    assert pacer.waited == 1 and pacer._clock() == pytest.approx(100.0 + 1 / FAST)
    pacer.close()


async def test_a_request_counts_until_a_second_after_its_answer():
    pacer = paced(rate=2)
    pacer._clock.now += 1.0  # type: ignore[attr-defined]
    slow = pacer.request(Priority.TURN, 1)
    await slow.__aenter__()  # under way (an upload, say) for as long as the test holds it
    await made(pacer)  # answered at once, at 101
    third = asyncio.create_task(made(pacer))
    await asyncio.sleep(0)
    pacer._clock.now += 3.0  # type: ignore[attr-defined]
    await slow.__aexit__(None, None, None)  # answered at 104
    await third
    assert pacer._clock() == pytest.approx(104.0)  # not before: the slow one was still counted
    assert not pacer._free(104.5) and pacer._free(105.0)
    pacer.close()


class Transit:
    """Time the test moves a few milliseconds a step; requests in transit wait for it."""

    STEP = 0.005

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        until = self.now + seconds - 1e-9
        while self.now < until:
            await asyncio.sleep(0)

    async def run(self, seconds: float) -> None:
        for _ in range(round(seconds / self.STEP)):
            self.now += self.STEP
            for _ in range(4):
                await asyncio.sleep(0)


async def test_requests_held_up_on_their_way_then_arriving_at_once_stay_within_discords_limit():
    """What the 100-table bench saw (issue 29): requests sent at the pacer's rate took 0.1 to
    1.3 s to reach Discord (uploads to a busy server), so 52 to 54 arrived in one of Discord's
    seconds, and got global 429s. Here everything sent in the first second is held up until it
    ends, then requests arrive as sent, judged by the fake Discord's own limits on the same clock."""
    clock = Transit()
    pacer = Pacer(DEFAULT_RATE, clock=clock, sleep=clock.sleep)
    discord = RateLimiter(clock=clock)
    refused: list[str] = []

    async def edit(n: int) -> None:
        async with pacer.request(Priority.TURN, n, Route.EDIT):
            await clock.sleep(101.0 - clock.now)
            try:
                discord.admit(route_limit(discord.table, "PATCH", f"/channels/{n}/messages/1", 1), token="bot",
                              message_created=lambda _: None)
            except RateLimited as exc:
                refused.append(exc.limit)

    edits = [asyncio.create_task(edit(n)) for n in range(120)]
    await clock.run(4.0)
    assert refused == []
    assert all(e.done() for e in edits)
    pacer.close()


async def test_what_matters_goes_first_and_in_the_order_asked_within_a_priority():
    pacer = paced()
    await drain(pacer)
    order = await granted_in_order(pacer, [
        ("tidy", Priority.TIDY, 1, Route.DELETE), ("ping 1", Priority.PING, 1, Route.CREATE),
        ("turn 1", Priority.TURN, 2, Route.EDIT), ("ping 2", Priority.PING, 3, Route.CREATE),
        ("turn 2", Priority.TURN, 3, Route.EDIT),
    ])
    assert order == ["turn 1", "turn 2", "ping 1", "ping 2", "tidy"]
    pacer.close()


async def test_nothing_goes_to_a_channel_whose_bucket_discord_said_is_empty():
    pacer = paced()
    pacer.learn(7, Route.EDIT, remaining=0, reset_after=0.05)
    order = await granted_in_order(pacer, [
        ("edit in 7", Priority.TURN, 7, Route.EDIT), ("edit in 8", Priority.TURN, 8, Route.EDIT),
        ("post in 7", Priority.TURN, 7, Route.CREATE), ("ping in 9", Priority.PING, 9, Route.CREATE),
    ])
    assert order == ["edit in 8", "post in 7", "ping in 9", "edit in 7"]
    pacer.close()


async def test_a_channels_requests_left_are_spread_until_its_bucket_resets():
    pacer = paced()
    pacer.learn(7, Route.EDIT, remaining=2, reset_after=0.06)  # two more edits within 60 ms
    times: dict[str, float] = {}

    async def edit(name: str, channel: int) -> None:
        await made(pacer, Priority.TURN, channel, Route.EDIT)
        times[name] = pacer._clock() - 100.0

    await asyncio.gather(edit("a", 7), edit("b", 7), edit("c", 7), edit("other", 8))
    assert sorted(times, key=times.__getitem__) == ["other", "a", "b", "c"]
    assert times["c"] >= 0.06  # the last waits for the bucket to reset
    pacer.close()


async def test_a_rounds_threads_go_at_once_as_far_as_their_bucket_allows_the_first_alone():
    """Starting threads (a tournament round's tables) is not spread out: after one request alone
    (nothing is known of the channel's bucket), as many go at once as Discord's answer says are
    left, those still under way taken off; then none until the bucket resets."""
    pacer = paced()
    answered: list[asyncio.Future[None]] = []
    sent: list[int] = []

    async def thread(n: int) -> None:
        async with pacer.request(Priority.TURN, 7, Route.THREAD):
            sent.append(n)
            done = asyncio.get_running_loop().create_future()
            answered.append(done)
            await done

    def answer(remaining: int) -> None:
        pacer.learn(7, Route.THREAD, remaining=remaining, reset_after=300.0)  # Discord's answer, then its end
        answered.pop(0).set_result(None)

    tasks = [asyncio.create_task(thread(n)) for n in range(8)]
    for _ in range(20):
        await asyncio.sleep(0)
    assert sent == [0], "the first alone while the bucket is unknown"
    answer(remaining=4)  # Discord's bucket holds 5: 4 left
    for _ in range(20):
        await asyncio.sleep(0)
    assert sent == [0, 1, 2, 3, 4], "then at once as many as are left"
    answer(remaining=3)  # answered before the three after it were counted: they are still under way
    for _ in range(20):
        await asyncio.sleep(0)
    assert len(sent) == 5, "none beyond the bucket"
    pacer._clock.now += 300.0  # type: ignore[attr-defined]  # the bucket resets
    while answered:
        answered.pop(0).set_result(None)
        for _ in range(20):
            await asyncio.sleep(0)
    await asyncio.gather(*tasks)
    assert sorted(sent) == list(range(8))
    pacer.close()


async def test_a_global_rate_limit_pauses_everything():
    pacer = paced()
    pacer.pause(0.05)
    await made(pacer)
    assert pacer._clock() >= 100.05
    pacer.close()


def test_each_process_spends_its_share_of_the_budget():
    assert process_rate(Shards()) == DEFAULT_RATE
    assert process_rate(Shards.parse("0-3/8")) == DEFAULT_RATE / 2
    assert process_rate(Shards.parse("5/8")) == DEFAULT_RATE / 8
    assert process_rate(Shards.parse("0-3/8"), override=120.0) == 120.0
    with pytest.raises(ValueError, match="positive"):
        Pacer(0)


# -- the meter -------------------------------------------------------------------------------


def test_requests_are_told_apart_as_discord_counts_them():
    assert classify("POST", "/api/v10/interactions/1/tok/callback")[0] == "callback"
    assert classify("POST", "/api/v10/webhooks/1/tok")[0] == "webhook"
    assert classify("DELETE", "/api/v10/webhooks/1/tok/messages/5")[0] == "webhook"
    assert classify("PATCH", "/api/v10/channels/9/messages/5") == ("message edit", 9, Route.EDIT)
    assert classify("POST", "/api/v10/channels/9/messages") == ("message create", 9, Route.CREATE)
    assert classify("DELETE", "/api/v10/channels/9/messages/5") == ("message delete", 9, Route.DELETE)
    assert classify("PATCH", "/api/v10/channels/9")[0] == "other"
    assert classify("POST", "/api/v10/channels/9/threads") == ("thread create", 9, Route.THREAD)  # a round's tables


async def test_the_meter_counts_answers_and_teaches_the_pacer():
    pacer = paced()
    meter = RequestMeter(pacer)
    meter.record("PATCH", "/api/v10/channels/9/messages/5", 200,
                 {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "0.05"})
    meter.record("POST", "/api/v10/webhooks/1/tok", 200, {})
    meter.record("PATCH", "/api/v10/channels/9/messages/5", 429,
                 {"Retry-After": "0.05", "X-RateLimit-Scope": "user"})
    meter.record("POST", "/api/v10/channels/9/messages", 429, {"X-RateLimit-Scope": "shared", "Retry-After": "1"})
    meter.record("GET", "/api/v10/channels/9", 403, {})
    assert meter.counts == {"message edit": 2, "webhook": 1, "message create": 1, "other": 1}
    assert meter.rate_limited == {"message edit": 1, "message create": 1}
    assert meter.invalid_in_window() == 2  # a shared bucket's 429 does not count against the bot
    order = await granted_in_order(pacer, [("edit", Priority.TURN, 9, Route.EDIT),
                                           ("other", Priority.TIDY, 10, Route.DELETE)])
    assert order == ["other", "edit"]
    line = meter.report()
    assert line is not None and "budgeted" in line and "429s: 2" in line
    assert meter.report() is None  # nothing sent since
    pacer.close()


async def test_a_global_429_pauses_the_pacer_and_many_invalid_answers_warn(caplog):
    pacer = paced()
    meter = RequestMeter(pacer)
    meter.record("PATCH", "/api/v10/channels/9/messages/5", 429,
                 {"Retry-After": "0.05", "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
    assert meter.rate_limited == {"global": 1}
    waiting = asyncio.create_task(made(pacer))
    await asyncio.sleep(0)
    assert not waiting.done()
    await waiting
    for _ in range(INVALID_WARNING):
        meter.record("GET", "/api/v10/channels/9", 403, {})
    assert "invalid requests" in caplog.text and "bans" in caplog.text
    pacer.close()
