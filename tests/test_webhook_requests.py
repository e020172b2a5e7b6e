"""The lean webhook requests (``cogs/webhook_requests.py``) against a real HTTP server on
loopback that answers as Discord does: the body discord.py would send, Discord's refusals
raised as discord.py raises them, and its 429s, 5xx and spent buckets waited out as
discord.py waits them out (the waits recorded, not slept)."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator, Callable
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import handle_message_parameters

from cogs import webhook_requests
from cogs.components import Layout, LayoutMessage, text_display
from tests.fakediscord.forms import form_parts

Answer = tuple[int, dict[str, str], Any]


class Discord:
    """Answers each request with the next scripted answer (status, headers, JSON), and keeps what it got."""

    def __init__(self) -> None:
        self.answers: list[Answer] = []
        self.got: list[tuple[str, str, str, bytes]] = []

    async def handle(self, request: web.Request) -> web.Response:
        self.got.append((request.method, request.path_qs, request.headers.get("Content-Type", ""),
                         await request.read()))
        status, headers, body = self.answers.pop(0) if self.answers else (204, {}, None)
        if body is None:
            return web.Response(status=status, headers=headers)
        return web.Response(status=status, body=json.dumps(body).encode(),
                            headers={**headers, "Content-Type": "application/json"})


@pytest.fixture
async def discord_api(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[Discord, Any, list[float]]]:
    """The scripted Discord, an interaction whose webhook reaches it, and the waits the requests made."""
    fake = Discord()
    app = web.Application()

    async def handle(request: web.Request) -> web.Response:
        return await fake.handle(request)  # looked up at each request: a test may wrap it

    app.router.add_route("*", "/{tail:.*}", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    waits: list[float] = []

    async def recorded(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(webhook_requests, "sleep", recorded)
    async with aiohttp.ClientSession() as session:
        interaction = SimpleNamespace(id=7, token="tok-" + str(id(fake)), application_id=42, _session=session, extras={},
                                      client=SimpleNamespace(allowed_mentions=discord.AllowedMentions.none()))
        interaction.response = discord.InteractionResponse(interaction)  # type: ignore[arg-type]
        yield fake, interaction, waits
    await runner.cleanup()


def table_body(picture: bytes | None) -> dict[str, Any]:
    body: dict[str, Any] = {"content": None, "embed": None,
                            "view": LayoutMessage(Layout(None, [text_display("Ana's turn")], [], [])),
                            "allowed_mentions": discord.AllowedMentions(users=False)}
    if picture is not None:
        body["attachments"] = [discord.File(io.BytesIO(picture), filename='table-1-"2".png')]
    return body


def discord_py_payload(body: dict[str, Any]) -> Any:
    """The JSON discord.py itself would send for ``body``."""
    with handle_message_parameters(previous_allowed_mentions=discord.AllowedMentions.none(), **body) as params:
        return json.loads(params.multipart[0]["value"]) if params.multipart else params.payload


async def test_an_edit_with_a_picture_is_the_upload_discord_py_would_send(discord_api: Any) -> None:
    fake, interaction, _ = discord_api
    picture = b"\x89PNG\r\n--" + bytes(range(256)) * 40
    await webhook_requests.edit_original_response(interaction, **table_body(picture))
    [(method, path, content_type, raw)] = fake.got
    assert (method, path) == ("PATCH", f"/api/v10/webhooks/42/{interaction.token}/messages/@original")
    (payload_params, payload), (file_params, data) = form_parts(raw, content_type)
    assert payload_params == {"name": "payload_json"}
    assert json.loads(payload) == discord_py_payload(table_body(picture))
    assert json.loads(payload)["flags"] == 1 << 15 and json.loads(payload)["attachments"][0]["id"] == 0
    assert file_params == {"name": "files[0]", "filename": 'table-1-"2".png'} and data == picture


async def test_a_click_answered_by_updating_its_message_is_answered_once(discord_api: Any) -> None:
    fake, interaction, _ = discord_api
    picture = b"\x89PNG hand"
    await webhook_requests.update_message(interaction, **table_body(picture))
    assert interaction.response.is_done() and interaction.response.type is discord.InteractionResponseType.message_update
    [(method, path, content_type, raw)] = fake.got
    assert (method, path) == ("POST", f"/api/v10/interactions/7/{interaction.token}/callback")
    (_, payload), (_, data) = form_parts(raw, content_type)
    assert json.loads(payload) == {"type": 7, "data": discord_py_payload({**table_body(picture), "tts": False})} \
        and data == picture
    with pytest.raises(discord.InteractionResponded):
        await webhook_requests.update_message(interaction, **table_body(None))
    assert len(fake.got) == 1


async def test_an_answer_on_its_way_is_known_and_counts_as_given_once_discord_took_it(discord_api: Any) -> None:
    """While the answer is on its way, nothing may defer the click (``cogs.common.in_time`` asks
    :func:`answer_on_its_way`): Discord would take one and refuse the other, leaving the player's
    click without its answer. Nor may a follow-up ride on it yet (``is_done()``): Discord refuses
    a follow-up of an interaction it has not seen answered."""
    fake, interaction, _ = discord_api
    seen: list[tuple[bool, bool]] = []
    handle = fake.handle

    async def looking(request: web.Request) -> web.Response:
        seen.append((webhook_requests.answer_on_its_way(interaction), interaction.response.is_done()))
        return await handle(request)

    fake.handle = looking  # type: ignore[method-assign]
    fake.answers = [(400, {}, {"code": 40060, "message": "Interaction has already been acknowledged."})]
    with pytest.raises(discord.HTTPException):
        await webhook_requests.update_message(interaction, **table_body(None))
    assert seen == [(True, False)] and not interaction.response.is_done()
    assert not webhook_requests.answer_on_its_way(interaction)
    await webhook_requests.update_message(interaction, **table_body(None))
    assert seen == [(True, False)] * 2 and interaction.response.is_done()
    assert not webhook_requests.answer_on_its_way(interaction)


async def test_a_follow_up_gives_its_id_and_is_deleted_by_it(discord_api: Any) -> None:
    fake, interaction, _ = discord_api
    fake.answers = [(200, {}, {"id": "1234567890", "content": "<@5> your turn"})]
    message_id = await webhook_requests.send_follow_up(interaction, content="<@5> your turn",
                                                       allowed_mentions=discord.AllowedMentions(users=True))
    await webhook_requests.delete_follow_up(interaction, message_id)
    (post, post_path, post_type, post_body), (delete, delete_path, _, _) = fake.got
    assert message_id == 1234567890 and (post, post_path) == ("POST", f"/api/v10/webhooks/42/{interaction.token}?wait=true")
    assert post_type == "application/json"
    assert json.loads(post_body) == discord_py_payload({"content": "<@5> your turn",
                                                        "allowed_mentions": discord.AllowedMentions(users=True)})
    assert (delete, delete_path) == ("DELETE", f"/api/v10/webhooks/42/{interaction.token}/messages/1234567890")


@pytest.mark.parametrize(("status", "error"), [(401, discord.HTTPException), (403, discord.Forbidden),
                                               (404, discord.NotFound)])
async def test_a_refusal_is_raised_as_discord_py_raises_it_and_not_tried_again(
        discord_api: Any, status: int, error: type[discord.HTTPException]) -> None:
    fake, interaction, waits = discord_api
    fake.answers = [(status, {}, {"code": 10008, "message": "Unknown Message"})]
    with pytest.raises(error) as raised:
        await webhook_requests.edit_original_response(interaction, **table_body(None))
    assert type(raised.value) is error and (raised.value.status, raised.value.code) == (status, 10008)
    assert len(fake.got) == 1 and waits == []


async def test_discords_429_is_waited_out_and_tried_again_but_its_proxys_is_raised(discord_api: Any) -> None:
    fake, interaction, waits = discord_api
    fake.answers = [(429, {"Via": "1.1 google"}, {"retry_after": 0.7, "global": False}),
                    (200, {}, {"id": "7"})]
    await webhook_requests.edit_original_response(interaction, **table_body(None))
    assert len(fake.got) == 2 and waits == [0.7]
    fake.answers = [(429, {}, {"retry_after": 0.7, "global": False})]
    with pytest.raises(discord.HTTPException) as raised:
        await webhook_requests.edit_original_response(interaction, **table_body(None))
    assert raised.value.status == 429 and len(fake.got) == 3 and waits == [0.7]


async def test_a_server_error_is_tried_again_four_times_then_raised(discord_api: Any) -> None:
    fake, interaction, waits = discord_api
    fake.answers = [(502, {}, {"message": "Bad gateway"})] + [(500, {}, {"message": "oops"})] * 4
    with pytest.raises(discord.DiscordServerError) as raised:
        await webhook_requests.edit_original_response(interaction, **table_body(b"png"))
    assert raised.value.status == 500 and len(fake.got) == 5 and waits == [1, 3, 5, 7]
    [(_, _, content_type, raw)] = set(fake.got)  # every try sends the whole upload again
    assert [data for _, data in form_parts(raw, content_type)][1] == b"png"
    fake.answers = [(503, {}, None), (200, {}, {"id": "7"})]
    await webhook_requests.edit_original_response(interaction, **table_body(b"png"))
    assert len(fake.got) == 7


async def test_a_spent_bucket_holds_the_tokens_next_request_until_its_reset(discord_api: Any) -> None:
    fake, interaction, waits = discord_api
    spent: Callable[[str], Answer] = lambda reset: (200, {"X-RateLimit-Remaining": "0",  # noqa: E731
                                                          "X-RateLimit-Reset-After": reset}, {"id": "7"})
    fake.answers = [spent("30"), (200, {}, {"id": "8"})]
    await webhook_requests.edit_original_response(interaction, **table_body(None))
    assert waits == []
    await webhook_requests.edit_original_response(interaction, **table_body(None))
    assert len(waits) == 1 and 29 < waits[0] <= 30
    await webhook_requests.edit_original_response(interaction, **table_body(None))
    assert len(waits) == 1  # the bucket was not said spent again
