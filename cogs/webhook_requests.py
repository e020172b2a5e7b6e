"""Requests through an interaction's token, sent with a fraction of discord.py's CPU.

They answer a click by updating its message, edit an interaction's original response, send a
follow-up and delete one. A move sends four or five of them (the mover's hand updated, the
table's and the other player's open hand edited through tokens, the turn's ping, the deletion
of the ping before). discord.py sends them through its webhook adapter, which builds an aiohttp
form for every upload and reads every answer into a ``Message``: about 0.6 ms of CPU a request,
against 0.2 ms for the request itself (``bench/RESULTS.md``, Discord load). Here the JSON is the
one discord.py builds (``discord.http.handle_message_parameters``), an upload is written as one
multipart body, and an answer is read as JSON only when the caller needs it (a follow-up's id)
or Discord refused. The requests go through discord.py's own HTTP session, so the request meter
sees them as it sees every other.

Refusals raise discord.py's own exceptions (``NotFound``, ``Forbidden``, ``HTTPException``,
``DiscordServerError``) and are retried as discord.py retries a webhook's: a 429 after its
``retry_after`` when Discord sent it (a 429 without Discord's ``Via`` header is its proxy's,
raised), a 5xx or a reset connection after 1, 3, 5 and 7 seconds; a token whose bucket is
spent waits for the bucket's reset before its next request.
"""

from __future__ import annotations

import json
import secrets
import time
from asyncio import sleep
from typing import Any

import aiohttp
import discord
from discord.http import MultipartParameters, Route, handle_message_parameters
from discord.utils import _to_json
from discord.webhook.async_ import interaction_message_response_params

UPDATE_MESSAGE = discord.InteractionResponseType.message_update
ON_ITS_WAY = "deckhand.answer_on_its_way"
"""The ``interaction.extras`` key set while its answer is being sent."""
ATTEMPTS = 5
RESET_ERRNOS = (54, 10054)
"""A connection reset by the peer (BSD's and Windows' numbers, as discord.py retries them)."""

SPENT_KEPT = 1_000
"""Spent buckets remembered before those already reset are forgotten."""
_spent_until: dict[str, float] = {}
"""Per token whose bucket Discord said is spent, when (monotonic) it may be used again."""


async def update_message(interaction: discord.Interaction, **body: Any) -> None:
    """Answer a click by updating the message clicked to ``body`` (the arguments of
    :meth:`discord.InteractionResponse.edit_message`); ``discord.InteractionResponded`` if it was
    answered. While the answer is on its way, :func:`answer_on_its_way` says so (nothing is to
    defer the click meanwhile: Discord would take one of the two and refuse the other); once
    Discord took it, discord.py's ``interaction.response`` knows it as answered (``is_done()``,
    ``type``), as after its own ``edit_message``."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    allowed = interaction.client.allowed_mentions
    interaction.extras[ON_ITS_WAY] = True
    try:
        with interaction_message_response_params(type=UPDATE_MESSAGE.value, previous_allowed_mentions=allowed,
                                                 **body) as params:
            await _send(interaction, "POST", f"/interactions/{interaction.id}/{interaction.token}/callback", params)
    finally:
        del interaction.extras[ON_ITS_WAY]
    response._response_type = UPDATE_MESSAGE


def answer_on_its_way(interaction: discord.Interaction) -> bool:
    """Whether :func:`update_message` is sending the interaction's answer right now."""
    return interaction.extras.get(ON_ITS_WAY, False)


async def edit_original_response(interaction: discord.Interaction, **body: Any) -> None:
    """Edit ``interaction``'s original response to ``body`` (the arguments of
    :meth:`discord.Interaction.edit_original_response`: content, embed, view, attachments,
    allowed_mentions)."""
    await _send_message(interaction, "PATCH", "/messages/@original", body)


async def send_follow_up(interaction: discord.Interaction, **body: Any) -> int:
    """Post a follow-up message of ``interaction`` (the arguments of ``Webhook.send``: content,
    allowed_mentions, ...); the new message's id."""
    answer = await _send_message(interaction, "POST", "?wait=true", body)
    return int(json.loads(answer)["id"])


async def delete_follow_up(interaction: discord.Interaction, message_id: int) -> None:
    """Delete a follow-up message ``interaction`` posted."""
    await _request(interaction, "DELETE", f"{_webhook(interaction)}/messages/{message_id}", None, {})


def _webhook(interaction: discord.Interaction) -> str:
    return f"/webhooks/{interaction.application_id}/{interaction.token}"


async def _send_message(interaction: discord.Interaction, method: str, path: str, body: dict[str, Any]) -> bytes:
    allowed = interaction.client.allowed_mentions
    with handle_message_parameters(previous_allowed_mentions=allowed, **body) as params:
        return await _send(interaction, method, _webhook(interaction) + path, params)


async def _send(interaction: discord.Interaction, method: str, path: str, params: MultipartParameters) -> bytes:
    if params.payload is not None:
        body = _to_json(params.payload).encode()  # discord.py's own encoder (orjson), as for an upload's JSON
        return await _request(interaction, method, path, body, {"Content-Type": "application/json"})
    boundary, data = _multipart((params.multipart or [])[0]["value"], list(params.files or ()))
    content_type = f"multipart/form-data; boundary={boundary}"
    return await _request(interaction, method, path, data, {"Content-Type": content_type})


def _multipart(payload_json: str, files: list[discord.File]) -> tuple[str, bytes]:
    """A multipart body of ``payload_json`` and ``files[i]`` as Discord takes it, and its boundary
    (drawn again in the unlikely case a file holds it)."""
    contents = []
    for file in files:
        file.reset()
        contents.append(file.fp.read())
    boundary = secrets.token_hex(16)
    while any(boundary.encode() in content for content in contents):
        boundary = secrets.token_hex(16)
    dashes = f"--{boundary}\r\n".encode()
    parts = [dashes, b'Content-Disposition: form-data; name="payload_json"\r\n'
             b"Content-Type: application/json\r\n\r\n", payload_json.encode(), b"\r\n"]
    for index, (file, content) in enumerate(zip(files, contents, strict=True)):
        filename = file.filename.replace("\\", "\\\\").replace('"', '\\"')
        parts += [dashes, f'Content-Disposition: form-data; name="files[{index}]"; filename="{filename}"\r\n'
                          "Content-Type: application/octet-stream\r\n\r\n".encode(), content, b"\r\n"]
    parts.append(f"--{boundary}--\r\n".encode())
    return boundary, b"".join(parts)


async def _request(interaction: discord.Interaction, method: str, path: str, data: bytes | None,
                   headers: dict[str, str]) -> bytes:
    """The answer's body once Discord took the request; its refusal raised."""
    token = interaction.token
    url = Route.BASE + path
    # discord.py's own session: its trace lets the request meter count the request.
    session: aiohttp.ClientSession = interaction._session
    for attempt in range(ATTEMPTS):
        await _wait_for_bucket(token)
        last = attempt == ATTEMPTS - 1
        try:
            async with session.request(method, url, data=data, headers=headers) as response:
                if response.headers.get("X-RateLimit-Remaining") == "0" and response.status != 429:
                    _spent(token, float(response.headers.get("X-RateLimit-Reset-After", 0)))
                if 200 <= response.status < 300:
                    return await response.read()  # read as JSON only by a caller that needs it
                answer = await _read(response)
                if response.status == 429 and response.headers.get("Via") and not last:
                    await sleep(float(answer["retry_after"]))
                    continue
                if response.status >= 500 and not last:
                    await sleep(1 + attempt * 2)
                    continue
                raise _refusal(response, answer)
        except OSError as exc:
            if last or exc.errno not in RESET_ERRNOS:
                raise
            await sleep(1 + attempt * 2)
    raise AssertionError("unreachable: the last attempt returns or raises")


def _spent(token: str, reset_after: float) -> None:
    now = time.monotonic()
    if len(_spent_until) >= SPENT_KEPT:
        for passed in [key for key, until in _spent_until.items() if until <= now]:
            del _spent_until[passed]
    _spent_until[token] = now + reset_after


async def _wait_for_bucket(token: str) -> None:
    until = _spent_until.get(token)
    if until is None:
        return
    wait = until - time.monotonic()
    if wait > 0:
        await sleep(wait)
    if _spent_until.get(token) == until:
        del _spent_until[token]


async def _read(response: aiohttp.ClientResponse) -> Any:
    """The answer's JSON, or its text when it is not JSON (as discord.py reads it)."""
    raw = await response.read()
    if response.headers.get("Content-Type", "").startswith("application/json"):
        try:
            return json.loads(raw)
        except ValueError:
            pass
    return raw.decode("utf-8", "replace")


def _refusal(response: aiohttp.ClientResponse, answer: Any) -> discord.HTTPException:
    if response.status == 404:
        return discord.NotFound(response, answer)
    if response.status == 403:
        return discord.Forbidden(response, answer)
    if response.status >= 500:
        return discord.DiscordServerError(response, answer)
    return discord.HTTPException(response, answer)
