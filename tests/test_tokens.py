"""The bookkeeping of interaction tokens (cogs/tokens.py): per message, the freshest token is
kept, none is used near its 15 minutes' end, and a refused one goes unless a fresher came; per
channel, the newest answered interaction with a minute left carries a ping."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import discord

from cogs.tokens import SPARE_SECONDS, TOKEN_SECONDS, WEBHOOK_SPARE_SECONDS, ChannelTokens, MessageTokens

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



def in_channel(at: float, channel: int = 5, answered: discord.InteractionResponseType | None = None) -> SimpleNamespace:
    """What the bookkeeping reads of a click in a server channel at ``at``, answered as
    ``answered`` (None: not yet)."""
    response = SimpleNamespace(is_done=lambda: answered is not None, type=answered)
    return SimpleNamespace(created_at=datetime.datetime.fromtimestamp(at, datetime.UTC), guild_id=1,
                           channel_id=channel, response=response)


def test_a_channels_ping_rides_on_its_newest_interaction_answered_with_a_minute_left():
    channels = ChannelTokens()
    update = discord.InteractionResponseType.message_update
    newer = in_channel(START + 5, answered=update)
    for click in (in_channel(START, answered=update), newer, in_channel(START + 9),
                  in_channel(START + 9, channel=6, answered=update)):
        channels.saw(click)
    channels.saw(SimpleNamespace(guild_id=None, channel_id=5))  # a direct message: no channel to ping in
    assert channels.freshest(5, START + 10).interaction is newer  # the newest is still being answered
    channels.saw(in_channel(START + 12, answered=discord.InteractionResponseType.modal))  # a form carries none
    assert channels.freshest(5, START + 13).interaction is newer
    last_use = START + 5 + TOKEN_SECONDS - WEBHOOK_SPARE_SECONDS
    assert channels.freshest(5, last_use).interaction is newer and channels.freshest(5, last_use + 1) is None
    assert channels.freshest(7, START + 13) is None
