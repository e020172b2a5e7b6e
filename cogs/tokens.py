"""Interaction tokens, which reach Discord outside the global request budget: kept per message and per channel.

An interaction's token edits its original response for 15 minutes, through the
interaction's webhook, which is outside Discord's global request budget: so a message a
token may edit is edited that way (:class:`MessageTokens`; a public message clicked,
:class:`ClickedMessages`), and a channel's recent
interactions carry its turn pings as follow-ups (:class:`ChannelTokens`). Discord's rules (the
fake Discord holds the bot to them):

* ``@original`` is the message the interaction's answer created (a message, or a "thinking"
  one filled in later), or, for a click answered by updating its message (at once or after a
  deferral), the message clicked;
* a token edits nothing else through ``@original``, and an ephemeral message is reached by no
  other route (no channel route, no other interaction's token);
* after 15 minutes the token is refused (401 Invalid Webhook Token), and a message that is
  gone is Unknown Message (404).

Tokens are kept in memory only: after a restart none is known, as if all had expired.
"""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import discord

from .webhook_requests import edit_original_response

TOKEN_SECONDS = 15 * 60
"""How long an interaction's token may edit its original response (Discord's 15 minutes)."""
SPARE_SECONDS = 15.0
"""A token this close to its end is not used: an edit and its picture take a moment, and a
refused one counts towards Discord's limit on invalid requests."""

WEBHOOK_SPARE_SECONDS = 60.0
"""An interaction's webhook carries a ping only while this much of its 15 minutes is left."""
RECENT_INTERACTIONS = 3
"""Interactions kept per channel: the newest answered one carries the ping."""
CHANNELS_KEPT = 10_000
"""Channels whose interactions are kept before those whose tokens all ran out are swept out."""
UPDATES = (discord.InteractionResponseType.deferred_message_update, discord.InteractionResponseType.message_update)
"""Answers that make the message clicked the interaction's original response."""
ANSWERED = (discord.InteractionResponseType.channel_message, *UPDATES)
"""Answers after which an interaction's follow-ups are messages of their own (not the answer itself)."""
MESSAGES_KEPT = 10_000
"""Public messages whose clicks are kept before those whose tokens all ran out are swept out."""

K = TypeVar("K")


def token_expiry(interaction: discord.Interaction) -> float:
    """When ``interaction``'s token stops working (seconds since the epoch): 15 minutes after
    Discord made the interaction, which its id says."""
    return interaction.created_at.timestamp() + TOKEN_SECONDS


class TokenRefused(Exception):
    """Discord refused an edit through a token (401, or 404 Unknown Webhook or Unknown Message):
    it expired, or its message is gone. The token is of no more use for that message."""


async def edit_original(interaction: discord.Interaction, **body: Any) -> None:
    """Edit ``interaction``'s original response as ``body`` says (the arguments of
    :meth:`discord.Interaction.edit_original_response`); :class:`TokenRefused` if Discord
    refuses the token, any other refusal as discord.py raises it."""
    try:
        await edit_original_response(interaction, **body)
    except discord.HTTPException as exc:
        if exc.status in (401, 404):
            raise TokenRefused(f"{exc.status} {exc.text}") from exc
        raise


class MessageTokens(Generic[K]):
    """Per message, named by the caller's key (a person's open hand by table and person; a
    table message by its id), the freshest interaction whose token may edit it as its
    original response."""

    def __init__(self) -> None:
        self._tokens: dict[K, discord.Interaction] = {}

    def __len__(self) -> int:
        return len(self._tokens)

    def note(self, key: K, interaction: discord.Interaction) -> None:
        """``interaction``'s original response is ``key``'s message: its token is kept for it
        unless one that lasts longer is."""
        kept = self._tokens.get(key)
        if kept is None or token_expiry(interaction) >= token_expiry(kept):
            self._tokens[key] = interaction

    def freshest(self, key: K, now: float) -> discord.Interaction | None:
        """The interaction whose token may still edit ``key``'s message at ``now``, if any (one
        too close to its end is forgotten)."""
        interaction = self._tokens.get(key)
        if interaction is not None and not usable(interaction, now):
            del self._tokens[key]
            return None
        return interaction

    def drop(self, key: K, interaction: discord.Interaction) -> bool:
        """Discord refused ``interaction``'s token for ``key``'s message: forget it, unless a
        fresher one was kept meanwhile. True if it was the one kept."""
        if self._tokens.get(key) is not interaction:
            return False
        del self._tokens[key]
        return True

    def forget(self, key: K) -> None:
        self._tokens.pop(key, None)

    def sweep(self, now: float) -> list[K]:
        """Forget every token that can no longer be used at ``now``; their keys."""
        gone = [key for key, interaction in self._tokens.items() if not usable(interaction, now)]
        for key in gone:
            del self._tokens[key]
        return gone


class ClickedMessages:
    """Per public message (a table's), the freshest click on it whose token may edit it: one
    answered by updating the message, at once or after a deferral, which makes it the click's
    original response (a click answered with a private message has that message as its original).

    Clicks are seen as they come in (:meth:`saw`), before they are answered; what each answer
    was is looked at when the message next needs a token, or when another click on it comes."""

    def __init__(self) -> None:
        self._tokens: MessageTokens[int] = MessageTokens()
        self._unanswered: dict[int, list[discord.Interaction]] = {}
        """Per message, clicks on it not answered when last looked at."""

    def saw(self, interaction: discord.Interaction) -> None:
        """A click (or a form opened from a message): its token may edit the public message clicked,
        once answered by updating it."""
        message = interaction.message
        if message is None or message.flags.ephemeral:
            return
        now = time.time()
        self._settle(message.id, now)
        self._unanswered.setdefault(message.id, []).append(interaction)
        if len(self._unanswered) + len(self._tokens) > MESSAGES_KEPT:
            for message_id in list(self._unanswered):
                self._settle(message_id, now)
            self._tokens.sweep(now)

    def freshest(self, message_id: int, now: float) -> discord.Interaction | None:
        """The click whose token may edit ``message_id`` at ``now``, if any."""
        self._settle(message_id, now)
        return self._tokens.freshest(message_id, now)

    def drop(self, message_id: int, interaction: discord.Interaction) -> None:
        """Discord refused ``interaction``'s token for the message: it is not used again."""
        self._tokens.drop(message_id, interaction)

    def forget(self, message_id: int) -> None:
        """Nothing edits the message any more."""
        self._tokens.forget(message_id)
        self._unanswered.pop(message_id, None)

    def _settle(self, message_id: int, now: float) -> None:
        """The message's clicks answered since last looked at: those that updated it are kept, the
        others go (so are clicks never answered, once their token could no longer be used)."""
        clicks = self._unanswered.pop(message_id, None)
        if not clicks:
            return
        waiting = []
        for click in clicks:
            response = click.response
            if not response.is_done():
                if usable(click, now):
                    waiting.append(click)
            elif response.type in UPDATES:
                self._tokens.note(message_id, click)
        if waiting:
            self._unanswered[message_id] = waiting


def usable(interaction: discord.Interaction, now: float) -> bool:
    """Whether ``interaction``'s token may still be used at ``now`` (with :data:`SPARE_SECONDS` to spare)."""
    return now < token_expiry(interaction) - SPARE_SECONDS


@dataclass
class RecentInteraction:
    """A recent interaction in a channel, whose webhook may carry a message there."""

    interaction: discord.Interaction
    expires: float


class ChannelTokens:
    """Per server channel, its latest interactions (the newest last), whose webhooks may post there."""

    def __init__(self) -> None:
        self._recent: dict[int, collections.deque[RecentInteraction]] = {}

    def saw(self, interaction: discord.Interaction) -> None:
        """An interaction in a server channel: its webhook may carry the channel's next ping."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return
        recent = self._recent.get(interaction.channel_id)
        if recent is None:
            recent = self._recent[interaction.channel_id] = collections.deque(maxlen=RECENT_INTERACTIONS)
        recent.append(RecentInteraction(interaction, token_expiry(interaction)))
        if len(self._recent) > CHANNELS_KEPT:
            now = time.time()
            self._recent = {c: r for c, r in self._recent.items() if r[-1].expires > now}

    def freshest(self, channel_id: int, now: float) -> RecentInteraction | None:
        """The channel's newest interaction at ``now`` that was answered with a message and has
        :data:`WEBHOOK_SPARE_SECONDS` left (the newest may not be answered yet: its reply still
        being drawn)."""
        for recent in reversed(self._recent.get(channel_id, ())):
            response = recent.interaction.response
            if recent.expires - now >= WEBHOOK_SPARE_SECONDS and response.is_done() and response.type in ANSWERED:
                return recent
        return None
