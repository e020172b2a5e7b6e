"""What every response passes: security headers, per-address limits, and polite error pages.

- Every response carries a strict Content-Security-Policy (scripts and styles only from this
  site's own files, no inline script, no frames), ``nosniff`` and ``no-referrer`` (a server's
  unguessable link never leaks to another site through a click).
- Each address (:func:`client_address`) may make :attr:`Limits.requests_per_second` requests a
  second on average (a burst of :attr:`Limits.burst`), and hold :attr:`Limits.streams` event
  streams open at once; beyond that it is answered 429 with a short page.
- An unknown address, or a failure of ours, answers a short page in the reader's language,
  never a traceback; a 404 never says whether a server or table exists.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from games.i18n import say

from .html import html, page
from .reader import reader_language

log = logging.getLogger(__name__)

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

NOT_FOUND = say("Nothing here: the link may be wrong, or no longer in use.")
TOO_MANY = say("Too many requests from your address: wait a moment, then try again.")
BROKEN = say("Something went wrong on our side. Please try again in a moment.")
BAD_REQUEST = say("That request doesn't make sense to Deckhand.")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Limits:
    """Per-address limits (one address is one client IP as the server sees it)."""

    requests_per_second: float = 20.0
    burst: float = 60.0
    streams: int = 16
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict, repr=False)
    _streams: dict[str, int] = field(default_factory=dict, repr=False)

    def allow_request(self, address: str, now: float) -> bool:
        """Take one request from ``address``'s bucket; False when it is empty."""
        tokens, since = self._buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - since) * self.requests_per_second)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return False
        self._buckets[address] = (tokens - 1, now)
        if len(self._buckets) > 10_000:  # forget full buckets: they are what a new address gets
            self._buckets = {a: b for a, b in self._buckets.items() if b[0] < self.burst - 1}
        return True

    def open_stream(self, address: str) -> bool:
        """Count one more open stream for ``address``; False (and not counted) beyond the limit."""
        if self._streams.get(address, 0) >= self.streams:
            return False
        self._streams[address] = self._streams.get(address, 0) + 1
        return True

    def close_stream(self, address: str) -> None:
        left = self._streams.get(address, 1) - 1
        if left:
            self._streams[address] = left
        else:
            self._streams.pop(address, None)


LIMITS = web.AppKey("limits", Limits)
LOOPBACK = ("127.0.0.1", "::1")


def client_address(request: web.Request) -> str:
    """Who the limits count a request against: the peer's address, or, when the peer is this machine
    (the operator's HTTPS proxy in front of the site), the last address its X-Forwarded-For names."""
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For", "")
    if peer in LOOPBACK and forwarded:
        return forwarded.rsplit(",", 1)[-1].strip()[:64] or peer
    return peer


def short_page(request: web.Request, status: int, message: str) -> web.Response:
    """A page of one sentence, in the reader's language."""
    language = reader_language(request)
    body = html('<h1>Deckhand</h1><p class="notice">{message}</p><p><a href="/">{home}</a></p>',
                message=message, home=say("Home").render(language))
    return web.Response(status=status, text=page("Deckhand", body, language), content_type="text/html")


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    language = reader_language(request)
    limits = request.app[LIMITS]
    if not limits.allow_request(client_address(request), time.monotonic()):
        response: web.StreamResponse = short_page(request, 429, TOO_MANY.render(language))
    else:
        try:
            response = await handler(request)
        except web.HTTPNotFound:
            response = short_page(request, 404, NOT_FOUND.render(language))
        except web.HTTPMethodNotAllowed:
            response = short_page(request, 405, BAD_REQUEST.render(language))
        except web.HTTPException as exc:
            if exc.status >= 400:
                response = short_page(request, exc.status, exc.text if exc.text and not exc.text.startswith(
                    f"{exc.status}:") else BAD_REQUEST.render(language))
            else:
                raise
        except Exception:
            log.exception("the page %s failed", request.path)
            response = short_page(request, 500, BROKEN.render(language))
    if not response.prepared:
        response.headers.update(HEADERS)
    return response


def secure_headers(response: web.StreamResponse) -> None:
    """The headers of :data:`HEADERS`, on a response prepared by its handler (an event stream)."""
    response.headers.update(HEADERS)
