"""Pictures on Discord messages: drawn, kept per table version, attached, or sent as text.

The table and hand pictures (drawn by :mod:`games.pictures`) are kept under the table's id and
version (:func:`cached`), so a version is drawn once however many messages show it; a picture is
an attachment shown by the message's media gallery. They are drawn on the event loop: a picture
takes a millisecond or two, and handing it to a worker thread cost more CPU than it saved and
answered clicks no sooner (``bench/RESULTS.md``, Discord load); the larger pictures of other
commands (standings, seasons, tournaments) are drawn in a worker thread.

A message body (``Rendered.kwargs()``, a Components V2 layout) gets a picture with
:func:`with_picture`: a media gallery showing ``attachment://<filename>`` takes the place of
the text board, and the body carries the file as ``attachments`` (edits) or ``files`` (new
messages); discord.py sends that as Discord wants it, multipart with ``payload_json`` and
``files[0]``. Listing only the new file drops the old picture on an edit. A V2 message shows
only the attachments its components name. :func:`without_picture` is the same body as text
only (the text board in the picture's place), also dropping any earlier picture; it is what
pictures-off servers get, and what a failed upload is retried as.
"""

from __future__ import annotations

import io
import logging
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import discord

from bot.records import SeatRow
from bot.service import GameService, HandSnapshot, TableSnapshot
from games.i18n import SOURCE
from games.pictures import hand_png, table_png

from .webhook_requests import update_message

T = TypeVar("T")
PNG = TypeVar("PNG", bytes, bytes | None)

THREAD_ARCHIVED = 50083
"""Discord's error code for an edit or delete in an archived thread: about the thread, not the picture."""
MISSING_ACCESS = 50001
"""Discord's error code when Deckhand may not see the channel at all: about the channel, not the picture."""

log = logging.getLogger(__name__)

CACHE_SIZE = 64
"""Pictures kept drawn (the newest versions of the tables being played)."""
_cache: OrderedDict[Hashable, Any] = OrderedDict()  # PNG bytes, or None for a hand not drawn
_cache_lock = threading.Lock()


def cached(key: Hashable, draw: Callable[[], PNG]) -> PNG:
    """The picture kept under ``key`` (what it draws: ``("table", language, table id, version)``),
    else ``draw()``, kept: the oldest of :data:`CACHE_SIZE` goes. Safe from worker threads."""
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    png = draw()
    with _cache_lock:
        _cache[key] = png
        if len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return png


def clear_cache() -> None:
    """Forget every picture kept (table ids and versions name other tables in another database)."""
    with _cache_lock:
        _cache.clear()


@dataclass(frozen=True)
class Picture:
    filename: str
    png: bytes

    @property
    def url(self) -> str:
        return f"attachment://{self.filename}"

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.png), filename=self.filename)


def draws_table(table: TableSnapshot) -> bool:
    """Whether the table has a picture: a started game (running or ended) with a public view."""
    return table.view is not None and table.row.status not in ("lobby", "cancelled")


def seat_names(seats: Sequence[SeatRow], language: str = SOURCE) -> list[str]:
    """The seats' names as pictures show them in ``language``: as players read them everywhere,
    an AI player's in that language ("IA 1"; the pictures' font leaves its 🤖 out)."""
    return [seat.name_in(language) for seat in seats]


async def table_picture(table: TableSnapshot, language: str = SOURCE) -> Picture:
    """The picture of the table's public view in ``language`` (cached per version). Only for a
    table that has one (:func:`draws_table`)."""
    row, view = table.row, table.view
    if view is None:
        raise ValueError(f"table {row.id} has no public view to draw: its game hasn't started")
    names = seat_names(row.seats, language)
    png = cached(("table", language, row.id, row.version), lambda: table_png(view, names, language))
    return Picture(f"table-{row.id}-{row.version}.png", png)


async def hand_picture(hand: HandSnapshot, language: str = SOURCE) -> Picture | None:
    """The picture of one seat's hand in ``language``, its legal moves marked (cached per version
    and seat); None when the seat has nothing to draw (its message then shows its text)."""
    row = hand.table.row
    legal = [action.code() for action in hand.actions] if row.status == "running" else []
    names = seat_names(row.seats, language)
    png = cached(("hand", language, row.id, row.version, hand.seat),
                 lambda: hand_png(hand.view, legal, names, language))
    return None if png is None else Picture(f"hand-{row.id}-{row.version}-{hand.seat + 1}.png", png)


def with_picture(body: dict[str, Any], picture: Picture, *, edit: bool) -> dict[str, Any]:
    """``body`` with ``picture`` in its text board's place: as the only ``attachments`` of an
    edit (the old picture goes), as ``files`` of a new message."""
    return {**body, "view": body["view"].pictured(picture.url), ("attachments" if edit else "files"): [picture.file()]}


def without_picture(body: dict[str, Any], *, edit: bool) -> dict[str, Any]:
    """``body`` as text only; on an edit, any picture attached earlier is dropped."""
    return {**body, "attachments": []} if edit else dict(body)


async def pictures_on(service: GameService, guild_id: int) -> bool:
    """Whether the server shows pictures (``/settings pictures``; on unless turned off)."""
    return (await service.storage.guild_settings(guild_id)).pictures


async def send_with_picture(send: Callable[..., Awaitable[T]], body: dict[str, Any], picture: Picture | None,
                            *, edit: bool, what: str, forbidden: Callable[[], None] | None = None) -> T:
    """``send(**body)`` with ``picture`` (or as text without one). A failed upload is logged
    and the same message goes as text; a message that is gone (404), in an archived thread
    (:data:`THREAD_ARCHIVED`) or in a channel Deckhand may not see (:data:`MISSING_ACCESS`),
    and Discord failing (5xx past discord.py's retries) are the caller's. An upload
    Deckhand may not make there (403: no Attach Files) calls ``forbidden`` instead of logging,
    when given."""
    if picture is None:
        return await send(**without_picture(body, edit=edit))
    try:
        return await send(**with_picture(body, picture, edit=edit))
    except discord.HTTPException as exc:
        if isinstance(exc, (discord.NotFound, discord.DiscordServerError)) or exc.code in (THREAD_ARCHIVED,
                                                                                           MISSING_ACCESS):
            raise
        if forbidden is not None and isinstance(exc, discord.Forbidden):
            forbidden()
        else:
            log.warning("could not upload the picture of %s (HTTP %s: %s); sent as text instead",
                        what, exc.status, exc.text)
        return await send(**without_picture(body, edit=edit))


async def answer_privately(interaction: discord.Interaction, body: dict[str, Any], picture: Picture | None,
                           *, what: str) -> None:
    """Answer with a private message (and its picture): update the clicked private message,
    or open a new one; after a deferral, edit the original response or follow up."""
    message = interaction.message
    private = message is not None and message.flags.ephemeral
    if interaction.response.is_done():
        if private:
            await send_with_picture(interaction.edit_original_response, body, picture, edit=True, what=what)
        else:
            await send_with_picture(interaction.followup.send, {**body, "ephemeral": True}, picture, edit=False,
                                    what=what)
    elif private:
        await send_with_picture(partial(update_message, interaction), body, picture, edit=True, what=what)
    else:
        await send_with_picture(interaction.response.send_message, {**body, "ephemeral": True}, picture,
                                edit=False, what=what)
