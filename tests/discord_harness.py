"""A no-network Discord for testing a real ``discord.ext.commands.Bot``.

The harness drives a real bot (any ``commands.Bot`` subclass) through
discord.py's own code paths: ``bot.login()`` (so ``setup_hook`` runs and the
command tree is synced), gateway events fed to ``bot._connection.parsers``
(READY, GUILD_CREATE, INTERACTION_CREATE, ...), and every REST call answered
by an in-memory fake of Discord.  Nothing touches the network.

How it works
============

* ``discord.http.HTTPClient.request`` and
  ``discord.webhook.async_.AsyncWebhookAdapter.request`` (interaction callbacks,
  follow-ups and edits of interaction messages go through the latter) are
  replaced, for the lifetime of one harness, by a recorder.  The originals are
  restored by :meth:`DiscordHarness.close`; only one harness can be active.
* Every request is recorded (:class:`RecordedRequest`), validated against
  Discord's OpenAPI spec (``tests/openapi.py``) plus a few hard limits the spec
  does not encode (2000-char content, 5 action rows, one select per row, unique
  custom_ids, non-empty messages, ...), then answered like Discord would.  A body
  that fails validation is answered with ``400 Invalid Form Body`` (what the
  bot would get from Discord) *and* recorded as a test failure.  An unknown
  route is answered ``404`` and recorded as a failure naming the route.
* A model of Discord state is kept: users, guilds, channels, threads, members,
  roles, the synced application commands (with stable ids), and every message
  (latest content/embeds/components/flags, channel, ephemeral or not, who it
  was shown to, edit history).
* Drivers (:meth:`DiscordHarness.slash`, :meth:`~DiscordHarness.click`,
  :meth:`~DiscordHarness.select`, :meth:`~DiscordHarness.submit_modal`,
  :meth:`~DiscordHarness.autocomplete`, :meth:`~DiscordHarness.context_menu`)
  build an INTERACTION_CREATE payload, feed it through
  ``bot._connection.parsers["INTERACTION_CREATE"]`` and then *settle*: wait
  until every asyncio task created while the harness is active (discord.py's
  command/view/modal tasks, event listeners, anything the bot spawned, also
  earlier tasks woken by this interaction) has finished or is idle, with a
  timeout that fails with the await chains of the tasks still running.  They
  return an :class:`InteractionResult`.
* ERROR log records (a handler on the ``discord`` logger and on the root
  logger) - i.e. the exceptions discord.py only logs (views, commands, event
  handlers, tasks) and the bot's own ``log.error``/``log.exception`` - fail the
  test: at the end of the driver call that produced them, and at
  :meth:`~DiscordHarness.close`.  Use :meth:`~DiscordHarness.expect_logged_error`
  (or :meth:`~DiscordHarness.allow_logged_errors`) when a test expects one.
  Tasks created while the harness is active that die with an exception nobody
  retrieved fail the test too.

Example
=======

.. code-block:: python

    from discord_harness import DiscordHarness   # tests/ is on sys.path under pytest

    async def test_join():
        async with DiscordHarness() as h:
            guild = h.add_guild("Test Guild")
            general = guild.add_channel("general")
            ana, bob = h.add_user("ana"), h.add_user("bob")
            guild.add_member(ana)
            guild.add_member(bob, manage_guild=True)
            await h.start(MyBot(guild_ready_timeout=0.01))

            r = await h.slash("q2j start", {"players": 3}, user=ana, channel=general)
            assert r.response_type == 4 and not r.ephemeral
            lobby = h.latest_public(general)
            r = await h.click(lobby, label="Join", user=bob)
            assert "bob" in h.latest_public(general).text
            hand = await h.click(lobby, label="My hand", user=ana)
            assert hand.ephemeral and hand.message.visible_to == ana.id

A fixture, if a test module wants one (``h`` is closed - and fails the test on
pending problems - at teardown)::

    @pytest.fixture
    async def h():
        async with DiscordHarness() as harness:
            yield harness

API at a glance
===============

* ``DiscordHarness(settle_timeout=5.0, validate=True, validate_responses=False,
  ack_deadline=3.0, long_sleep=2.0, bot_name="Deckhand", application_id=None)``;
  ``async with`` it, or ``activate()`` then ``await close()``.
* Model: ``add_user(name) -> FakeUser``, ``add_guild(name) -> FakeGuild``,
  ``guild.add_channel(name) -> FakeChannel``, ``guild.add_member(user,
  manage_guild=False, administrator=False, roles=()) -> FakeMember``,
  ``guild.add_role(name, permissions) -> FakeRole``; ``h.bot_user``,
  ``h.application_id``, ``h.app_owner``.
* Bots: ``await start(bot) -> bot``, ``await stop(bot=None)`` (restart = stop +
  start a new instance), ``h.bot`` (latest running), ``await join_guild(guild)``,
  ``await feed(EVENT, payload)``, ``h.gateways[id(bot)].presences``.
* Drivers (all accept ``bot=``, ``expect_response=True``, ``timeout=`` and return
  an :class:`InteractionResult`): ``slash("group sub", {"opt": value}, user=,
  channel=)``, ``autocomplete(command, focused, value, options, user=, channel=)``,
  ``click(message, label=|custom_id=|custom_id_prefix=, user=)``,
  ``select(message, values, custom_id=|custom_id_prefix=|placeholder=, user=)``,
  ``submit_modal(opened_result, {custom_id: value}, user=None)``,
  ``context_menu(name, target, user=, channel=)``.  ``message`` may be a
  :class:`FakeMessage`, a message id or an :class:`InteractionResult`.
* Results: ``response_type``, ``response`` (callback body), ``message`` (the
  original message, latest state), ``content``, ``embeds``, ``components``,
  ``flags``, ``ephemeral``, ``text``, ``followups``, ``modal``, ``choices``,
  ``requests`` (every REST request made while handling it), ``payload`` (what
  was fed), ``acknowledged``, ``component(label=...)``.
* Queries: ``latest_public(channel)``, ``public_messages(channel)``,
  ``messages(channel=None, ephemeral=None, deleted=False)``,
  ``ephemeral_for(user, channel=None)``, ``latest_ephemeral(user)``, ``dms(user)``,
  ``message(id)``, ``channel(id)``, ``commands(guild=None)``, ``requests``,
  ``requests_to(method, path_regex)``.  :class:`FakeMessage` has ``content``,
  ``embeds``, ``components``, ``flags``, ``ephemeral``, ``visible_to``, ``kind``,
  ``deleted``, ``history``, ``text``, ``buttons``, ``selects``,
  ``component(label=|custom_id=|custom_id_prefix=|placeholder=|type=)``,
  ``payload()``.
* Problems: ``expect_logged_error(regex)`` (context manager),
  ``allow_logged_errors(regex)``, ``failures``/``take_failures()``,
  ``logged_errors``/``clear_logged_errors()``, ``assert_no_errors()``.
* Misc: ``await settle()``, ``await wait_until(predicate)``,
  ``ignore_tasks(name_prefix | predicate)``, ``expire_tokens(result=None)``,
  ``add_route(method, path_regex, handler)``.

Quirks a user must know
=======================

* Construct the bot with ``guild_ready_timeout=0.01`` (the harness also lowers
  ``bot._connection.guild_ready_timeout`` to 0.01 if it is larger) and do not
  rely on member chunking: ``chunk_guilds_at_startup`` is forced off; members
  come from GUILD_CREATE (cached only with the members intent, like Discord)
  and from interaction payloads.
* ``AutoShardedBot`` is not supported; ``bot.ws`` is a :class:`FakeGateway`
  that records ``change_presence`` and refuses chunk requests.
* Every interaction must be acknowledged (Discord shows "This interaction
  failed" otherwise): a driver fails when no callback was sent, unless called
  with ``expect_response=False``.  A callback later than ``ack_deadline``
  (3 s) is answered ``404 Unknown interaction`` like Discord.  Interaction
  tokens can be expired with :meth:`DiscordHarness.expire_tokens` (then
  follow-ups/edits get ``401 Invalid Webhook Token``).
* Discord behaviours modelled: a deferred (type 5) response creates a
  "loading" message that the first ``PATCH @original`` *or the first
  follow-up* fills in; types 6/7 and ``@original`` of a component interaction
  refer to the message the component is on; ephemeral messages can only be
  clicked by the user they were shown to and cannot be edited through the
  channel routes; disabled components cannot be clicked; slash options are
  checked like Discord's client does (required, choices, ranges, types).
* Settling: a task counts as idle when it waits in ``asyncio.sleep`` for at
  least ``long_sleep`` (2 s) seconds, on an asyncio lock/event/queue, in
  ``Client.wait_for``/``View.wait`` or another discord.py future - i.e. when
  only the passage of time or more test input can wake it.  ``discord.ext.tasks``
  loops and view timeout tasks are ignored; use :meth:`DiscordHarness.ignore_tasks`
  for other long-lived tasks that poll (e.g. ``while True: await sleep(0.5)``).
  Drivers may run concurrently (``asyncio.gather(h.click(...), h.click(...))``
  feeds both clicks before either settles - a double click); each result's
  ``requests`` then also holds the other's channel requests.  Leftover tasks are
  cancelled at close.  The harness does not fake the clock: test timers by
  calling their code or with short delays.
* The spec allows 4000-character content; the harness enforces Discord's real
  2000-character limit for bot messages.
* Gateway echoes like Discord's, right after the REST answer and only to bots
  with the matching intent: MESSAGE_CREATE/UPDATE/DELETE for every non-ephemeral
  message the bot creates, edits or deletes, THREAD_CREATE/UPDATE/DELETE.  Feed
  anything else with :meth:`DiscordHarness.feed`.  Routes the fake does not know
  can be added with :meth:`DiscordHarness.add_route`.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as _dt
import itertools
import json
import logging
import os
import re
import traceback
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence
from urllib.parse import parse_qsl, unquote, urlsplit

import discord
import discord.http
import discord.webhook.async_
from discord.ext import commands

try:  # tests/ may or may not become a package
    from . import openapi  # type: ignore[no-redef]
except ImportError:  # pragma: no cover - depends on how pytest imports tests/
    import openapi  # type: ignore[no-redef]

__all__ = [
    "DiscordHarness",
    "FakeUser",
    "FakeRole",
    "FakeChannel",
    "FakeMember",
    "FakeGuild",
    "FakeMessage",
    "FakeGateway",
    "RecordedRequest",
    "InteractionResult",
    "ExpectedErrors",
    "walk_components",
    "EPHEMERAL",
    "LOADING",
    "IS_COMPONENTS_V2",
]

_log = logging.getLogger(__name__)

# ----------------------------------------------------------------------------- constants
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

# Interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Interaction callback types
CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 5, 6, 7, 8, 9
_ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL},
    MESSAGE_COMPONENT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL},
    AUTOCOMPLETE: {CB_AUTOCOMPLETE},
    MODAL_SUBMIT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE},
}
_KIND = {APPLICATION_COMMAND: "command", MESSAGE_COMPONENT: "component", AUTOCOMPLETE: "autocomplete",
         MODAL_SUBMIT: "modal"}

# Application command option types
OPT_SUB, OPT_GROUP, OPT_STRING, OPT_INT, OPT_BOOL, OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, \
    OPT_NUMBER, OPT_ATTACHMENT = range(1, 12)

_EVERYONE_PERMS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, use_application_commands=True,
    embed_links=True, attach_files=True, add_reactions=True, send_messages_in_threads=True,
    create_public_threads=True, use_external_emojis=True, connect=True, speak=True,
).value
_BOT_PERMS = _EVERYONE_PERMS | discord.Permissions(
    manage_messages=True, manage_threads=True, create_private_threads=True, mention_everyone=True,
).value
_ALL_PERMS = discord.Permissions.all().value

_REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed"}

_ASYNCIO_DIR = os.path.dirname(asyncio.__file__) + os.sep
_DISCORD_DIR = os.path.dirname(discord.__file__) + os.sep

_MENTION_USER = re.compile(r"<@!?(\d+)>")
_MENTION_ROLE = re.compile(r"<@&(\d+)>")


def _iso(when: _dt.datetime | None) -> str | None:
    return None if when is None else when.isoformat()


def _id_of(obj: Any) -> int:
    if isinstance(obj, (int, str)):
        return int(obj)
    ident = getattr(obj, "id", None)
    if ident is None:
        raise TypeError(f"expected an id or an object with .id, got {obj!r}")
    return int(ident)


def walk_components(components: Iterable[Mapping[str, Any]] | None) -> Iterator[dict]:
    """Every component in a message/modal component tree, depth first.

    Handles action rows, sections (``components`` + ``accessory``), containers and
    modal labels (``component``).
    """
    for comp in components or ():
        yield comp  # type: ignore[misc]
        yield from walk_components(comp.get("components"))
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, Mapping):
                yield from walk_components([child])


def _strip_none(node: Any) -> Any:
    """Drop ``None`` values in component dicts (Discord omits unset fields)."""
    if isinstance(node, dict):
        return {k: _strip_none(v) for k, v in node.items() if v is not None}
    if isinstance(node, list):
        return [_strip_none(v) for v in node]
    return node


def _stored_components(node: Any, parent: str = "") -> Any:
    """Components as Discord stores and returns them: no nulls, snowflakes as strings
    (requests may carry integer ids, e.g. discord.py's custom emoji ids)."""
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if v is None:
                continue
            if isinstance(v, int) and not isinstance(v, bool) and (
                    k == "sku_id" or (k == "id" and parent in ("emoji", "default_values"))):
                v = str(v)
            out[k] = _stored_components(v, k if isinstance(v, dict) or isinstance(v, list) else parent)
        return out
    if isinstance(node, list):
        return [_stored_components(v, parent) for v in node]
    return node


def _component_desc(comp: Mapping[str, Any]) -> str:
    bits = [f"type={comp.get('type')}"]
    for key in ("label", "custom_id", "placeholder", "url"):
        if comp.get(key) is not None:
            bits.append(f"{key}={comp[key]!r}")
    if comp.get("disabled"):
        bits.append("disabled")
    return "<" + " ".join(bits) + ">"


# ============================================================================ model
@dataclass(eq=False)
class FakeUser:
    """A Discord user known to the fake."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.name

    def payload(self) -> dict:
        d = {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }
        if self.bot:
            d["bot"] = True
        return d

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeRole:
    id: int
    guild: "FakeGuild"
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict:
        return {
            "id": str(self.id), "name": self.name, "permissions": str(self.permissions),
            "position": self.position, "color": 0, "colors": {"primary_color": 0, "secondary_color": None,
                                                            "tertiary_color": None},
            "hoist": False, "managed": self.managed, "mentionable": False, "icon": None,
            "unicode_emoji": None, "flags": 0, "description": None,
        }


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a thread (type 11/12) or a DM channel (type 1)."""

    id: int
    name: str
    type: int = 0
    guild: "FakeGuild | None" = None
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    thread_members: set[int] = field(default_factory=set)
    recipient: FakeUser | None = None  # DM channels
    created_at: _dt.datetime = field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc))

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict:
        if self.type == 1:
            return {"id": str(self.id), "type": 1, "last_message_id": None, "flags": 0,
                    "recipients": [self.recipient.payload()] if self.recipient else []}
        d: dict[str, Any] = {
            "id": str(self.id), "type": self.type, "name": self.name,
            "guild_id": str(self.guild.id) if self.guild else None,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": None, "flags": 0, "rate_limit_per_user": 0,
        }
        if self.is_thread:
            d.update({
                "owner_id": str(self.owner_id) if self.owner_id else None,
                "thread_metadata": {
                    "archived": self.archived, "auto_archive_duration": 1440,
                    "archive_timestamp": _iso(self.created_at), "locked": self.locked,
                    "create_timestamp": _iso(self.created_at),
                    **({"invitable": self.invitable} if self.type == 12 else {}),
                },
                "message_count": 0, "member_count": len(self.thread_members), "total_message_sent": 0,
            })
        else:
            d.update({"position": self.position, "permission_overwrites": [], "topic": None, "nsfw": False})
        return d

    def __repr__(self) -> str:
        return f"<FakeChannel #{self.name} id={self.id} type={self.type}>"


@dataclass(eq=False)
class FakeMember:
    user: FakeUser
    guild: "FakeGuild"
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: _dt.datetime = field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc))

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def permissions(self) -> int:
        """Guild-level permissions (no channel overwrites are modelled)."""
        if self.user.id == self.guild.owner_id:
            return _ALL_PERMS
        value = self.guild.everyone.permissions
        for rid in self.role_ids:
            value |= self.guild.roles[rid].permissions
        if value & discord.Permissions(administrator=True).value:
            return _ALL_PERMS
        return value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict:
        d: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids], "nick": self.nick, "avatar": None, "banner": None,
            "joined_at": _iso(self.joined_at), "premium_since": None, "deaf": False, "mute": False,
            "flags": 0, "pending": False, "communication_disabled_until": None,
        }
        if with_user:
            d["user"] = self.user.payload()
        if with_permissions:
            d["permissions"] = str(self.permissions)
        return d

    def __repr__(self) -> str:
        return f"<FakeMember {self.user.name} of {self.guild.name}>"


class FakeGuild:
    """A guild in the fake: roles, channels (and threads) and members."""

    def __init__(self, harness: "DiscordHarness", id: int, name: str, owner_id: int) -> None:
        self.harness = harness
        self.id = id
        self.name = name
        self.owner_id = owner_id
        self.roles: dict[int, FakeRole] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.members: dict[int, FakeMember] = {}
        self.roles[id] = FakeRole(id, self, "@everyone", _EVERYONE_PERMS, 0)
        self._manager_role: FakeRole | None = None
        self._admin_role: FakeRole | None = None
        bot_role = self.add_role(harness.bot_user.name, _BOT_PERMS)
        bot_role.managed = True
        self.members[harness.bot_user.id] = FakeMember(harness.bot_user, self, [bot_role.id])

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def add_role(self, name: str, permissions: int | discord.Permissions = 0, *, id: int | None = None) -> FakeRole:
        perms = permissions.value if isinstance(permissions, discord.Permissions) else int(permissions)
        role = FakeRole(id or self.harness.new_id(), self, name, perms, len(self.roles))
        self.roles[role.id] = role
        return role

    def add_channel(self, name: str, *, type: int = 0, id: int | None = None) -> FakeChannel:
        """Add a text channel (``type=0``) to the guild."""
        ch = FakeChannel(id or self.harness.new_id(), name, type, self, position=len(self.channels))
        self.channels[ch.id] = ch
        self.harness._channels[ch.id] = ch
        return ch

    def add_member(
        self,
        user: FakeUser,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        roles: Sequence[FakeRole] = (),
        nick: str | None = None,
    ) -> FakeMember:
        """Make ``user`` a member; ``manage_guild`` gives a role with Manage Server."""
        role_ids = [r.id for r in roles]
        if manage_guild:
            if self._manager_role is None:
                self._manager_role = self.add_role("Manager", discord.Permissions(manage_guild=True))
            role_ids.append(self._manager_role.id)
        if administrator:
            if self._admin_role is None:
                self._admin_role = self.add_role("Admin", discord.Permissions(administrator=True))
            role_ids.append(self._admin_role.id)
        member = FakeMember(user, self, role_ids, nick)
        self.members[user.id] = member
        return member

    def channel(self, name: str) -> FakeChannel:
        for ch in self.channels.values():
            if ch.name == name:
                return ch
        raise AssertionError(f"guild {self.name!r} has no channel named {name!r}: "
                             f"{[c.name for c in self.channels.values()]}")

    def member(self, user: FakeUser | FakeMember | int) -> FakeMember:
        uid = _id_of(user)
        try:
            return self.members[uid]
        except KeyError:
            raise AssertionError(f"user {user!r} is not a member of guild {self.name!r}; "
                                 f"call guild.add_member(user) first") from None

    def payload(self) -> dict:
        """A GUILD_CREATE payload."""
        now = _iso(_dt.datetime.now(_dt.timezone.utc))
        return {
            "id": str(self.id), "name": self.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(self.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 1, "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()], "emojis": [], "stickers": [], "features": [],
            "mfa_level": 0, "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "max_members": 500000, "vanity_url_code": None, "description": None,
            "banner": None, "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "en-US",
            "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "joined_at": now, "large": False, "unavailable": False, "member_count": len(self.members),
            "voice_states": [], "presences": [], "stage_instances": [], "guild_scheduled_events": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.channels.values() if c.is_thread and not c.archived],
        }

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name} id={self.id}>"


class FakeMessage:
    """The fake's record of one message, always in its latest state.

    ``ephemeral`` messages carry ``visible_to`` (the id of the user they were shown
    to); ``kind`` is ``"channel"`` (POST /channels/.../messages), ``"response"``
    (an interaction callback), ``"followup"`` or ``"dm"``.  ``history`` holds the
    payload of every earlier revision.
    """

    def __init__(
        self,
        harness: "DiscordHarness",
        *,
        id: int,
        channel: FakeChannel,
        author: FakeUser,
        kind: str,
        type: int = 0,
        interaction: "InteractionRecord | None" = None,
        visible_to: int | None = None,
    ) -> None:
        self.harness = harness
        self.id = id
        self.channel = channel
        self.author = author
        self.kind = kind
        self.type = type
        self.content: str = ""
        self.embeds: list[dict] = []
        self.components: list[dict] = []
        self.attachments: list[dict] = []
        self.files: list[tuple[str, bytes]] = []
        self.flags: int = 0
        self.message_reference: dict | None = None
        self.interaction = interaction
        self.interaction_metadata: dict | None = None
        self.visible_to = visible_to
        self.deleted = False
        self.thread_id: int | None = None
        self.created_at = discord.utils.snowflake_time(id)
        self.edited_at: _dt.datetime | None = None
        self.history: list[dict] = []
        self._next_component_id = 1

    # ---------------------------------------------------------------- state
    @property
    def channel_id(self) -> int:
        return self.channel.id

    @property
    def guild_id(self) -> int | None:
        return self.channel.guild.id if self.channel.guild else None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred (type 5) response not filled in yet ("Bot is thinking...")."""
        return bool(self.flags & LOADING)

    @property
    def public(self) -> bool:
        return not self.ephemeral and self.kind != "dm"

    @property
    def mentions(self) -> list[int]:
        return [int(m) for m in _MENTION_USER.findall(self.content or "")]

    @property
    def text(self) -> str:
        """Content, embed texts and v2 text displays joined by newlines (for ``in`` checks)."""
        parts = [self.content or ""]
        for emb in self.embeds:
            for key in ("title", "description"):
                if emb.get(key):
                    parts.append(str(emb[key]))
            for fld in emb.get("fields", []) or []:
                parts.append(f"{fld.get('name', '')}\n{fld.get('value', '')}")
            if (emb.get("footer") or {}).get("text"):
                parts.append(emb["footer"]["text"])
            if (emb.get("author") or {}).get("name"):
                parts.append(emb["author"]["name"])
        for comp in walk_components(self.components):
            if comp.get("type") == 10 and comp.get("content"):
                parts.append(comp["content"])
        return "\n".join(p for p in parts if p)

    def _assign_component_ids(self, components: list[dict]) -> list[dict]:
        components = _stored_components(copy.deepcopy(components))
        for comp in walk_components(components):
            if "id" not in comp:
                comp["id"] = self._next_component_id
            self._next_component_id = max(self._next_component_id, int(comp["id"])) + 1
        return components

    def apply(self, body: Mapping[str, Any], *, create: bool, files: Sequence[tuple[str, bytes]] = ()) -> None:
        """Apply a create/edit body (Discord semantics: absent keys are unchanged)."""
        if not create:
            self.history.append(self.payload())
            self.edited_at = _dt.datetime.now(_dt.timezone.utc)
        if "content" in body:
            self.content = body["content"] or ""
        if "embeds" in body:
            embeds = copy.deepcopy(body["embeds"] or [])
            for emb in embeds:
                emb.setdefault("type", "rich")
            self.embeds = embeds
        if "components" in body:
            self.components = self._assign_component_ids(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            keep = self.flags & (EPHEMERAL | IS_COMPONENTS_V2)
            settable = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2 | (EPHEMERAL if create else 0)
            self.flags = keep | (int(body["flags"]) & settable)
        new_atts = []
        for idx, (name, data) in enumerate(files):
            new_atts.append({
                "id": str(self.harness.new_id()), "filename": name, "size": len(data),
                "url": f"https://cdn.discordapp.com/attachments/{self.channel.id}/{self.id}/{name}",
                "proxy_url": f"https://media.discordapp.net/attachments/{self.channel.id}/{self.id}/{name}",
                "content_type": "application/octet-stream", "_index": idx,
            })
        if "attachments" in body and body["attachments"] is not None:
            keep_ids = {str(a.get("id")) for a in body["attachments"]}
            kept = [a for a in self.attachments if a["id"] in keep_ids]
            self.attachments = kept + [{k: v for k, v in a.items() if k != "_index"} for a in new_atts]
        elif new_atts:
            self.attachments = self.attachments + [{k: v for k, v in a.items() if k != "_index"} for a in new_atts]
        if files:
            self.files = (self.files if not create else []) + list(files)
        if "message_reference" in body and body["message_reference"]:
            ref = {k: (str(v) if k.endswith("_id") and v is not None else v)
                   for k, v in body["message_reference"].items() if k != "fail_if_not_exists"}
            ref.setdefault("type", 0)
            self.message_reference = ref

    def payload(self) -> dict:
        """The message as Discord's REST API / gateway would return it."""
        users = self.harness._users
        d: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": _iso(self.created_at),
            "edited_timestamp": _iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [users[m].payload() for m in dict.fromkeys(self.mentions) if m in users],
            "mention_roles": list(dict.fromkeys(_MENTION_ROLE.findall(self.content or ""))),
            "attachments": copy.deepcopy(self.attachments),
            "embeds": copy.deepcopy(self.embeds),
            "pinned": False,
            "flags": self.flags,
            "components": copy.deepcopy(self.components),
        }
        if self.kind in ("response", "followup"):
            d["webhook_id"] = str(self.harness.application_id)
            d["application_id"] = str(self.harness.application_id)
        if self.interaction_metadata is not None:
            d["interaction_metadata"] = copy.deepcopy(self.interaction_metadata)
        if self.message_reference:
            ref = dict(self.message_reference)
            ref.setdefault("channel_id", str(self.channel.id))
            if self.guild_id:
                ref.setdefault("guild_id", str(self.guild_id))
            d["message_reference"] = ref
        if self.thread_id and self.thread_id in self.harness._channels:
            d["thread"] = self.harness._channels[self.thread_id].payload()
        return d

    # ---------------------------------------------------------- components
    def walk(self) -> list[dict]:
        """All components (flattened)."""
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[dict]:
        return [c for c in self.walk() if c.get("type") == 2]

    @property
    def selects(self) -> list[dict]:
        return [c for c in self.walk() if c.get("type") in (3, 5, 6, 7, 8)]

    def find_components(
        self,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        custom_id_prefix: str | None = None,
        placeholder: str | None = None,
        type: int | Sequence[int] | None = None,
    ) -> list[dict]:
        types = (type,) if isinstance(type, int) else tuple(type or ())
        out = []
        for comp in self.walk():
            if comp.get("type") in (1, 9, 17, 18):  # containers are never targets
                continue
            if types and comp.get("type") not in types:
                continue
            if label is not None and comp.get("label") != label:
                continue
            if custom_id is not None and comp.get("custom_id") != custom_id:
                continue
            if custom_id_prefix is not None and not str(comp.get("custom_id", "")).startswith(custom_id_prefix):
                continue
            if placeholder is not None and comp.get("placeholder") != placeholder:
                continue
            out.append(comp)
        return out

    def component(self, **criteria: Any) -> dict:
        """The one component matching ``label=``/``custom_id=``/``custom_id_prefix=``/
        ``placeholder=``/``type=``; AssertionError listing the components otherwise."""
        found = self.find_components(**criteria)
        if len(found) != 1:
            listing = "\n  ".join(_component_desc(c) for c in self.walk()) or "(no components)"
            what = "no" if not found else f"{len(found)}"
            raise AssertionError(f"{what} component(s) matching {criteria} on message {self.id}; it has:\n  {listing}")
        return found[0]

    def button(self, label: str) -> dict:
        return self.component(label=label, type=2)

    def __repr__(self) -> str:
        vis = f" ephemeral(to {self.visible_to})" if self.ephemeral else ""
        gone = " deleted" if self.deleted else ""
        text = (self.text[:60] + "…") if len(self.text) > 60 else self.text
        return f"<FakeMessage {self.id} in #{self.channel.name} {self.kind}{vis}{gone} {text!r}>"


@dataclass
class RecordedRequest:
    """One REST request the bot made (and how the fake answered)."""

    seq: int
    via: str  # "http" (HTTPClient) or "webhook" (AsyncWebhookAdapter)
    method: str
    path: str  # concrete path without /api/v10 and query
    query: dict[str, str]
    body: Any = field(repr=False)  # JSON body (payload_json for multipart), None if there was none
    multipart: bool = False
    files: list[tuple[str, bytes]] = field(default_factory=list, repr=False)
    reason: str | None = None
    status: int = 0
    response: Any = field(default=None, repr=False)
    error: str | None = None  # why the fake refused it (spec violation, 404, ...)
    operation: str | None = None  # OpenAPI operationId
    message_id: int | None = None  # message created/edited/deleted by this request
    interaction_id: int | None = None

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


@dataclass(eq=False)
class InteractionRecord:
    """Internal: what the fake knows about one interaction it sent."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: dict = field(repr=False)
    created: float
    label: str
    message_id: int | None = None  # message a component is on
    parent: "InteractionRecord | None" = None  # interaction that opened the modal
    callback: dict | None = field(default=None, repr=False)
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    deferred_pending: bool = False  # type 5 whose loading message is not filled yet
    expired: bool = False

    @property
    def metadata(self) -> dict:
        guild = self.channel.guild
        md: dict[str, Any] = {
            "id": str(self.id), "type": self.type, "user": self.user.payload(),
            "authorizing_integration_owners": {"0": str(guild.id)} if guild else {"1": str(self.user.id)},
        }
        if self.type == MESSAGE_COMPONENT and self.message_id:
            md["interacted_message_id"] = str(self.message_id)
        if self.type == MODAL_SUBMIT and self.parent is not None:
            md["triggering_interaction_metadata"] = self.parent.metadata
        return md


class InteractionResult:
    """What happened when the bot handled one interaction.

    ``message`` is the interaction's *original* message in its latest state: the
    message a type 4/5 response created, or - for types 6/7 - the message the
    component was on.  ``content``/``embeds``/``components``/``flags``/``ephemeral``
    read from it (or from the callback data when there is no message).
    """

    def __init__(self, harness: "DiscordHarness", record: InteractionRecord, requests: list[RecordedRequest]):
        self.harness = harness
        self.record = record
        self.requests = requests

    # -------------------------------------------------------------- basics
    @property
    def id(self) -> int:
        return self.record.id

    @property
    def kind(self) -> str:
        return _KIND.get(self.record.type, str(self.record.type))

    @property
    def payload(self) -> dict:
        """The INTERACTION_CREATE payload that was fed to the bot."""
        return self.record.payload

    @property
    def user(self) -> FakeUser:
        return self.record.user

    @property
    def channel(self) -> FakeChannel:
        return self.record.channel

    @property
    def acknowledged(self) -> bool:
        return self.record.callback is not None

    @property
    def response(self) -> dict | None:
        """The callback body (``{"type": ..., "data": ...}``) or None."""
        return self.record.callback

    @property
    def response_type(self) -> int | None:
        return None if self.record.callback is None else self.record.callback.get("type")

    @property
    def response_data(self) -> dict:
        return (self.record.callback or {}).get("data") or {}

    @property
    def deferred(self) -> bool:
        return self.response_type in (CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE)

    @property
    def message(self) -> FakeMessage | None:
        mid = self.record.original_id
        return None if mid is None else self.harness._messages.get(mid)

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.harness._messages[m] for m in self.record.followup_ids]

    @property
    def modal(self) -> dict | None:
        """The modal (custom_id, title, components) a type 9 response opened."""
        return self.response_data if self.response_type == CB_MODAL else None

    @property
    def choices(self) -> list[dict] | None:
        """Autocomplete choices (type 8 response)."""
        return self.response_data.get("choices") if self.response_type == CB_AUTOCOMPLETE else None

    @property
    def messages_touched(self) -> list[FakeMessage]:
        """Messages created, edited or deleted by any request during handling."""
        ids = dict.fromkeys(r.message_id for r in self.requests if r.message_id is not None)
        return [self.harness._messages[i] for i in ids if i in self.harness._messages]

    # ------------------------------------------------------- message views
    @property
    def content(self) -> str | None:
        msg = self.message
        return msg.content if msg is not None else self.response_data.get("content")

    @property
    def embeds(self) -> list[dict]:
        msg = self.message
        return msg.embeds if msg is not None else list(self.response_data.get("embeds") or [])

    @property
    def components(self) -> list[dict]:
        msg = self.message
        return msg.components if msg is not None else list(self.response_data.get("components") or [])

    @property
    def flags(self) -> int:
        msg = self.message
        return msg.flags if msg is not None else int(self.response_data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def text(self) -> str:
        msg = self.message
        return msg.text if msg is not None else str(self.response_data.get("content") or "")

    def component(self, **criteria: Any) -> dict:
        """A component of the original message (see :meth:`FakeMessage.component`)."""
        if self.message is None:
            raise AssertionError(f"interaction {self.record.label} has no message (response type "
                                 f"{self.response_type})")
        return self.message.component(**criteria)

    def __repr__(self) -> str:
        return (f"<InteractionResult {self.record.label} kind={self.kind} response_type={self.response_type} "
                f"message={self.message!r} followups={len(self.record.followup_ids)} "
                f"requests={[str(r) for r in self.requests]}>")


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


# ============================================================ logged-error collection
class ExpectedErrors:
    """Returned by :meth:`DiscordHarness.expect_logged_error`; ``records`` it claimed."""

    def __init__(self, pattern: str | None, *, at_least: int = 1) -> None:
        self.pattern = re.compile(pattern, re.S) if pattern else None
        self.at_least = at_least
        self.records: list[logging.LogRecord] = []

    def matches(self, record: logging.LogRecord, text: str) -> bool:
        return self.pattern is None or bool(self.pattern.search(text))


def _record_text(record: logging.LogRecord) -> str:
    text = f"{record.name}: {record.getMessage()}"
    if record.exc_info:
        text += "\n" + logging.Formatter().formatException(record.exc_info)
    elif record.exc_text:
        text += "\n" + record.exc_text
    return text


class _ErrorCollector(logging.Handler):
    def __init__(self, harness: "DiscordHarness") -> None:
        super().__init__(level=logging.ERROR)
        self.harness = harness
        self._last: logging.LogRecord | None = None

    def emit(self, record: logging.LogRecord) -> None:
        # Attached to "discord" and to the root logger: a discord record propagates
        # to both handlers right after each other, so remembering the last one dedupes.
        if record is self._last:
            return
        self._last = record
        self.harness._on_error_record(record)


# ============================================================================= harness
_ACTIVE: "DiscordHarness | None" = None

RouteHandler = Callable[["DiscordHarness", RecordedRequest, "re.Match[str]"], Any]


class _HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str, *, failure: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.failure = status, code, message, failure


class _FakeResponse:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = _REASONS.get(status, "Error")
        self.headers: dict[str, str] = {}


def _to_discord_error(err: _HTTPError) -> discord.HTTPException:
    resp = _FakeResponse(err.status)
    data = {"code": err.code, "message": err.message}
    if err.status == 403:
        return discord.Forbidden(resp, data)  # type: ignore[arg-type]
    if err.status == 404:
        return discord.NotFound(resp, data)  # type: ignore[arg-type]
    return discord.HTTPException(resp, data)  # type: ignore[arg-type]


class DiscordHarness:
    """A fake Discord for one test; see the module docstring.

    Parameters: ``settle_timeout`` (seconds a driver waits for the bot's work before
    failing), ``validate`` (check requests against the OpenAPI spec and limits),
    ``validate_responses`` (also check the fake's own answers against the spec's
    response schemas - a self-test of the fake), ``ack_deadline`` (Discord's 3 s),
    ``long_sleep`` (sleeps at least this long count as idle when settling),
    ``bot_name``/``application_id`` (the bot user / application).
    """

    def __init__(
        self,
        *,
        settle_timeout: float = 5.0,
        validate: bool = True,
        validate_responses: bool = False,
        ack_deadline: float = 3.0,
        long_sleep: float = 2.0,
        bot_name: str = "Deckhand",
        application_id: int | None = None,
    ) -> None:
        self.settle_timeout = settle_timeout
        self.validate = validate
        self.validate_responses = validate_responses
        self.ack_deadline = ack_deadline
        self.long_sleep = long_sleep
        self._id_counter = itertools.count(1)
        self._id_base = discord.utils.time_snowflake(_dt.datetime.now(_dt.timezone.utc))
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
        self.bots: list[commands.Bot] = []
        self.gateways: dict[int, FakeGateway] = {}
        self._routes: list[tuple[str, re.Pattern[str], RouteHandler]] = []
        self._user_routes: list[tuple[str, re.Pattern[str], RouteHandler]] = []
        self._failures: list[str] = []
        self._errors: list[logging.LogRecord] = []
        self._expectations: list[ExpectedErrors] = []
        self._allowed: list[re.Pattern[str]] = []
        self._task_ignores: list[Callable[[asyncio.Task[Any]], bool]] = []
        self._tasks: list[asyncio.Task[Any]] = []  # tracked tasks not yet finished+checked
        self._settling: set[asyncio.Task[Any]] = set()  # tasks running a harness settle
        self._saved: list[tuple[Any, str, Any]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._prev_factory: Any = None
        self._collector: _ErrorCollector | None = None
        self._saved_levels: list[tuple[logging.Logger, int]] = []
        self._active = False
        self._closed = False
        self._install_routes()

    # ================================================================ lifecycle
    async def __aenter__(self) -> "DiscordHarness":
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
        # Task tracking: every task created on this loop while the harness is active.
        self._prev_factory = self._loop.get_task_factory()
        prev = self._prev_factory

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
            task = prev(loop, coro, **kwargs) if prev is not None else asyncio.Task(coro, loop=loop, **kwargs)
            self._tasks.append(task)
            return task

        self._loop.set_task_factory(factory)
        # Logged errors.
        self._collector = _ErrorCollector(self)
        for name in ("discord", ""):
            lg = logging.getLogger(name)
            lg.addHandler(self._collector)
            if lg.getEffectiveLevel() > logging.ERROR:
                self._saved_levels.append((lg, lg.level))
                lg.setLevel(logging.ERROR)

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
        if self._loop is not None and not self._loop.is_closed() and self._active:
            self._loop.set_task_factory(self._prev_factory)
        if self._collector is not None:
            for name in ("discord", ""):
                logging.getLogger(name).removeHandler(self._collector)
        for lg, level in self._saved_levels:
            lg.setLevel(level)
        self._saved_levels.clear()
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
            # Leftover tasks the bot spawned (timers, ...) must not outlive the test.
            current = asyncio.current_task()
            leftovers = [t for t in self._tasks if not t.done() and t is not current]
            for t in leftovers:
                t.cancel()
            if leftovers:
                await asyncio.wait(leftovers, timeout=1.0)
            self._check_task_exceptions()
        finally:
            self._restore()
        if raise_errors:
            self.assert_no_errors()

    # =================================================================== model
    def new_id(self) -> int:
        """A fresh, increasing snowflake."""
        return self._id_base + next(self._id_counter)

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
        cid = _id_of(ident)
        try:
            return self._channels[cid]
        except KeyError:
            raise AssertionError(f"no channel with id {cid}") from None

    # ----------------------------------------------------------- message queries
    def message(self, ident: int | FakeMessage) -> FakeMessage:
        mid = _id_of(ident)
        try:
            return self._messages[mid]
        except KeyError:
            raise AssertionError(f"no message with id {mid}") from None

    def messages(self, channel: FakeChannel | int | None = None, *, ephemeral: bool | None = None,
                 deleted: bool = False) -> list[FakeMessage]:
        """Messages in creation order, optionally in one channel; ``ephemeral=None``
        means both kinds, deleted ones only with ``deleted=True``."""
        cid = None if channel is None else _id_of(channel)
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
        uid = _id_of(user)
        return [m for m in self.messages(channel, ephemeral=True) if m.visible_to == uid]

    def latest_ephemeral(self, user: FakeUser | FakeMember | int,
                         channel: FakeChannel | int | None = None) -> FakeMessage:
        msgs = self.ephemeral_for(user, channel)
        if not msgs:
            raise AssertionError(f"user {user!r} has seen no ephemeral message")
        return msgs[-1]

    def dms(self, user: FakeUser | FakeMember | int) -> list[FakeMessage]:
        uid = _id_of(user)
        return [m for m in self.messages() if m.kind == "dm" and m.visible_to == uid]

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict]:
        """The synced application commands (global, or of ``guild``)."""
        key = None if guild is None else _id_of(guild)
        return [copy.deepcopy(c) for c in self._commands.get(key, {}).values()]

    def requests_to(self, method: str | None = None, path: str | None = None) -> list[RecordedRequest]:
        """Recorded requests filtered by method and a regex searched in the path."""
        rx = re.compile(path) if path else None
        return [r for r in self.requests if (method is None or r.method == method.upper())
                and (rx is None or rx.search(r.path))]

    # ============================================================ bots / gateway
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
        if isinstance(bot, discord.AutoShardedClient):
            raise TypeError("DiscordHarness does not support AutoShardedBot")
        state = bot._connection
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
        req_mark = len(self.requests)
        self._feed(bot, "READY", self.ready_payload())
        for guild in self.guilds.values():
            self._feed(bot, "GUILD_CREATE", guild.payload())
        try:
            await asyncio.wait_for(bot.wait_until_ready(), timeout or self.settle_timeout)
        except asyncio.TimeoutError:
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

    def ready_payload(self) -> dict:
        return {
            "v": 10, "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": True},
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
            "session_id": "harness-session", "resume_gateway_url": "wss://gateway.invalid",
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [], "relationships": [], "presences": [], "geo_ordered_rtc_regions": [],
            "user_settings": {}, "guild_join_requests": [],
        }

    def _feed(self, bot: commands.Bot, event: str, payload: dict) -> None:
        parser = bot._connection.parsers.get(event)
        if parser is None:
            raise AssertionError(f"discord.py has no parser for gateway event {event}")
        parser(copy.deepcopy(payload))

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

    async def join_guild(self, guild: FakeGuild, *, bot: commands.Bot | None = None) -> None:
        """Feed GUILD_CREATE for a guild added after start (the bot joins it)."""
        await self.feed("GUILD_CREATE", guild.payload(), bot=bot)

    def _running_bots(self) -> list[commands.Bot]:
        return [b for b in self.bots if not b.is_closed()]

    def _echo_later(self, event: str, payload: dict, *, intent: str = "guilds") -> None:
        """Deliver a gateway event, right after the current REST answer, to every running
        bot that asked for ``intent`` (as Discord does)."""

        def deliver() -> None:
            for bot in self._running_bots():
                if not getattr(bot.intents, intent):
                    continue
                try:
                    self._feed(bot, event, payload)
                except Exception as exc:  # pragma: no cover - surfaced as a failure
                    self._failures.append(f"feeding {event} to the bot failed: {exc!r}")

        assert self._loop is not None
        self._loop.call_soon(deliver)

    def _echo_message(self, msg: FakeMessage, event: str) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for a non-ephemeral message (the bot's own
        messages come back over the gateway like everyone else's)."""
        if msg.ephemeral:
            return
        guild_id = msg.guild_id
        if event == "MESSAGE_DELETE":
            payload: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
        else:
            payload = msg.payload()
            if guild_id is not None:
                payload["member"] = msg.channel.guild.members[self.bot_user.id].payload(with_user=False)  # type: ignore[union-attr]
        if guild_id is not None:
            payload["guild_id"] = str(guild_id)
        self._echo_later(event, payload, intent="guild_messages" if guild_id is not None else "dm_messages")

    # ==================================================================== errors
    def _on_error_record(self, record: logging.LogRecord) -> None:
        text = _record_text(record)
        for exp in reversed(self._expectations):
            if exp.matches(record, text):
                exp.records.append(record)
                return
        if any(p.search(text) for p in self._allowed):
            return
        self._errors.append(record)

    @contextlib.contextmanager
    def expect_logged_error(self, pattern: str | None = None, *, at_least: int = 1) -> Iterator[ExpectedErrors]:
        """Within the block, ERROR records matching ``pattern`` (a regex searched in
        "logger: message + traceback") are expected, not failures; at exit, fewer
        than ``at_least`` of them is an AssertionError."""
        exp = ExpectedErrors(pattern, at_least=at_least)
        self._expectations.append(exp)
        try:
            yield exp
        finally:
            self._expectations.remove(exp)
        if len(exp.records) < at_least:
            raise AssertionError(f"expected at least {at_least} logged error(s) matching {pattern!r}, "
                                 f"got {len(exp.records)}")

    def allow_logged_errors(self, pattern: str | None = None) -> None:
        """From now on, ERROR records matching ``pattern`` (all if None) are tolerated."""
        self._allowed.append(re.compile(pattern or ".*", re.S))

    @property
    def logged_errors(self) -> list[logging.LogRecord]:
        """Unexpected ERROR records not yet reported."""
        return list(self._errors)

    @property
    def failures(self) -> list[str]:
        """Fake-Discord failures (spec violations, unknown routes, ...) not yet reported."""
        return list(self._failures)

    def take_failures(self) -> list[str]:
        """Return and clear the pending failures (for tests that expect one)."""
        out, self._failures = self._failures, []
        return out

    def clear_logged_errors(self) -> list[logging.LogRecord]:
        out, self._errors = self._errors, []
        return out

    def assert_no_errors(self) -> None:
        """Fail if there are pending failures or unexpected logged errors (and clear them)."""
        self._raise_pending("the test", [])

    def _raise_pending(self, context: str, requests: Sequence[RecordedRequest]) -> None:
        if not self._failures and not self._errors:
            return
        parts = []
        for f in self._failures:
            parts.append(f"* {f}")
        for rec in self._errors:
            parts.append("* logged error: " + _record_text(rec))
        self._failures, self._errors = [], []
        if requests:
            parts.append("requests made:\n    " + "\n    ".join(str(r) for r in requests))
        raise AssertionError(f"Discord harness: problems while handling {context}:\n" + "\n".join(parts))

    # ================================================================= settling
    def ignore_tasks(self, what: str | Callable[[asyncio.Task[Any]], bool]) -> None:
        """Never wait for tasks whose name starts with ``what`` (or matching a predicate)."""
        if isinstance(what, str):
            prefix = what
            self._task_ignores.append(lambda t: t.get_name().startswith(prefix))
        else:
            self._task_ignores.append(what)

    def _ignored(self, task: asyncio.Task[Any]) -> bool:
        coro = task.get_coro()
        qual = getattr(coro, "__qualname__", "")
        if qual.endswith("__timeout_task_impl") or qual == "Loop._loop":
            return True
        return any(pred(task) for pred in self._task_ignores)

    def _is_idle(self, task: asyncio.Task[Any], depth: int = 0) -> bool:
        """True when ``task`` can only be woken by time or by more test input."""
        if depth > 20 or task.done():
            return task.done()
        coro: Any = task.get_coro()
        while True:  # innermost coroutine of the await chain
            aw = getattr(coro, "cr_await", None)
            if aw is None:
                aw = getattr(coro, "gi_yieldfrom", None)
            if aw is not None and (hasattr(aw, "cr_frame") or hasattr(aw, "gi_frame")):
                coro = aw
                continue
            break
        # the future the task is blocked on (C futures hide it behind a FutureIter)
        leaf: Any = getattr(task, "_fut_waiter", None)
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            return False
        if isinstance(leaf, asyncio.Future) and leaf.done():
            return False  # about to resume
        if isinstance(leaf, asyncio.Task) or hasattr(leaf, "_children"):  # awaiting a task / gather
            return self._future_idle(leaf, depth)
        code = frame.f_code
        filename = code.co_filename
        if filename.startswith(_ASYNCIO_DIR):
            if code.co_name == "sleep":
                return float(frame.f_locals.get("delay") or 0) >= self.long_sleep
            if filename.endswith(("locks.py", "queues.py")):
                return True  # Event/Lock/Condition/Semaphore/Queue: woken by another task
            if code.co_name in ("wait_for", "_wait", "wait"):
                timeout = frame.f_locals.get("timeout")
                if timeout is not None and timeout < self.long_sleep:
                    return False
                inner = frame.f_locals.get("fut") if code.co_name == "wait_for" else frame.f_locals.get("fs")
                futs = list(inner) if isinstance(inner, (set, list, tuple)) else [inner]
                futs = [f for f in futs if isinstance(f, asyncio.Future)]
                return bool(futs) and all(f.done() or self._future_idle(f, depth) for f in futs) \
                    and not all(f.done() for f in futs)
        if filename.startswith(_DISCORD_DIR) and isinstance(leaf, asyncio.Future):
            return True  # View.wait(), Client.wait_for(), ... wait for more gateway input
        return False

    def _future_idle(self, fut: asyncio.Future[Any], depth: int) -> bool:
        """Is a future another task waits on blocked only on idle work?"""
        if fut.done():
            return False
        if isinstance(fut, asyncio.Task):
            return fut in self._settling or self._ignored(fut) or self._is_idle(fut, depth + 1)
        children = getattr(fut, "_children", None)  # asyncio.gather
        if children is not None:
            return all(c.done() or self._future_idle(c, depth + 1) for c in children)
        if not fut.get_loop().is_running():  # pragma: no cover
            return False
        return True  # a bare future nobody in this process is computing right now (e.g. wait_for's)

    def _busy(self) -> list[asyncio.Task[Any]]:
        return [t for t in self._tasks
                if not t.done() and t not in self._settling and not self._ignored(t) and not self._is_idle(t)]

    async def _settle(self, what: str, timeout: float | None = None) -> None:
        """Wait until the system is quiescent: every task created while the harness
        is active is done, idle (see :meth:`_is_idle`) or ignored.  Tasks that are
        themselves settling (concurrent drivers) do not count."""
        loop = asyncio.get_running_loop()
        timeout = self.settle_timeout if timeout is None else timeout
        deadline = loop.time() + timeout
        current = asyncio.current_task()
        if current is not None:
            self._settling.add(current)
        try:
            quiet_rounds = 0
            while quiet_rounds < 2:  # quiet twice in a row: a finishing task may wake another
                for _ in range(5):
                    await asyncio.sleep(0)
                busy = self._busy()
                if not busy:
                    quiet_rounds += 1
                    continue
                quiet_rounds = 0
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise AssertionError(
                        f"Discord harness: {what} did not settle within {timeout:.1f}s; tasks still running:\n"
                        + "\n".join(self._describe_task(t) for t in busy)
                        + "\n(use harness.ignore_tasks(...) for long-lived background tasks)"
                    )
                await asyncio.wait(busy, timeout=min(remaining, 0.05), return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._settling.discard(current)  # type: ignore[arg-type]
        self._check_task_exceptions()

    @staticmethod
    def _describe_task(task: asyncio.Task[Any]) -> str:
        """The task's await chain, outermost first, down to what it is waiting on."""
        lines = []
        coro: Any = task.get_coro()
        while coro is not None:
            frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
            if frame is not None:
                lines.append(f"    {frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}")
            nxt = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
            coro = nxt if nxt is not None and (hasattr(nxt, "cr_frame") or hasattr(nxt, "gi_frame")) else None
        leaf = getattr(task, "_fut_waiter", None)
        if leaf is not None:
            lines.append(f"    waiting on {leaf!r}"[:300])
        coro = task.get_coro()
        return f"- {task.get_name()} ({getattr(coro, '__qualname__', coro)}):\n" + "\n".join(lines)

    def _check_task_exceptions(self) -> None:
        """Record tasks that died with an exception nobody retrieved; forget finished tasks."""
        alive = []
        for t in self._tasks:
            if not t.done():
                alive.append(t)
            elif not t.cancelled() and getattr(t, "_log_traceback", False):  # never retrieved
                exc = t.exception()  # retrieving it also silences asyncio's later log
                tb = "".join(traceback.format_exception(exc))
                self._failures.append(f"task {t.get_name()!r} died with an exception nobody retrieved:\n{tb}")
        self._tasks = alive

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until the bot's work is done (drivers do this themselves); report problems."""
        await self._settle("pending work", timeout)
        self._raise_pending("pending work", [])

    async def wait_until(self, predicate: Callable[[], bool], *, timeout: float | None = None,
                         what: str = "condition") -> None:
        """Poll ``predicate`` (each loop turn / 10 ms) until true or fail after ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.settle_timeout if timeout is None else timeout)
        while not predicate():
            if loop.time() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.01)

    def expire_tokens(self, result: InteractionResult | None = None) -> None:
        """Expire one interaction's token (or all): Discord's 15-minute limit."""
        recs = [result.record] if result is not None else list(self._interactions.values())
        for rec in recs:
            rec.expired = True

    # ============================================================ interactions
    def _member(self, user: FakeUser | FakeMember | int, channel: FakeChannel) -> tuple[FakeUser, FakeMember | None]:
        uid = _id_of(user)
        fake_user = self._users.get(uid)
        if fake_user is None:
            raise AssertionError(f"unknown user {user!r}: create it with harness.add_user()")
        if channel.guild is None:
            return fake_user, None
        return fake_user, channel.guild.member(uid)

    def _resolve_channel(self, channel: FakeChannel | int) -> FakeChannel:
        ch = self.channel(channel)
        if ch.is_thread and ch.archived:
            raise AssertionError(f"{ch!r} is archived; Discord users cannot interact there")
        return ch

    def _interaction_payload(self, itype: int, data: dict, *, user: FakeUser, member: FakeMember | None,
                             channel: FakeChannel, message: FakeMessage | None = None) -> tuple[int, str, dict]:
        iid = self.new_id()
        token = f"hx{iid}t{os.urandom(24).hex()}"  # URL-safe, >= 60 chars like Discord's
        guild = channel.guild
        bot_member = guild.members[self.bot_user.id] if guild else None
        app_perms = bot_member.permissions if bot_member else _EVERYONE_PERMS
        ch_payload = channel.payload()
        ch_payload["permissions"] = str(member.permissions if member else _EVERYONE_PERMS)
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.application_id), "type": itype, "data": data,
            "channel_id": str(channel.id), "channel": ch_payload, "token": token, "version": 1,
            "app_permissions": str(app_perms), "locale": user.locale, "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None and member is not None:
            payload.update({
                "guild_id": str(guild.id),
                "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
                "guild_locale": "en-US",
                "member": member.payload(with_permissions=True),
                "authorizing_integration_owners": {"0": str(guild.id)},
                "context": 0,
            })
        else:
            payload.update({"user": user.payload(), "authorizing_integration_owners": {"1": str(user.id)},
                            "context": 1})
        if message is not None:
            payload["message"] = message.payload()
        return iid, token, payload

    async def _dispatch_interaction(
        self,
        itype: int,
        data: dict,
        *,
        user: FakeUser | FakeMember | int,
        channel: FakeChannel,
        label: str,
        message: FakeMessage | None = None,
        parent: InteractionRecord | None = None,
        bot: commands.Bot | None = None,
        expect_response: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        bot = bot or self.bot
        fake_user, member = self._member(user, channel)
        iid, token, payload = self._interaction_payload(itype, data, user=fake_user, member=member,
                                                        channel=channel, message=message)
        loop = asyncio.get_running_loop()
        rec = InteractionRecord(iid, token, itype, fake_user, channel, payload, loop.time(), label,
                                message_id=message.id if message else None, parent=parent)
        self._interactions[iid] = rec
        self._tokens[token] = rec
        req_mark = len(self.requests)
        self._feed(bot, "INTERACTION_CREATE", payload)
        await self._settle(f"interaction {label}", timeout)
        # requests since the feed, minus webhook/callback requests of *other* interactions
        # (drivers may run concurrently, e.g. asyncio.gather of two clicks)
        requests = [r for r in self.requests[req_mark:] if r.interaction_id in (None, iid)]
        result = InteractionResult(self, rec, requests)
        self._raise_pending(f"interaction {label} by {fake_user.name}", requests)
        if expect_response and rec.callback is None:
            raise AssertionError(
                f"interaction {label} by {fake_user.name} was never acknowledged (Discord would show "
                f"'This interaction failed'); requests made: {[str(r) for r in requests]}. "
                f"Pass expect_response=False if that is intended.")
        return result

    # -------------------------------------------------------------- commands
    def _find_command(self, name: str, channel: FakeChannel, ctype: int = 1) -> tuple[dict, bool]:
        guild_id = channel.guild.id if channel.guild else None
        if guild_id is not None and (name, ctype) in self._commands.get(guild_id, {}):
            return self._commands[guild_id][(name, ctype)], True
        if (name, ctype) in self._commands.get(None, {}):
            return self._commands[None][(name, ctype)], False
        known = sorted({n for cmds in self._commands.values() for (n, t) in cmds if t == ctype})
        raise AssertionError(f"command {name!r} (type {ctype}) is not synced for {channel!r}; synced: {known}. "
                             f"Did setup_hook call bot.tree.sync()?")

    def _option_value(self, opt: dict, value: Any, guild: FakeGuild | None, resolved: dict,
                      path: str, *, autocomplete: bool = False) -> Any:
        otype = opt["type"]
        name = f"{path} {opt['name']}"
        if autocomplete:
            return value
        if otype == OPT_STRING:
            if not isinstance(value, str):
                raise AssertionError(f"option {name} is a string option, got {value!r}")
            lo, hi = opt.get("min_length"), opt.get("max_length")
            if (lo is not None and len(value) < lo) or (hi is not None and len(value) > hi):
                raise AssertionError(f"option {name}: Discord only accepts {lo}..{hi} characters, got {value!r}")
        elif otype == OPT_INT:
            if isinstance(value, bool) or not isinstance(value, int):
                raise AssertionError(f"option {name} is an integer option, got {value!r}")
        elif otype == OPT_NUMBER:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise AssertionError(f"option {name} is a number option, got {value!r}")
        elif otype == OPT_BOOL:
            if not isinstance(value, bool):
                raise AssertionError(f"option {name} is a boolean option, got {value!r}")
        elif otype in (OPT_USER, OPT_MENTIONABLE) and (isinstance(value, (FakeUser, FakeMember)) or
                                                       _id_of(value) in self._users):
            uid = _id_of(value)
            user = self._users[uid]
            resolved.setdefault("users", {})[str(uid)] = user.payload()
            if guild is not None and uid in guild.members:
                resolved.setdefault("members", {})[str(uid)] = guild.members[uid].payload(
                    with_user=False, with_permissions=True)
            return str(uid)
        elif otype in (OPT_ROLE, OPT_MENTIONABLE):
            rid = _id_of(value)
            if guild is None or rid not in guild.roles:
                raise AssertionError(f"option {name}: {value!r} is not a role of the guild")
            resolved.setdefault("roles", {})[str(rid)] = guild.roles[rid].payload()
            return str(rid)
        elif otype == OPT_CHANNEL:
            ch = self.channel(value)
            types = opt.get("channel_types")
            if types and ch.type not in types:
                raise AssertionError(f"option {name}: channel type {ch.type} not in {types}")
            cp = ch.payload()
            cp["permissions"] = str(_ALL_PERMS)
            resolved.setdefault("channels", {})[str(ch.id)] = cp
            return str(ch.id)
        elif otype == OPT_USER:
            raise AssertionError(f"option {name}: unknown user {value!r}")
        else:
            raise AssertionError(f"option {name}: option type {otype} is not supported by the harness")
        if otype in (OPT_INT, OPT_NUMBER):
            lo, hi = opt.get("min_value"), opt.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise AssertionError(f"option {name}: Discord only accepts {lo}..{hi}, got {value!r}")
        if opt.get("choices"):
            allowed = [c["value"] for c in opt["choices"]]
            if value not in allowed:
                raise AssertionError(f"option {name}: {value!r} is not one of the choices {allowed}")
        return value

    def _command_data(self, command: str, options: Mapping[str, Any] | None, channel: FakeChannel,
                      *, focused: str | None = None) -> dict:
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise AssertionError("empty command name")
        cmd, is_guild = self._find_command(parts[0], channel)
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if is_guild:
            data["guild_id"] = cmd["guild_id"]
        node, container = cmd, data
        path = parts[0]
        for part in parts[1:]:
            sub = next((o for o in node.get("options") or [] if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in node.get("options") or [] if o["type"] in (1, 2)]
                raise AssertionError(f"/{path} has no subcommand or group {part!r}; it has {subs}")
            entry: dict[str, Any] = {"type": sub["type"], "name": part, "options": []}
            container.setdefault("options", []).append(entry)
            node, container, path = sub, entry, f"{path} {part}"
        if any(o["type"] in (1, 2) for o in node.get("options") or []):
            subs = [o["name"] for o in node["options"] if o["type"] in (1, 2)]
            raise AssertionError(f"/{path} is a group; name a subcommand: {subs}")
        defs = {o["name"]: o for o in node.get("options") or []}
        options = dict(options or {})
        unknown = set(options) - set(defs)
        if unknown:
            raise AssertionError(f"/{path} has no option(s) {sorted(unknown)}; options: {sorted(defs)}")
        resolved: dict[str, dict] = {}
        values = []
        for oname, odef in defs.items():
            if oname not in options:
                if odef.get("required") and focused is None:
                    raise AssertionError(f"/{path}: required option {oname!r} missing (Discord would not send it)")
                continue
            is_focused = oname == focused
            value = self._option_value(odef, options[oname], channel.guild, resolved, f"/{path}",
                                       autocomplete=is_focused)
            entry = {"type": odef["type"], "name": oname, "value": value}
            if is_focused:
                entry["focused"] = True
            values.append(entry)
        if focused is not None:
            if focused not in defs:
                raise AssertionError(f"/{path} has no option {focused!r}")
            if not defs[focused].get("autocomplete"):
                raise AssertionError(f"/{path} option {focused!r} does not have autocomplete enabled")
        container.setdefault("options", []).extend(values)
        if not container["options"]:
            container.pop("options")
            if container is not data:
                container["options"] = []
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeUser | FakeMember | int,
        channel: FakeChannel | int,
        bot: commands.Bot | None = None,
        expect_response: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Run ``/command`` (``"game start"`` for subcommands, ``"a b c"`` for groups).

        ``options`` maps option names to Python values: str/int/float/bool, a
        :class:`FakeUser`/:class:`FakeMember` (user options), :class:`FakeChannel`,
        :class:`FakeRole`.  The command id and shape come from the synced tree.
        """
        ch = self._resolve_channel(channel)
        data = self._command_data(command, options, ch)
        return await self._dispatch_interaction(APPLICATION_COMMAND, data, user=user, channel=ch,
                                                label=f"/{command.strip().lstrip('/')}", bot=bot,
                                                expect_response=expect_response, timeout=timeout)

    async def autocomplete(
        self,
        command: str,
        focused: str,
        value: str = "",
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeUser | FakeMember | int,
        channel: FakeChannel | int,
        bot: commands.Bot | None = None,
        expect_response: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Type ``value`` into option ``focused`` of ``/command``; ``.choices`` has the answer."""
        ch = self._resolve_channel(channel)
        opts = dict(options or {})
        opts[focused] = value
        data = self._command_data(command, opts, ch, focused=focused)
        return await self._dispatch_interaction(AUTOCOMPLETE, data, user=user, channel=ch,
                                                label=f"autocomplete /{command} {focused}={value!r}", bot=bot,
                                                expect_response=expect_response, timeout=timeout)

    async def context_menu(
        self,
        name: str,
        target: FakeUser | FakeMember | FakeMessage,
        *,
        user: FakeUser | FakeMember | int,
        channel: FakeChannel | int,
        bot: commands.Bot | None = None,
        expect_response: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Run a user (target is a user/member) or message (target is a message) context menu."""
        ch = self._resolve_channel(channel)
        ctype = 3 if isinstance(target, FakeMessage) else 2
        cmd, is_guild = self._find_command(name, ch, ctype)
        data: dict[str, Any] = {"id": cmd["id"], "name": name, "type": ctype, "target_id": str(target.id)}
        if is_guild:
            data["guild_id"] = cmd["guild_id"]
        if isinstance(target, FakeMessage):
            data["resolved"] = {"messages": {str(target.id): target.payload()}}
        else:
            resolved: dict[str, dict] = {}
            self._option_value({"type": OPT_USER, "name": "target"}, target, ch.guild, resolved, name)
            data["resolved"] = resolved
        return await self._dispatch_interaction(APPLICATION_COMMAND, data, user=user, channel=ch,
                                                label=f"context menu {name!r}", bot=bot,
                                                expect_response=expect_response, timeout=timeout)

    # ------------------------------------------------------------ components
    def _as_message(self, message: FakeMessage | InteractionResult | int) -> FakeMessage:
        if isinstance(message, InteractionResult):
            if message.message is None:
                raise AssertionError(f"{message.record.label} produced no message to interact with")
            return message.message
        return self.message(message)

    def _check_can_use(self, msg: FakeMessage, user: FakeUser | FakeMember | int, comp: dict) -> None:
        uid = _id_of(user)
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted; nobody can click it")
        if msg.ephemeral and msg.visible_to != uid:
            raise AssertionError(f"message {msg.id} is ephemeral and was shown to user {msg.visible_to}, "
                                 f"not to {uid}; they cannot see or click it")
        if msg.kind == "dm" and msg.visible_to != uid:
            raise AssertionError(f"message {msg.id} is in another user's DMs")
        if msg.loading:
            raise AssertionError(f"message {msg.id} is still loading (deferred and never filled in)")
        if comp.get("disabled"):
            raise AssertionError(f"{_component_desc(comp)} on message {msg.id} is disabled; Discord won't send "
                                 f"a click")

    async def click(
        self,
        message: FakeMessage | InteractionResult | int,
        *,
        user: FakeUser | FakeMember | int,
        label: str | None = None,
        custom_id: str | None = None,
        custom_id_prefix: str | None = None,
        bot: commands.Bot | None = None,
        expect_response: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Click the button (by ``label``/``custom_id``/``custom_id_prefix``) on a recorded message."""
        msg = self._as_message(message)
        crit = {k: v for k, v in (("label", label), ("custom_id", custom_id),
                                  ("custom_id_prefix", custom_id_prefix)) if v is not None}
        comp = msg.component(type=2, **crit)
        if comp.get("style") in (5, 6) or "custom_id" not in comp:
            raise AssertionError(f"{_component_desc(comp)} is a link/premium button: clicking it sends no "
                                 f"interaction")
        self._check_can_use(msg, user, comp)
        data = {"custom_id": comp["custom_id"], "component_type": 2, "id": comp.get("id")}
        return await self._dispatch_interaction(
            MESSAGE_COMPONENT, _strip_none(data), user=user, channel=msg.channel, message=msg,
            label=f"click {comp.get('label') or comp['custom_id']!r} on message {msg.id}", bot=bot,
            expect_response=expect_response, timeout=timeout)

    async def select(
        self,
        message: FakeMessage | InteractionResult | int,
        values: Sequence[Any],
        *,
        user: FakeUser | FakeMember | int,
        custom_id: str | None = None,
        custom_id_prefix: str | None = None,
        placeholder: str | None = None,
        bot: commands.Bot | None = None,
        expect_response: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Choose ``values`` in a select menu of a recorded message.

        String selects take option values; user/role/channel/mentionable selects
        take fake objects or ids.  The select is found by ``custom_id``,
        ``custom_id_prefix`` or ``placeholder`` (or is the only select).
        """
        msg = self._as_message(message)
        crit = {k: v for k, v in (("custom_id", custom_id), ("custom_id_prefix", custom_id_prefix),
                                  ("placeholder", placeholder)) if v is not None}
        comp = msg.component(type=(3, 5, 6, 7, 8), **crit)
        self._check_can_use(msg, user, comp)
        ctype = comp["type"]
        lo = comp.get("min_values", 1)
        hi = comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise AssertionError(f"{_component_desc(comp)} accepts {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": ctype, "id": comp.get("id")}
        guild = msg.channel.guild
        if ctype == 3:
            options = {o["value"]: o for o in comp.get("options", [])}
            bad = [v for v in values if v not in options]
            if bad:
                listing = ", ".join(f"{o.get('label')!r}={v!r}" for v, o in options.items())
                raise AssertionError(f"{bad} not among the options of {_component_desc(comp)}: {listing}")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict] = {}
            otype = {5: OPT_USER, 6: OPT_ROLE, 7: OPT_MENTIONABLE, 8: OPT_CHANNEL}[ctype]
            data["values"] = [self._option_value({"type": otype, "name": "value"}, v, guild, resolved, "select")
                              for v in values]
            data["resolved"] = resolved
        return await self._dispatch_interaction(
            MESSAGE_COMPONENT, _strip_none(data), user=user, channel=msg.channel, message=msg,
            label=f"select {list(values)!r} in {comp.get('placeholder') or comp['custom_id']!r} on message {msg.id}",
            bot=bot, expect_response=expect_response, timeout=timeout)

    async def submit_modal(
        self,
        opened: InteractionResult,
        values: Mapping[str, Any],
        *,
        user: FakeUser | FakeMember | int | None = None,
        bot: commands.Bot | None = None,
        expect_response: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Submit the modal that ``opened`` (a type 9 response) showed.

        ``values`` maps each field's custom_id to its text (or a list of values for
        selects inside labels).  Required fields and length limits are enforced
        as Discord's client does.
        """
        modal = opened.modal
        if modal is None:
            raise AssertionError(f"{opened.record.label} did not open a modal (response type "
                                 f"{opened.response_type})")
        rec = opened.record
        submitter = rec.user if user is None else user
        remaining = dict(values)

        def submitted(comp: dict) -> dict | None:
            ctype = comp.get("type")
            if ctype == 1:
                return {"type": 1, "id": comp.get("id"),
                        "components": [c for c in (submitted(x) for x in comp.get("components", [])) if c]}
            if ctype == 18:
                inner = submitted(comp["component"])
                return {"type": 18, "id": comp.get("id"), "component": inner}
            if ctype == 10:
                return {"type": 10, "id": comp.get("id")}
            cid = comp.get("custom_id")
            if ctype == 4:
                value = remaining.pop(cid, comp.get("value") or "")
                if not isinstance(value, str):
                    raise AssertionError(f"text input {cid!r} takes a string, got {value!r}")
                required = comp.get("required", True)
                if required and not value:
                    raise AssertionError(f"modal field {cid!r} is required; Discord won't submit it empty")
                lo, hi = comp.get("min_length"), comp.get("max_length")
                if value and ((lo is not None and len(value) < lo) or (hi is not None and len(value) > hi)):
                    raise AssertionError(f"modal field {cid!r} accepts {lo}..{hi} characters, got {len(value)}")
                return {"type": 4, "id": comp.get("id"), "custom_id": cid, "value": value}
            if ctype in (3, 5, 6, 7, 8):
                vals = remaining.pop(cid, [])
                vals = [vals] if isinstance(vals, str) else list(vals)
                if ctype == 3:
                    allowed = {o["value"] for o in comp.get("options", [])}
                    if not set(vals) <= allowed:
                        raise AssertionError(f"{vals} not among {sorted(allowed)} for {cid!r}")
                else:
                    vals = [str(_id_of(v)) for v in vals]
                return {"type": ctype, "id": comp.get("id"), "custom_id": cid, "values": vals}
            return None

        components = [c for c in (submitted(c) for c in modal.get("components", [])) if c]
        if remaining:
            raise AssertionError(f"modal {modal.get('custom_id')!r} has no field(s) {sorted(remaining)}")
        data = {"custom_id": modal["custom_id"], "components": _strip_none(components)}
        message = self._messages.get(rec.message_id) if rec.message_id else None
        return await self._dispatch_interaction(
            MODAL_SUBMIT, data, user=submitter, channel=rec.channel, message=message, parent=rec,
            label=f"modal {modal.get('title')!r} submit", bot=bot, expect_response=expect_response,
            timeout=timeout)

    # =============================================================== REST fake
    def add_route(self, method: str, pattern: str, handler: RouteHandler) -> None:
        """Answer ``method`` requests whose path fully matches regex ``pattern`` with
        ``handler(harness, request, match)``; its return value is the response body.
        Checked before the built-in routes."""
        self._user_routes.append((method.upper(), re.compile(pattern), handler))

    def _install_routes(self) -> None:
        S = r"(?P<{}>\d+)"
        T = r"(?P<token>[^/]+)"
        add = lambda m, p, h: self._routes.append((m, re.compile(p), h))  # noqa: E731
        add("GET", r"/users/@me", lambda h, r, m: h.bot_user.payload() | {"verified": True, "mfa_enabled": True,
                                                                            "locale": "en-US", "email": None})
        add("GET", r"/oauth2/applications/@me", _r_application)
        add("GET", r"/users/" + S.format("user"), _r_get_user)
        add("POST", r"/users/@me/channels", _r_create_dm)
        add("GET", r"/guilds/" + S.format("guild") + r"/members/" + S.format("user"), _r_get_member)
        add("PUT", r"/applications/" + S.format("app") + r"/commands", _r_bulk_commands)
        add("PUT", r"/applications/" + S.format("app") + r"/guilds/" + S.format("guild") + r"/commands",
            _r_bulk_commands)
        add("GET", r"/applications/" + S.format("app") + r"(?:/guilds/" + S.format("guild") + r")?/commands",
            _r_list_commands)
        add("POST", r"/interactions/" + S.format("iid") + "/" + T + r"/callback", _r_callback)
        add("POST", r"/webhooks/" + S.format("app") + "/" + T, _r_followup)
        add("GET", r"/webhooks/" + S.format("app") + "/" + T + r"/messages/(?P<mid>@original|\d+)", _r_webhook_get)
        add("PATCH", r"/webhooks/" + S.format("app") + "/" + T + r"/messages/(?P<mid>@original|\d+)",
            _r_webhook_edit)
        add("DELETE", r"/webhooks/" + S.format("app") + "/" + T + r"/messages/(?P<mid>@original|\d+)",
            _r_webhook_delete)
        add("GET", r"/channels/" + S.format("cid"), _r_get_channel)
        add("PATCH", r"/channels/" + S.format("cid"), _r_edit_channel)
        add("DELETE", r"/channels/" + S.format("cid"), _r_delete_channel)
        add("GET", r"/channels/" + S.format("cid") + r"/messages", _r_history)
        add("POST", r"/channels/" + S.format("cid") + r"/typing", lambda h, r, m: _channel_or_404(h, m["cid"]) and None)
        add("POST", r"/channels/" + S.format("cid") + r"/messages", _r_create_message)
        add("GET", r"/channels/" + S.format("cid") + r"/messages/" + S.format("mid"), _r_get_message)
        add("PATCH", r"/channels/" + S.format("cid") + r"/messages/" + S.format("mid"), _r_edit_message)
        add("DELETE", r"/channels/" + S.format("cid") + r"/messages/" + S.format("mid"), _r_delete_message)
        add("POST", r"/channels/" + S.format("cid") + r"/threads", _r_create_thread)
        add("POST", r"/channels/" + S.format("cid") + r"/messages/" + S.format("mid") + r"/threads",
            _r_create_thread)
        add("PUT", r"/channels/" + S.format("cid") + r"/thread-members/(?P<user>@me|\d+)", _r_thread_member)
        add("DELETE", r"/channels/" + S.format("cid") + r"/thread-members/(?P<user>@me|\d+)", _r_thread_member)

    async def _handle(self, *, via: str, method: str, url: str, json_body: Any = None,
                      form: Sequence[Mapping[str, Any]] | None = None, params: Mapping[str, Any] | None = None,
                      reason: str | None = None) -> Any:
        await asyncio.sleep(0)  # a real request always yields to the loop
        if not form:  # discord.py passes [] when there are no files (and sends the JSON payload)
            form = None
        split = urlsplit(url)
        path = openapi.OpenAPISpec.normalise_path(split.path)
        query = dict(parse_qsl(split.query))
        query.update({k: str(v) for k, v in (params or {}).items()})
        body = json_body
        files: list[tuple[str, bytes]] = []
        if form is not None:
            for fld in form:
                if fld.get("name") == "payload_json":
                    body = json.loads(fld["value"])
                elif "filename" in fld:
                    files.append((fld["filename"], _read_file(fld.get("value"))))
        req = RecordedRequest(len(self.requests), via, method.upper(), path, query, copy.deepcopy(body),
                              multipart=form is not None, files=files, reason=reason)
        self.requests.append(req)
        try:
            if self.validate:
                self._validate(req, form)
            response = self._route(req)
        except _HTTPError as err:
            req.status, req.error = err.status, err.message
            if err.failure:
                self._failures.append(err.failure)
            raise _to_discord_error(err) from None
        req.status = 204 if response is None else 200
        req.response = copy.deepcopy(response)
        if self.validate_responses and response is not None:
            try:
                openapi.validate_response(req.method, req.path, response)
            except openapi.SpecViolation as exc:
                self._failures.append(f"the fake's own answer is not spec-conform (harness bug): {exc}")
        return copy.deepcopy(response)

    def _validate(self, req: RecordedRequest, form: Sequence[Mapping[str, Any]] | None) -> None:
        if openapi.get_spec().find_operation(req.method, req.path) is None:
            raise _HTTPError(404, 0, f"404: Not Found ({req.method} {req.path} is not a Discord API route)",
                             failure=f"the bot called {req.method} {req.path}, which is not a route of Discord's "
                                     f"API (not in its OpenAPI spec); body: {_short_json(req.body)}")
        problems: list[str] = []
        try:
            op = openapi.validate_request(req.method, req.path, req.body if form is None else None, form=form)
            req.operation = op.operation_id
        except openapi.SpecViolation as exc:
            problems.append(str(exc))
        problems.extend(_discord_limits(req))
        if problems:
            text = f"{req.method} {req.path} was rejected:\n" + "\n".join(problems)
            raise _HTTPError(400, 50035, f"Invalid Form Body (harness: {text})",
                             failure=f"request violates Discord's API: {text}")

    def _route(self, req: RecordedRequest) -> Any:
        for method, rx, handler in itertools.chain(self._user_routes, self._routes):
            if method != req.method:
                continue
            m = rx.fullmatch(req.path)
            if m:
                return handler(self, req, m)
        raise _HTTPError(404, 0, f"404: Not Found (the Discord harness has no handler for {req.method} {req.path})",
                         failure=f"the bot called {req.method} {req.path}, which the Discord harness does not "
                                 f"handle (add it with harness.add_route() if the bot really needs it); "
                                 f"body: {_short_json(req.body)}")

    # --------------------------------------------------------------- helpers
    def _interaction_for_token(self, app: str, token: str) -> InteractionRecord:
        if int(app) != self.application_id:
            raise _HTTPError(404, 10015, "Unknown Webhook",
                             failure=f"webhook request for application {app}, not {self.application_id}")
        rec = self._tokens.get(unquote(token))
        if rec is None:
            raise _HTTPError(404, 10015, "Unknown Webhook", failure=f"webhook request with unknown token {token!r}")
        if rec.expired:
            raise _HTTPError(401, 50027, "Invalid Webhook Token")
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
        raise _HTTPError(400, 50006, "Cannot send an empty message",
                         failure=f"the bot sent an empty message (no content, embeds, components or files) {where}")

_MISSING = object()


def _short_json(value: Any, limit: int = 1000) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[: limit - 1] + "…"


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


# ====================================================================== limits
def _message_bodies(req: RecordedRequest) -> list[tuple[dict, bool]]:
    """(message body, is_create) pairs in a request, for limit checks."""
    body = req.body
    if not isinstance(body, dict):
        return []
    p = req.path
    if p.startswith("/interactions/") and p.endswith("/callback"):
        t = body.get("type")
        data = body.get("data") if isinstance(body.get("data"), dict) else None
        if t in (CB_MESSAGE, CB_UPDATE) and data is not None:
            return [(data, t == CB_MESSAGE)]
        return []
    if re.fullmatch(r"/webhooks/\d+/[^/]+", p) and req.method == "POST":
        return [(body, True)]
    if re.fullmatch(r"/webhooks/\d+/[^/]+/messages/[^/]+", p) and req.method == "PATCH":
        return [(body, False)]
    if re.fullmatch(r"/channels/\d+/messages", p) and req.method == "POST":
        return [(body, True)]
    if re.fullmatch(r"/channels/\d+/messages/\d+", p) and req.method == "PATCH":
        return [(body, False)]
    if re.fullmatch(r"/channels/\d+/threads", p) and req.method == "POST" and isinstance(body.get("message"), dict):
        return [(body["message"], True)]  # forum posts
    return []


def _discord_limits(req: RecordedRequest) -> list[str]:
    """Hard Discord limits the OpenAPI spec does not encode."""
    problems: list[str] = []
    for body, _create in _message_bodies(req):
        content = body.get("content")
        if isinstance(content, str) and len(content) > 2000:
            problems.append(f"content is {len(content)} characters; bots may send at most 2000")
        flags = body.get("flags") or 0
        comps = body.get("components") or []
        if not flags & IS_COMPONENTS_V2:
            if len(comps) > 5:
                problems.append(f"{len(comps)} action rows; Discord allows 5")
            for i, row in enumerate(comps):
                if isinstance(row, dict) and row.get("type") != 1:
                    problems.append(f"components[{i}] has type {row.get('type')}: top-level components must be "
                                    f"action rows unless the IS_COMPONENTS_V2 flag is set")
        else:
            if body.get("content") or body.get("embeds"):
                problems.append("messages with IS_COMPONENTS_V2 cannot have content or embeds")
            total = sum(1 for _ in walk_components(comps))
            if total > 40:
                problems.append(f"{total} components; Discord allows 40 in a message")
        problems.extend(_component_problems(comps))
        total_embed = 0
        for emb in body.get("embeds") or []:
            if not isinstance(emb, dict):
                continue
            total_embed += len(emb.get("title") or "") + len(emb.get("description") or "")
            total_embed += len((emb.get("footer") or {}).get("text") or "")
            total_embed += len((emb.get("author") or {}).get("name") or "")
            for f in emb.get("fields") or []:
                total_embed += len(f.get("name") or "") + len(f.get("value") or "")
        if total_embed > 6000:
            problems.append(f"embeds hold {total_embed} characters; Discord allows 6000 in total")
    if req.path.endswith("/callback") and isinstance(req.body, dict) and req.body.get("type") == CB_MODAL:
        data = req.body.get("data") or {}
        problems.extend(_component_problems(data.get("components") or [], modal=True))
    if req.method == "PUT" and re.fullmatch(r"/applications/\d+(/guilds/\d+)?/commands", req.path):
        problems.extend(_command_problems(req.body or []))
    return problems


def _component_problems(components: Sequence[Any], *, modal: bool = False) -> list[str]:
    problems: list[str] = []
    seen: dict[str, int] = {}
    for comp in walk_components([c for c in components if isinstance(c, dict)]):
        cid = comp.get("custom_id")
        if cid is not None:
            seen[cid] = seen.get(cid, 0) + 1
        ctype = comp.get("type")
        if ctype == 1 and not modal:
            kids = comp.get("components") or []
            if any(isinstance(k, dict) and k.get("type") in (3, 5, 6, 7, 8) for k in kids) and len(kids) > 1:
                problems.append("an action row with a select menu can hold nothing else")
        if ctype == 2:
            style = comp.get("style")
            if style == 5:
                if not comp.get("url") or comp.get("custom_id"):
                    problems.append(f"link button {_component_desc(comp)} needs a url and no custom_id")
            elif style != 6 and not comp.get("custom_id"):
                problems.append(f"button {_component_desc(comp)} needs a custom_id")
            if style != 6 and not comp.get("label") and not comp.get("emoji"):
                problems.append(f"button {_component_desc(comp)} needs a label or an emoji")
        if ctype == 3:
            values = [o.get("value") for o in comp.get("options") or []]
            dups = {v for v in values if values.count(v) > 1}
            if dups:
                problems.append(f"select {comp.get('custom_id')!r} has duplicate option values {sorted(map(str, dups))}")
            defaults = sum(1 for o in comp.get("options") or [] if o.get("default"))
            if defaults > (comp.get("max_values") or 1):
                problems.append(f"select {comp.get('custom_id')!r} has more default options than max_values")
            if (comp.get("min_values") or 0) > len(values):
                problems.append(f"select {comp.get('custom_id')!r} has min_values above its option count")
    dup_ids = sorted(c for c, n in seen.items() if n > 1)
    if dup_ids:
        problems.append(f"duplicate custom_id(s) in one message/modal: {dup_ids}")
    return problems


def _command_problems(commands_: Sequence[Any]) -> list[str]:
    problems: list[str] = []
    names: set[tuple[str, int]] = set()
    for cmd in commands_:
        if not isinstance(cmd, dict):
            continue
        key = (cmd.get("name", ""), cmd.get("type") or 1)
        if key in names:
            problems.append(f"two commands named {key[0]!r} of type {key[1]}")
        names.add(key)
        if key[1] == 1:
            problems.extend(_options_problems(f"/{key[0]}", cmd))
    return problems


def _options_problems(path: str, node: dict) -> list[str]:
    problems = []
    if not node.get("description"):
        problems.append(f"{path} has no description (Discord requires 1-100 characters)")
    opts = node.get("options") or []
    seen_optional = False
    names = set()
    for opt in opts:
        if opt.get("name") in names:
            problems.append(f"{path} has two options named {opt.get('name')!r}")
        names.add(opt.get("name"))
        if opt.get("type") in (1, 2):
            problems.extend(_options_problems(f"{path} {opt.get('name')}", opt))
            continue
        if not opt.get("description"):
            problems.append(f"{path} option {opt.get('name')!r} has no description")
        if opt.get("required"):
            if seen_optional:
                problems.append(f"{path}: required option {opt.get('name')!r} comes after an optional one")
        else:
            seen_optional = True
        if opt.get("autocomplete") and opt.get("choices"):
            problems.append(f"{path} option {opt.get('name')!r} has both choices and autocomplete")
    return problems


# ====================================================================== routes
def _r_application(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    owner = h.app_owner
    return {
        "id": str(h.application_id), "name": h.bot_user.name, "icon": None, "description": "", "summary": "",
        "type": None, "bot": h.bot_user.payload(), "rpc_origins": [], "bot_public": True,
        "bot_require_code_grant": False, "verify_key": "0" * 64, "flags": 0, "owner": owner.payload(),
        "team": None, "interactions_endpoint_url": None, "redirect_uris": [], "tags": [], "flags_new": "0",
        "role_connections_verification_url": None, "approximate_guild_count": len(h.guilds),
        "approximate_user_install_count": 0, "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0, "eligible_oauth2_scopes": ["bot", "applications.commands"],
    }


def _r_get_user(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    uid = int(m["user"])
    if uid not in h._users:
        raise _HTTPError(404, 10013, "Unknown User")
    return h._users[uid].payload()


def _r_get_member(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    guild = h.guilds.get(int(m["guild"]))
    if guild is None:
        raise _HTTPError(404, 10004, "Unknown Guild")
    member = guild.members.get(int(m["user"]))
    if member is None:
        raise _HTTPError(404, 10007, "Unknown Member")
    return member.payload()


def _r_create_dm(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    uid = int((req.body or {}).get("recipient_id", 0))
    if uid not in h._users:
        raise _HTTPError(400, 50033, "Invalid Recipient(s)")
    for ch in h._channels.values():
        if ch.type == 1 and ch.recipient is not None and ch.recipient.id == uid:
            return ch.payload()
    ch = FakeChannel(h.new_id(), f"dm-{h._users[uid].name}", 1, None, recipient=h._users[uid])
    h._channels[ch.id] = ch
    return ch.payload()


def _r_bulk_commands(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> list[dict]:
    if int(m["app"]) != h.application_id:
        raise _HTTPError(403, 50001, "Missing Access")
    gid = int(m["guild"]) if m.groupdict().get("guild") else None
    if gid is not None and gid not in h.guilds:
        raise _HTTPError(403, 50001, "Missing Access",
                         failure=f"the bot synced commands to guild {gid}, which it is not in")
    old = h._commands.get(gid, {})
    new: dict[tuple[str, int], dict] = {}
    for cmd in req.body or []:
        ctype = cmd.get("type") or 1
        key = (cmd["name"], ctype)
        prev = old.get(key)
        out = copy.deepcopy(cmd)
        out.update({
            "id": prev["id"] if prev else str(h.new_id()),
            "application_id": str(h.application_id),
            "version": str(h.new_id()),
            "type": ctype,
            "description": cmd.get("description") or "",
            "default_member_permissions": (None if cmd.get("default_member_permissions") is None
                                           else str(cmd["default_member_permissions"])),
            "nsfw": bool(cmd.get("nsfw", False)),
            "integration_types": cmd.get("integration_types") or [0],
        })
        if gid is not None:
            out["guild_id"] = str(gid)
        out.setdefault("options", [])
        new[key] = out
    h._commands[gid] = new
    return [copy.deepcopy(c) for c in new.values()]


def _r_list_commands(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> list[dict]:
    gid = int(m["guild"]) if m.groupdict().get("guild") else None
    return [copy.deepcopy(c) for c in h._commands.get(gid, {}).values()]


def _r_callback(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict | None:
    rec = h._interactions.get(int(m["iid"]))
    if rec is None or rec.token != unquote(m["token"]):
        raise _HTTPError(404, 10062, "Unknown interaction",
                         failure=f"callback for an interaction the harness never sent ({m['iid']})")
    loop = asyncio.get_running_loop()
    elapsed = loop.time() - rec.created
    if rec.expired or elapsed > h.ack_deadline:
        raise _HTTPError(404, 10062, "Unknown interaction",
                         failure=f"{rec.label} was acknowledged after {elapsed:.2f}s; Discord requires a "
                                 f"response within {h.ack_deadline:.0f}s (defer first)")
    if rec.callback is not None:
        raise _HTTPError(400, 40060, "Interaction has already been acknowledged.",
                         failure=f"{rec.label} was acknowledged twice")
    body = req.body or {}
    ctype = body.get("type")
    if ctype not in _ALLOWED_CALLBACKS.get(rec.type, set()):
        raise _HTTPError(400, 50035, f"Invalid interaction callback type {ctype}",
                         failure=f"{rec.label}: callback type {ctype} is not valid for interaction type {rec.type}")
    if ctype in (CB_DEFERRED_UPDATE, CB_UPDATE) and rec.message_id is None:
        raise _HTTPError(400, 50035, "Interaction has no message to update",
                         failure=f"{rec.label}: callback type {ctype} needs a message (a component or a modal "
                                 f"opened from one)")
    data = body.get("data") or {}
    req.interaction_id = rec.id
    inter: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
    resource = None
    if ctype == CB_MESSAGE:
        h._require_content(data, req.files, where=f"as the response to {rec.label}")
        msg = h._new_message(rec.channel, kind="response", body=data, files=req.files, rec=rec,
                             msg_type=20 if rec.type == APPLICATION_COMMAND else 0,
                             ephemeral=bool((data.get("flags") or 0) & EPHEMERAL))
        h._echo_message(msg, "MESSAGE_CREATE")
        rec.original_id = msg.id
        resource = {"type": CB_MESSAGE, "message": msg.payload()}
    elif ctype == CB_DEFERRED_MESSAGE:
        msg = h._new_message(rec.channel, kind="response", body={}, rec=rec,
                             msg_type=20 if rec.type == APPLICATION_COMMAND else 0,
                             ephemeral=bool((data.get("flags") or 0) & EPHEMERAL), flags_extra=LOADING)
        h._echo_message(msg, "MESSAGE_CREATE")
        rec.original_id = msg.id
        rec.deferred_pending = True
        inter["response_message_loading"] = True
    elif ctype == CB_DEFERRED_UPDATE:
        rec.original_id = rec.message_id
    elif ctype == CB_UPDATE:
        msg = h._messages.get(rec.message_id or 0)
        if msg is None or msg.deleted:
            raise _HTTPError(404, 10008, "Unknown Message")
        h._require_content(data, req.files, msg, where=f"when {rec.label} updated message {msg.id}")
        msg.apply(data, create=False, files=req.files)
        h._echo_message(msg, "MESSAGE_UPDATE")
        rec.original_id = msg.id
        resource = {"type": CB_UPDATE, "message": msg.payload()}
    rec.callback = copy.deepcopy(body)
    if rec.original_id is not None:
        msg = h._messages[rec.original_id]
        inter["response_message_id"] = str(msg.id)
        inter["response_message_ephemeral"] = msg.ephemeral
        req.message_id = msg.id
    out: dict[str, Any] = {"interaction": inter}
    if resource is not None:
        out["resource"] = resource
    return out


def _r_followup(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict | None:
    rec = h._interaction_for_token(m["app"], m["token"])
    req.interaction_id = rec.id
    if rec.callback is None:
        raise _HTTPError(404, 10015, "Unknown Webhook",
                         failure=f"{rec.label}: follow-up sent before the interaction was acknowledged")
    body = req.body or {}
    if rec.deferred_pending:
        # Discord: the first follow-up after a deferred response fills the loading message.
        msg = h._messages[rec.original_id]  # type: ignore[index]
        h._require_content(body, req.files, msg, where=f"as the follow-up of {rec.label}")
        msg.apply({k: v for k, v in body.items() if k != "flags"}, create=False, files=req.files)
        msg.flags &= ~LOADING
        rec.deferred_pending = False
        h._echo_message(msg, "MESSAGE_UPDATE")
    else:
        h._require_content(body, req.files, where=f"as a follow-up of {rec.label}")
        msg = h._new_message(rec.channel, kind="followup", body=body, files=req.files, rec=rec,
                             msg_type=20 if rec.type == APPLICATION_COMMAND else 0,
                             ephemeral=bool((body.get("flags") or 0) & EPHEMERAL))
        h._echo_message(msg, "MESSAGE_CREATE")
        rec.followup_ids.append(msg.id)
    req.message_id = msg.id
    if req.query.get("wait") in ("0", "false", "False"):
        return None
    return msg.payload()


def _webhook_message(h: DiscordHarness, rec: InteractionRecord, mid: str) -> FakeMessage:
    if mid == "@original":
        if rec.original_id is None:
            raise _HTTPError(404, 10008, "Unknown Message",
                             failure=f"{rec.label}: @original used but the interaction has no response message")
        msg = h._messages[rec.original_id]
    else:
        msg = h._messages.get(int(mid))
        if msg is None or (msg.id != rec.original_id and msg.id not in rec.followup_ids):
            raise _HTTPError(404, 10008, "Unknown Message",
                             failure=f"{rec.label}: message {mid} does not belong to this interaction's webhook")
    if msg.deleted:
        raise _HTTPError(404, 10008, "Unknown Message")
    return msg


def _r_webhook_get(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    rec = h._interaction_for_token(m["app"], m["token"])
    req.interaction_id = rec.id
    return _webhook_message(h, rec, m["mid"]).payload()


def _r_webhook_edit(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    rec = h._interaction_for_token(m["app"], m["token"])
    req.interaction_id = rec.id
    msg = _webhook_message(h, rec, m["mid"])
    h._require_content(req.body or {}, req.files, msg, where=f"when editing message {msg.id} of {rec.label}")
    msg.apply(req.body or {}, create=False, files=req.files)
    if msg.loading:
        msg.flags &= ~LOADING
        rec.deferred_pending = False
    h._echo_message(msg, "MESSAGE_UPDATE")
    req.message_id = msg.id
    return msg.payload()


def _r_webhook_delete(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> None:
    rec = h._interaction_for_token(m["app"], m["token"])
    req.interaction_id = rec.id
    msg = _webhook_message(h, rec, m["mid"])
    msg.deleted = True
    h._echo_message(msg, "MESSAGE_DELETE")
    req.message_id = msg.id
    return None


def _channel_or_404(h: DiscordHarness, cid: str) -> FakeChannel:
    ch = h._channels.get(int(cid))
    if ch is None:
        raise _HTTPError(404, 10003, "Unknown Channel", failure=f"the bot used unknown channel {cid}")
    return ch


def _r_get_channel(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    return _channel_or_404(h, m["cid"]).payload()


def _r_edit_channel(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    ch = _channel_or_404(h, m["cid"])
    body = req.body or {}
    if "name" in body and body["name"]:
        ch.name = body["name"]
    if "archived" in body and body["archived"] is not None:
        ch.archived = bool(body["archived"])
    if "locked" in body and body["locked"] is not None:
        ch.locked = bool(body["locked"])
    payload = ch.payload()
    if ch.guild is not None and ch.is_thread:
        h._echo_later("THREAD_UPDATE", payload)
    return payload


def _r_delete_channel(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    ch = _channel_or_404(h, m["cid"])
    payload = ch.payload()
    h._channels.pop(ch.id, None)
    if ch.guild is not None:
        ch.guild.channels.pop(ch.id, None)
        if ch.is_thread:
            h._echo_later("THREAD_DELETE", {"id": str(ch.id), "guild_id": str(ch.guild.id),
                                            "parent_id": str(ch.parent_id), "type": ch.type})
    return payload


def _check_can_post(h: DiscordHarness, ch: FakeChannel) -> None:
    if ch.is_thread and (ch.archived and ch.locked):
        raise _HTTPError(403, 50083, "Thread is archived",
                         failure=f"the bot posted in locked, archived thread {ch!r}")


def _r_history(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> list[dict]:
    ch = _channel_or_404(h, m["cid"])
    msgs = [x for x in h.messages(ch) if not x.ephemeral]
    if "before" in req.query:
        msgs = [x for x in msgs if x.id < int(req.query["before"])]
    if "after" in req.query:
        msgs = [x for x in msgs if x.id > int(req.query["after"])]
    limit = int(req.query.get("limit", 50))
    return [x.payload() for x in reversed(msgs)][:limit]


def _r_create_message(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    ch = _channel_or_404(h, m["cid"])
    _check_can_post(h, ch)
    body = req.body or {}
    h._require_content(body, req.files, where=f"in {ch!r}")
    if ch.type == 1:
        msg = h._new_message(ch, kind="dm", body=body, files=req.files,
                             visible_to=ch.recipient.id if ch.recipient else None)
    else:
        msg = h._new_message(ch, kind="channel", body=body, files=req.files,
                             msg_type=19 if body.get("message_reference") else 0)
    if msg.flags & EPHEMERAL:
        msg.flags &= ~EPHEMERAL  # Discord ignores the ephemeral flag on channel messages
    h._echo_message(msg, "MESSAGE_CREATE")
    req.message_id = msg.id
    if ch.is_thread and ch.archived and not ch.locked:
        ch.archived = False  # sending unarchives
    return msg.payload()


def _channel_message(h: DiscordHarness, cid: str, mid: str) -> FakeMessage:
    ch = _channel_or_404(h, cid)
    msg = h._messages.get(int(mid))
    if msg is None or msg.channel.id != ch.id or msg.deleted or msg.ephemeral:
        raise _HTTPError(404, 10008, "Unknown Message",
                         failure=None if msg is None or not msg.ephemeral else
                         f"the bot used the channel route on ephemeral message {mid}; ephemeral messages can only "
                         f"be reached through the interaction webhook (and only for 15 minutes)")
    return msg


def _r_get_message(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    return _channel_message(h, m["cid"], m["mid"]).payload()


def _r_edit_message(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    msg = _channel_message(h, m["cid"], m["mid"])
    if msg.author.id != h.bot_user.id:
        raise _HTTPError(403, 50005, "Cannot edit a message authored by another user",
                         failure=f"the bot tried to edit message {msg.id} authored by {msg.author.name}")
    h._require_content(req.body or {}, req.files, msg, where=f"when editing message {msg.id}")
    msg.apply(req.body or {}, create=False, files=req.files)
    h._echo_message(msg, "MESSAGE_UPDATE")
    req.message_id = msg.id
    return msg.payload()


def _r_delete_message(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> None:
    msg = _channel_message(h, m["cid"], m["mid"])
    msg.deleted = True
    h._echo_message(msg, "MESSAGE_DELETE")
    req.message_id = msg.id
    return None


def _r_create_thread(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> dict:
    parent = _channel_or_404(h, m["cid"])
    if parent.guild is None or parent.is_thread:
        raise _HTTPError(400, 50024, "Cannot execute action on this channel type",
                         failure=f"the bot tried to create a thread in {parent!r}")
    body = req.body or {}
    mid = m.groupdict().get("mid")
    if mid is not None:
        start = _channel_message(h, m["cid"], mid)
        if start.thread_id:
            raise _HTTPError(400, 160004, "A thread has already been created for this message")
        tid, ttype = start.id, 11
    else:
        tid, ttype = h.new_id(), int(body.get("type") or 12)
    thread = FakeChannel(tid, body.get("name", "thread"), ttype, parent.guild, parent_id=parent.id,
                         owner_id=h.bot_user.id, invitable=body.get("invitable", True) is not False)
    thread.thread_members.add(h.bot_user.id)
    parent.guild.channels[thread.id] = thread
    h._channels[thread.id] = thread
    if mid is not None:
        h._messages[int(mid)].thread_id = thread.id
        req.message_id = int(mid)
    payload = thread.payload()
    payload["member"] = {"id": str(thread.id), "user_id": str(h.bot_user.id),
                         "join_timestamp": _iso(thread.created_at), "flags": 0}
    h._echo_later("THREAD_CREATE", {**thread.payload(), "newly_created": True})
    return payload


def _r_thread_member(h: DiscordHarness, req: RecordedRequest, m: re.Match[str]) -> None:
    ch = _channel_or_404(h, m["cid"])
    if not ch.is_thread:
        raise _HTTPError(400, 50024, "Cannot execute action on this channel type")
    uid = h.bot_user.id if m["user"] == "@me" else int(m["user"])
    if req.method == "PUT":
        ch.thread_members.add(uid)
    else:
        ch.thread_members.discard(uid)
    return None


# ========================================================= the patched methods
async def _fake_http_request(self: discord.http.HTTPClient, route: discord.http.Route, *,
                             files: Any = None, form: Any = None, **kwargs: Any) -> Any:
    harness = _ACTIVE
    if harness is None:  # pragma: no cover - patch outlived its harness
        raise AssertionError(f"HTTP request {route.method} {route.url} with no active DiscordHarness")
    return await harness._handle(via="http", method=route.method, url=route.url, json_body=kwargs.get("json"),
                                 form=form, params=kwargs.get("params"), reason=kwargs.get("reason"))


async def _fake_webhook_request(self: Any, route: Any, session: Any = None, *, payload: Any = None,
                                multipart: Any = None, files: Any = None, reason: Any = None,
                                auth_token: Any = None, params: Any = None, **kwargs: Any) -> Any:
    harness = _ACTIVE
    if harness is None:  # pragma: no cover
        raise AssertionError(f"webhook request {route.method} {route.url} with no active DiscordHarness")
    return await harness._handle(via="webhook", method=route.method, url=route.url, json_body=payload,
                                 form=multipart, params=params, reason=reason)
