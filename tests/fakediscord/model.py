"""One model of Discord for the tests: its users, guilds, channels, messages, synced
commands and interactions, and the REST routes the bot uses.

Every request is recorded (:class:`RecordedRequest`), held to Discord's rate limits when
they are on (``ratelimits.py``), validated against Discord's OpenAPI spec (``tests/openapi.py``)
and the limits the spec does not encode (``limits.py``), then answered from the model
(``routes.py``) like Discord would. A request Discord would refuse gets Discord's error
(:class:`HTTPError`) *and* is recorded as a failure of the test; a 429 is Discord's answer, no
failure. Gateway events Discord sends back (MESSAGE_CREATE of the bot's
own messages, THREAD_CREATE, ...) go to :meth:`DiscordModel._deliver`, which each
transport implements: ``inprocess.DiscordHarness`` feeds them to discord.py's parsers,
``loopback.LoopbackDiscord`` sends them over its gateway websocket.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import itertools
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

import discord

from tests import openapi

from .drivers import InteractionDrivers
from .entities import EPHEMERAL, FakeChannel, FakeGuild, FakeMember, FakeUser, id_of, json_copy
from .limits import discord_limits
from .messages import FakeMessage, HTTPError, InteractionRecord, RecordedRequest
from .ratelimits import RateLimited, RateLimiter, route_limit
from .routes import RouteHandler, builtin_routes

MessageListener = Callable[[str, FakeMessage], None]
TOKEN_SECONDS = 15 * 60
"""How long an interaction's token answers its webhook (follow-ups, edits): Discord's 15 minutes."""
"""Told of every message created, edited or deleted: ``(event, message)``, the event being
``MESSAGE_CREATE``, ``MESSAGE_UPDATE`` or ``MESSAGE_DELETE``."""


@dataclass
class Answer:
    """One REST answer: ``body`` is the JSON (``None``: 204); ``error`` when Discord refused."""

    status: int
    headers: dict[str, str]
    body: Any
    error: HTTPError | None = None


class DiscordModel(InteractionDrivers):
    """Discord's state and REST answers, shared by both transports.

    ``validate`` checks requests against the OpenAPI spec and the limits;
    ``validate_responses`` also checks the model's own answers (a self-test);
    ``ack_deadline`` is Discord's 3 s to acknowledge an interaction; ``rate_limits`` turns
    Discord's rate limits on: ``True`` for Discord's figures on the real clock, or a
    :class:`~fakediscord.ratelimits.RateLimiter` of the test's (its figures, its clock).
    ``clock`` is Discord's time (seconds since the epoch): its snowflakes hold it, and an
    interaction's token answers its webhook for :data:`TOKEN_SECONDS` of it. A test moves time
    on with a :class:`~fakediscord.ratelimits.ManualClock`; one started in the past, then
    advanced to now, makes tokens the bot itself can tell are too old.
    """

    def __init__(self, *, validate: bool = True, validate_responses: bool = False, ack_deadline: float = 3.0,
                 bot_name: str = "Deckhand", application_id: int | None = None,
                 rate_limits: bool | RateLimiter = False, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.validate = validate
        self.validate_responses = validate_responses
        self.ack_deadline = ack_deadline
        self._last_id = 0
        self._users: dict[int, FakeUser] = {}
        self.application_id = application_id or self.new_id()
        self.bot_user = FakeUser(self.application_id, bot_name, None, bot=True)
        self._users[self.bot_user.id] = self.bot_user
        #: owns the application (``bot.is_owner``); deliberately not a guild member
        self.app_owner = FakeUser(self.new_id(), "app-owner")
        self._users[self.app_owner.id] = self.app_owner
        self.guilds: dict[int, FakeGuild] = {}
        self._channels: dict[int, FakeChannel] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._interactions: dict[int, InteractionRecord] = {}
        self._tokens: dict[str, InteractionRecord] = {}
        self._commands: dict[int | None, dict[tuple[str, int], dict]] = {}  # guild id/None -> (name,type) -> cmd
        self.requests: list[RecordedRequest] = []
        self._routes = builtin_routes()
        self._user_routes: list[tuple[str, re.Pattern[str], RouteHandler]] = []
        self._failures: list[str] = []
        self._upload_failures = 0
        self._upload_error = HTTPError(413, 40005, "Request entity too large")
        self._refusals: list[tuple[str, re.Pattern[str], HTTPError]] = []
        self.closed_to_bot: set[int] = set()
        """Channels the bot may no longer see (a moderator took its View Channel): its requests
        there are refused with 403 Missing Access, and clicks there carry no view permission."""
        self.rate_limits: RateLimiter | None = (RateLimiter() if rate_limits is True
                                                 else rate_limits or None)
        """Discord's rate limits, when on (``rate_limits=``); its counts of 429s and invalid requests."""
        self.message_listeners: list[MessageListener] = []
        """Told of every message created, edited or deleted (ephemeral ones too), as it happens."""

    # =================================================================== model
    def new_id(self) -> int:
        """A fresh, increasing snowflake holding when it was made, as Discord's do (the bot
        reads a message's age, and what came after a moment, from its id)."""
        now = discord.utils.time_snowflake(_dt.datetime.fromtimestamp(self.clock(), _dt.UTC))
        self._last_id = max(self._last_id + 1, now)
        return self._last_id

    def add_user(self, name: str, *, id: int | None = None, global_name: str | None = None,
                 bot: bool = False, locale: str = "en-US") -> FakeUser:
        user = FakeUser(id or self.new_id(), name, global_name, bot, locale)
        self._users[user.id] = user
        return user

    def add_guild(self, name: str = "Test Guild", *, id: int | None = None,
                  owner: FakeUser | None = None) -> FakeGuild:
        """A new guild (the bot is a member). ``owner`` defaults to a separate user
        who is not a member, so no test user has owner powers by accident."""
        if owner is None:
            owner = self.add_user(f"{name} owner")
        guild = FakeGuild(self, id or self.new_id(), name, owner.id)
        self.guilds[guild.id] = guild
        return guild

    def user(self, ident: int | str) -> FakeUser:
        """A user by id or name."""
        if isinstance(ident, int) and ident in self._users:
            return self._users[ident]
        for u in self._users.values():
            if u.name == ident:
                return u
        raise AssertionError(f"no user {ident!r}")

    def channel(self, ident: int | FakeChannel) -> FakeChannel:
        cid = id_of(ident)
        try:
            return self._channels[cid]
        except KeyError:
            raise AssertionError(f"no channel with id {cid}") from None

    def archive_thread(self, ident: int | FakeChannel, *, locked: bool = False) -> tuple[str, dict]:
        """Archive a thread (Discord does after a day without messages; a moderator may, and
        may lock it too); returns the ``THREAD_UPDATE`` Discord sends for it and its payload."""
        ch = self.channel(ident)
        assert ch.is_thread, f"{ch!r} is not a thread"
        ch.archived, ch.locked = True, locked
        return "THREAD_UPDATE", ch.payload()

    def remove_channel(self, ident: int | FakeChannel) -> tuple[str, dict]:
        """Delete a channel or thread from the model; returns the gateway event Discord
        sends for it (``CHANNEL_DELETE`` or ``THREAD_DELETE``) and its payload."""
        ch = self.channel(ident)
        payload = ch.payload()
        self._channels.pop(ch.id, None)
        if ch.guild is not None:
            ch.guild.channels.pop(ch.id, None)
        if ch.is_thread:
            return "THREAD_DELETE", {"id": str(ch.id), "guild_id": str(ch.guild.id) if ch.guild else None,
                                     "parent_id": str(ch.parent_id), "type": ch.type}
        return "CHANNEL_DELETE", payload

    # ----------------------------------------------------------- message queries
    def message(self, ident: int | FakeMessage) -> FakeMessage:
        mid = id_of(ident)
        try:
            return self._messages[mid]
        except KeyError:
            raise AssertionError(f"no message with id {mid}") from None

    def messages(self, channel: FakeChannel | int | None = None, *, ephemeral: bool | None = None,
                 deleted: bool = False) -> list[FakeMessage]:
        """Messages in creation order, optionally in one channel; ``ephemeral=None``
        means both kinds, deleted ones only with ``deleted=True``."""
        cid = None if channel is None else id_of(channel)
        out = []
        for msg in sorted(self._messages.values(), key=lambda m: m.id):
            if cid is not None and msg.channel.id != cid:
                continue
            if ephemeral is not None and msg.ephemeral != ephemeral:
                continue
            if msg.deleted and not deleted:
                continue
            out.append(msg)
        return out

    def public_messages(self, channel: FakeChannel | int) -> list[FakeMessage]:
        return [m for m in self.messages(channel, ephemeral=False) if m.kind != "dm"]

    def latest_public(self, channel: FakeChannel | int) -> FakeMessage:
        """The most recently *created* public message in ``channel`` (edits do not reorder)."""
        msgs = self.public_messages(channel)
        if not msgs:
            raise AssertionError(f"no public message in channel {self.channel(channel)!r}; all messages: "
                                 f"{self.messages(deleted=True)}")
        return msgs[-1]

    def ephemeral_for(self, user: FakeUser | FakeMember | int,
                      channel: FakeChannel | int | None = None) -> list[FakeMessage]:
        """Ephemeral messages shown to ``user`` (oldest first)."""
        uid = id_of(user)
        return [m for m in self.messages(channel, ephemeral=True) if m.visible_to == uid]

    def latest_ephemeral(self, user: FakeUser | FakeMember | int,
                         channel: FakeChannel | int | None = None) -> FakeMessage:
        msgs = self.ephemeral_for(user, channel)
        if not msgs:
            raise AssertionError(f"user {user!r} has seen no ephemeral message")
        return msgs[-1]

    def dms(self, user: FakeUser | FakeMember | int) -> list[FakeMessage]:
        uid = id_of(user)
        return [m for m in self.messages() if m.kind == "dm" and m.visible_to == uid]

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict]:
        """The synced application commands (global, or of ``guild``)."""
        key = None if guild is None else id_of(guild)
        return [json_copy(c) for c in self._commands.get(key, {}).values()]

    def requests_to(self, method: str | None = None, path: str | None = None) -> list[RecordedRequest]:
        """Recorded requests filtered by method and a regex searched in the path."""
        rx = re.compile(path) if path else None
        return [r for r in self.requests if (method is None or r.method == method.upper())
                and (rx is None or rx.search(r.path))]

    def expire_tokens(self, result: Any = None) -> None:
        """Expire one interaction's token (``result`` an InteractionResult) or all, before their
        :data:`TOKEN_SECONDS` (as Discord does at times: the bot can't tell)."""
        recs = [result.record] if result is not None else list(self._interactions.values())
        for rec in recs:
            rec.expired = True

    @property
    def failures(self) -> list[str]:
        """Requests Discord would have refused (spec violations, unknown routes, ...) not yet reported."""
        return list(self._failures)

    def take_failures(self) -> list[str]:
        """Return and clear the pending failures (for tests that expect one)."""
        out, self._failures = self._failures, []
        return out

    # ================================================================= gateway
    def guilds_on_shard(self, shard: tuple[int, int] | None) -> list[FakeGuild]:
        """The guilds whose events go to shard ``(shard_id, shard_count)`` (every guild for ``None``):
        Discord's rule, ``(guild_id >> 22) % shard_count == shard_id``."""
        if shard is None:
            return list(self.guilds.values())
        shard_id, count = shard
        return [g for g in self.guilds.values() if (g.id >> 22) % count == shard_id]

    def ready_payload(self, *, session_id: str = "harness-session",
                      resume_gateway_url: str = "wss://gateway.invalid",
                      shard: tuple[int, int] | None = None) -> dict:
        """The READY event: the bot user, the application, every guild of ``shard`` (all without
        sharding; unavailable until GUILD_CREATE) and, on a sharded connection, ``shard``."""
        return {
            "v": 10, "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": True},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds_on_shard(shard)],
            **({"shard": list(shard)} if shard is not None else {}),
            "session_id": session_id, "resume_gateway_url": resume_gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [], "relationships": [], "presences": [], "geo_ordered_rtc_regions": [],
            "user_settings": {}, "guild_join_requests": [],
        }

    def _echo_later(self, event: str, payload: dict, *, intent: str = "guilds") -> None:
        """Deliver a gateway event right after the current REST answer, to every bot
        that asked for ``intent`` (a ``discord.Intents`` flag name), as Discord does."""
        asyncio.get_running_loop().call_soon(self._deliver, event, payload, intent)

    def _deliver(self, event: str, payload: dict, intent: str) -> None:
        raise NotImplementedError  # each transport delivers gateway events its own way

    def _echo_message(self, msg: FakeMessage, event: str) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for a non-ephemeral message (the bot's own
        messages come back over the gateway like everyone else's); every message to
        :attr:`message_listeners`."""
        for listener in self.message_listeners:
            listener(event, msg)
        if msg.ephemeral:
            return
        guild_id = msg.guild_id
        if event == "MESSAGE_DELETE":
            payload: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
        else:
            payload = msg.payload()
            if guild_id is not None:
                payload["member"] = msg.channel.guild.members[self.bot_user.id].payload(with_user=False)
        if guild_id is not None:
            payload["guild_id"] = str(guild_id)
        self._echo_later(event, payload, intent="guild_messages" if guild_id is not None else "dm_messages")

    # ==================================================================== REST
    def fail_uploads(self, count: int = 1, *, status: int = 413, code: int = 40005,
                     message: str = "Request entity too large") -> None:
        """Answer the next ``count`` requests that upload files with Discord's error
        ``status``/``code`` (default: 413, the file is too large), changing nothing."""
        self._upload_failures = count
        self._upload_error = HTTPError(status, code, message)

    def refuse_next(self, method: str, pattern: str, error: HTTPError) -> None:
        """Answer the next ``method`` request whose path fully matches regex ``pattern`` with
        Discord's ``error``, changing nothing; later ones are answered as usual."""
        self._refusals.append((method.upper(), re.compile(pattern), error))

    def add_route(self, method: str, pattern: str, handler: RouteHandler) -> None:
        """Answer ``method`` requests whose path fully matches regex ``pattern`` with
        ``handler(model, request, match)``; its return value is the response body.
        Checked before the built-in routes."""
        self._user_routes.append((method.upper(), re.compile(pattern), handler))


    async def handle(self, *, via: str, method: str, path: str, query: Mapping[str, str], body: Any,
                     multipart: bool = False, files: Sequence[tuple[str, bytes]] = (),
                     reason: str | None = None, file_fields: Sequence[str] = (), token: str | None = None) -> Any:
        """Record, validate and answer one REST request (``path`` below ``/api/v10``; ``token``
        the bot token it carries); returns the response body (``None``: 204) or raises
        Discord's :class:`HTTPError`."""
        answer = await self.respond(via=via, method=method, path=path, query=query, body=body, multipart=multipart,
                                    files=files, reason=reason, file_fields=file_fields, token=token)
        if answer.error is not None:
            raise answer.error
        return answer.body

    async def respond(self, *, via: str, method: str, path: str, query: Mapping[str, str], body: Any,
                      multipart: bool = False, files: Sequence[tuple[str, bytes]] = (),
                      reason: str | None = None, file_fields: Sequence[str] = (), token: str | None = None) -> Answer:
        """:meth:`handle` as an HTTP answer (status, headers and body; Discord's errors included)."""
        await asyncio.sleep(0)  # a real request always yields to the loop
        req = RecordedRequest(len(self.requests), via, method.upper(), openapi.OpenAPISpec.normalise_path(path),
                              dict(query), json_copy(body), multipart=multipart, files=list(files),
                              reason=reason, file_fields=list(file_fields))
        self.requests.append(req)
        try:
            if self.rate_limits is not None:
                limit = route_limit(self.rate_limits.table, req.method, req.path, self.application_id)
                req.at = self.rate_limits.clock()
                try:
                    req.headers = self.rate_limits.admit(limit, token=token, message_created=self._created_epoch)
                except RateLimited as err:
                    req.headers, req.rate_limited = err.headers, err.limit
                    raise
            if self.validate:
                self._validate(req)
            if req.files and self._upload_failures:
                self._upload_failures -= 1
                raise self._upload_error
            if req.via != "webhook" and _channel_of(req.path) in self.closed_to_bot:
                raise HTTPError(403, 50001, "Missing Access")
            for refusal in self._refusals:
                if refusal[0] == req.method and refusal[1].fullmatch(req.path):
                    self._refusals.remove(refusal)
                    raise refusal[2]
            response = self._route(req)
        except HTTPError as err:
            req.status, req.error = err.status, err.message
            err.headers = {**req.headers, **err.headers}
            if err.failure:
                self._failures.append(err.failure)
            self.count_answer(err)
            return Answer(err.status, err.headers, err.payload(), err)
        req.status = 204 if response is None else 200
        req.response = json_copy(response)
        if self.validate_responses and response is not None:
            try:
                openapi.validate_response(req.method, req.path, response)
            except openapi.SpecViolation as exc:
                self._failures.append(f"the fake's own answer is not spec-conform (harness bug): {exc}")
        return Answer(req.status, req.headers, json_copy(response))

    def count_answer(self, err: HTTPError) -> None:
        """Count an error answer towards the invalid requests (when rate limits are on)."""
        if self.rate_limits is not None:
            self.rate_limits.answered(err.status, err.scope if isinstance(err, RateLimited) else None)

    def _created_epoch(self, message_id: int) -> float | None:
        """When message ``message_id`` was created (seconds since 1970), if the model has it."""
        msg = self._messages.get(message_id)
        return None if msg is None else msg.created_at.timestamp()

    def close_to_bot(self, ident: int | FakeChannel, closed: bool = True) -> None:
        """A moderator takes the bot's View Channel in a channel (``closed=False``: gives it back)."""
        (self.closed_to_bot.add if closed else self.closed_to_bot.discard)(self.channel(ident).id)

    def _validate(self, req: RecordedRequest) -> None:
        if openapi.get_spec().find_operation(req.method, req.path) is None:
            raise HTTPError(404, 0, f"404: Not Found ({req.method} {req.path} is not a Discord API route)",
                            failure=f"the bot called {req.method} {req.path}, which is not a route of Discord's "
                                    f"API (not in its OpenAPI spec); body: {_short_json(req.body)}")
        problems: list[str] = []
        form = None
        if req.multipart:
            form = [] if req.body is None else [{"name": "payload_json", "value": json.dumps(req.body)}]
        try:
            op = openapi.validate_request(req.method, req.path, req.body if form is None else None, form=form)
            req.operation = op.operation_id
        except openapi.SpecViolation as exc:
            problems.append(str(exc))
        problems.extend(discord_limits(req))
        problems.extend(upload_problems(req))
        if problems:
            text = f"{req.method} {req.path} was rejected:\n" + "\n".join(problems)
            raise HTTPError(400, 50035, f"Invalid Form Body (harness: {text})",
                            failure=f"request violates Discord's API: {text}")

    def _route(self, req: RecordedRequest) -> Any:
        for method, rx, handler in itertools.chain(self._user_routes, self._routes):
            if method != req.method:
                continue
            m = rx.fullmatch(req.path)
            if m:
                return handler(self, req, m)
        raise HTTPError(404, 0, f"404: Not Found (the Discord harness has no handler for {req.method} {req.path})",
                         failure=f"the bot called {req.method} {req.path}, which the Discord harness does not "
                                 f"handle (add it with harness.add_route() if the bot really needs it); "
                                 f"body: {_short_json(req.body)}")

    # --------------------------------------------------------------- helpers
    def _interaction_for_token(self, app: str, token: str) -> InteractionRecord:
        if int(app) != self.application_id:
            raise HTTPError(404, 10015, "Unknown Webhook",
                             failure=f"webhook request for application {app}, not {self.application_id}")
        rec = self._tokens.get(unquote(token))
        if rec is None:
            raise HTTPError(404, 10015, "Unknown Webhook", failure=f"webhook request with unknown token {token!r}")
        if rec.expired or self.clock() - rec.issued >= TOKEN_SECONDS:
            raise HTTPError(401, 50027, "Invalid Webhook Token")
        return rec

    def _new_message(self, channel: FakeChannel, *, kind: str, body: Mapping[str, Any],
                     files: Sequence[tuple[str, bytes]] = (), rec: InteractionRecord | None = None,
                     msg_type: int = 0, ephemeral: bool = False, flags_extra: int = 0,
                     visible_to: int | None = None) -> FakeMessage:
        msg = FakeMessage(self, id=self.new_id(), channel=channel, author=self.bot_user, kind=kind,
                          type=msg_type, interaction=rec, visible_to=visible_to)
        msg.apply(body, create=True, files=files)
        msg.flags = (msg.flags & ~EPHEMERAL) | (EPHEMERAL if ephemeral else 0) | flags_extra
        if ephemeral and rec is not None:
            msg.visible_to = rec.user.id
        if rec is not None:
            msg.interaction_metadata = rec.metadata
            if kind == "followup" and rec.original_id is not None:
                msg.interaction_metadata["original_response_message_id"] = str(rec.original_id)
        self._messages[msg.id] = msg
        return msg

    def _require_content(self, body: Mapping[str, Any], files: Sequence[Any],
                         existing: FakeMessage | None = None, where: str = "") -> None:
        """Discord refuses a message left with no content, embeds, components, files,
        poll or sticker (50006); checked before anything changes."""
        def after(key: str, default: Any) -> Any:
            if key in body:
                return body[key]
            return getattr(existing, key) if existing is not None else default

        if files or after("content", "") or after("embeds", []) or after("components", []) \
                or after("attachments", []) or body.get("poll") or body.get("sticker_ids"):
            return
        raise HTTPError(400, 50006, "Cannot send an empty message",
                         failure=f"the bot sent an empty message (no content, embeds, components or files) {where}")

_MISSING = object()


FILE_FIELD = re.compile(r"files\[(\d+)\]")


def upload_problems(req: RecordedRequest) -> list[str]:
    """What Discord would refuse in a multipart upload: files not named ``files[n]``, and
    ``attachments`` metadata whose new entries (integer ids) name no uploaded file or
    another file name."""
    if not req.multipart:
        return []
    problems = []
    uploaded: dict[int, str] = {}
    for fld, (filename, _) in zip(req.file_fields, req.files):
        m = FILE_FIELD.fullmatch(fld)
        if m is None:
            problems.append(f"a file is uploaded as form field {fld!r}; Discord reads files[n] fields")
        else:
            uploaded[int(m[1])] = filename
    for att in (req.body or {}).get("attachments") or []:
        att_id = att.get("id")
        if isinstance(att_id, str) and not att_id.isdigit():
            problems.append(f"attachment id {att_id!r} is not a snowflake or an upload index")
        if isinstance(att_id, int) and uploaded.get(att_id, att.get("filename")) != att.get("filename"):
            problems.append(f"attachment {att_id} is named {att.get('filename')!r} but files[{att_id}] "
                            f"is {uploaded.get(att_id)!r}")
        if isinstance(att_id, int) and att_id not in uploaded:
            problems.append(f"attachment {att_id} names files[{att_id}], which was not uploaded")
    return problems


CHANNEL_PATH = re.compile(r"/channels/(\d+)(?:/.*)?")


def _channel_of(path: str) -> int | None:
    """The channel a ``/channels/{id}…`` request is about, else ``None``."""
    m = CHANNEL_PATH.fullmatch(path)
    return int(m[1]) if m else None


def _short_json(value: Any, limit: int = 1000) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[: limit - 1] + "…"


