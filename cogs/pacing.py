"""Deckhand's budgeted requests to Discord: paced by the process's pacer, retried when rate-limited, never sent twice.

Every budgeted request waits for its turn at the :class:`~bot.budget.Pacer` (:func:`paced`). A
request Discord still rate-limits past discord.py's own retries (429, or 30046: too many edits of
a message older than an hour) is :func:`rate_limited`, and its caller tries again after
:func:`retry_wait`. A message posted with a :func:`nonce` is taken once, however often a retry
after a crash sends it. Interaction callbacks and webhooks are outside the budget
(:mod:`cogs.tokens`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.budget import Pacer, Priority, Route

OLD_MESSAGE_EDITS = 30046
"""Discord's error code for too many edits of a message older than an hour."""
OLD_EDIT_SECONDS = 6.0
"""How long Discord's bucket for edits of old messages takes to refill (3 edits per 6 s per channel)."""
RETRY_SECONDS = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Waits before showing a table again after Discord rate-limited it past discord.py's retries."""


def paced(request: Callable[..., Awaitable[Any]], pacer: Pacer, priority: Priority, channel_id: int,
          route: Route) -> Callable[..., Awaitable[Any]]:
    """``request`` (a discord.py call taking keyword arguments), made when ``pacer`` grants it a turn."""
    async def paced_request(**kwargs: Any) -> Any:
        async with pacer.request(priority, channel_id, route):
            return await request(**kwargs)

    return paced_request


def rate_limited(exc: discord.HTTPException, pacer: Pacer, channel_id: int) -> bool:
    """Whether Discord refused a request for the budget (429, or 30046, whose bucket ``pacer`` then
    knows to be empty for the channel): tried again later, not a failure."""
    if exc.code == OLD_MESSAGE_EDITS:
        pacer.learn(channel_id, Route.OLD_EDIT, 0, OLD_EDIT_SECONDS)
        return True
    return exc.status == 429


def retry_wait(failures: int) -> float:
    """Seconds to wait before trying again after ``failures`` rate-limited tries in a row."""
    return RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]


def nonce(*parts: object) -> str:
    """A message nonce (at most 25 characters): Discord then takes a message sent twice, as
    after a crash between sending it and storing its id, as the first one."""
    text = "dh" + "".join(str(p) for p in parts)
    return text if len(text) <= 25 else str(abs(hash(text)) % 10**24)
