"""A small fake Discord (REST API v10 + gateway) for the process smoke test.

The fake listens on 127.0.0.1 only, on an ephemeral port, and speaks enough of Discord
for an unmodified discord.py client (started through ``tests/launch_bot.py``) to log in,
connect the gateway, sync its command tree and answer interactions::

    async with FakeDiscord() as fd:
        # start the bot with Route.BASE = fd.base_url, DEFAULT_GATEWAY = fd.gateway_url
        await fd.wait_ready()
        sync = await fd.wait_for_request("PUT", r"/applications/\\d+/(guilds/\\d+/)?commands$")
        start = await fd.run_command("q2j start", {"variant": "classic"}, user="alice")
        lobby = await fd.wait_for_reply(start)
        join = await fd.click(lobby, label="Join", user="bob")

What it does like Discord, because the bot's correctness depends on it:

* REST: ``Authorization: Bot <token>``; a token listed in ``bad_tokens`` gets 401 (so
  ``discord.LoginFailure``). Every request is recorded (:class:`RecordedRequest`); a
  route the fake does not know answers 404 and is recorded with ``unknown=True``.
* Gateway: HELLO, IDENTIFY → READY (with the application id) + GUILD_CREATE for one guild
  with a text channel and a few members, heartbeat ACKs, RESUME → RESUMED, member
  chunks. discord.py asks for ``compress=zlib-stream``; the fake then sends binary
  zlib-stream frames (as Discord does), otherwise text frames. Privileged intents are
  refused with close code 4014 unless ``allowed_intents`` lets them through.
* Interactions: the callback must come within ``ack_timeout`` seconds (Discord: 3 s),
  only once (40060 otherwise); ``?with_response=true`` answers with an
  InteractionCallbackResponse whose ``resource.message`` is the created or updated
  message, carrying ``interaction_metadata``. A deferred ("thinking") reply is replaced by
  the first follow-up, as Discord does. Ephemeral messages can't be fetched or edited
  through channel routes and only their recipient can click them.
* Message bodies are checked against Discord's hard limits (2000-char content, 5 rows
  of at most 5 buttons or one select, 100-char custom_id, 80-char labels, 25 select
  options, unique custom_ids, no empty message, ...) and rejected with a 400
  "Invalid Form Body" (recorded with ``error`` set).
* The bot's own non-ephemeral messages come back as MESSAGE_CREATE / MESSAGE_UPDATE /
  MESSAGE_DELETE dispatches when it asked for the GUILD_MESSAGES (or, in DMs,
  DIRECT_MESSAGES) intent, threads as THREAD_CREATE (GUILDS intent), like Discord.
"""

from __future__ import annotations

import asyncio
import copy
import datetime as _dt
import json
import re
import secrets
import time
import zlib
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable, Mapping

from aiohttp import WSMsgType, web

__all__ = ["FakeDiscord", "FakeInteraction", "RecordedRequest", "FakeDiscordError"]

DISCORD_EPOCH_MS = 1420070400000
API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway-ws/"

# Gateway opcodes.
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE = 0, 1, 2, 3
OP_RESUME, OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION = 6, 7, 8, 9
OP_HELLO, OP_HEARTBEAT_ACK = 10, 11

# Intents.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15
_SETTABLE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2

# Permissions (bits) used for the default guild.
P = {
    "CREATE_INSTANT_INVITE": 1 << 0, "ADD_REACTIONS": 1 << 6, "VIEW_CHANNEL": 1 << 10,
    "SEND_MESSAGES": 1 << 11, "MANAGE_MESSAGES": 1 << 13, "EMBED_LINKS": 1 << 14,
    "ATTACH_FILES": 1 << 15, "READ_MESSAGE_HISTORY": 1 << 16, "MENTION_EVERYONE": 1 << 17,
    "USE_EXTERNAL_EMOJIS": 1 << 18, "CHANGE_NICKNAME": 1 << 26, "MANAGE_GUILD": 1 << 5,
    "USE_APPLICATION_COMMANDS": 1 << 31, "MANAGE_THREADS": 1 << 34,
    "CREATE_PUBLIC_THREADS": 1 << 35, "CREATE_PRIVATE_THREADS": 1 << 36,
    "SEND_MESSAGES_IN_THREADS": 1 << 38,
}
EVERYONE_PERMISSIONS = (
    P["CREATE_INSTANT_INVITE"] | P["ADD_REACTIONS"] | P["VIEW_CHANNEL"] | P["SEND_MESSAGES"]
    | P["EMBED_LINKS"] | P["ATTACH_FILES"] | P["READ_MESSAGE_HISTORY"] | P["USE_EXTERNAL_EMOJIS"]
    | P["CHANGE_NICKNAME"] | P["USE_APPLICATION_COMMANDS"] | P["CREATE_PUBLIC_THREADS"]
    | P["CREATE_PRIVATE_THREADS"] | P["SEND_MESSAGES_IN_THREADS"]
)
BOT_ROLE_PERMISSIONS = EVERYONE_PERMISSIONS | P["MANAGE_MESSAGES"] | P["MANAGE_THREADS"]
ALL_PERMISSIONS = (1 << 51) - 1

# Option types of application commands.
OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP, OPT_STRING, OPT_INTEGER, OPT_BOOLEAN = 1, 2, 3, 4, 5
OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, OPT_NUMBER = 6, 7, 8, 9, 10

# Component types.
C_ACTION_ROW, C_BUTTON, C_STRING_SELECT, C_TEXT_INPUT = 1, 2, 3, 4
C_SELECT_TYPES = (3, 5, 6, 7, 8)


class FakeDiscordError(AssertionError):
    """The bot (or the test) did something the fake cannot continue from."""


class _ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: dict | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        return out


def _unknown(kind: str, code: int) -> _ApiError:
    return _ApiError(404, code, f"Unknown {kind}")


def _iso(ts: float | None = None) -> str:
    moment = _dt.datetime.fromtimestamp(time.time() if ts is None else ts, _dt.timezone.utc)
    return moment.isoformat()


@dataclass
class RecordedRequest:
    """One REST request the bot made, and what the fake answered."""

    index: int
    method: str
    path: str  # relative to /api/v10, e.g. "/users/@me"
    query: dict[str, str]
    headers: dict[str, str]
    json: Any  # parsed JSON body (multipart: payload_json); None when there was none
    files: list[dict[str, Any]] = field(default_factory=list)
    status: int = 0
    response: Any = None
    unknown: bool = False  # no route of the fake matched
    error: str | None = None  # why the fake refused it (4xx other than unknown routes)
    at: float = 0.0  # loop time

    def __str__(self) -> str:
        extra = " UNKNOWN ROUTE" if self.unknown else (f" ({self.error})" if self.error else "")
        return f"#{self.index} {self.method} {self.path} -> {self.status}{extra}"


@dataclass
class FakeInteraction:
    """An interaction the fake pushed to the bot and what the bot did with it."""

    id: int
    token: str
    payload: dict[str, Any]
    sent_at: float
    user_id: int
    callback: RecordedRequest | None = None
    response_type: int | None = None  # 4 message, 5 deferred message, 6 deferred update, 7 update, 8, 9
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    acked_at: float | None = None
    ack_version: int = 0  # version of the original message when acknowledged
    autocomplete_choices: list[dict] | None = None
    modal: dict | None = None
    expired: bool = False

    @property
    def acknowledged(self) -> bool:
        return self.callback is not None and self.callback.status < 300

    @property
    def ack_latency(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.sent_at

    @property
    def type(self) -> int:
        return self.payload["type"]


class _Conn:
    """One gateway websocket connection."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.compressor = zlib.compressobj() if compress else None
        self.lock = asyncio.Lock()
        self.seq = 0
        self.session_id = secrets.token_hex(16)
        self.identified = False
        self.intents = 0


class FakeDiscord:
    """A fake Discord REST API v10 + gateway on 127.0.0.1 for one bot process.

    Use ``async with FakeDiscord() as fd``; point discord.py's ``Route.BASE`` at
    :attr:`base_url` and ``DiscordWebSocket.DEFAULT_GATEWAY`` at :attr:`gateway_url`.
    Users are referred to by id or by their key in :attr:`users` (``"alice"``, ``"bob"``,
    ``"carol"``, ``"dave"``; alice owns the guild, users named in ``managers`` hold a role
    with Manage Server, everyone else has @everyone's ordinary permissions).
    """

    def __init__(
        self,
        *,
        bad_tokens: Iterable[str] = ("bad-token",),
        application_id: int = 1300000000000000001,
        guild_id: int = 1300000000000000100,
        channel_id: int = 1300000000000000200,
        humans: Iterable[str] = ("alice", "bob", "carol", "dave"),
        managers: Iterable[str] = (),
        allowed_intents: int = ~PRIVILEGED_INTENTS,
        ack_timeout: float = 3.0,
        heartbeat_interval_ms: int = 41250,
    ) -> None:
        self.bad_tokens = set(bad_tokens)
        self.application_id = application_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.allowed_intents = allowed_intents
        self.ack_timeout = ack_timeout
        self.heartbeat_interval_ms = heartbeat_interval_ms

        self._last_snowflake = 0
        self.bot_user: dict[str, Any] = {
            "id": str(application_id), "username": "Deckhand", "discriminator": "0",
            "global_name": None, "avatar": None, "bot": True, "verified": True,
            "mfa_enabled": False, "flags": 0, "public_flags": 0, "email": None,
        }
        self.users: dict[str, dict[str, Any]] = {}
        for n, name in enumerate(humans):
            self.users[name] = {
                "id": str(1300000000000001000 + n), "username": name, "discriminator": "0",
                "global_name": name.capitalize(), "avatar": None, "public_flags": 0,
            }
        self.owner_id = int(next(iter(self.users.values()))["id"]) if self.users else application_id
        self.everyone_role = {
            "id": str(guild_id), "name": "@everyone", "permissions": str(EVERYONE_PERMISSIONS),
            "position": 0, "color": 0, "colors": {"primary_color": 0, "secondary_color": None,
                                                 "tertiary_color": None},
            "hoist": False, "managed": False, "mentionable": False, "icon": None,
            "unicode_emoji": None, "flags": 0,
        }
        self.manager_role = dict(
            self.everyone_role, id=str(guild_id + 2), name="Managers", position=2,
            permissions=str(EVERYONE_PERMISSIONS | P["MANAGE_GUILD"] | P["MANAGE_MESSAGES"]
                            | P["MANAGE_THREADS"]),
        )
        self.managers = {int(self.users[name]["id"]) for name in managers}
        self.bot_role = dict(
            self.everyone_role, id=str(guild_id + 1), name="Deckhand", position=1, managed=True,
            permissions=str(BOT_ROLE_PERMISSIONS), tags={"bot_id": str(application_id)},
        )
        self.channels: dict[int, dict[str, Any]] = {
            channel_id: {
                "id": str(channel_id), "type": 0, "guild_id": str(guild_id), "name": "card-table",
                "position": 0, "permission_overwrites": [], "topic": None, "nsfw": False,
                "last_message_id": None, "rate_limit_per_user": 0, "parent_id": None,
                "default_auto_archive_duration": 1440, "flags": 0,
            }
        }

        self.requests: list[RecordedRequest] = []
        self.messages: dict[int, dict[str, Any]] = {}  # latest state, live messages only
        self.deleted_messages: dict[int, dict[str, Any]] = {}
        self.message_history: dict[int, list[dict[str, Any]]] = {}  # every version
        self._message_version: dict[int, int] = {}
        self._ephemeral_recipient: dict[int, int] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # None = global
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self.identify_payload: dict[str, Any] | None = None
        self.presence: dict[str, Any] | None = None
        self.gateway_received: list[dict[str, Any]] = []
        self.gateway_sent: list[dict[str, Any]] = []
        self.gateway_closes: list[tuple[int, str]] = []  # close codes the fake sent
        self.identify_count = 0

        self._conn: _Conn | None = None
        self._conns: set[_Conn] = set()
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self._routes = self._build_routes()

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> "FakeDiscord":
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self._gateway_handler)
        app.router.add_route("*", "/{tail:.*}", self._rest_handler)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=2.0,
                                     access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        for conn in list(self._conns):
            if not conn.ws.closed:
                await conn.ws.close(code=1001, message=b"fake discord shutting down")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.origin}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """Value for ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    @property
    def cdn_url(self) -> str:
        """Value for ``discord.asset.Asset.BASE`` (answers 404: nothing should fetch it)."""
        return f"{self.origin}/cdn"

    # ------------------------------------------------------------------ waiting

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, check: Callable[[], Any], timeout: float = 30.0,
                         what: str = "condition") -> Any:
        """Wait until ``check()`` returns something truthy and return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"fake discord: timed out after {timeout:g}s waiting for "
                                   f"{what}\n{self.describe()}")
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    async def wait_ready(self, timeout: float = 30.0) -> dict[str, Any]:
        """Wait until the bot has IDENTIFYed and got READY + GUILD_CREATE; return IDENTIFY."""
        await self.wait_until(lambda: self._conn is not None and self._conn.identified,
                              timeout, "the bot to IDENTIFY on the gateway")
        assert self.identify_payload is not None
        return self.identify_payload

    def find_requests(self, method: str, path_regex: str, *, since: int = 0) -> list[RecordedRequest]:
        pattern = re.compile(path_regex)
        return [r for r in self.requests[since:]
                if r.method == method.upper() and pattern.search(r.path)]

    async def wait_for_request(self, method: str, path_regex: str, timeout: float = 30.0, *,
                               since: int = 0,
                               predicate: Callable[[RecordedRequest], bool] | None = None
                               ) -> RecordedRequest:
        """First request (index >= ``since``) with ``method`` whose path matches
        ``path_regex`` (``re.search`` on the path relative to /api/v10)."""
        def check() -> RecordedRequest | None:
            for r in self.find_requests(method, path_regex, since=since):
                if predicate is None or predicate(r):
                    return r
            return None
        return await self.wait_until(check, timeout, f"{method} {path_regex}")

    async def wait_for_message(self, predicate: Callable[[dict[str, Any]], bool],
                               timeout: float = 10.0, what: str = "a matching message"
                               ) -> dict[str, Any]:
        """A live message (latest state) for which ``predicate`` holds."""
        def check() -> dict[str, Any] | None:
            for msg in reversed(list(self.messages.values())):
                if predicate(msg):
                    return msg
            return None
        return await self.wait_until(check, timeout, what)

    async def wait_idle(self, quiet: float = 0.5, timeout: float = 10.0) -> None:
        """Wait until the bot has made no REST request for ``quiet`` seconds (it finished
        what an interaction started: follow-ups, edits, AI turns)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            last = self.requests[-1].at if self.requests else 0.0
            now = loop.time()
            if now - last >= quiet:
                return
            if now >= deadline:
                raise TimeoutError(f"fake discord: the bot was still busy after {timeout:g}s\n"
                                   f"{self.describe()}")
            await asyncio.sleep(min(quiet - (now - last), deadline - now) + 0.01)

    @property
    def unknown_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.unknown]

    @property
    def rejected_requests(self) -> list[RecordedRequest]:
        """Requests the fake answered with a 4xx other than an unknown route."""
        return [r for r in self.requests if r.error is not None]

    def describe(self, last: int = 25) -> str:
        lines = [f"fake discord: {len(self.requests)} requests, identified="
                 f"{bool(self._conn and self._conn.identified)}, closes={self.gateway_closes}"]
        lines += [f"  {r}" for r in self.requests[-last:]]
        return "\n".join(lines)

    # ------------------------------------------------------------------ messages

    def message(self, message_id: int | str) -> dict[str, Any]:
        """Latest state of a live message."""
        return self.messages[int(message_id)]

    def channel_messages(self, channel_id: int | None = None, *, ephemeral: bool = True
                         ) -> list[dict[str, Any]]:
        """Live messages in a channel (default: the guild's text channel), oldest first;
        ``ephemeral=False`` leaves out those only one user sees."""
        cid = str(channel_id or self.channel_id)
        return [m for m in self.messages.values() if m["channel_id"] == cid
                and (ephemeral or not m["flags"] & FLAG_EPHEMERAL)]

    def message_version(self, message_id: int | str) -> int:
        return self._message_version.get(int(message_id), 0)

    @staticmethod
    def iter_components(components: list[dict[str, Any]] | dict[str, Any]) -> list[dict[str, Any]]:
        """Every component in a message (or component list), depth first."""
        if isinstance(components, dict):
            components = components.get("components") or []
        out: list[dict[str, Any]] = []
        for comp in components:
            out.append(comp)
            for key in ("components",):
                out.extend(FakeDiscord.iter_components(comp.get(key) or []))
            if isinstance(comp.get("accessory"), dict):
                out.append(comp["accessory"])
            if isinstance(comp.get("component"), dict):
                out.extend(FakeDiscord.iter_components([comp["component"]]))
        return out

    @classmethod
    def buttons(cls, message: dict[str, Any]) -> list[dict[str, Any]]:
        return [c for c in cls.iter_components(message) if c.get("type") == C_BUTTON]

    # ------------------------------------------------------------------ gateway API

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH to the connected, identified bot."""
        conn = self._conn
        if conn is None or not conn.identified or conn.ws.closed:
            raise FakeDiscordError(f"cannot dispatch {event}: the bot is not connected\n"
                                   f"{self.describe()}")
        await self._send_dispatch(conn, event, data)

    async def send_interaction(self, payload: dict[str, Any]) -> FakeInteraction:
        """Push INTERACTION_CREATE; ``id``/``token``/``application_id`` are filled if absent."""
        payload = copy.deepcopy(payload)
        payload.setdefault("id", str(self._snowflake()))
        payload.setdefault("token", "itok-" + secrets.token_urlsafe(24))
        payload.setdefault("application_id", str(self.application_id))
        user = (payload.get("member") or {}).get("user") or payload.get("user") or {}
        inter = FakeInteraction(
            id=int(payload["id"]), token=payload["token"], payload=payload,
            sent_at=asyncio.get_running_loop().time(), user_id=int(user.get("id", 0)),
        )
        self.interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        await self.dispatch("INTERACTION_CREATE", payload)
        return inter

    async def wait_for_ack(self, interaction: FakeInteraction, timeout: float = 10.0
                           ) -> FakeInteraction:
        """Wait for the interaction's callback; fail if it was refused (e.g. too late)."""
        await self.wait_until(lambda: interaction.callback is not None, timeout,
                              f"the bot to acknowledge interaction {interaction.id} "
                              f"({self._interaction_label(interaction)})")
        if not interaction.acknowledged:
            raise FakeDiscordError(f"interaction callback refused: {interaction.callback}")
        return interaction

    async def wait_for_reply(self, interaction: FakeInteraction, timeout: float = 10.0
                             ) -> dict[str, Any]:
        """The message a user sees as the outcome of ``interaction``.

        Type 4/7: the created/updated message. Type 5 (thinking): the original once a
        follow-up or edit replaced the loading state. Type 6: the component's message once
        edited after the ack, or the first follow-up.
        """
        await self.wait_for_ack(interaction, timeout)

        def check() -> dict[str, Any] | None:
            rt = interaction.response_type
            mid = interaction.original_message_id
            msg = self.messages.get(mid) if mid is not None else None
            if rt in (4, 7):
                return msg
            if rt == 5:
                return msg if msg is not None and not msg["flags"] & FLAG_LOADING else None
            if rt == 6:
                if mid is not None and self.message_version(mid) > interaction.ack_version:
                    return msg
                for fid in interaction.followup_ids:
                    if fid in self.messages:
                        return self.messages[fid]
            return None
        return await self.wait_until(check, timeout, f"a visible reply to interaction "
                                     f"{interaction.id} ({self._interaction_label(interaction)})")

    async def run_command(self, command: str, options: Mapping[str, Any] | None = None, *,
                          user: int | str = "alice", channel_id: int | None = None,
                          timeout: float = 10.0) -> FakeInteraction:
        """Invoke a synced slash command like a user would and wait for the ack."""
        inter = await self.send_interaction(
            self.slash_command(command, options, user=user, channel_id=channel_id))
        return await self.wait_for_ack(inter, timeout)

    async def click(self, message: dict[str, Any] | int | str, *, label: str | None = None,
                    custom_id: str | None = None, user: int | str = "alice",
                    timeout: float = 10.0) -> FakeInteraction:
        """Click a button on a message (by label or custom_id) and wait for the ack."""
        inter = await self.send_interaction(
            self.button_click(message, label=label, custom_id=custom_id, user=user))
        return await self.wait_for_ack(inter, timeout)

    async def select(self, message: dict[str, Any] | int | str, values: list[str], *,
                     custom_id: str | None = None, user: int | str = "alice",
                     timeout: float = 10.0) -> FakeInteraction:
        """Choose ``values`` in a string select on a message and wait for the ack."""
        inter = await self.send_interaction(
            self.select_choice(message, values, custom_id=custom_id, user=user))
        return await self.wait_for_ack(inter, timeout)

    # ------------------------------------------------------------------ payload builders

    def user(self, who: int | str) -> dict[str, Any]:
        if isinstance(who, str) and who in self.users:
            return self.users[who]
        for u in self.users.values():
            if u["id"] == str(who):
                return u
        raise LookupError(f"unknown user {who!r}; known: {sorted(self.users)}")

    def member(self, who: int | str) -> dict[str, Any]:
        u = self.user(who)
        roles = [self.manager_role["id"]] if int(u["id"]) in self.managers else []
        return {
            "user": u, "nick": None, "avatar": None, "banner": None, "roles": roles,
            "joined_at": "2024-01-01T00:00:00+00:00", "premium_since": None, "deaf": False,
            "mute": False, "pending": False, "flags": 0, "communication_disabled_until": None,
        }

    def _bot_member(self) -> dict[str, Any]:
        return {
            "user": self.bot_user, "nick": None, "avatar": None, "banner": None,
            "roles": [self.bot_role["id"]], "joined_at": "2024-01-01T00:00:00+00:00",
            "premium_since": None, "deaf": False, "mute": False, "pending": False, "flags": 0,
            "communication_disabled_until": None,
        }

    def _permissions_of(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        if user_id in self.managers:
            return int(self.manager_role["permissions"])
        return EVERYONE_PERMISSIONS

    def base_interaction(self, type_: int, *, user: int | str = "alice",
                         channel_id: int | None = None) -> dict[str, Any]:
        """Fields every guild interaction carries."""
        cid = channel_id or self.channel_id
        channel = self.channels.get(cid)
        if channel is None:
            raise LookupError(f"unknown channel {cid}")
        member = self.member(user)
        perms = self._permissions_of(int(member["user"]["id"]))
        member["permissions"] = str(perms)
        return {
            "type": type_, "version": 1, "application_id": str(self.application_id),
            "guild_id": str(self.guild_id),
            "guild": {"id": str(self.guild_id), "locale": "en-US", "features": []},
            "channel_id": str(cid), "channel": dict(channel, permissions=str(perms)),
            "member": member, "app_permissions": str(BOT_ROLE_PERMISSIONS),
            "locale": "en-US", "guild_locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def synced_command(self, name: str) -> tuple[dict[str, Any], int | None]:
        """The latest synced definition of a top-level command and its guild (None: global)."""
        for scope in (self.guild_id, None):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd, scope
        known = {scope: [c["name"] for c in cmds] for scope, cmds in self.commands.items()}
        raise LookupError(f"/{name} was not synced; synced commands: {known}")

    def slash_command(self, command: str, options: Mapping[str, Any] | None = None, *,
                      user: int | str = "alice", channel_id: int | None = None) -> dict[str, Any]:
        """An APPLICATION_COMMAND payload for ``"group sub"``-style ``command`` with options.

        Types come from the synced definition; like Discord's client, the builder refuses
        unknown options, missing required ones, values outside declared choices and users
        lacking the command's ``default_member_permissions`` (PermissionError).
        Values for user/channel/role options are ids (or user keys such as ``"bob"``).
        """
        parts = command.strip().lstrip("/").split()
        top, scope = self.synced_command(parts[0])
        required = top.get("default_member_permissions")
        perms = self._permissions_of(int(self.user(user)["id"]))
        if required is not None and not perms & (1 << 3):  # ADMINISTRATOR passes everything
            if int(required) == 0 or perms & int(required) != int(required):
                raise PermissionError(f"/{parts[0]} needs permissions {required} "
                                      f"(default_member_permissions); Discord would not let "
                                      f"{user!r} run it")
        node: dict[str, Any] = top
        path = [parts[0]]
        for part in parts[1:]:
            sub = next((o for o in node.get("options") or []
                        if o["name"] == part and o["type"] in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP)),
                       None)
            if sub is None:
                subs = [o["name"] for o in node.get("options") or []
                        if o["type"] in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP)]
                raise LookupError(f"/{' '.join(path)} has no subcommand {part!r}; has {subs}")
            node = sub
            path.append(part)
        declared = [o for o in node.get("options") or []
                    if o["type"] not in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP)]
        if len(declared) != len(node.get("options") or []):
            raise LookupError(f"/{' '.join(path)} is a group; name a subcommand")
        resolved: dict[str, dict[str, Any]] = {}
        leaf_options = []
        given = dict(options or {})
        for opt in declared:
            if opt["name"] not in given:
                if opt.get("required"):
                    raise ValueError(f"/{' '.join(path)}: required option {opt['name']!r} missing")
                continue
            value = self._option_value(opt, given.pop(opt["name"]), resolved)
            leaf_options.append({"name": opt["name"], "type": opt["type"], "value": value})
        if given:
            raise LookupError(f"/{' '.join(path)} has no option(s) {sorted(given)}; "
                              f"declared: {[o['name'] for o in declared]}")
        opts: list[dict[str, Any]] = leaf_options
        for depth in range(len(path) - 1, 0, -1):
            sub_type = OPT_SUB_COMMAND if depth == len(path) - 1 else OPT_SUB_COMMAND_GROUP
            opts = [{"name": path[depth], "type": sub_type, "options": opts}]
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1, "options": opts}
        if scope is not None:
            data["guild_id"] = str(scope)
        if resolved:
            data["resolved"] = resolved
        payload = self.base_interaction(2, user=user, channel_id=channel_id)
        payload["data"] = data
        return payload

    def _option_value(self, opt: dict[str, Any], value: Any, resolved: dict) -> Any:
        t = opt["type"]
        if t == OPT_USER or (t == OPT_MENTIONABLE and not str(value).isdigit()):
            u = self.user(value)
            resolved.setdefault("users", {})[u["id"]] = u
            m = self.member(value)
            m.pop("user")
            m["permissions"] = str(self._permissions_of(int(u["id"])))
            resolved.setdefault("members", {})[u["id"]] = m
            value = u["id"]
        elif t == OPT_CHANNEL:
            ch = self.channels[int(value)]
            resolved.setdefault("channels", {})[ch["id"]] = dict(
                ch, permissions=str(EVERYONE_PERMISSIONS))
            value = ch["id"]
        elif t == OPT_ROLE:
            role = self.everyone_role if int(value) == self.guild_id else self.bot_role
            resolved.setdefault("roles", {})[role["id"]] = role
            value = role["id"]
        elif t == OPT_INTEGER:
            value = int(value)
        elif t == OPT_NUMBER:
            value = float(value)
        elif t == OPT_BOOLEAN:
            value = bool(value)
        elif t == OPT_STRING:
            value = str(value)
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {opt['name']!r}: {value!r} is not one of "
                             f"{[c['value'] for c in choices]}")
        return value

    def _message_for_click(self, message: dict[str, Any] | int | str, user: int | str
                           ) -> dict[str, Any]:
        mid = int(message["id"]) if isinstance(message, dict) else int(message)
        if mid not in self.messages:
            raise LookupError(f"message {mid} does not exist (deleted?)")
        msg = self.messages[mid]
        uid = int(self.user(user)["id"])
        recipient = self._ephemeral_recipient.get(mid)
        if recipient is not None and recipient != uid:
            raise LookupError(f"message {mid} is ephemeral for user {recipient}; "
                              f"user {uid} cannot see it")
        return copy.deepcopy(msg)

    def _find_component(self, msg: dict[str, Any], types: tuple[int, ...], *,
                        label: str | None, custom_id: str | None) -> dict[str, Any]:
        found = [c for c in self.iter_components(msg) if c.get("type") in types]
        if custom_id is not None:
            matches = [c for c in found if c.get("custom_id") == custom_id]
        elif label is not None:
            matches = [c for c in found
                       if (c.get("label") or "").casefold() == label.casefold()
                       or (c.get("placeholder") or "").casefold() == label.casefold()]
        else:
            matches = found
        if len(matches) != 1:
            listing = [(c.get("label") or c.get("placeholder"), c.get("custom_id")) for c in found]
            raise LookupError(f"{len(matches)} components match label={label!r} "
                              f"custom_id={custom_id!r} on message {msg['id']}; it has {listing}")
        comp = matches[0]
        if comp.get("disabled"):
            raise LookupError(f"component {comp.get('custom_id')!r} is disabled")
        if comp.get("type") == C_BUTTON and comp.get("style") in (5, 6):
            raise LookupError("link / premium buttons send no interaction")
        return comp

    def button_click(self, message: dict[str, Any] | int | str, *, label: str | None = None,
                     custom_id: str | None = None, user: int | str = "alice") -> dict[str, Any]:
        """A MESSAGE_COMPONENT payload for clicking a button on a recorded message."""
        msg = self._message_for_click(message, user)
        comp = self._find_component(msg, (C_BUTTON,), label=label, custom_id=custom_id)
        payload = self.base_interaction(3, user=user, channel_id=int(msg["channel_id"]))
        payload["message"] = msg
        payload["data"] = {"custom_id": comp["custom_id"], "component_type": C_BUTTON}
        return payload

    def select_choice(self, message: dict[str, Any] | int | str, values: list[str], *,
                      custom_id: str | None = None, placeholder: str | None = None,
                      user: int | str = "alice") -> dict[str, Any]:
        """A MESSAGE_COMPONENT payload for choosing ``values`` in a string select."""
        msg = self._message_for_click(message, user)
        comp = self._find_component(msg, (C_STRING_SELECT,), label=placeholder,
                                    custom_id=custom_id)
        allowed = [o["value"] for o in comp.get("options") or []]
        bad = [v for v in values if v not in allowed]
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if bad or not lo <= len(values) <= hi:
            raise ValueError(f"select {comp['custom_id']!r} accepts {lo}..{hi} of {allowed}, "
                             f"not {values}")
        payload = self.base_interaction(3, user=user, channel_id=int(msg["channel_id"]))
        payload["message"] = msg
        payload["data"] = {"custom_id": comp["custom_id"], "component_type": C_STRING_SELECT,
                           "values": list(values)}
        return payload

    @staticmethod
    def _interaction_label(inter: FakeInteraction) -> str:
        data = inter.payload.get("data") or {}
        if inter.type == 2:
            names = [data.get("name", "?")]
            opts = data.get("options") or []
            while opts and opts[0].get("type") in (1, 2):
                names.append(opts[0]["name"])
                opts = opts[0].get("options") or []
            return "/" + " ".join(names)
        return f"component {data.get('custom_id')!r}"

    # ------------------------------------------------------------------ gateway server

    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        compress = request.query.get("compress") == "zlib-stream"
        conn = _Conn(ws, compress)
        self._conns.add(conn)
        try:
            if request.query.get("v") != "10" or request.query.get("encoding", "json") != "json":
                await self._close(conn, 4012, "Invalid API version or encoding")
                return ws
            await self._send(conn, {"op": OP_HELLO, "d": {
                "heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-discord"]}})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    raw = msg.data
                elif msg.type == WSMsgType.BINARY:
                    raw = msg.data.decode("utf-8", "replace")
                else:
                    break
                try:
                    payload = json.loads(raw)
                except ValueError:
                    await self._close(conn, 4002, "Decode error")
                    break
                self.gateway_received.append(payload)
                await self._on_gateway(conn, payload)
                self._notify()
        finally:
            self._conns.discard(conn)
            if self._conn is conn:
                self._notify()
        return ws

    async def _close(self, conn: _Conn, code: int, reason: str) -> None:
        self.gateway_closes.append((code, reason))
        await conn.ws.close(code=code, message=reason.encode())
        self._notify()

    async def _send(self, conn: _Conn, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, separators=(",", ":"))
        async with conn.lock:
            if conn.ws.closed:
                return
            if conn.compressor is not None:
                blob = conn.compressor.compress(data.encode()) + conn.compressor.flush(zlib.Z_SYNC_FLUSH)
                await conn.ws.send_bytes(blob)
            else:
                await conn.ws.send_str(data)
            self.gateway_sent.append(payload)

    async def _send_dispatch(self, conn: _Conn, event: str, data: dict[str, Any]) -> None:
        conn.seq += 1
        await self._send(conn, {"op": OP_DISPATCH, "t": event, "s": conn.seq, "d": data})

    async def _dispatch_if(self, intent: int, event: str, data: dict[str, Any]) -> None:
        conn = self._conn
        if conn is not None and conn.identified and not conn.ws.closed and conn.intents & intent:
            await self._send_dispatch(conn, event, data)

    async def _on_gateway(self, conn: _Conn, payload: dict[str, Any]) -> None:
        op, d = payload.get("op"), payload.get("d")
        if op == OP_HEARTBEAT:
            await self._send(conn, {"op": OP_HEARTBEAT_ACK})
        elif op == OP_IDENTIFY:
            await self._identify(conn, d or {})
        elif op == OP_RESUME:
            conn.identified = True
            conn.intents = (self._conn.intents if self._conn else 0)
            self._conn = conn
            await self._send_dispatch(conn, "RESUMED", {"_trace": ["fake-discord"]})
        elif not conn.identified:
            await self._close(conn, 4003, "Not authenticated")
        elif op == OP_PRESENCE:
            self.presence = d
        elif op == OP_REQUEST_MEMBERS:
            d = d or {}
            await self._send_dispatch(conn, "GUILD_MEMBERS_CHUNK", {
                "guild_id": str(self.guild_id), "members": self._guild_members(),
                "chunk_index": 0, "chunk_count": 1, "not_found": [],
                **({"nonce": d["nonce"]} if d.get("nonce") else {}),
            })
        else:
            await self._close(conn, 4001, f"Unknown opcode {op}")

    async def _identify(self, conn: _Conn, d: dict[str, Any]) -> None:
        if conn.identified:
            await self._close(conn, 4005, "Already authenticated")
            return
        token = str(d.get("token", ""))
        if not token or token in self.bad_tokens:
            await self._close(conn, 4004, "Authentication failed.")
            return
        if "intents" not in d:
            await self._close(conn, 4013, "Invalid intent(s).")
            return
        intents = int(d["intents"])
        if intents & PRIVILEGED_INTENTS & ~self.allowed_intents:
            await self._close(conn, 4014, "Disallowed intent(s).")
            return
        conn.identified, conn.intents = True, intents
        self.identify_payload = d
        self.identify_count += 1
        self._conn = conn
        ready: dict[str, Any] = {
            "v": 10, "user": self.bot_user, "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": conn.session_id, "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [], "presences": [], "relationships": [],
            "guild_join_requests": [], "user_settings": {}, "geo_ordered_rtc_regions": [],
            "session_type": "normal", "_trace": ["fake-discord"],
        }
        if d.get("shard") is not None:
            ready["shard"] = d["shard"]
        await self._send_dispatch(conn, "READY", ready)
        await self._send_dispatch(conn, "GUILD_CREATE", self.guild_payload())
        self._notify()

    def _guild_members(self) -> list[dict[str, Any]]:
        return [self._bot_member()] + [self.member(name) for name in self.users]

    def guild_payload(self) -> dict[str, Any]:
        threads = [c for c in self.channels.values() if c["type"] in (10, 11, 12)]
        channels = [c for c in self.channels.values()
                    if c["type"] not in (10, 11, 12) and c.get("guild_id")]
        return {
            "id": str(self.guild_id), "name": "Fake Card Club", "icon": None, "splash": None,
            "discovery_splash": None, "banner": None, "description": None,
            "owner_id": str(self.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [self.everyone_role, self.bot_role, self.manager_role],
            "emojis": [], "stickers": [], "features": [], "mfa_level": 0,
            "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "public_updates_channel_id": None,
            "safety_alerts_channel_id": None, "max_members": 500000, "vanity_url_code": None,
            "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "en-US",
            "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "joined_at": "2024-01-01T00:00:00+00:00", "large": False, "unavailable": False,
            "member_count": len(self.users) + 1, "voice_states": [],
            "members": self._guild_members(), "channels": copy.deepcopy(channels),
            "threads": copy.deepcopy(threads), "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [], "lazy": True,
        }

    # ------------------------------------------------------------------ REST server

    def _build_routes(self) -> list[tuple[str, re.Pattern[str], Callable[..., Awaitable[Any]], bool]]:
        s = r"(\d+)"
        table = [
            ("GET", r"/users/@me", self._get_me, True),
            ("GET", r"/oauth2/applications/@me", self._get_application, True),
            ("GET", r"/applications/@me", self._get_application, True),
            ("GET", r"/gateway", self._get_gateway, False),
            ("GET", r"/gateway/bot", self._get_gateway_bot, True),
            ("GET", rf"/applications/{s}/commands", self._get_commands, True),
            ("PUT", rf"/applications/{s}/commands", self._put_commands, True),
            ("POST", rf"/applications/{s}/commands", self._post_command, True),
            ("GET", rf"/applications/{s}/guilds/{s}/commands", self._get_commands, True),
            ("PUT", rf"/applications/{s}/guilds/{s}/commands", self._put_commands, True),
            ("POST", rf"/applications/{s}/guilds/{s}/commands", self._post_command, True),
            ("POST", r"/interactions/(\d+)/([^/]+)/callback", self._interaction_callback, False),
            ("POST", r"/webhooks/(\d+)/([^/]+)", self._followup, False),
            ("GET", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self._webhook_get, False),
            ("PATCH", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self._webhook_edit, False),
            ("DELETE", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", self._webhook_delete, False),
            ("GET", rf"/channels/{s}", self._get_channel, True),
            ("PATCH", rf"/channels/{s}", self._edit_channel, True),
            ("DELETE", rf"/channels/{s}", self._delete_channel, True),
            ("GET", rf"/channels/{s}/messages", self._list_messages, True),
            ("POST", rf"/channels/{s}/messages", self._create_message, True),
            ("GET", rf"/channels/{s}/messages/{s}", self._get_message, True),
            ("PATCH", rf"/channels/{s}/messages/{s}", self._edit_message, True),
            ("DELETE", rf"/channels/{s}/messages/{s}", self._delete_message, True),
            ("POST", rf"/channels/{s}/threads", self._create_thread, True),
            ("POST", rf"/channels/{s}/messages/{s}/threads", self._create_thread_from_message, True),
            ("PUT", rf"/channels/{s}/thread-members/(@me|\d+)", self._no_content_in_channel, True),
            ("DELETE", rf"/channels/{s}/thread-members/(@me|\d+)", self._no_content_in_channel, True),
            ("POST", rf"/channels/{s}/typing", self._no_content_in_channel, True),
            ("PUT", rf"/channels/{s}/messages/{s}/reactions/[^/]+/@me", self._no_content_in_channel, True),
            ("DELETE", rf"/channels/{s}/messages/{s}/reactions/[^/]+/@me", self._no_content_in_channel, True),
            ("POST", r"/users/@me/channels", self._create_dm, True),
            ("GET", rf"/users/{s}", self._get_user, True),
            ("GET", rf"/guilds/{s}", self._get_guild, True),
            ("GET", rf"/guilds/{s}/channels", self._get_guild_channels, True),
            ("GET", rf"/guilds/{s}/members/{s}", self._get_member, True),
            ("GET", rf"/guilds/{s}/members", self._list_members, True),
        ]
        return [(m, re.compile(p + "$"), h, auth) for m, p, h, auth in table]

    async def _rest_handler(self, request: web.Request) -> web.StreamResponse:
        full = request.path
        rel = full[len(API_PREFIX):] if full.startswith(API_PREFIX + "/") else full
        record = RecordedRequest(
            index=len(self.requests), method=request.method, path=rel,
            query=dict(request.query), headers=dict(request.headers), json=None,
            at=asyncio.get_running_loop().time(),
        )
        self.requests.append(record)
        try:
            await self._read_body(request, record)
            if not full.startswith(API_PREFIX + "/"):
                record.unknown = True
                raise _ApiError(404, 0, "404: Not Found")
            for method, pattern, handler, auth in self._routes:
                m = pattern.match(rel)
                if m and method == request.method:
                    break
            else:
                record.unknown = True
                raise _ApiError(404, 0, "404: Not Found")
            if auth:
                header = request.headers.get("Authorization", "")
                token = header[4:] if header.startswith("Bot ") else ""
                if not token or token in self.bad_tokens:
                    raise _ApiError(401, 0, "401: Unauthorized")
            result = await handler(record, *m.groups())
            status, body = (204, None) if result is None else (200, result)
        except _ApiError as exc:
            status, body = exc.status, exc.body()
            if not record.unknown:
                record.error = f"{exc.code}: {exc.message}" + (
                    f" {json.dumps(exc.errors)}" if exc.errors else "")
        record.status, record.response = status, body
        self._notify()
        if body is None:
            return web.Response(status=status)
        # discord.py's json_or_text() wants exactly "application/json" (no charset).
        return web.Response(status=status, body=json.dumps(body).encode(),
                            headers={"Content-Type": "application/json"})

    async def _read_body(self, request: web.Request, record: RecordedRequest) -> None:
        if not request.can_read_body:
            return
        ctype = request.content_type
        if ctype == "multipart/form-data":
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    record.json = json.loads(await part.text())
                else:
                    data = await part.read()
                    record.files.append({"name": part.name, "filename": part.filename,
                                         "size": len(data), "content_type": part.headers.get(
                                             "Content-Type")})
            return
        raw = await request.read()
        if not raw:
            return
        try:
            record.json = json.loads(raw)
        except ValueError:
            raise _ApiError(400, 50109, "The request body contains invalid JSON.") from None

    # -- snowflakes / helpers

    def _snowflake(self) -> int:
        value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_snowflake = max(value, self._last_snowflake + 1)
        return self._last_snowflake

    def _check_app(self, app_id: str) -> None:
        if int(app_id) != self.application_id:
            raise _ApiError(403, 50001, "Missing Access")

    def _channel(self, channel_id: str) -> dict[str, Any]:
        try:
            return self.channels[int(channel_id)]
        except KeyError:
            raise _unknown("Channel", 10003) from None

    def _live_message(self, channel_id: str, message_id: str) -> dict[str, Any]:
        self._channel(channel_id)
        msg = self.messages.get(int(message_id))
        if msg is None or msg["channel_id"] != str(int(channel_id)):
            raise _unknown("Message", 10008)
        if msg["flags"] & FLAG_EPHEMERAL:  # bots can't see ephemeral messages via channels
            raise _unknown("Message", 10008)
        return msg

    # -- identity, gateway

    async def _get_me(self, rec: RecordedRequest) -> Any:
        return self.bot_user

    async def _get_application(self, rec: RecordedRequest) -> Any:
        return {
            "id": str(self.application_id), "name": "Deckhand", "icon": None,
            "description": "A fake application", "summary": "", "type": None,
            "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
            "owner": self.users[next(iter(self.users))] if self.users else self.bot_user,
            "team": None, "flags": 0, "rpc_origins": [], "terms_of_service_url": None,
            "privacy_policy_url": None, "interactions_endpoint_url": None,
            "bot": self.bot_user, "approximate_guild_count": 1,
        }

    async def _get_gateway(self, rec: RecordedRequest) -> Any:
        return {"url": self.gateway_url.rstrip("/")}

    async def _get_gateway_bot(self, rec: RecordedRequest) -> Any:
        return {"url": self.gateway_url.rstrip("/"), "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1}}

    # -- application commands

    def _scope(self, guild_id: str | None) -> int | None:
        if guild_id is None:
            return None
        if int(guild_id) != self.guild_id:
            raise _ApiError(403, 50001, "Missing Access")
        return int(guild_id)

    def _echo_command(self, body: dict[str, Any], scope: int | None, existing: dict | None) -> dict:
        if not isinstance(body, dict) or not body.get("name"):
            raise _ApiError(400, 50035, "Invalid Form Body", {"name": {"_errors": [
                {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}})
        cmd = copy.deepcopy(body)
        cmd.setdefault("type", 1)
        cmd.setdefault("description", "")
        cmd["id"] = existing["id"] if existing else str(self._snowflake())
        cmd["application_id"] = str(self.application_id)
        cmd["version"] = str(self._snowflake())
        cmd.setdefault("default_member_permissions", None)
        cmd.setdefault("nsfw", False)
        cmd.setdefault("integration_types", [0])
        cmd.setdefault("contexts", None)
        if scope is not None:
            cmd["guild_id"] = str(scope)
        return cmd

    def _validate_commands(self, body: Any) -> None:
        errors: dict[str, Any] = {}
        if not isinstance(body, list):
            raise _ApiError(400, 50035, "Invalid Form Body", {"_errors": [
                {"code": "BASE_TYPE_ARRAY", "message": "Must be an array"}]})
        names = set()
        for i, cmd in enumerate(body):
            problems = []
            key = (cmd.get("type", 1), cmd.get("name"))
            if key in names:
                problems.append("Application command names must be unique")
            names.add(key)
            if cmd.get("type", 1) == 1:
                if not re.fullmatch(r"[-_\w]{1,32}", cmd.get("name", "")) or cmd["name"] != cmd["name"].lower():
                    problems.append(f"invalid name {cmd.get('name')!r}")
                if not 1 <= len(cmd.get("description") or "") <= 100:
                    problems.append("description must be 1-100 characters")
                problems += self._option_problems(cmd.get("options") or [], depth=0)
            if problems:
                errors[str(i)] = {"_errors": [{"code": "INVALID", "message": p} for p in problems]}
        if len(body) > 100:
            errors["_errors"] = [{"code": "MAX", "message": "at most 100 commands"}]
        if errors:
            raise _ApiError(400, 50035, "Invalid Form Body", errors)

    def _option_problems(self, options: list[dict[str, Any]], depth: int) -> list[str]:
        problems = []
        if len(options) > 25:
            problems.append("at most 25 options")
        seen_optional = False
        for o in options:
            name = o.get("name", "")
            if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
                problems.append(f"invalid option name {name!r}")
            if not 1 <= len(o.get("description") or "") <= 100:
                problems.append(f"option {name!r}: description must be 1-100 characters")
            if o.get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
                if depth >= 2 or (o["type"] == OPT_SUB_COMMAND_GROUP and depth >= 1):
                    problems.append(f"option {name!r}: subcommands nested too deep")
                problems += self._option_problems(o.get("options") or [], depth + 1)
                continue
            if o.get("required"):
                if seen_optional:
                    problems.append(f"option {name!r}: required options must come first")
            else:
                seen_optional = True
            choices = o.get("choices") or []
            if len(choices) > 25:
                problems.append(f"option {name!r}: at most 25 choices")
            if choices and o.get("autocomplete"):
                problems.append(f"option {name!r}: choices and autocomplete are exclusive")
        return problems

    async def _get_commands(self, rec: RecordedRequest, app_id: str, guild_id: str | None = None) -> Any:
        self._check_app(app_id)
        return self.commands.get(self._scope(guild_id), [])

    async def _put_commands(self, rec: RecordedRequest, app_id: str, guild_id: str | None = None) -> Any:
        self._check_app(app_id)
        scope = self._scope(guild_id)
        self._validate_commands(rec.json)
        old = {(c.get("type", 1), c["name"]): c for c in self.commands.get(scope, [])}
        new = [self._echo_command(c, scope, old.get((c.get("type", 1), c["name"])))
               for c in rec.json]
        self.commands[scope] = new
        return new

    async def _post_command(self, rec: RecordedRequest, app_id: str, guild_id: str | None = None) -> Any:
        self._check_app(app_id)
        scope = self._scope(guild_id)
        self._validate_commands([rec.json])
        cmds = self.commands.setdefault(scope, [])
        existing = next((c for c in cmds if c["name"] == rec.json["name"]
                         and c.get("type", 1) == rec.json.get("type", 1)), None)
        cmd = self._echo_command(rec.json, scope, existing)
        if existing:
            cmds[cmds.index(existing)] = cmd
        else:
            cmds.append(cmd)
        return cmd

    # -- message bodies

    def _validate_message(self, body: dict[str, Any], *, creating: bool, files: list,
                          flags: int) -> None:
        errors: dict[str, list[str]] = {}

        def bad(path: str, message: str) -> None:
            errors.setdefault(path, []).append(message)

        content = body.get("content")
        if content is not None and len(str(content)) > 2000:
            bad("content", "Must be 2000 or fewer in length.")
        embeds = body.get("embeds") or []
        if len(embeds) > 10:
            bad("embeds", "Must be 10 or fewer in length.")
        total = 0
        for i, e in enumerate(embeds):
            for key, limit in (("title", 256), ("description", 4096)):
                if len(e.get(key) or "") > limit:
                    bad(f"embeds.{i}.{key}", f"Must be {limit} or fewer in length.")
                total += len(e.get(key) or "")
            fields = e.get("fields") or []
            if len(fields) > 25:
                bad(f"embeds.{i}.fields", "Must be 25 or fewer in length.")
            for j, f in enumerate(fields):
                if not 1 <= len(f.get("name") or "") <= 256:
                    bad(f"embeds.{i}.fields.{j}.name", "Must be between 1 and 256 in length.")
                if not 1 <= len(f.get("value") or "") <= 1024:
                    bad(f"embeds.{i}.fields.{j}.value", "Must be between 1 and 1024 in length.")
                total += len(f.get("name") or "") + len(f.get("value") or "")
            total += len((e.get("footer") or {}).get("text") or "")
            total += len((e.get("author") or {}).get("name") or "")
        if total > 6000:
            bad("embeds", "Embed size exceeds maximum size of 6000")
        components = body.get("components")
        if components is not None:
            self._validate_components(components, flags, bad)
        if flags & FLAG_COMPONENTS_V2 and (body.get("content") or body.get("embeds")):
            bad("content", "content and embeds cannot be used with the IS_COMPONENTS_V2 flag")
        if errors:
            raise _ApiError(400, 50035, "Invalid Form Body", {
                k: {"_errors": [{"code": "INVALID", "message": m} for m in v]}
                for k, v in errors.items()})
        if creating and not (content or embeds or components or files or body.get("poll")
                             or body.get("sticker_ids") or body.get("attachments")):
            raise _ApiError(400, 50006, "Cannot send an empty message")

    def _validate_components(self, components: list[dict[str, Any]], flags: int,
                             bad: Callable[[str, str], None]) -> None:
        custom_ids: list[str] = []
        v2 = bool(flags & FLAG_COMPONENTS_V2)
        if not v2:
            if len(components) > 5:
                bad("components", "Must be 5 or fewer in length.")
            for i, row in enumerate(components):
                if row.get("type") != C_ACTION_ROW:
                    bad(f"components.{i}.type", "Top-level components must be action rows "
                        "without the IS_COMPONENTS_V2 flag")
                    continue
                children = row.get("components") or []
                selects = [c for c in children if c.get("type") in C_SELECT_TYPES]
                if not children:
                    bad(f"components.{i}.components", "Must be between 1 and 5 in length.")
                elif selects and len(children) != 1:
                    bad(f"components.{i}.components", "A select must be alone in its row")
                elif len(children) > 5:
                    bad(f"components.{i}.components", "Must be 5 or fewer in length.")
        elif len(self.iter_components(components)) > 40:
            bad("components", "Must be 40 or fewer in total.")
        for n, comp in enumerate(self.iter_components(components)):
            t = comp.get("type")
            where = f"components[{n}]"
            cid = comp.get("custom_id")
            if t == C_BUTTON:
                style = comp.get("style")
                if style == 5:
                    if not comp.get("url") or cid:
                        bad(where, "Link buttons need a url and no custom_id")
                elif style == 6:
                    if not comp.get("sku_id"):
                        bad(where, "Premium buttons need a sku_id")
                elif style in (1, 2, 3, 4):
                    if not cid:
                        bad(where, "Buttons need a custom_id")
                else:
                    bad(where, f"Unknown button style {style!r}")
                if len(comp.get("label") or "") > 80:
                    bad(f"{where}.label", "Must be 80 or fewer in length.")
                if not comp.get("label") and not comp.get("emoji") and style != 6:
                    bad(where, "Buttons need a label or an emoji")
            elif t in C_SELECT_TYPES:
                if not cid:
                    bad(where, "Selects need a custom_id")
                if len(comp.get("placeholder") or "") > 150:
                    bad(f"{where}.placeholder", "Must be 150 or fewer in length.")
                lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
                if not (0 <= lo <= 25 and 1 <= hi <= 25 and lo <= hi):
                    bad(where, "min_values/max_values out of range")
                if t == C_STRING_SELECT:
                    opts = comp.get("options") or []
                    if not 1 <= len(opts) <= 25:
                        bad(f"{where}.options", "Must be between 1 and 25 in length.")
                    if hi > len(opts):
                        bad(where, "max_values exceeds the number of options")
                    values = [o.get("value") for o in opts]
                    if len(set(values)) != len(values):
                        bad(f"{where}.options", "Option values must be unique")
                    for o in opts:
                        for key in ("label", "value", "description"):
                            if len(o.get(key) or "") > 100:
                                bad(f"{where}.options.{key}", "Must be 100 or fewer in length.")
                        if not o.get("label") or not o.get("value"):
                            bad(f"{where}.options", "Options need a label and a value")
            elif t in (9, 10, 11, 12, 13, 14, 17) and not v2:
                bad(where, f"Component type {t} needs the IS_COMPONENTS_V2 flag")
            if cid is not None:
                if not 1 <= len(str(cid)) <= 100:
                    bad(f"{where}.custom_id", "Must be between 1 and 100 in length.")
                custom_ids.append(str(cid))
        dupes = {c for c in custom_ids if custom_ids.count(c) > 1}
        if dupes:
            bad("components", f"Component custom id cannot be duplicated: {sorted(dupes)}")

    @staticmethod
    def _echo_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = copy.deepcopy(components)
        counter = 0

        def number(comps: list[dict[str, Any]]) -> None:
            nonlocal counter
            for c in comps:
                counter += 1
                c.setdefault("id", counter)
                number(c.get("components") or [])
                if isinstance(c.get("accessory"), dict):
                    counter += 1
                    c["accessory"].setdefault("id", counter)
        number(out)
        return out

    def _mentions(self, content: str) -> list[dict[str, Any]]:
        ids = {m for m in re.findall(r"<@!?(\d+)>", content or "")}
        return [u for u in list(self.users.values()) + [self.bot_user] if u["id"] in ids]

    def _attachments(self, body: dict[str, Any], files: list[dict], keep: list[dict]) -> list[dict]:
        out: list[dict[str, Any]] = []
        by_index = {f["name"]: f for f in files}
        for a in body.get("attachments") or []:
            old = next((k for k in keep if k["id"] == str(a.get("id"))), None)
            if old is not None:
                out.append(old)
                continue
            f = by_index.get(f"files[{a.get('id')}]") or {}
            aid = str(self._snowflake())
            name = a.get("filename") or f.get("filename") or "file"
            out.append({"id": aid, "filename": name, "size": f.get("size", 0),
                        "url": f"{self.origin}/cdn/attachments/{aid}/{name}",
                        "proxy_url": f"{self.origin}/cdn/attachments/{aid}/{name}",
                        "content_type": f.get("content_type"),
                        **({"description": a["description"]} if a.get("description") else {})})
        return out

    def _new_message(self, channel_id: int, body: dict[str, Any], files: list[dict], *,
                     flags: int = 0, msg_type: int = 0, interaction: FakeInteraction | None = None
                     ) -> dict[str, Any]:
        mid = self._snowflake()
        msg: dict[str, Any] = {
            "id": str(mid), "channel_id": str(channel_id), "author": self.bot_user,
            "content": str(body.get("content") or ""), "timestamp": _iso(),
            "edited_timestamp": None, "tts": bool(body.get("tts")), "mention_everyone": False,
            "mentions": self._mentions(str(body.get("content") or "")), "mention_roles": [],
            "mention_channels": [], "attachments": self._attachments(body, files, []),
            "embeds": [dict(e, type=e.get("type", "rich")) for e in body.get("embeds") or []],
            "reactions": [], "pinned": False, "type": msg_type, "flags": flags,
            "components": self._echo_components(body.get("components") or []),
            "sticker_items": [], "nonce": body.get("nonce"),
        }
        if body.get("poll"):
            msg["poll"] = copy.deepcopy(body["poll"])
        ref = body.get("message_reference")
        if ref and ref.get("message_id"):
            msg["type"] = 19
            msg["message_reference"] = {"type": 0, "message_id": str(ref["message_id"]),
                                        "channel_id": str(ref.get("channel_id") or channel_id),
                                        "guild_id": str(self.guild_id)}
            referenced = self.messages.get(int(ref["message_id"]))
            msg["referenced_message"] = copy.deepcopy(referenced)
        if interaction is not None:
            msg["webhook_id"] = str(self.application_id)
            msg["application_id"] = str(self.application_id)
            user = self.user(interaction.user_id)
            meta: dict[str, Any] = {
                "id": str(interaction.id), "type": interaction.type, "user": user,
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            }
            if interaction.type == 2:
                meta["name"] = self._interaction_label(interaction).lstrip("/")
                meta["command_type"] = 1
            if interaction.type == 3 and interaction.payload.get("message"):
                meta["interacted_message_id"] = interaction.payload["message"]["id"]
            if interaction.original_message_id is not None:
                meta["original_response_message_id"] = str(interaction.original_message_id)
            msg["interaction_metadata"] = meta
            msg["interaction"] = {"id": str(interaction.id), "type": interaction.type,
                                  "name": meta.get("name", ""), "user": user}
            if flags & FLAG_EPHEMERAL:
                self._ephemeral_recipient[mid] = interaction.user_id
        self.messages[mid] = msg
        self.message_history[mid] = [copy.deepcopy(msg)]
        self._message_version[mid] = 1
        channel = self.channels.get(channel_id)
        if channel is not None and not flags & FLAG_EPHEMERAL:
            channel["last_message_id"] = str(mid)
        return msg

    def _update_message(self, msg: dict[str, Any], body: dict[str, Any], files: list[dict]) -> dict:
        if "content" in body:
            msg["content"] = str(body["content"] or "")
            msg["mentions"] = self._mentions(msg["content"])
        if "embeds" in body:
            msg["embeds"] = [dict(e, type=e.get("type", "rich")) for e in body["embeds"] or []]
        if "components" in body:
            msg["components"] = self._echo_components(body["components"] or [])
        if "attachments" in body or files:
            msg["attachments"] = self._attachments(
                body if "attachments" in body else {"attachments": msg["attachments"]},
                files, msg["attachments"])
        if "flags" in body and body["flags"] is not None:
            keep = msg["flags"] & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2)
            msg["flags"] = keep | (int(body["flags"]) & _SETTABLE_FLAGS & ~FLAG_EPHEMERAL)
        if "poll" in body and body["poll"]:
            msg["poll"] = copy.deepcopy(body["poll"])
        msg["flags"] &= ~FLAG_LOADING
        msg["edited_timestamp"] = _iso()
        mid = int(msg["id"])
        self._message_version[mid] = self._message_version.get(mid, 0) + 1
        self.message_history.setdefault(mid, []).append(copy.deepcopy(msg))
        return msg

    def _gateway_message(self, msg: dict[str, Any]) -> dict[str, Any]:
        out = copy.deepcopy(msg)
        if int(msg["channel_id"]) in self.channels and self.channels[int(msg["channel_id"])].get("guild_id"):
            out["guild_id"] = str(self.guild_id)
            member = self._bot_member()
            member.pop("user")
            out["member"] = member
        return out

    def _message_intent(self, msg: dict[str, Any]) -> int:
        channel = self.channels.get(int(msg["channel_id"])) or {}
        return INTENT_GUILD_MESSAGES if channel.get("guild_id") else INTENT_DIRECT_MESSAGES

    async def _announce_create(self, msg: dict[str, Any]) -> None:
        if not msg["flags"] & FLAG_EPHEMERAL:
            await self._dispatch_if(self._message_intent(msg), "MESSAGE_CREATE",
                                    self._gateway_message(msg))

    async def _announce_update(self, msg: dict[str, Any]) -> None:
        if not msg["flags"] & FLAG_EPHEMERAL:
            await self._dispatch_if(self._message_intent(msg), "MESSAGE_UPDATE",
                                    self._gateway_message(msg))

    async def _remove_message(self, msg: dict[str, Any]) -> None:
        mid = int(msg["id"])
        self.deleted_messages[mid] = self.messages.pop(mid)
        if not msg["flags"] & FLAG_EPHEMERAL:
            event = {"id": msg["id"], "channel_id": msg["channel_id"]}
            if self._message_intent(msg) == INTENT_GUILD_MESSAGES:
                event["guild_id"] = str(self.guild_id)
            await self._dispatch_if(self._message_intent(msg), "MESSAGE_DELETE", event)

    def _body(self, rec: RecordedRequest) -> dict[str, Any]:
        if rec.json is None:
            return {}
        if not isinstance(rec.json, dict):
            raise _ApiError(400, 50035, "Invalid Form Body", {"_errors": [
                {"code": "DICT_TYPE_CONVERT", "message": "Only dictionaries may be used"}]})
        return rec.json

    # -- interactions

    async def _interaction_callback(self, rec: RecordedRequest, iid: str, token: str) -> Any:
        inter = self.interactions.get(int(iid))
        if inter is None or inter.token != token:
            raise _unknown("interaction", 10062)
        if inter.callback is not None and inter.callback.status < 300:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        now = asyncio.get_running_loop().time()
        if now - inter.sent_at > self.ack_timeout:
            inter.expired = True
            inter.callback = rec
            raise _unknown("interaction", 10062)
        body = self._body(rec)
        rtype = body.get("type")
        data = body.get("data") or {}
        channel_id = int(inter.payload["channel_id"])
        is_component = inter.type in (3, 5) and inter.payload.get("message") is not None
        response: dict[str, Any] = {"id": str(inter.id), "type": inter.type}
        resource: dict[str, Any] | None = None
        created: dict[str, Any] | None = None
        updated: dict[str, Any] | None = None
        if rtype == 4:
            flags = int(data.get("flags") or 0) & _SETTABLE_FLAGS
            self._validate_message(data, creating=True, files=rec.files, flags=flags)
            created = self._new_message(channel_id, data, rec.files, flags=flags,
                                        msg_type=20 if inter.type == 2 else 0, interaction=inter)
            resource = {"type": 4, "message": created}
        elif rtype == 5:
            flags = (int(data.get("flags") or 0) & FLAG_EPHEMERAL) | FLAG_LOADING
            created = self._new_message(channel_id, {}, [], flags=flags,
                                        msg_type=20 if inter.type == 2 else 0, interaction=inter)
        elif rtype in (6, 7):
            if not is_component:
                raise _ApiError(400, 40004, "Interaction callback type is only valid for "
                                "component interactions")
            target = self.messages.get(int(inter.payload["message"]["id"]))
            if target is None:
                raise _unknown("Message", 10008)
            inter.original_message_id = int(target["id"])
            if rtype == 7:
                self._validate_message(data, creating=False, files=rec.files,
                                       flags=target["flags"] | int(data.get("flags") or 0))
                updated = self._update_message(target, data, rec.files)
                resource = {"type": 7, "message": updated}
            response["response_message_id"] = target["id"]
        elif rtype == 8:
            if inter.type != 4:
                raise _ApiError(400, 40004, "Autocomplete results need an autocomplete interaction")
            inter.autocomplete_choices = list(data.get("choices") or [])
        elif rtype == 9:
            if not data.get("custom_id") or not data.get("title"):
                raise _ApiError(400, 50035, "Invalid Form Body", {"data": {"_errors": [
                    {"code": "BASE_TYPE_REQUIRED", "message": "custom_id and title required"}]}})
            inter.modal = data
        else:
            raise _ApiError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
                {"code": "BASE_TYPE_CHOICES", "message": f"unsupported callback type {rtype!r}"}]}})
        if created is not None:
            inter.original_message_id = int(created["id"])
            response["response_message_id"] = created["id"]
            response["response_message_loading"] = bool(created["flags"] & FLAG_LOADING)
            response["response_message_ephemeral"] = bool(created["flags"] & FLAG_EPHEMERAL)
        inter.callback = rec
        inter.response_type = rtype
        inter.acked_at = now
        if inter.original_message_id is not None:
            inter.ack_version = self.message_version(inter.original_message_id)
        if created is not None:
            await self._announce_create(created)
        if updated is not None:
            await self._announce_update(updated)
        if str(rec.query.get("with_response", "")).lower() not in ("1", "true"):
            return None
        out: dict[str, Any] = {"interaction": response}
        if resource is not None:
            out["resource"] = copy.deepcopy(resource)
        return out

    def _webhook_interaction(self, app_id: str, token: str) -> FakeInteraction:
        inter = self._by_token.get(token)
        if int(app_id) != self.application_id or inter is None or not inter.acknowledged:
            raise _unknown("Webhook", 10015)
        return inter

    def _webhook_target(self, inter: FakeInteraction, which: str) -> dict[str, Any]:
        if which == "@original":
            mid = inter.original_message_id
        else:
            mid = int(which)
            if mid != inter.original_message_id and mid not in inter.followup_ids:
                raise _unknown("Message", 10008)
        msg = self.messages.get(mid) if mid is not None else None
        if msg is None:
            raise _unknown("Message", 10008)
        return msg

    async def _followup(self, rec: RecordedRequest, app_id: str, token: str) -> Any:
        inter = self._webhook_interaction(app_id, token)
        body = self._body(rec)
        flags = int(body.get("flags") or 0) & _SETTABLE_FLAGS
        original = (self.messages.get(inter.original_message_id)
                    if inter.original_message_id is not None else None)
        if inter.response_type == 5 and original is not None and original["flags"] & FLAG_LOADING:
            # The first follow-up after a "thinking" defer replaces the loading message.
            self._validate_message(body, creating=True, files=rec.files,
                                   flags=original["flags"] | flags)
            if flags & FLAG_COMPONENTS_V2:
                original["flags"] |= FLAG_COMPONENTS_V2
            msg = self._update_message(original, body, rec.files)
            await self._announce_update(msg)
        else:
            self._validate_message(body, creating=True, files=rec.files, flags=flags)
            msg = self._new_message(int(inter.payload["channel_id"]), body, rec.files,
                                    flags=flags, interaction=inter)
            inter.followup_ids.append(int(msg["id"]))
            await self._announce_create(msg)
        wait = str(rec.query.get("wait", "")).lower() in ("1", "true")
        return copy.deepcopy(msg) if wait else None

    async def _webhook_get(self, rec: RecordedRequest, app_id: str, token: str, which: str) -> Any:
        return copy.deepcopy(self._webhook_target(self._webhook_interaction(app_id, token), which))

    async def _webhook_edit(self, rec: RecordedRequest, app_id: str, token: str, which: str) -> Any:
        msg = self._webhook_target(self._webhook_interaction(app_id, token), which)
        body = self._body(rec)
        self._validate_message(body, creating=False, files=rec.files,
                               flags=msg["flags"] | int(body.get("flags") or 0))
        self._update_message(msg, body, rec.files)
        await self._announce_update(msg)
        return copy.deepcopy(msg)

    async def _webhook_delete(self, rec: RecordedRequest, app_id: str, token: str, which: str) -> Any:
        msg = self._webhook_target(self._webhook_interaction(app_id, token), which)
        await self._remove_message(msg)
        return None

    # -- channels and messages

    async def _get_channel(self, rec: RecordedRequest, cid: str) -> Any:
        return self._channel(cid)

    async def _edit_channel(self, rec: RecordedRequest, cid: str) -> Any:
        channel = self._channel(cid)
        body = self._body(rec)
        for key in ("name", "topic", "rate_limit_per_user", "locked", "archived",
                    "auto_archive_duration", "invitable"):
            if key not in body:
                continue
            if key in ("locked", "archived", "auto_archive_duration", "invitable") \
                    and "thread_metadata" in channel:
                channel["thread_metadata"][key] = body[key]
                if key == "archived":
                    channel["thread_metadata"]["archive_timestamp"] = _iso()
            else:
                channel[key] = body[key]
        if "thread_metadata" in channel:
            await self._dispatch_if(INTENT_GUILDS, "THREAD_UPDATE", copy.deepcopy(channel))
        return channel

    async def _delete_channel(self, rec: RecordedRequest, cid: str) -> Any:
        channel = self._channel(cid)
        if int(cid) == self.channel_id:
            raise _ApiError(403, 50013, "Missing Permissions")
        del self.channels[int(cid)]
        event = "THREAD_DELETE" if "thread_metadata" in channel else "CHANNEL_DELETE"
        await self._dispatch_if(INTENT_GUILDS, event, {
            "id": channel["id"], "guild_id": str(self.guild_id),
            "parent_id": channel.get("parent_id"), "type": channel["type"]})
        return channel

    async def _list_messages(self, rec: RecordedRequest, cid: str) -> Any:
        self._channel(cid)
        limit = int(rec.query.get("limit", 50))
        msgs = [m for m in self.messages.values()
                if m["channel_id"] == str(int(cid)) and not m["flags"] & FLAG_EPHEMERAL]
        msgs.sort(key=lambda m: int(m["id"]), reverse=True)
        if "before" in rec.query:
            msgs = [m for m in msgs if int(m["id"]) < int(rec.query["before"])]
        if "after" in rec.query:
            msgs = [m for m in msgs if int(m["id"]) > int(rec.query["after"])]
        return msgs[:limit]

    async def _create_message(self, rec: RecordedRequest, cid: str) -> Any:
        channel = self._channel(cid)
        body = self._body(rec)
        if channel.get("thread_metadata", {}).get("archived"):
            raise _ApiError(400, 50083, "Thread is archived")
        flags = int(body.get("flags") or 0) & (FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS
                                               | FLAG_COMPONENTS_V2)
        self._validate_message(body, creating=True, files=rec.files, flags=flags)
        msg = self._new_message(int(cid), body, rec.files, flags=flags)
        await self._announce_create(msg)
        return copy.deepcopy(msg)

    async def _get_message(self, rec: RecordedRequest, cid: str, mid: str) -> Any:
        return copy.deepcopy(self._live_message(cid, mid))

    async def _edit_message(self, rec: RecordedRequest, cid: str, mid: str) -> Any:
        msg = self._live_message(cid, mid)
        body = self._body(rec)
        self._validate_message(body, creating=False, files=rec.files,
                               flags=msg["flags"] | int(body.get("flags") or 0))
        self._update_message(msg, body, rec.files)
        await self._announce_update(msg)
        return copy.deepcopy(msg)

    async def _delete_message(self, rec: RecordedRequest, cid: str, mid: str) -> Any:
        await self._remove_message(self._live_message(cid, mid))
        return None

    def _new_thread(self, parent: dict[str, Any], body: dict[str, Any], thread_id: int,
                    thread_type: int) -> dict[str, Any]:
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise _ApiError(400, 50035, "Invalid Form Body", {"name": {"_errors": [
                {"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}]}})
        if parent["type"] not in (0, 5):
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        now = _iso()
        thread = {
            "id": str(thread_id), "guild_id": str(self.guild_id), "parent_id": parent["id"],
            "owner_id": self.bot_user["id"], "type": thread_type, "name": name,
            "last_message_id": None, "rate_limit_per_user": int(body.get("rate_limit_per_user") or 0),
            "message_count": 0, "member_count": 1, "total_message_sent": 0, "flags": 0,
            "applied_tags": [],
            "thread_metadata": {
                "archived": False, "auto_archive_duration": int(body.get("auto_archive_duration") or 4320),
                "archive_timestamp": now, "locked": False, "create_timestamp": now,
                **({"invitable": bool(body.get("invitable", True))} if thread_type == 12 else {}),
            },
            "member": {"id": str(thread_id), "user_id": self.bot_user["id"],
                       "join_timestamp": now, "flags": 0},
        }
        self.channels[thread_id] = thread
        return thread

    async def _announce_thread(self, thread: dict[str, Any]) -> None:
        event = dict(copy.deepcopy(thread), newly_created=True)
        await self._dispatch_if(INTENT_GUILDS, "THREAD_CREATE", event)

    async def _create_thread(self, rec: RecordedRequest, cid: str) -> Any:
        parent = self._channel(cid)
        body = self._body(rec)
        if body.get("type") is None:  # required in API v10 for threads without a message
            raise _ApiError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
                {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}})
        ttype = int(body["type"])
        if ttype not in (11, 12):
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        thread = self._new_thread(parent, body, self._snowflake(), ttype)
        await self._announce_thread(thread)
        return copy.deepcopy(thread)

    async def _create_thread_from_message(self, rec: RecordedRequest, cid: str, mid: str) -> Any:
        parent = self._channel(cid)
        msg = self._live_message(cid, mid)
        if msg.get("thread"):
            raise _ApiError(400, 160004, "A thread has already been created for this message")
        thread = self._new_thread(parent, self._body(rec), int(mid), 11)
        msg["thread"] = copy.deepcopy(thread)
        await self._announce_thread(thread)
        return copy.deepcopy(thread)

    async def _no_content_in_channel(self, rec: RecordedRequest, cid: str, *rest: str) -> Any:
        self._channel(cid)
        if len(rest) == 1 and rest[0] != "@me" and rec.path.startswith(f"/channels/{cid}/messages/"):
            self._live_message(cid, rest[0])
        return None

    async def _create_dm(self, rec: RecordedRequest) -> Any:
        body = self._body(rec)
        user = self.user(body.get("recipient_id", ""))
        for ch in self.channels.values():
            if ch["type"] == 1 and ch["recipients"][0]["id"] == user["id"]:
                return ch
        cid = self._snowflake()
        ch = {"id": str(cid), "type": 1, "last_message_id": None, "recipients": [user], "flags": 0}
        self.channels[cid] = ch
        return ch

    async def _get_user(self, rec: RecordedRequest, uid: str) -> Any:
        if uid == self.bot_user["id"]:
            return self.bot_user
        try:
            return self.user(uid)
        except LookupError:
            raise _unknown("User", 10013) from None

    async def _get_guild(self, rec: RecordedRequest, gid: str) -> Any:
        if int(gid) != self.guild_id:
            raise _unknown("Guild", 10004)
        g = self.guild_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states",
                    "joined_at", "large", "member_count", "lazy"):
            g.pop(key, None)
        return g

    async def _get_guild_channels(self, rec: RecordedRequest, gid: str) -> Any:
        if int(gid) != self.guild_id:
            raise _unknown("Guild", 10004)
        return self.guild_payload()["channels"]

    async def _get_member(self, rec: RecordedRequest, gid: str, uid: str) -> Any:
        if int(gid) != self.guild_id:
            raise _unknown("Guild", 10004)
        if uid == self.bot_user["id"]:
            return self._bot_member()
        try:
            return self.member(uid)
        except LookupError:
            raise _unknown("Member", 10007) from None

    async def _list_members(self, rec: RecordedRequest, gid: str) -> Any:
        if int(gid) != self.guild_id:
            raise _unknown("Guild", 10004)
        return self._guild_members()[: int(rec.query.get("limit", 1))]
