"""Discord's request limits, enforced by the fake when a test turns them on.

Off by default: every answer is then as before, with no rate-limit header. One switch turns
them on for either transport::

    DiscordHarness(rate_limits=True)        # Discord's figures, the real clock
    LoopbackDiscord(rate_limits=True)
    DiscordHarness(rate_limits=RateLimiter(DISCORD_RATE_LIMITS.scaled(0.1)))  # same counts, 10x shorter windows
    DiscordHarness(rate_limits=RateLimiter(clock=ManualClock()))  # the fake alone, time in the test's hands

What is modelled (figures in :data:`DISCORD_RATE_LIMITS`, the one table):

* The global limit per bot token (the ``Authorization`` header), which interaction callbacks
  (``/interactions/{id}/{token}/callback``) and interaction webhooks (``/webhooks/{application
  id}/{token}…``) do not count towards.
* Per-route buckets keyed, as Discord keys them, by the route and its top-level resource
  (channel, guild, or webhook id and token): message create, edit and delete per channel;
  interaction webhooks per token; starting a thread per parent channel, a bucket of scope
  ``shared`` (the channel's, whoever starts threads there: its 429s are not invalid requests);
  every other route a bucket that never binds, so every answer carries headers. A bucket is a
  fixed window opened by its first request.
* Editing a message older than an hour: its own, stricter per-channel limit, refused with
  Discord's error 30046. A test makes a message old through its ``created_at`` (or lets a
  :class:`ManualClock` run past the hour).
* Every answer carries ``X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket`` and ``Via``
  (discord.py takes a 429 without ``Via`` for a Cloudflare ban and does not retry it); a 429
  adds ``Retry-After``, ``X-RateLimit-Scope`` and, when global, ``X-RateLimit-Global``, with
  Discord's JSON body ``{"message", "retry_after", "global", "code"}``. discord.py retries a
  429 after the body's ``retry_after`` (at most five tries) and waits out a bucket whose
  ``X-RateLimit-Remaining`` is 0 for ``X-RateLimit-Reset-After``; it reads no other header.
* Invalid requests (401, 403, 429) are counted;
  :meth:`RateLimiter.invalid_requests` is the count in the last 10 minutes, the window in
  which 10,000 get the bot's address banned.

Refused requests are recorded like the others (``RecordedRequest.rate_limited`` says what
refused them) and are no failure of the test: a 429 is how Discord answers, not a bug.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .messages import HTTPError

Clock = Callable[[], float]
"""Seconds on a monotonic scale; only differences matter."""


@dataclass(frozen=True)
class Window:
    """At most ``limit`` requests in a window of ``seconds`` that opens with its first request."""

    limit: int
    seconds: float


@dataclass(frozen=True)
class RateLimitTable:
    """Every figure the fake enforces; :data:`DISCORD_RATE_LIMITS` says where each comes from."""

    global_requests: Window
    message_create: Window
    message_edit: Window
    message_delete: Window
    old_message_edit: Window
    old_message_age: float
    interaction_webhook: Window
    thread_create: Window
    other_route: Window
    invalid_window: float
    invalid_ban: int

    def scaled(self, factor: float) -> RateLimitTable:
        """The same counts in windows ``factor`` times as long (0.1: ten times quicker tests).
        What an old message is, and the invalid-request window, stay as they are."""
        return dataclasses.replace(self, **{
            f.name: Window(value.limit, value.seconds * factor)
            for f in dataclasses.fields(self) if isinstance(value := getattr(self, f.name), Window)})


DISCORD_RATE_LIMITS = RateLimitTable(
    # Discord's developer docs, Topics > Rate Limits > "Global Rate Limit": "All bots can make up to 50
    # requests per second to our API"; "Interaction endpoints are not bound to the bot's Global Rate Limit".
    global_requests=Window(50, 1.0),
    # Not published (the same page: "rate limits should not be hard coded"; only the headers tell).
    # What bots see in those headers, per channel: Send Messages 5 / 5 s (javacord's wiki, "The Most
    # Important Ratelimits"); DESIGN.md and issue 29 take the same figure for edits.
    message_create=Window(5, 5.0),
    message_edit=Window(5, 5.0),
    # Not published; Delete Messages 5 / 1 s per channel (javacord's wiki, as above; DESIGN.md).
    message_delete=Window(5, 1.0),
    # Not published: Discord documents only error 30046, "Maximum number of edits to messages older than
    # 1 hour reached. Try again later." (Opcodes and Status Codes), and declines to give the figure
    # (discord-api-docs#4413). 3 edits / 6 s per channel is DESIGN.md's and issue 29's.
    old_message_edit=Window(3, 6.0),
    old_message_age=3600.0,  # error 30046's own text: "messages older than 1 hour"
    # Not published for interaction tokens: webhooks get 5 requests / 2 s each (birdie0's Discord
    # webhooks guide, quoted in discord-api-docs#6753), and each interaction token has buckets of its
    # own (germanoeich/nirn-proxy#9).
    interaction_webhook=Window(5, 2.0),
    # Not published either. What bots' answers show of POST /channels/{id}/threads: a bucket per parent
    # channel of scope "shared" whose 429s ask to wait minutes (retry_after 219 s, discord-api-docs#7816;
    # 136 s, 260 s and 280 s, NousResearch/hermes-agent#88653, #76060, #96101): a window of five minutes.
    # How many threads it holds nobody reports; 50 is this fake's assumption. Deckhand reads the bucket
    # from the headers, as Discord asks, and bench/tournament_round.py measures a round under other figures.
    thread_create=Window(50, 300.0),
    # Not a Discord figure: the routes the fake does not model get a bucket that never binds here, so
    # that every answer carries rate-limit headers as Discord's do.
    other_route=Window(50, 1.0),
    # Discord's developer docs, "Invalid Request Limit aka Cloudflare bans": 10,000 invalid requests
    # (401, 403, 429; a 429 of scope "shared" not counted) in 10 minutes restrict the address.
    invalid_window=600.0,
    invalid_ban=10_000,
)

VIA = "1.1 google"
"""The ``Via`` header Discord's answers carry (its load balancer)."""
OLD_MESSAGE_EDITS = "30046"
"""What :attr:`RateLimiter.limited` counts the refusals of edits to old messages under."""
GLOBAL = "global"


class ManualClock:
    """A clock that moves only when told (for tests of the fake on its own)."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class RateLimited(HTTPError):
    """Discord's 429: ``retry_after`` seconds to wait; ``is_global`` for the global limit;
    ``limit`` what refused it (``"global"``, the route's name, or ``"30046"``)."""

    def __init__(self, message: str, *, limit: str, retry_after: float, scope: str, code: int = 0,
                 headers: dict[str, str]) -> None:
        super().__init__(429, code, message, headers=headers)
        self.limit, self.retry_after, self.scope = limit, retry_after, scope
        self.is_global = limit == GLOBAL

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), "retry_after": self.retry_after, "global": self.is_global}


@dataclass(frozen=True)
class RouteLimit:
    """How Discord limits one request: its route (the name the fake counts it under), the
    top-level resource its bucket is kept for, whether the global limit spares it, the
    message it edits through a channel route (for the limit on old messages), and whether its
    bucket is the resource's, shared by everyone (scope ``shared``)."""

    route: str
    resource: str
    window: Window
    exempt: bool = False
    edits_message: int | None = None
    shared: bool = False


_ID = re.compile(r"/\d+")
_INTERACTION_CALLBACK = re.compile(r"/interactions/(\d+)/([^/]+)/callback")
_WEBHOOK = re.compile(r"/webhooks/(\d+)/([^/]+)(?:/.*)?")
_CHANNEL_MESSAGES = re.compile(r"/channels/(\d+)/messages")
_CHANNEL_MESSAGE = re.compile(r"/channels/(\d+)/messages/(\d+)")
_THREAD_START = re.compile(r"/channels/(\d+)(?:/messages/\d+)?/threads")
_TOP_LEVEL = re.compile(r"/(?:channels|guilds|webhooks)/(\d+)")


def route_name(method: str, path: str) -> str:
    """``method`` and ``path`` with ids and tokens as placeholders: ``PATCH /channels/{id}/messages/{id}``."""
    path = _INTERACTION_CALLBACK.sub(r"/interactions/\1/{token}/callback", path)
    path = re.sub(r"^/webhooks/(\d+)/[^/]+", r"/webhooks/\1/{token}", path)
    return f"{method} {_ID.sub('/{id}', path)}"


def route_limit(table: RateLimitTable, method: str, path: str, application_id: int) -> RouteLimit:
    """What limits ``method path`` (``path`` below ``/api/v10``)."""
    name = route_name(method, path)
    if m := _INTERACTION_CALLBACK.fullmatch(path):
        return RouteLimit(name, m[1], table.other_route, exempt=True)
    if (m := _WEBHOOK.fullmatch(path)) and int(m[1]) == application_id:
        return RouteLimit(name, f"{m[1]}:{m[2]}", table.interaction_webhook, exempt=True)
    if method == "POST" and (m := _CHANNEL_MESSAGES.fullmatch(path)):
        return RouteLimit(name, m[1], table.message_create)
    if method == "POST" and (m := _THREAD_START.fullmatch(path)):
        return RouteLimit("POST /channels/{id}/threads", m[1], table.thread_create, shared=True)
    if m := _CHANNEL_MESSAGE.fullmatch(path):
        if method == "PATCH":
            return RouteLimit(name, m[1], table.message_edit, edits_message=int(m[2]))
        if method == "DELETE":
            return RouteLimit(name, m[1], table.message_delete)
    top = _TOP_LEVEL.match(path)
    return RouteLimit(name, top[1] if top else "", table.other_route)


@dataclass
class _Bucket:
    """One fixed window: ``used`` requests since it opened; it closes at ``resets_at``."""

    window: Window
    used: int = 0
    resets_at: float = -math.inf

    def full(self, now: float) -> bool:
        return now < self.resets_at and self.used >= self.window.limit

    def take(self, now: float) -> None:
        if now >= self.resets_at:
            self.used, self.resets_at = 0, now + self.window.seconds
        self.used += 1

    def remaining(self, now: float) -> int:
        return self.window.limit if now >= self.resets_at else max(0, self.window.limit - self.used)

    def reset_after(self, now: float) -> float:
        return max(0.0, self.resets_at - now)


def _up_to_ms(seconds: float) -> float:
    """Rounded up to the millisecond: a client that waits this long finds the bucket open."""
    return math.ceil(seconds * 1000 - 1e-6) / 1000


class RateLimiter:
    """Discord's rate limits with the figures of ``table``, over time read from ``clock``
    (``time.monotonic`` by default: the clock asyncio, and so discord.py's waits, run on), and
    what they refused: :attr:`limited` counts 429s by what refused them (``"global"``, a
    route name, or ``"30046"``)."""

    def __init__(self, table: RateLimitTable = DISCORD_RATE_LIMITS, *, clock: Clock = time.monotonic) -> None:
        self.table = table
        self.clock = clock
        self._epoch_offset = time.time() - clock()
        self._global: dict[str | None, _Bucket] = {}
        self._routes: dict[tuple[str, str], _Bucket] = {}
        self._old_edits: dict[str, _Bucket] = {}
        self._invalid: collections.deque[float] = collections.deque()
        self.limited: collections.Counter[str] = collections.Counter()
        self.invalid_total = 0

    def epoch(self) -> float:
        """Now, in seconds since 1970 (what ``X-RateLimit-Reset`` and message ages are measured in)."""
        return self._epoch_offset + self.clock()

    def admit(self, limit: RouteLimit, *, token: str | None,
              message_created: Callable[[int], float | None]) -> dict[str, str]:
        """Count one request against its limits and return its answer's headers, or raise
        :class:`RateLimited` (whose ``headers`` are that answer's). ``message_created`` gives
        the epoch second a message was created at (None: no such message)."""
        now = self.clock()
        if not limit.exempt:
            bucket = self._global.setdefault(token, _Bucket(self.table.global_requests))
            if bucket.full(now):
                raise self._refused(GLOBAL, "You are being rate limited.", bucket.reset_after(now),
                                    {"X-RateLimit-Global": "true", "Via": VIA})
            bucket.take(now)
        bucket = self._routes.setdefault((limit.route, limit.resource), _Bucket(limit.window))
        if bucket.full(now):
            raise self._refused(limit.route, "You are being rate limited.", bucket.reset_after(now),
                                self._headers(limit.route, bucket, now), scope="shared" if limit.shared else "user")
        old = self._old_edits_bucket(limit, message_created)
        if old is not None and old.full(now):
            # A sub-limit: the route's own headers still show requests remaining, as Discord's do.
            raise self._refused(OLD_MESSAGE_EDITS, "Maximum number of edits to messages older than 1 hour reached. "
                                "Try again later.", old.reset_after(now), self._headers(limit.route, bucket, now),
                                code=30046)
        bucket.take(now)
        if old is not None:
            old.take(now)
        return self._headers(limit.route, bucket, now)

    def _old_edits_bucket(self, limit: RouteLimit, message_created: Callable[[int], float | None]) -> _Bucket | None:
        """The channel's bucket for edits of old messages, if ``limit`` edits such a message."""
        if limit.edits_message is None:
            return None
        created = message_created(limit.edits_message)
        if created is None or self.epoch() - created <= self.table.old_message_age:
            return None
        return self._old_edits.setdefault(limit.resource, _Bucket(self.table.old_message_edit))

    def _headers(self, route: str, bucket: _Bucket, now: float) -> dict[str, str]:
        reset_after = _up_to_ms(bucket.reset_after(now))
        return {
            "X-RateLimit-Limit": str(bucket.window.limit),
            "X-RateLimit-Remaining": str(bucket.remaining(now)),
            "X-RateLimit-Reset": f"{self._epoch_offset + now + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
            "Via": VIA,
        }

    def _refused(self, limit: str, message: str, wait: float, headers: dict[str, str], code: int = 0,
                 scope: str = "user") -> RateLimited:
        """Count a 429 and make it, with Discord's ``Retry-After`` (whole seconds) and scope."""
        self.limited[limit] += 1
        retry_after = _up_to_ms(wait)
        scope = GLOBAL if limit == GLOBAL else scope
        return RateLimited(message, limit=limit, retry_after=retry_after, scope=scope, code=code,
                           headers={**headers, "Retry-After": str(math.ceil(retry_after)), "X-RateLimit-Scope": scope})

    def answered(self, status: int, scope: str | None = None) -> None:
        """Count an answer towards the invalid requests if it is one (401, 403 or 429, but a 429 of
        scope ``shared``, which Discord does not count)."""
        if status in (401, 403, 429) and scope != "shared":
            self._invalid.append(self.clock())
            self.invalid_total += 1

    def invalid_requests(self) -> int:
        """Invalid requests in the last :attr:`RateLimitTable.invalid_window` seconds (10 minutes)."""
        horizon = self.clock() - self.table.invalid_window
        while self._invalid and self._invalid[0] <= horizon:
            self._invalid.popleft()
        return len(self._invalid)
