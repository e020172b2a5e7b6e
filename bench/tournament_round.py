"""Benchmark: a tournament round of many tables opened by the real ``python -m bot`` against the
fake Discord with Discord's rate limits on.

``--players`` P people (128: 64 tables of War) join a tournament by clicking Join on its
message; its host clicks Start now. Deckhand pairs round 1 and opens every table in a thread of
its own, each table's first message naming its two players. Then each table's first player
clicks My hand on it, to check that it plays. Figures, from the Start now click:

* tables playable: table messages (with My hand) posted, and hands that answered;
* time to the first, the median and the last table message (the table playable), and to the
  last thread;
* requests while the round opened, budgeted and exempt, by route; 429s (global and by route)
  and invalid requests (401, 403, 429), as Discord would count them;
* pings: table messages whose mentions notify both players.

The fake enforces what Discord documents and what its answers show of thread creation
(``tests/fakediscord/ratelimits.py``: ``thread_create``); ``--thread-limit N/SECONDS`` sets
another per-channel thread bucket (Discord publishes none, and asks bots to read its headers).

    python -m bench.tournament_round --players 128 [--thread-limit 50/300]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.fakediscord import FakeMessage, LoopbackDiscord
from tests.fakediscord.ratelimits import DISCORD_RATE_LIMITS, RateLimiter, Window, route_limit, route_name

from .discord_load import Bot, percentile, progress

HAND = "🂠 My hand"
WAIT = 600.0
"""The longest wait for the round to open: a bench that finds it slower says so."""


@dataclasses.dataclass
class Round:
    started: float = 0.0
    """When the host's Start now click was sent (the fake's clock, as ``RecordedRequest.at``)."""
    acknowledged: float = 0.0
    """How long the click waited for its answer (Discord fails an interaction unanswered after 3 s)."""
    requests: tuple[int, int] = (0, 0)
    """The fake's requests from the click until every table was open."""
    threads: list[float] = dataclasses.field(default_factory=list)
    tables: list[float] = dataclasses.field(default_factory=list)
    pinged: int = 0
    hands: int = 0


async def run(args: argparse.Namespace, folder: Path) -> tuple[Round, LoopbackDiscord]:
    table = DISCORD_RATE_LIMITS
    if args.thread_limit:
        count, seconds = args.thread_limit.split("/")
        table = dataclasses.replace(table, thread_create=Window(int(count), float(seconds)))
    async with LoopbackDiscord(rate_limits=RateLimiter(table), validate=False) as fd:
        host = fd.add_user("host")
        guild = fd.add_guild("Game Night", owner=host)
        channel = guild.add_channel("tournament")
        people = [fd.add_user(f"p{n}") for n in range(args.players)]
        for user in (host, *people):
            guild.add_member(user)
        bot = Bot(fd, folder, folder / "deckhand.sqlite3")
        try:
            await bot.start()
            await fd.wait_for_request("PUT", r"/commands$", 60)
            await fd.wait_until(lambda: fd.connected_shards(), 60, "the bot to connect")
            await answered(fd, fd.slash("tournament create war", {"timer": 5}, user=host, channel=channel))
            message = await fd.wait_for_message(lambda m: m.channel.id == channel.id and m.public
                                                 and any(b.get("label") == "Join" for b in m.buttons), 30, "it")
            progress(f"{args.players} people join")
            for user in people:
                await answered(fd, fd.click(fd.message(message.id), label="Join", user=user))
            await fd.wait_idle(quiet=2.0, timeout=120)
            panel = await answered(fd, fd.click(fd.message(message.id), label="Host", user=host))
            result = Round(started=fd.rate_limits.clock())
            first = len(fd.requests)
            progress("Start now")
            try:
                await fd.click(panel, label="Start now", user=host, timeout=10)
                result.acknowledged = fd.rate_limits.clock() - result.started
            except TimeoutError:
                result.acknowledged = float("inf")  # Discord's 3 s went by: "This interaction failed"
            expected = args.players // 2
            await fd.wait_until(lambda: len(table_messages(fd, channel.id)) >= expected, WAIT, "every table")
            await fd.wait_idle(quiet=2.0, timeout=120)
            result.requests = (first, len(fd.requests))
            found = table_messages(fd, channel.id)
            result.tables = sorted(at for at, _ in found.values())
            result.threads = sorted(r.at for r in fd.requests[first:]
                                    if r.method == "POST" and r.path == f"/channels/{channel.id}/threads"
                                    and r.status < 300)
            result.pinged = sum(1 for _, m in found.values() if len(mentioned(m)) == 2)
            progress("each table's first player opens their hand")
            for _, m in found.values():
                player = fd.user(int(mentioned(m)[0]))
                hand = await answered(fd, fd.click(fd.message(m.id), label=HAND, user=player))
                result.hands += hand.ephemeral and bool(hand.buttons)
            return result, fd
        finally:
            await bot.stop()
            if bot.tracebacks():
                progress(f"the bot logged {bot.tracebacks()} traceback(s): {folder}")


async def answered(fd: LoopbackDiscord, interaction) -> FakeMessage:
    return await fd.wait_for_reply(await interaction, 30)


def table_messages(fd: LoopbackDiscord, parent: int) -> dict[int, tuple[float, FakeMessage]]:
    """Per thread of ``parent``: when its table message was posted (the fake's clock), and the message."""
    found: dict[int, tuple[float, FakeMessage]] = {}
    for r in fd.requests:
        if r.method != "POST" or r.status >= 300 or r.message_id is None or not r.path.endswith("/messages"):
            continue
        m = fd.message(r.message_id)
        if m.channel.parent_id == parent and m.channel.id not in found and any(
                b.get("label") == HAND for b in m.buttons):
            found[m.channel.id] = (r.at, m)
    return found


def mentioned(message: FakeMessage) -> list[str]:
    """Whom the message's first revision notified (its allowed mentions)."""
    post = next(r for r in message.model.requests if r.message_id == message.id and r.method == "POST")
    return list((post.body or {}).get("allowed_mentions", {}).get("users", []))


def report(args: argparse.Namespace, result: Round, fd: LoopbackDiscord) -> None:
    tables = [t - result.started for t in result.tables]
    threads = [t - result.started for t in result.threads]
    requests = fd.requests[slice(*result.requests)]
    limits = fd.rate_limits
    kinds: dict[str, Counter[str]] = {"budgeted": Counter(), "exempt": Counter()}
    limited = Counter(r.rate_limited for r in requests if r.rate_limited)
    for r in requests:
        exempt = route_limit(limits.table, r.method, r.path, fd.application_id).exempt
        kinds["exempt" if exempt else "budgeted"][route_name(r.method, r.path)] += 1
    invalid = sum(1 for r in requests if r.status in (401, 403, 429))
    thread_limit = limits.table.thread_create
    print(f"Deckhand, Discord's rate limits on (threads: {thread_limit.limit} per {thread_limit.seconds:g} s a "
          f"channel): a round of {args.players} people, {args.players // 2} tables of War")
    print(f"Start now answered after {result.acknowledged:.2f} s" if result.acknowledged < float("inf")
          else "Start now never answered (the interaction failed)")
    print(f"tables playable: {len(tables)} table messages, {result.hands} hands answered; "
          f"{result.pinged} table messages notify both players")
    if tables:
        print(f"time from Start now: first table {tables[0]:.2f} s, median {statistics.median(tables):.2f} s, "
              f"last {tables[-1]:.2f} s (p90 {percentile(tables, .9):.2f} s); last thread {max(threads):.2f} s")
    for kind, counts in kinds.items():
        print(f"{kind} requests: {sum(counts.values())}")
        for route, n in counts.most_common():
            print(f"    {n:5d}  {route}")
    print(f"429s: {sum(limited.values())}" + "".join(f"; {what} {n}" for what, n in limited.most_common()))
    print(f"invalid requests: {invalid}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--thread-limit", help="the fake's thread-creation bucket per channel, COUNT/SECONDS")
    args = parser.parse_args()
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tournament-round-") as folder:
        result, fd = asyncio.run(run(args, Path(folder)))
    report(args, result, fd)
    progress(f"done in {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
