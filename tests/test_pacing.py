"""Deckhand's budgeted requests (cogs/pacing.py): a request Discord still rate-limits is tried
again later with waits that grow to every 30 s, a 30046 holds back edits of old messages in its
channel until its bucket refills, and a nonce fits Discord's 25 characters."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.budget import Priority, Route
from cogs.pacing import OLD_EDIT_SECONDS, OLD_MESSAGE_EDITS, RETRY_SECONDS, nonce, rate_limited, retry_wait
from tests.test_budget import granted_in_order, paced


def refusal(status: int, code: int = 0) -> discord.HTTPException:
    """What discord.py raises for Discord's answer ``status`` with its error ``code``."""
    return discord.HTTPException(SimpleNamespace(status=status, reason="refused"), {"code": code, "message": "no"})


async def test_a_429_or_a_30046_is_tried_again_later_and_a_30046_holds_old_edits_in_its_channel():
    pacer = paced()
    assert rate_limited(refusal(429), pacer, 7)
    assert not rate_limited(refusal(500), pacer, 7) and not rate_limited(refusal(403, 50013), pacer, 7)
    before = pacer._clock()  # type: ignore[attr-defined]
    assert rate_limited(refusal(400, OLD_MESSAGE_EDITS), pacer, 7)
    order = await granted_in_order(pacer, [
        ("old edit in 7", Priority.TURN, 7, Route.OLD_EDIT), ("old edit in 8", Priority.TURN, 8, Route.OLD_EDIT),
        ("post in 7", Priority.TURN, 7, Route.CREATE),
    ])
    assert order == ["old edit in 8", "post in 7", "old edit in 7"]
    assert pacer._clock() - before >= OLD_EDIT_SECONDS  # type: ignore[attr-defined]
    pacer.close()


def test_retries_wait_longer_each_time_then_every_30_seconds():
    waits = [retry_wait(failures) for failures in range(8)]
    assert waits[:len(RETRY_SECONDS)] == list(RETRY_SECONDS) == sorted(RETRY_SECONDS)
    assert waits[len(RETRY_SECONDS):] == [30.0] * (8 - len(RETRY_SECONDS))


def test_a_nonce_is_the_same_for_the_same_message_and_fits_discords_25_characters():
    assert nonce("t", 7, "v", 3) == "dht7v3" == nonce("t", 7, "v", 3)
    long = nonce("p", 9_223_372_036_854_775_807, "v", 123_456)
    assert len(long) <= 25 and long == nonce("p", 9_223_372_036_854_775_807, "v", 123_456)
    assert long != nonce("p", 9_223_372_036_854_775_806, "v", 123_456)
