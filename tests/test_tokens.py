"""The bookkeeping of interaction tokens per message (cogs/tokens.py): the freshest token is
kept, none is used near its 15 minutes' end, and a refused one goes unless a fresher came."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

from cogs.tokens import SPARE_SECONDS, TOKEN_SECONDS, MessageTokens

START = 1_800_000_000.0


def interaction(at: float) -> SimpleNamespace:
    """What the bookkeeping reads of a discord.Interaction: when Discord made it."""
    return SimpleNamespace(created_at=datetime.datetime.fromtimestamp(at, datetime.UTC))


def test_the_freshest_token_is_kept_until_just_before_its_end():
    tokens: MessageTokens[str] = MessageTokens()
    older, newer = interaction(START), interaction(START + 60)
    tokens.note("hand", newer)
    tokens.note("hand", older)  # answered late: it would expire first
    assert tokens.freshest("hand", START + 61) is newer
    end = START + 60 + TOKEN_SECONDS
    assert tokens.freshest("hand", end - SPARE_SECONDS - 1) is newer
    assert tokens.freshest("hand", end - SPARE_SECONDS) is None
    assert len(tokens) == 0  # forgotten once too old


def test_a_refused_token_goes_unless_a_fresher_one_came_meanwhile():
    tokens: MessageTokens[str] = MessageTokens()
    first, second = interaction(START), interaction(START + 1)
    tokens.note("hand", first)
    tokens.note("hand", second)
    assert not tokens.drop("hand", first) and tokens.freshest("hand", START + 2) is second
    assert tokens.drop("hand", second) and tokens.freshest("hand", START + 2) is None


def test_a_sweep_forgets_the_tokens_that_ran_out():
    tokens: MessageTokens[int] = MessageTokens()
    tokens.note(1, interaction(START))
    tokens.note(2, interaction(START + TOKEN_SECONDS))
    assert tokens.sweep(START + TOKEN_SECONDS) == [1] and len(tokens) == 1
