"""Discord's request budget, spent in one place: each budgeted request waits here for its turn.

Discord allows a bot token 50 requests a second across all its processes (interaction
callbacks and interaction webhooks are exempt), and each channel a few message creates,
edits and deletes every few seconds. A request made past a limit is answered 429, and
10,000 such answers (and 401/403s) in 10 minutes get the bot's address banned. So the
process keeps below its share of the global limit (:func:`process_rate`), sends nothing to
a channel whose bucket Discord's last answer said is empty (:meth:`Pacer.learn`: Discord
asks bots to read its headers rather than hard-code the per-route figures), and serves what
matters first (:class:`Priority`); requests of one priority go in the order they asked, so
every table gets its turn.

Discord counts a request when it arrives, not when the bot decided to send it, and the time
between the two varies (an upload takes longer, a busy event loop sends late): requests sent
evenly can arrive bunched, more of them in one of Discord's seconds than were sent in any
second. So a request counts against the budget from its turn until a second after its answer
came (:meth:`Pacer.request`): Discord answered it after counting it, so any second of
Discord's holds at most the budget of a second, however late each request arrived.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from enum import IntEnum

from .shards import Shards

GLOBAL_LIMIT = 50.0
"""Requests a second Discord allows one bot token, all its processes together."""
DEFAULT_RATE = 45.0
"""What Deckhand spends of it when it runs every shard: a margin for the requests it does not pace."""
WINDOW = 1.0
"""Seconds over which Discord counts its global limit."""
OLD_MESSAGE_SECONDS = 3600.0
"""Discord limits edits of messages older than this more tightly (error 30046)."""
DISCORD_EPOCH_MS = 1_420_070_400_000
MIN_WAIT = 0.001
"""The shortest wait between two looks at the queue."""
SLICE = 0.05
"""The longest: a request may come that can go at once (another channel), or one may end."""


class Route(IntEnum):
    """The per-channel limits a request counts against."""

    CREATE = 0
    EDIT = 1
    DELETE = 2
    OLD_EDIT = 3
    OTHER = 4
    THREAD = 5
    """Starting a thread in a channel (a tournament round opens one per table)."""


BURST = frozenset({Route.THREAD})
"""Routes whose requests go at once while their bucket allows (a round's threads: each is a table
its players wait for), rather than spread over the bucket's window as a table's messages are.
Until Discord's answer tells how many such a bucket holds, one request goes at a time, as
discord.py does for any bucket it does not know (and its answers count the others in flight)."""


class Priority(IntEnum):
    """What is served first when the budget is short."""

    TURN = 0
    """Showing a table's new state (an edit, or a message posted for it)."""
    PING = 1
    """Telling a player it is their turn."""
    TIDY = 2
    """Deleting a ping whose turn is over; cosmetic edits."""


def process_rate(shards: Shards, override: float | None = None) -> float:
    """Requests a second this process may spend: ``override`` (``DECKHAND_REST_RATE``, for bots
    Discord granted more), else :data:`DEFAULT_RATE` shared by processes in proportion to the
    shards they run (``0-3/8`` runs 4 of 8: half of it)."""
    if override is not None:
        return override
    if shards.ids is None or not shards.count:
        return DEFAULT_RATE
    return DEFAULT_RATE * len(shards.ids) / shards.count


def message_age(message_id: int, now: float | None = None) -> float:
    """Seconds since Discord created ``message_id`` (a snowflake holds its creation time)."""
    created = ((message_id >> 22) + DISCORD_EPOCH_MS) / 1000
    return (time.time() if now is None else now) - created


def edit_route(message_id: int) -> Route:
    """The limit an edit of ``message_id`` counts against."""
    return Route.OLD_EDIT if message_age(message_id) >= OLD_MESSAGE_SECONDS else Route.EDIT


@dataclass(order=True)
class _Ticket:
    priority: int
    order: int
    channel_id: int = field(compare=False)
    route: Route = field(compare=False)
    granted: asyncio.Future[None] = field(compare=False)


@dataclass
class _Bucket:
    """What Discord's last answer said of one channel's bucket for one route, and when the
    next request may go: the requests left are spread evenly until the bucket resets, so a
    busy channel is shown about once a second rather than five times at once, then not for
    five seconds."""

    remaining: int
    resets_at: float
    next_at: float
    spread: bool = True

    def spend(self, now: float) -> None:
        self.remaining -= 1
        spacing = max(self.resets_at - now, 0.0) / (self.remaining + 1) if self.spread and self.remaining > 0 else 0.0
        self.next_at = now + spacing


class Pacer:
    """Hands out the process's budgeted requests: at most ``rate`` in any second, counting each
    from its turn until a second after its answer; never into a channel bucket Discord said is
    empty; most important first."""

    def __init__(self, rate: float, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] | None = None) -> None:
        """``clock`` and ``sleep`` are time.monotonic and asyncio's, unless a test runs the
        pacer on time of its own."""
        if rate <= 0:
            raise ValueError(f"the request rate must be positive, not {rate}")
        self.rate = rate
        self.window = max(WINDOW, 1 / rate)
        self.limit = max(1, math.floor(rate * self.window))
        """Requests counted at once, at most: under way, or answered less than :attr:`window` ago."""
        self._clock = clock
        now = clock()
        # No burst at start-up: a process just replaced may have spent this second, so the
        # budget comes free at the rate, as if spent evenly over the last second.
        self._counted = collections.deque(now + (n + 1) / rate for n in range(self.limit))
        """When each answered request stops counting, the soonest first."""
        self._under_way = 0
        self._paused_until = 0.0
        self._waiting: list[_Ticket] = []
        self._orders = itertools.count()
        self._buckets: dict[tuple[int, Route], _Bucket] = {}
        self._outgoing: collections.Counter[tuple[int, Route]] = collections.Counter()
        """Requests granted and not answered yet, per channel and route."""
        self._sleep = sleep or _short_sleep
        self._dispatcher: asyncio.Task[None] | None = None
        self.granted = 0
        self.waited = 0
        """Requests that had to wait (for the budget or a channel's bucket)."""

    def waiting(self) -> int:
        """Requests waiting for their turn now."""
        return len(self._waiting)

    @contextlib.asynccontextmanager
    async def request(self, priority: Priority, channel_id: int, route: Route = Route.OTHER) -> AsyncIterator[None]:
        """Around one budgeted request of ``route`` in ``channel_id`` (with discord.py's own
        retries): its turn, then the budget counts it until a second after it ends."""
        await self.turn(priority, channel_id, route)
        try:
            yield
        finally:
            self._answered((channel_id, route))

    async def turn(self, priority: Priority, channel_id: int, route: Route) -> None:
        """Wait until the request may be made, and count it under way (until :meth:`request`,
        around it, says it ended)."""
        ticket = _Ticket(int(priority), next(self._orders), channel_id, route,
                         asyncio.get_running_loop().create_future())
        if self._grant_now(ticket):
            return
        self.waited += 1
        self._waiting.append(ticket)
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.get_running_loop().create_task(self._dispatch(), name="pacer")
        try:
            await ticket.granted
        except asyncio.CancelledError:
            if ticket in self._waiting:
                self._waiting.remove(ticket)
            elif ticket.granted.done() and not ticket.granted.cancelled():
                self._answered((channel_id, route))  # granted, then cancelled before it could go
            raise

    def _answered(self, key: tuple[int, Route]) -> None:
        self._under_way -= 1
        self._counted.append(self._clock() + self.window)
        self._outgoing[key] -= 1
        if self._outgoing[key] <= 0:
            del self._outgoing[key]

    def learn(self, channel_id: int, route: Route, remaining: int, reset_after: float) -> None:
        """What Discord's answer (to a request still under way) said of ``channel_id``'s bucket for
        ``route``. For a :data:`BURST` route the others under way may not be counted in it yet: they
        are taken off what is left."""
        if route is Route.OTHER:
            return
        now = self._clock()
        spread = route not in BURST
        if not spread:
            remaining = max(0, remaining - max(0, self._outgoing[(channel_id, route)] - 1))
        spacing = reset_after / (remaining + 1) if spread and remaining > 0 else 0.0
        self._buckets[(channel_id, route)] = _Bucket(remaining, now + reset_after, now + spacing, spread)
        if len(self._buckets) > 4096:
            now = self._clock()
            self._buckets = {key: b for key, b in self._buckets.items() if b.resets_at > now}

    def pause(self, seconds: float) -> None:
        """Send nothing for ``seconds`` (Discord answered a global 429)."""
        self._paused_until = max(self._paused_until, self._clock() + seconds)

    def close(self) -> None:
        if self._dispatcher is not None:
            self._dispatcher.cancel()
        for ticket in self._waiting:
            ticket.granted.cancel()
        self._waiting.clear()

    # -- internals -------------------------------------------------------------------------

    def _free(self, now: float) -> bool:
        """Whether the budget has room for one more request now."""
        while self._counted and self._counted[0] <= now:
            self._counted.popleft()
        return self._under_way + len(self._counted) < self.limit

    def _budget_free_at(self, now: float) -> float:
        """When the budget has room: when the soonest answered request stops counting; with every
        request under way, not before a second after the next answer (looked at again meanwhile)."""
        return self._counted[0] if self._counted else now + SLICE

    def _free_at(self, ticket: _Ticket, now: float) -> float:
        """When ``ticket``'s channel bucket has room (``now`` if it has, or nothing is known but
        for a :data:`BURST` route with a request under way: soon, once that is answered)."""
        key = (ticket.channel_id, ticket.route)
        bucket = self._buckets.get(key)
        if bucket is None or bucket.resets_at <= now:
            return now + SLICE if ticket.route in BURST and self._outgoing[key] else now
        if bucket.remaining <= 0:
            return bucket.resets_at
        return max(now, bucket.next_at)

    def _take(self, ticket: _Ticket, now: float) -> None:
        self._under_way += 1
        self.granted += 1
        self._outgoing[(ticket.channel_id, ticket.route)] += 1
        bucket = self._buckets.get((ticket.channel_id, ticket.route))
        if bucket is not None and bucket.resets_at > now:
            bucket.spend(now)  # until Discord's answer says how many are left
        if not ticket.granted.done():
            ticket.granted.set_result(None)

    def _grant_now(self, ticket: _Ticket) -> bool:
        """Grant at once when nobody waits and the budget and the channel allow."""
        now = self._clock()
        if self._waiting or now < self._paused_until:
            return False
        if not self._free(now) or self._free_at(ticket, now) > now:
            return False
        self._take(ticket, now)
        return True

    async def _dispatch(self) -> None:
        while self._waiting:
            now = self._clock()
            if now < self._paused_until:
                await self._sleep(max(self._paused_until - now, MIN_WAIT))
                continue
            if not self._free(now):
                await self._sleep(max(self._budget_free_at(now) - now, MIN_WAIT))
                continue
            self._waiting.sort()
            soonest = None
            for ticket in self._waiting:
                free_at = self._free_at(ticket, now)
                if free_at <= now:
                    self._waiting.remove(ticket)
                    self._take(ticket, now)
                    break
                soonest = free_at if soonest is None else min(soonest, free_at)
            else:
                await self._sleep(max((soonest if soonest is not None else now + 0.05) - now, MIN_WAIT))
        self._dispatcher = None


async def _short_sleep(seconds: float) -> None:
    """Sleep ``seconds``, at most :data:`SLICE`: a request arriving meanwhile is looked at soon."""
    await asyncio.sleep(min(seconds, SLICE))
