"""In-process transport: the real bot class, through discord.py's own dispatch, no network.

``discord.http.HTTPClient.request`` and ``discord.webhook.async_.AsyncWebhookAdapter.request``
(interaction callbacks, follow-ups and edits go through the latter) are patched, while a
harness is active, to answer from the model (``model.py``); gateway events are fed to
``bot._connection.parsers[EVENT]``; ``bot.ws`` is a :class:`FakeGateway`. Drivers
(``slash``, ``click``, ``select``, ``submit_modal``, ``autocomplete``, ``context_menu``)
feed INTERACTION_CREATE and then *settle*: wait until every task created while the
harness is active is done or idle (``watch.py``); they return an ``InteractionResult``.

With rate limits on (``DiscordHarness(rate_limits=True)``, see ``ratelimits.py``) the patches
answer one level lower instead: discord.py's own request code runs, its aiohttp session
answered by the model with status, headers and body, so the bot's requests wait on the
rate-limit headers and retry 429s exactly as they would against Discord, in real time (a
driver may return while discord.py still waits on a bucket: ``wait_until`` what the test expects).

Problems fail the test at the end of the driver call (or of ``start``/``feed``/``close``):
requests Discord would refuse, an interaction never acknowledged (unless
``expect_response=False``) or acknowledged after ``ack_deadline``, ERROR log records
(unless expected with ``expect_logged_error``/``allow_logged_errors``) and tasks that died
with an exception nobody retrieved. Usage::

    async with DiscordHarness() as h:
        guild = h.add_guild("Test Guild")
        general = guild.add_channel("general")
        ana = h.add_user("ana")
        guild.add_member(ana)
        await h.start(MyBot(guild_ready_timeout=0.01))
        r = await h.slash("q2j start", {"players": 3}, user=ana, channel=general)
        await h.click(h.latest_public(general), label="Join", user=ana)

Quirks: member chunking is off (members come from GUILD_CREATE and interaction payloads);
an ``AutoShardedBot`` gets READY and its guilds' GUILD_CREATE per shard (one shard unless it
names its count), but interactions of every guild; the clock is not faked; a task sleeping at least
``long_sleep`` seconds, waiting on a lock/event/queue or in ``wait_for``/``View.wait``
counts as idle; use ``ignore_tasks`` for other long-lived pollers.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import errno
import json
import re
import warnings
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import aiohttp
import discord
import discord.http
import discord.webhook.async_
from discord.ext import commands
from multidict import CIMultiDict, CIMultiDictProxy

from .entities import FakeChannel, FakeGuild, FakeMember, FakeUser, json_copy
from .forms import is_form, read_body
from .messages import FakeMessage, HTTPError, InteractionRecord, InteractionResult, RecordedRequest
from .model import Answer, DiscordModel
from .watch import BotWatch

_REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
            404: "Not Found", 405: "Method Not Allowed", 429: "Too Many Requests"}
_MISSING = object()
_WEBHOOK_PATH = re.compile(r"/(webhooks|interactions)/")
_ACTIVE: DiscordHarness | None = None
_REAL_HTTP_REQUEST = discord.http.HTTPClient.request
_REAL_WEBHOOK_REQUEST = discord.webhook.async_.AsyncWebhookAdapter.request
_FORM: contextvars.ContextVar[Any] = contextvars.ContextVar("fakediscord_form", default=None)
"""The multipart form (discord.py's list of field dicts) of the request discord.py is sending
in this task; the model reads it from here rather than from aiohttp's FormData."""


class FakeGateway:
    """Stands in for ``bot.ws`` (the gateway connection) - records presence changes."""

    def __init__(self) -> None:
        self.open = False
        self.latency = 0.0
        self.sequence = None
        self.session_id = "harness-session"
        self.shard_id = None
        self.presences: list[dict] = []

    def is_ratelimited(self) -> bool:
        return False

    async def change_presence(self, *, activity: Any = None, status: Any = None, since: float = 0.0) -> None:
        self.presences.append({"activity": activity, "status": status, "since": since})

    async def request_chunks(self, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("the Discord test harness does not simulate member chunking")

    async def voice_state(self, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("the Discord test harness does not simulate voice")

    async def close(self, code: int = 1000) -> None:
        self.open = False


class _FakeResponse:
    """What discord.py reads of an aiohttp response: status, reason, headers and text."""

    def __init__(self, status: int, headers: dict[str, str] | None = None, text: str = "") -> None:
        self.status = status
        self.reason = _REASONS.get(status, "Error")
        self.headers = CIMultiDictProxy(CIMultiDict(headers or {}))
        self._text = text

    @classmethod
    def of(cls, answer: Answer) -> _FakeResponse:
        if answer.body is None:
            return cls(answer.status, answer.headers)
        return cls(answer.status, {**answer.headers, "Content-Type": "application/json"}, json.dumps(answer.body))

    async def text(self, encoding: str | None = None) -> str:
        return self._text

    async def read(self) -> bytes:
        return self._text.encode()


class _ModelSession:
    """Stands in for discord.py's aiohttp session while rate limits are on: ``request`` is
    answered by the model; anything else goes to the real session it wraps."""

    def __init__(self, harness: DiscordHarness, via: str, real: Any = None) -> None:
        self._harness, self._via, self._real = harness, via, real

    @contextlib.asynccontextmanager
    async def request(self, method: str, url: str, *, data: Any = None, headers: dict[str, str] | None = None,
                      params: Any = None, **_: Any) -> AsyncIterator[_FakeResponse]:
        headers = headers or {}
        auth = headers.get("Authorization", "")
        reason = headers.get("X-Audit-Log-Reason")
        content_type = headers.get("Content-Type", "")
        if isinstance(data, bytes):  # sent by the bot's own code through the session, not by discord.py's
            sent = (*read_body(data, content_type), is_form(content_type))
        else:
            sent = _sent_by_discord_py(json.loads(data) if isinstance(data, str) else None, _FORM.get())
        via = "webhook" if _WEBHOOK_PATH.search(urlsplit(url).path) else self._via
        answer = await self._harness._respond(
            via=via, method=method, url=url, sent=sent, params=params, reason=unquote(reason) if reason else None,
            token=auth[4:] if auth.startswith("Bot ") else None)
        yield _FakeResponse.of(answer)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


Sent = tuple[Any, list[tuple[str, bytes]], list[str], bool]
"""A request's body as the model reads it: its JSON, the files uploaded (filename, bytes), their
field names, and whether it was multipart."""


def _sent_by_discord_py(json_body: Any, form: Any) -> Sent:
    """What discord.py sends: ``json_body``, or ``form``, its list of multipart fields."""
    body, files, fields = json_body, [], []
    for fld in form or ():  # discord.py passes [] when there are no files
        if fld.get("name") == "payload_json":
            body = json.loads(fld["value"])
        elif "filename" in fld:
            files.append((fld["filename"], _read_file(fld.get("value"))))
            fields.append(fld.get("name", ""))
    return body, files, fields, bool(form)


@contextlib.contextmanager
def _sending(form: Any) -> Iterator[None]:
    token = _FORM.set(form)
    try:
        yield
    finally:
        _FORM.reset(token)


def _to_discord_error(err: HTTPError) -> discord.HTTPException:
    resp = _FakeResponse(err.status, err.headers)
    data = err.payload()
    if err.status == 403:
        return discord.Forbidden(resp, data)  # type: ignore[arg-type]
    if err.status == 404:
        return discord.NotFound(resp, data)  # type: ignore[arg-type]
    if err.status >= 500:  # what discord.py raises once its own retries of a 5xx are spent
        return discord.DiscordServerError(resp, data)  # type: ignore[arg-type]
    return discord.HTTPException(resp, data)  # type: ignore[arg-type]


class DiscordHarness(BotWatch, DiscordModel):
    """The model, with bots running in this process; see the module docstring.

    ``settle_timeout``: seconds a driver waits for the bot's work before failing;
    ``long_sleep``: sleeps at least this long count as idle when settling; the other
    parameters are :class:`~fakediscord.model.DiscordModel`'s.
    """

    def __init__(self, *, settle_timeout: float = 5.0, long_sleep: float = 2.0, **model: Any) -> None:
        DiscordModel.__init__(self, **model)
        self._init_watch()
        self.settle_timeout = settle_timeout
        self.long_sleep = long_sleep
        self.bots: list[commands.Bot] = []
        self.gateways: dict[int, FakeGateway] = {}
        self._saved: list[tuple[Any, str, Any]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._active = False
        self._closed = False
        self.unreachable = False
        """While True every request fails as it does when Discord cannot be reached (aiohttp's error)."""

    # ================================================================ lifecycle
    async def __aenter__(self) -> DiscordHarness:
        self.activate()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.close(raise_errors=exc_type is None)

    def activate(self) -> None:
        """Install the patches, task tracking and log collection (``async with`` does this)."""
        global _ACTIVE
        if self._active:
            return
        loop = asyncio.get_running_loop()
        if _ACTIVE is not None and _ACTIVE is not self:
            if _ACTIVE._loop is loop:
                raise RuntimeError("another DiscordHarness is still active; close it first")
            # A harness from an earlier test (another event loop) was never closed:
            # undo its patches so it cannot leak into this test.
            warnings.warn("a DiscordHarness was never closed; use 'async with DiscordHarness()'",
                          RuntimeWarning, stacklevel=2)
            _ACTIVE._restore()
        self._loop = loop
        _ACTIVE = self
        self._active = True
        self._patch(discord.http.HTTPClient, "request", _fake_http_request)
        self._patch(discord.webhook.async_.AsyncWebhookAdapter, "request", _fake_webhook_request)
        self._start_watching(loop)

    def _restore(self) -> None:
        """Undo the patches, the task factory and the log handlers (idempotent)."""
        global _ACTIVE
        for owner, name, old in reversed(self._saved):
            if old is _MISSING:
                with contextlib.suppress(AttributeError):
                    delattr(owner, name)
            else:
                setattr(owner, name, old)
        self._saved.clear()
        if self._active:
            self._stop_watching()
        if _ACTIVE is self:
            _ACTIVE = None
        self._active = False

    def _patch(self, owner: Any, name: str, value: Any) -> None:
        self._saved.append((owner, name, owner.__dict__.get(name, _MISSING)))
        setattr(owner, name, value)

    async def close(self, *, raise_errors: bool = True) -> None:
        """Close the bots, cancel leftover tasks, restore everything; then fail the
        test if there are unreported failures or logged errors."""
        if self._closed:
            return
        self._closed = True
        try:
            for bot in list(self.bots):
                with contextlib.suppress(Exception):
                    if not bot.is_closed():
                        await bot.close()
            await self._cancel_leftover_tasks()
        finally:
            self._restore()
        if raise_errors:
            self.assert_no_errors()

    @property
    def bot(self) -> commands.Bot:
        """The most recently started bot that is still running."""
        running = [b for b in self.bots if not b.is_closed()]
        if not running:
            raise AssertionError("no running bot: call await harness.start(bot) first")
        return running[-1]

    async def start(self, bot: commands.Bot, *, token: str = "x", timeout: float | None = None) -> commands.Bot:
        """Log ``bot`` in (runs ``setup_hook``), feed READY and a GUILD_CREATE for
        every guild in the model, wait until the bot is ready and settled."""
        self.activate()
        state = bot._connection
        shards: list[tuple[int, int] | None] = [None]
        if isinstance(bot, discord.AutoShardedClient):  # its shards (one when it leaves the count to Discord)
            bot.shard_count = state.shard_count = bot.shard_count or 1
            state.shard_ids = bot.shard_ids or range(bot.shard_count)
            shards = [(shard_id, bot.shard_count) for shard_id in state.shard_ids]
        state.guild_ready_timeout = min(state.guild_ready_timeout, 0.01)
        state._chunk_guilds = False
        self.bots.append(bot)
        gateway = FakeGateway()
        self.gateways[id(bot)] = gateway
        try:
            await bot.login(token)  # runs setup_hook: extensions, views, tree.sync()
        except Exception as exc:
            if self._failures or self._errors:  # e.g. a command definition Discord rejects
                try:
                    self._raise_pending(f"logging {type(bot).__name__} in (setup_hook)", self.requests)
                except AssertionError as failure:
                    raise failure from exc
            raise
        bot.ws = gateway  # type: ignore[assignment]
        # Requests the bot sends through discord.py's session itself (cogs.webhook_requests) reach the model too.
        session = bot.http.__dict__.get("_HTTPClient__session")
        if not isinstance(session, _ModelSession):
            bot.http._HTTPClient__session = _ModelSession(self, "http", session)  # type: ignore[attr-defined]
        req_mark = len(self.requests)
        for shard in shards:
            self._feed(bot, "READY", self.ready_payload(shard=shard))
            for guild in self.guilds_on_shard(shard):
                self._feed(bot, "GUILD_CREATE", guild.payload())
        try:
            await asyncio.wait_for(bot.wait_until_ready(), timeout or self.settle_timeout)
        except TimeoutError:
            raise AssertionError("the bot did not become ready after READY/GUILD_CREATE") from None
        await self._settle("bot start-up (READY)", timeout)
        self._raise_pending(f"starting {type(bot).__name__}", self.requests[req_mark:])
        return bot

    async def stop(self, bot: commands.Bot | None = None) -> None:
        """Close a bot (e.g. to start a new instance on the same model: a restart)."""
        bot = bot or self.bot
        await bot.close()
        await self._settle("bot shutdown")
        self._raise_pending(f"stopping {type(bot).__name__}", [])

    # ================================================================= gateway
    def _feed(self, bot: commands.Bot, event: str, payload: dict) -> None:
        parser = bot._connection.parsers.get(event)
        if parser is None:
            raise AssertionError(f"discord.py has no parser for gateway event {event}")
        parser(json_copy(payload))

    async def feed(self, event: str, payload: dict, *, bot: commands.Bot | None = None,
                   timeout: float | None = None) -> list[RecordedRequest]:
        """Feed any gateway event to a bot and settle; returns the requests it caused."""
        bot = bot or self.bot
        req_mark = len(self.requests)
        self._feed(bot, event, payload)
        await self._settle(f"gateway event {event}", timeout)
        reqs = self.requests[req_mark:]
        self._raise_pending(f"gateway event {event}", reqs)
        return reqs

    async def delete_channel(self, channel: FakeChannel | int) -> list[RecordedRequest]:
        """A moderator deletes ``channel`` (or a thread): Discord forgets it and tells the
        bot; settles and returns the requests the bot made."""
        return await self.feed(*self.remove_channel(channel))

    async def archive(self, thread: FakeChannel | int, *, locked: bool = False) -> list[RecordedRequest]:
        """Discord archives ``thread`` (``locked``: a moderator closed it); settles and returns the
        requests the bot made."""
        return await self.feed(*self.archive_thread(thread, locked=locked))

    async def join_guild(self, guild: FakeGuild, *, bot: commands.Bot | None = None) -> None:
        """Feed GUILD_CREATE for a guild added after start (the bot joins it)."""
        await self.feed("GUILD_CREATE", guild.payload(), bot=bot)

    def _running_bots(self) -> list[commands.Bot]:
        return [b for b in self.bots if not b.is_closed()]

    def _deliver(self, event: str, payload: dict, intent: str) -> None:
        for bot in self._running_bots():
            if not getattr(bot.intents, intent):
                continue
            try:
                self._feed(bot, event, payload)
            except Exception as exc:  # pragma: no cover - surfaced as a failure
                self._failures.append(f"feeding {event} to the bot failed: {exc!r}")

    async def _dispatch_interaction(self, itype: int, data: dict, *, user: FakeUser | FakeMember | int,
                                    channel: FakeChannel, label: str, message: FakeMessage | None = None,
                                    parent: InteractionRecord | None = None, bot: commands.Bot | None = None,
                                    expect_response: bool = True, timeout: float | None = None
                                    ) -> InteractionResult:
        """Feed the interaction to ``bot`` (default: the latest running one) and settle."""
        bot = bot or self.bot
        rec = self._new_interaction(itype, data, user=user, channel=channel, label=label, message=message,
                                    parent=parent)
        req_mark = len(self.requests)
        self._feed(bot, "INTERACTION_CREATE", rec.payload)
        await self._settle(f"interaction {label}", timeout)
        # requests since the feed, minus webhook/callback requests of *other* interactions
        # (drivers may run concurrently, e.g. asyncio.gather of two clicks)
        requests = [r for r in self.requests[req_mark:] if r.interaction_id in (None, rec.id)]
        result = InteractionResult(self, rec, requests)
        self._raise_pending(f"interaction {label} by {rec.user.name}", requests)
        if expect_response and rec.callback is None:
            raise AssertionError(
                f"interaction {label} by {rec.user.name} was never acknowledged (Discord would show "
                f"'This interaction failed'); requests made: {[str(r) for r in requests]}. "
                f"Pass expect_response=False if that is intended.")
        return result

    async def _request(self, *, via: str, method: str, url: str, json_body: Any, form: Any, params: Any,
                       reason: str | None) -> Any:
        """A patched discord.py request: answered by the model, errors as discord.py raises them;
        while :attr:`unreachable`, the error a request gets when Discord is out of reach."""
        answer = await self._respond(via=via, method=method, url=url, sent=_sent_by_discord_py(json_body, form),
                                     params=params, reason=reason, token=None)
        if answer.error is not None:
            raise _to_discord_error(answer.error) from None
        return answer.body

    async def _respond(self, *, via: str, method: str, url: str, sent: Sent, params: Any, reason: str | None,
                       token: str | None) -> Answer:
        """The model's answer to one request; while :attr:`unreachable`, the error a request gets
        when Discord is out of reach."""
        if self.unreachable:
            raise aiohttp.ClientOSError(errno.ENETUNREACH, "Network is unreachable")
        split = urlsplit(url)
        query = dict(parse_qsl(split.query))
        query.update({k: str(v) for k, v in (params or {}).items()})
        body, files, fields, multipart = sent
        return await self.respond(via=via, method=method, path=split.path, query=query, body=body,
                                  multipart=multipart, files=files, reason=reason, file_fields=fields, token=token)


def _read_file(value: Any) -> bytes:
    try:
        if hasattr(value, "read"):
            pos = value.tell() if hasattr(value, "tell") else None
            data = value.read()
            if pos is not None and hasattr(value, "seek"):
                value.seek(pos)
            return data if isinstance(data, bytes) else str(data).encode()
        if isinstance(value, (bytes, bytearray)):
            return bytes(value)
    except Exception:  # pragma: no cover - best effort
        pass
    return b""


# ========================================================= the patched methods
async def _fake_http_request(self: discord.http.HTTPClient, route: discord.http.Route, *,
                             files: Any = None, form: Any = None, **kwargs: Any) -> Any:
    harness = _ACTIVE
    if harness is None:  # pragma: no cover - patch outlived its harness
        raise AssertionError(f"HTTP request {route.method} {route.url} with no active DiscordHarness")
    if harness.rate_limits is not None:
        session = self.__dict__.get("_HTTPClient__session")
        if not isinstance(session, _ModelSession):
            self._HTTPClient__session = _ModelSession(harness, "http", session)  # type: ignore[attr-defined]
        with _sending(form):
            return await _REAL_HTTP_REQUEST(self, route, files=files, form=form, **kwargs)
    return await harness._request(via="http", method=route.method, url=route.url, json_body=kwargs.get("json"),
                                 form=form, params=kwargs.get("params"), reason=kwargs.get("reason"))


async def _fake_webhook_request(self: Any, route: Any, session: Any = None, *, payload: Any = None,
                                multipart: Any = None, files: Any = None, reason: Any = None,
                                auth_token: Any = None, params: Any = None, **kwargs: Any) -> Any:
    harness = _ACTIVE
    if harness is None:  # pragma: no cover
        raise AssertionError(f"webhook request {route.method} {route.url} with no active DiscordHarness")
    if harness.rate_limits is not None:
        with _sending(multipart):
            return await _REAL_WEBHOOK_REQUEST(self, route, _ModelSession(harness, "webhook"), payload=payload,
                                               multipart=multipart, files=files, reason=reason,
                                               auth_token=auth_token, params=params, **kwargs)
    return await harness._request(via="webhook", method=route.method, url=route.url, json_body=payload,
                                 form=multipart, params=params, reason=reason)
