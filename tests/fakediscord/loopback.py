"""Loopback transport: the model served on 127.0.0.1 (REST API v10 + gateway websocket)
for the real ``python -m bot`` process (started through ``tests/launch_bot.py``)::

    async with LoopbackDiscord() as fd:
        guild = fd.add_guild("Club"); table = guild.add_channel("card-table")
        # start the bot with Route.BASE = fd.base_url, DEFAULT_GATEWAY = fd.gateway_url
        await fd.wait_ready()
        start = await fd.slash("q2j start", {"variant": "classic"}, user=alice, channel=table)
        reply = await fd.wait_for_reply(start)

Every REST request goes through the same model, validation and limits as in-process.
What only a real connection has is checked here: ``Authorization: Bot <token>`` (a token
in ``bad_tokens`` gets 401, so ``discord.LoginFailure``); the gateway's HELLO, IDENTIFY
(bad token 4004, no intents 4013, privileged intents not in ``allowed_intents`` 4014)
→ READY + GUILD_CREATE, heartbeat ACKs, RESUME → RESUMED, member chunks, and
``compress=zlib-stream`` binary frames as Discord sends them.

Sharding as Discord does it: ``GET /gateway/bot`` recommends ``recommended_shards``; an
IDENTIFY with ``shard: [id, count]`` (malformed: close 4010) gets READY and GUILD_CREATE for
the guilds of that shard only, and each guild's events (interactions, message echoes) go
only to the connection of the shard owning it (``(guild_id >> 22) % count``; DMs: shard 0).
Several processes may connect at once, each with its own shards (``connected_shards``,
``wait_shards``); ``guild_id_on_shard`` makes a guild id that lands on a given shard.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import zlib
from collections.abc import Callable
from typing import Any

import discord
from aiohttp import WSMsgType, web

from tests import openapi

from .entities import CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, FakeChannel, FakeMember, FakeUser
from .forms import is_form, read_body
from .messages import FakeMessage, HTTPError, InteractionRecord, InteractionResult, RecordedRequest
from .model import Answer, DiscordModel

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway-ws/"
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_RESUME, OP_REQUEST_MEMBERS = 0, 1, 2, 3, 6, 8
OP_HELLO, OP_HEARTBEAT_ACK = 10, 11
PRIVILEGED_INTENTS = discord.Intents(members=True, presences=True, message_content=True).value


class _Connection:
    """One gateway websocket."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.compressor = zlib.compressobj() if compress else None
        self.lock = asyncio.Lock()  # frames leave in the order they were queued
        self.seq = 0
        self.session_id = secrets.token_hex(16)
        self.intents: discord.Intents | None = None  # set by IDENTIFY or RESUME
        self.shard: tuple[int, int] | None = None  # (shard_id, shard_count) from IDENTIFY; None: unsharded

    def receives(self, guild_id: int | None) -> bool:
        """Whether Discord sends this connection the events of ``guild_id`` (None: DMs, shard 0)."""
        if self.intents is None or self.ws.closed:
            return False
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (guild_id >> 22) % count == shard_id if guild_id is not None else shard_id == 0


def guild_id_on_shard(model: DiscordModel, shard_id: int, shard_count: int) -> int:
    """A fresh guild snowflake that Discord would put on ``shard_id`` of ``shard_count``."""
    snowflake = model.new_id()
    millis = snowflake >> 22
    return (millis + (shard_id - millis) % shard_count) << 22 | snowflake & 0x3FFFFF


def _is_form(request: web.Request) -> bool:
    """Whether ``request`` is multipart/form-data (an upload): read from the header, as
    aiohttp's ``content_type`` parses it with the email package, a tenth of a busy bench's CPU."""
    return is_form(request.headers.get("Content-Type", ""))


class LoopbackDiscord(DiscordModel):
    """The model behind a real HTTP + websocket server on 127.0.0.1 (ephemeral port)."""

    def __init__(self, *, bad_tokens: tuple[str, ...] = ("bad-token",),
                 allowed_intents: int = ~PRIVILEGED_INTENTS, heartbeat_interval_ms: int = 41250,
                 recommended_shards: int = 1, **model: Any) -> None:
        super().__init__(**model)
        self.recommended_shards = recommended_shards
        self.add_route("GET", r"/gateway/bot", lambda model, request, match: {
            "url": self.gateway_url, "shards": self.recommended_shards,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000,
                                    "max_concurrency": 1}})
        self.bad_tokens = set(bad_tokens)
        self.allowed_intents = allowed_intents
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.identify_payload: dict[str, Any] | None = None
        self.presence: dict[str, Any] | None = None
        self.gateway_closes: list[tuple[int, str]] = []
        self.refusing: tuple[int, str] | None = None
        """Set by :meth:`close_sessions`: every IDENTIFY and RESUME is closed so until cleared."""
        self._session_intents: discord.Intents | None = None  # a RESUME keeps IDENTIFY's intents
        self._session_shards: dict[str, tuple[int, int]] = {}  # and its session's shard
        self._connections: set[_Connection] = set()
        self._sends: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Event()
        self._last_request_at = 0.0
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    async def __aenter__(self) -> LoopbackDiscord:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=2.0, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.port = self._runner.addresses[0][1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        for conn in list(self._connections):
            await conn.ws.close(code=1001, message=b"fake discord shutting down")
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """Value for ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    # ================================================================ waiting
    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, check: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
        """Wait until ``check()`` returns something truthy and return it (TimeoutError after ``timeout``)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not (result := check()):
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError(f"fake discord: timed out after {timeout:g}s waiting for {what}\n"
                                   f"{self.describe()}")
            # asyncio.timeout, not wait_for: Python 3.11's wait_for may swallow a cancellation
            # that lands as the event fires, and a cancelled waiter would then wait on.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):
                    await self._changed.wait()
        return result

    async def wait_ready(self, timeout: float = 30.0) -> dict[str, Any]:
        """Wait until the bot has IDENTIFYed (and was sent READY + GUILD_CREATE); return IDENTIFY."""
        return await self.wait_until(lambda: self.identify_payload, timeout, "the bot to IDENTIFY on the gateway")

    async def wait_for_request(self, method: str, path_regex: str, timeout: float = 30.0) -> RecordedRequest:
        """The first request with ``method`` whose path (below /api/v10) matches ``path_regex``."""
        return await self.wait_until(lambda: next(iter(self.requests_to(method, path_regex)), None),
                                     timeout, f"{method} {path_regex}")

    async def wait_for_message(self, predicate: Callable[[FakeMessage], bool], timeout: float = 10.0,
                               what: str = "a matching message") -> FakeMessage:
        """The newest live message for which ``predicate`` holds."""
        return await self.wait_until(lambda: next((m for m in reversed(self.messages()) if predicate(m)), None),
                                     timeout, what)

    async def wait_idle(self, quiet: float = 0.5, timeout: float = 10.0) -> None:
        """Wait until the bot has made no REST request for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (idle := loop.time() - self._last_request_at) < quiet:
            if loop.time() >= deadline:
                raise TimeoutError(f"fake discord: the bot was still busy after {timeout:g}s\n{self.describe()}")
            await asyncio.sleep(quiet - idle + 0.01)

    def describe(self, last: int = 25) -> str:
        lines = [f"fake discord: {len(self.requests)} requests, identified={self.identify_payload is not None}, "
                 f"closes={self.gateway_closes}, failures={self._failures}"]
        return "\n  ".join(lines + [f"{r} {r.error or ''}" for r in self.requests[-last:]])

    # ============================================================ interactions
    async def _dispatch_interaction(self, itype: int, data: dict, *, user: FakeUser | FakeMember | int,
                                    channel: FakeChannel, label: str, message: FakeMessage | None = None,
                                    parent: InteractionRecord | None = None, timeout: float = 10.0
                                    ) -> InteractionResult:
        """Send INTERACTION_CREATE over the gateway and wait until the bot acknowledged it."""
        rec = self._new_interaction(itype, data, user=user, channel=channel, label=label, message=message,
                                    parent=parent)
        mark = len(self.requests)
        conn = self._identified(channel.guild.id if channel.guild else None)
        if conn is None:
            raise AssertionError(f"cannot send {label}: no bot is connected on the shard of "
                                 f"{channel.guild.name if channel.guild else 'DMs'}\n{self.describe()}")
        await self._dispatch(conn, "INTERACTION_CREATE", rec.payload)
        await self.wait_until(lambda: rec.callback is not None, timeout, f"the bot to acknowledge {label}")
        return InteractionResult(self, rec, [r for r in self.requests[mark:] if r.interaction_id in (None, rec.id)])

    async def wait_for_reply(self, result: InteractionResult, timeout: float = 10.0) -> FakeMessage:
        """The message a user sees as the outcome of an interaction: the created or updated
        message; after a deferral, the original once filled in, edited or followed up."""
        rec = result.record
        looked = -1
        """The requests up to this one were searched for an edit of the original (each request is
        answered before another task sees it, so it is searched once: a bench waits on hundreds
        of replies while tens of thousands of requests pile up)."""

        def reply() -> FakeMessage | None:
            nonlocal looked
            msg = result.message
            if result.response_type == CB_DEFERRED_MESSAGE:
                return msg if msg is not None and not msg.loading else None
            if result.response_type == CB_DEFERRED_UPDATE:
                if looked < 0:
                    looked = next(r for r in result.requests if r.interaction_id == rec.id).seq  # the callback
                edited = any(r.message_id == rec.original_id and r.status < 300 for r in self.requests[looked + 1:])
                looked = len(self.requests) - 1
                if edited:
                    return msg
                return next(iter(result.followups), None)
            return msg

        return await self.wait_until(reply, timeout, f"a visible reply to {rec.label}")

    # ==================================================================== REST
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        self._last_request_at = asyncio.get_running_loop().time()
        path = request.path
        header = request.headers.get("Authorization", "")
        token = header[4:] if header.startswith("Bot ") else ""
        token_in_url = re.match(rf"{API_PREFIX}/(interactions|webhooks)/", path)
        try:
            try:
                body, files, fields = await self._read_body(request)
            except ValueError:
                self._failures.append(f"{request.method} {path}: the body is not valid JSON")
                raise HTTPError(400, 50109, "The request body contains invalid JSON.") from None
            if not token_in_url and (not token or token in self.bad_tokens):
                self.requests.append(RecordedRequest(
                    len(self.requests), "rest", request.method, openapi.OpenAPISpec.normalise_path(path),
                    dict(request.query), body, status=401, error="401: Unauthorized"))
                raise HTTPError(401, 0, "401: Unauthorized")
            answer = await self.respond(via="rest", method=request.method, path=path, query=request.query,
                                        body=body, multipart=_is_form(request),
                                        files=files, file_fields=fields, token=token or None)
        except HTTPError as err:
            self.count_answer(err)
            answer = Answer(err.status, err.headers, err.payload(), err)
        finally:
            self._notify()
        if answer.body is None:
            return web.Response(status=answer.status, headers=answer.headers)
        # discord.py's json_or_text() wants exactly "application/json" (no charset).
        return web.Response(status=answer.status, body=json.dumps(answer.body).encode(),
                            headers={**answer.headers, "Content-Type": "application/json"})

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list[tuple[str, bytes]], list[str]]:
        """The JSON body (multipart: its payload_json), the uploaded files and their field names."""
        if not request.can_read_body:
            return None, [], []
        return read_body(await request.read(), request.headers.get("Content-Type", ""))

    # ================================================================= gateway
    def _identified(self, guild_id: int | None) -> _Connection | None:
        """The open connection that receives ``guild_id``'s events."""
        return next((c for c in self._connections if c.receives(guild_id)), None)

    def connected_shards(self) -> set[tuple[int, int] | None]:
        """The shards (``(id, count)``; None: unsharded) with an identified, open connection."""
        return {c.shard for c in self._connections if c.intents is not None and not c.ws.closed}

    async def wait_shards(self, *shards: tuple[int, int], timeout: float = 30.0) -> None:
        """Wait until every one of ``shards`` has an identified connection."""
        await self.wait_until(lambda: set(shards) <= self.connected_shards(), timeout,
                              f"the bot to identify on shards {sorted(shards)}")

    def _deliver(self, event: str, payload: dict, intent: str) -> None:
        guild_id = payload.get("guild_id")
        conn = self._identified(int(guild_id) if guild_id is not None else None)
        if conn is not None and getattr(conn.intents, intent):
            task = asyncio.ensure_future(self._dispatch(conn, event, payload))
            self._sends.add(task)
            task.add_done_callback(self._sends.discard)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        conn = _Connection(ws, request.query.get("compress") == "zlib-stream")
        self._connections.add(conn)
        try:
            if request.query.get("v") != "10" or request.query.get("encoding", "json") != "json":
                await self._close(conn, 4012, "Invalid API version or encoding")
                return ws
            await self._send(conn, {"op": OP_HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    await self._close(conn, 4002, "Decode error")
                    break
                await self._on_gateway(conn, payload.get("op"), payload.get("d"))
                self._notify()
        finally:
            self._connections.discard(conn)
            self._notify()  # a shard gone: what waits for it sees it at once
        return ws

    async def _on_gateway(self, conn: _Connection, op: int | None, d: Any) -> None:
        if op == OP_HEARTBEAT:
            await self._send(conn, {"op": OP_HEARTBEAT_ACK})
        elif op == OP_IDENTIFY:
            await self._identify(conn, d or {})
        elif op == OP_RESUME:
            if not (d or {}).get("token") or d["token"] in self.bad_tokens:
                return await self._close(conn, 4004, "Authentication failed.")
            if self.refusing is not None:
                return await self._close(conn, *self.refusing)
            conn.intents = self._session_intents or discord.Intents.none()
            conn.shard = self._session_shards.get((d or {}).get("session_id"))
            await self._dispatch(conn, "RESUMED", {})
        elif conn.intents is None:
            await self._close(conn, 4003, "Not authenticated")
        elif op == OP_PRESENCE:
            self.presence = d
        elif op == OP_REQUEST_MEMBERS:
            d = d or {}
            guild = self.guilds[int(d["guild_id"])]
            await self._dispatch(conn, "GUILD_MEMBERS_CHUNK", {
                "guild_id": str(guild.id), "members": [m.payload() for m in guild.members.values()],
                "chunk_index": 0, "chunk_count": 1, "not_found": [],
                **({"nonce": d["nonce"]} if d.get("nonce") else {})})
        else:
            await self._close(conn, 4001, f"Unknown opcode {op}")

    async def _identify(self, conn: _Connection, d: dict[str, Any]) -> None:
        if conn.intents is not None:
            return await self._close(conn, 4005, "Already authenticated")
        if not d.get("token") or d["token"] in self.bad_tokens:
            return await self._close(conn, 4004, "Authentication failed.")
        if self.refusing is not None:
            return await self._close(conn, *self.refusing)
        if "intents" not in d:
            return await self._close(conn, 4013, "Invalid intent(s).")
        if int(d["intents"]) & PRIVILEGED_INTENTS & ~self.allowed_intents:
            return await self._close(conn, 4014, "Disallowed intent(s).")
        shard = d.get("shard")
        if shard is not None:
            if not (isinstance(shard, list) and len(shard) == 2 and all(type(n) is int for n in shard)
                    and 0 <= shard[0] < shard[1]):
                return await self._close(conn, 4010, "Invalid shard")
            conn.shard = self._session_shards[conn.session_id] = (shard[0], shard[1])
        conn.intents = self._session_intents = discord.Intents._from_value(int(d["intents"]))
        await self._dispatch(conn, "READY", self.ready_payload(session_id=conn.session_id,
                                                               resume_gateway_url=self.gateway_url,
                                                               shard=conn.shard))
        for guild in self.guilds_on_shard(conn.shard):
            await self._dispatch(conn, "GUILD_CREATE", guild.payload())
        self.identify_payload = d

    async def close_sessions(self, code: int, reason: str, *, revoke: str | None = None) -> None:
        """Close every gateway connection with ``code``, as Discord does when the bot's token
        is reset (4004, with ``revoke`` the old token, refused from then on) or its sharding
        no longer fits (4011). Discord refuses new sessions the same way while the cause lasts,
        so every IDENTIFY and RESUME is closed so from then on (:attr:`refusing`): a client that
        took the close for a dropped connection and resumes is refused again, not let back in."""
        if revoke is not None:
            self.bad_tokens.add(revoke)
        else:
            self.refusing = (code, reason)
        for conn in list(self._connections):
            await self._close(conn, code, reason)

    async def _close(self, conn: _Connection, code: int, reason: str) -> None:
        self.gateway_closes.append((code, reason))
        await conn.ws.close(code=code, message=reason.encode())

    async def _dispatch(self, conn: _Connection, event: str, data: dict[str, Any]) -> None:
        async with conn.lock:
            conn.seq += 1
            await self._send_locked(conn, {"op": OP_DISPATCH, "t": event, "s": conn.seq, "d": data})

    async def _send(self, conn: _Connection, payload: dict[str, Any]) -> None:
        async with conn.lock:
            await self._send_locked(conn, payload)

    @staticmethod
    async def _send_locked(conn: _Connection, payload: dict[str, Any]) -> None:
        if conn.ws.closed:
            return
        data = json.dumps(payload, separators=(",", ":"))
        if conn.compressor is None:
            await conn.ws.send_str(data)
        else:
            await conn.ws.send_bytes(conn.compressor.compress(data.encode()) + conn.compressor.flush(zlib.Z_SYNC_FLUSH))
