"""Every REST request the bot makes, counted as Discord counts them, and reported.

discord.py lets a client watch its HTTP traffic through an aiohttp ``TraceConfig``
(``http_trace``). The meter counts each answer by kind (budgeted or exempt), tells the
:class:`~bot.budget.Pacer` what Discord's rate-limit headers say, and counts what Discord
counts towards banning the bot's address: 401, 403 and 429 answers (a 429 of a *shared*
bucket excepted), 10,000 of which in 10 minutes get it banned for a while. It logs a line
every :data:`REPORT_SECONDS` while the bot is busy, warns long before that threshold, and
warns when the bot sits at its budget (it then shows tables less often; nothing is lost).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import re
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp

from .budget import Pacer, Route

log = logging.getLogger(__name__)

REPORT_SECONDS = 600.0
INVALID_WINDOW = 600.0
INVALID_LIMIT = 10_000
"""Invalid requests in :data:`INVALID_WINDOW` seconds that get the bot's address banned."""
INVALID_WARNING = 1_000
"""Invalid requests in the window at which the log warns (a tenth of the limit)."""
SATURATED_SHARE = 0.5
"""Share of budgeted requests that had to wait for their turn above which the bot sits at its budget."""

_CALLBACK = re.compile(r"/interactions/\d+/[^/]+/callback")
_WEBHOOK = re.compile(r"/webhooks/\d+/[^/]+")
_MESSAGES = re.compile(r"/channels/(\d+)/messages(?:/(\d+))?$")
_THREADS = re.compile(r"/channels/(\d+)/threads$")


def classify(method: str, path: str) -> tuple[str, int | None, Route]:
    """(kind, channel id, route) of a request: kind is what the counts are kept by
    ("callback" and "webhook" are exempt from the global limit)."""
    if _CALLBACK.search(path):
        return "callback", None, Route.OTHER
    if _WEBHOOK.search(path):
        return "webhook", None, Route.OTHER
    match = _MESSAGES.search(path)
    if match is not None:
        channel = int(match[1])
        if method == "POST" and match[2] is None:
            return "message create", channel, Route.CREATE
        if method == "PATCH" and match[2] is not None:
            return "message edit", channel, Route.EDIT
        if method == "DELETE" and match[2] is not None:
            return "message delete", channel, Route.DELETE
    match = _THREADS.search(path)
    if match is not None and method == "POST":
        return "thread create", int(match[1]), Route.THREAD
    return "other", None, Route.OTHER


EXEMPT = ("callback", "webhook")


class RequestMeter:
    def __init__(self, pacer: Pacer | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.pacer = pacer
        self._clock = clock
        self.counts: collections.Counter[str] = collections.Counter()
        """Answers by kind since the last report."""
        self.rate_limited: collections.Counter[str] = collections.Counter()
        """429 answers since the last report: "global", or the kind of request."""
        self._invalid: collections.deque[float] = collections.deque()
        self._period_started = clock()
        self._warned_at = -INVALID_WINDOW
        self._reporter: asyncio.Task[None] | None = None

    def trace_config(self) -> aiohttp.TraceConfig:
        """What discord.py's ``http_trace`` takes: the meter sees every answer."""
        config = aiohttp.TraceConfig()
        config.on_request_end.append(self._on_request_end)
        return config

    async def _on_request_end(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                              params: aiohttp.TraceRequestEndParams) -> None:
        response = params.response
        self.record(params.method, params.url.path, response.status, response.headers)

    def record(self, method: str, path: str, status: int, headers: Any) -> None:
        """Count one answer and learn from its headers."""
        kind, channel, route = classify(method, path)
        self.counts[kind] += 1
        remaining, reset_after = headers.get("X-RateLimit-Remaining"), headers.get("X-RateLimit-Reset-After")
        if self.pacer is not None and channel is not None and remaining is not None and reset_after is not None:
            try:
                self.pacer.learn(channel, route, int(remaining), float(reset_after))
            except ValueError:
                pass
        if status == 429:
            scope = headers.get("X-RateLimit-Scope", "")
            is_global = headers.get("X-RateLimit-Global", "").lower() == "true" or scope == "global"
            self.rate_limited["global" if is_global else kind] += 1
            if is_global and self.pacer is not None:
                self.pacer.pause(_seconds(headers.get("Retry-After")))
            if scope != "shared":  # Discord does not count a shared bucket's 429s against the bot
                self._invalid_answer()
        elif status in (401, 403):
            self._invalid_answer()

    def _invalid_answer(self) -> None:
        now = self._clock()
        self._invalid.append(now)
        count = self.invalid_in_window(now)
        if count >= INVALID_WARNING and now - self._warned_at >= 60:
            self._warned_at = now
            log.warning("%d invalid requests (401, 403, 429) to Discord in the last %d minutes; at %d Discord "
                        "bans the bot's address for a while", count, INVALID_WINDOW // 60, INVALID_LIMIT)

    def invalid_in_window(self, now: float | None = None) -> int:
        """Invalid answers in the last :data:`INVALID_WINDOW` seconds."""
        now = self._clock() if now is None else now
        while self._invalid and self._invalid[0] <= now - INVALID_WINDOW:
            self._invalid.popleft()
        return len(self._invalid)

    def report(self) -> str | None:
        """The period's line (and start a new period), or None if nothing was sent."""
        now = self._clock()
        seconds = max(now - self._period_started, 1e-9)
        self._period_started = now
        counts, self.counts = self.counts, collections.Counter()
        limited, self.rate_limited = self.rate_limited, collections.Counter()
        if not counts:
            return None
        budgeted = sum(n for kind, n in counts.items() if kind not in EXEMPT)
        by_kind = ", ".join(f"{kind} {n / seconds:.2f}" for kind, n in sorted(counts.items()))
        line = (f"Discord requests/s over the last {seconds / 60:.0f} min: {budgeted / seconds:.2f} budgeted "
                f"({by_kind}); 429s: {sum(limited.values())}"
                f"{' (' + ', '.join(f'{k} {n}' for k, n in sorted(limited.items())) + ')' if limited else ''}; "
                f"invalid requests in the last 10 min: {self.invalid_in_window(now)}")
        return line

    def start_reporting(self) -> None:
        if self._reporter is None:
            self._reporter = asyncio.get_running_loop().create_task(self._report_every_period(), name="request-meter")

    async def _report_every_period(self) -> None:
        while True:
            await asyncio.sleep(REPORT_SECONDS)
            line = self.report()
            if line is None:
                continue
            log.info(line)
            pacer = self.pacer
            if pacer is not None and pacer.granted and pacer.waited / pacer.granted > SATURATED_SHARE:
                log.warning("Deckhand sits at its Discord budget (%.0f requests/s): %d%% of its requests waited for "
                            "their turn, so tables are shown less often. Nothing is lost; more shards in more "
                            "processes do not help (the limit is per bot token), DECKHAND_REST_RATE does if Discord "
                            "granted the bot more.", pacer.rate, 100 * pacer.waited / pacer.granted)
            if pacer is not None:
                pacer.granted = pacer.waited = 0

    def close(self) -> None:
        if self._reporter is not None:
            self._reporter.cancel()
            self._reporter = None


def _seconds(value: str | None) -> float:
    try:
        return max(0.0, float(value)) if value else 1.0
    except ValueError:
        return 1.0
