"""Where Discord refuses Deckhand: channels it may not post in, and channels it may not attach pictures in.

Discord counts refused requests towards its limit on invalid ones (10,000 in 10 minutes bans
the bot's address for a while), so a refusal is remembered and not tried again at every move:
a channel closed to Deckhand gets no table message or ping until a click there says Deckhand may
post again, and a channel refusing pictures gets its tables as text for an hour.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import discord

from bot.storage import TableRow

log = logging.getLogger(__name__)

NO_ATTACHING_SECONDS = 3600
"""How long a channel's tables are shown as text after Discord refused one of their pictures."""


class ChannelAccess:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        """What "an hour" is measured by (a test moves it on, without touching the event loop's clock)."""
        self.closed: set[int] = set()
        """Channels where Discord refused Deckhand itself (403): warned about once, until it may post there again."""
        self._no_attaching: dict[int, float] = {}
        """Channels where Discord refused a table picture (403), until when (:attr:`clock`)."""

    def refused(self, row: TableRow, exc: discord.Forbidden) -> None:
        """Discord refused Deckhand in the table's channel (a moderator took its View Channel
        or Send Messages there): one warning per channel, not one per move. The game goes on
        through people's private messages. The table is shown again, and its turn pinged, at
        the next move or the first click there whose permissions say Deckhand may post again
        (no polling: refused requests count towards Discord's limit on invalid ones)."""
        if row.channel_id in self.closed:
            return
        self.closed.add(row.channel_id)
        log.warning("Deckhand may not see or post in channel %s (%s): table %s is not shown there and nobody is "
                    "pinged until it can. Give Deckhand View Channel and Send Messages there; people can still "
                    "play from their private hand messages.", row.channel_id, exc.text or exc.status, row.id)

    def open_again(self, channel_id: int) -> None:
        """Discord took a request in the channel, or a click there says Deckhand may post: it is open again."""
        if channel_id in self.closed:
            self.closed.discard(channel_id)
            log.info("Deckhand may post in channel %s again", channel_id)

    def may_attach(self, channel_id: int) -> bool:
        """False for an hour after Discord refused a table picture in the channel (no Attach Files)."""
        until = self._no_attaching.get(channel_id)
        if until is None:
            return True
        if self.clock() < until:
            return False
        del self._no_attaching[channel_id]
        return True

    def attaching_refused(self, channel_id: int) -> None:
        """Show the channel's tables as text for an hour, with one warning, instead of trying
        (two requests a move) and warning at every move."""
        self._no_attaching[channel_id] = self.clock() + NO_ATTACHING_SECONDS
        log.warning("Deckhand may not attach files in channel %s: its tables are shown as text for the next "
                    "hour. Give Deckhand Attach Files there, or turn pictures off with /settings pictures.",
                    channel_id)
