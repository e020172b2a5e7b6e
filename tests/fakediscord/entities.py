"""The model's guilds, users, roles, members and channels, and the constants of Discord's API."""

from __future__ import annotations

import copy
import datetime as _dt
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
import orjson

if TYPE_CHECKING:
    from .model import DiscordModel


def json_copy(value: Any) -> Any:
    """A deep copy of a JSON value (the fake's bodies and payloads), several times faster than
    ``copy.deepcopy``: the fake copies every body it keeps and every payload it hands out. What
    orjson refuses (a hostile integer over 64 bits) is copied by ``copy.deepcopy``."""
    try:
        return orjson.loads(orjson.dumps(value))
    except orjson.JSONEncodeError:
        return copy.deepcopy(value)


EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

# Interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Interaction callback types
CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 5, 6, 7, 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL},
    MESSAGE_COMPONENT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL},
    AUTOCOMPLETE: {CB_AUTOCOMPLETE},
    MODAL_SUBMIT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE},
}
INTERACTION_KIND = {APPLICATION_COMMAND: "command", MESSAGE_COMPONENT: "component", AUTOCOMPLETE: "autocomplete",
         MODAL_SUBMIT: "modal"}

# Application command option types
OPT_SUB, OPT_GROUP, OPT_STRING, OPT_INT, OPT_BOOL, OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, \
    OPT_NUMBER, OPT_ATTACHMENT = range(1, 12)

EVERYONE_PERMS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, use_application_commands=True,
    embed_links=True, attach_files=True, add_reactions=True, send_messages_in_threads=True,
    create_public_threads=True, use_external_emojis=True, connect=True, speak=True,
).value
BOT_PERMS = EVERYONE_PERMS | discord.Permissions(
    manage_messages=True, manage_threads=True, create_private_threads=True, mention_everyone=True,
).value
ALL_PERMS = discord.Permissions.all().value


def iso(when: _dt.datetime | None) -> str | None:
    return None if when is None else when.isoformat()


def id_of(obj: Any) -> int:
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
    pending = list(components or ())[::-1]  # a stack, not recursion: tests walk thousands of trees
    while pending:
        comp = pending.pop()
        yield comp  # type: ignore[misc]
        children = list(comp.get("components") or ())
        for key in ("accessory", "component"):
            child = comp.get(key)
            if child is not None and isinstance(child, Mapping):
                children.append(child)
        pending += children[::-1]


def strip_none(node: Any) -> Any:
    """Drop ``None`` values in component dicts (Discord omits unset fields)."""
    if isinstance(node, dict):
        return {k: strip_none(v) for k, v in node.items() if v is not None}
    if isinstance(node, list):
        return [strip_none(v) for v in node]
    return node


def stored_components(node: Any, parent: str = "") -> Any:
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
            out[k] = stored_components(v, k if isinstance(v, dict) or isinstance(v, list) else parent)
        return out
    if isinstance(node, list):
        return [stored_components(v, parent) for v in node]
    return node


def component_desc(comp: Mapping[str, Any]) -> str:
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
    guild: FakeGuild
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
    guild: FakeGuild | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    thread_members: set[int] = field(default_factory=set)
    recipient: FakeUser | None = None  # DM channels
    created_at: _dt.datetime = field(default_factory=lambda: _dt.datetime.now(_dt.UTC))

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
                    "archive_timestamp": iso(self.created_at), "locked": self.locked,
                    "create_timestamp": iso(self.created_at),
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
    guild: FakeGuild
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: _dt.datetime = field(default_factory=lambda: _dt.datetime.now(_dt.UTC))

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
            return ALL_PERMS
        value = self.guild.everyone.permissions
        for rid in self.role_ids:
            value |= self.guild.roles[rid].permissions
        if value & discord.Permissions(administrator=True).value:
            return ALL_PERMS
        return value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict:
        d: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids], "nick": self.nick, "avatar": None, "banner": None,
            "joined_at": iso(self.joined_at), "premium_since": None, "deaf": False, "mute": False,
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

    def __init__(self, model: DiscordModel, id: int, name: str, owner_id: int) -> None:
        self.model = model
        self.id = id
        self.name = name
        self.owner_id = owner_id
        self.locale = "en-US"
        """The server's Discord locale (``preferred_locale``, an interaction's ``guild_locale``)."""
        self.roles: dict[int, FakeRole] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.members: dict[int, FakeMember] = {}
        self.roles[id] = FakeRole(id, self, "@everyone", EVERYONE_PERMS, 0)
        self._manager_role: FakeRole | None = None
        self._admin_role: FakeRole | None = None
        bot_role = self.add_role(model.bot_user.name, BOT_PERMS)
        bot_role.managed = True
        self.members[model.bot_user.id] = FakeMember(model.bot_user, self, [bot_role.id])

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def add_role(self, name: str, permissions: int | discord.Permissions = 0, *, id: int | None = None) -> FakeRole:
        perms = permissions.value if isinstance(permissions, discord.Permissions) else int(permissions)
        role = FakeRole(id or self.model.new_id(), self, name, perms, len(self.roles))
        self.roles[role.id] = role
        return role

    def add_channel(self, name: str, *, type: int = 0, id: int | None = None) -> FakeChannel:
        """Add a text channel (``type=0``) to the guild."""
        ch = FakeChannel(id or self.model.new_id(), name, type, self, position=len(self.channels))
        self.channels[ch.id] = ch
        self.model._channels[ch.id] = ch
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
        uid = id_of(user)
        try:
            return self.members[uid]
        except KeyError:
            raise AssertionError(f"user {user!r} is not a member of guild {self.name!r}; "
                                 f"call guild.add_member(user) first") from None

    def payload(self) -> dict:
        """A GUILD_CREATE payload."""
        now = iso(_dt.datetime.now(_dt.UTC))
        return {
            "id": str(self.id), "name": self.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(self.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 1, "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()], "emojis": [], "stickers": [], "features": [],
            "mfa_level": 0, "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "max_members": 500000, "vanity_url_code": None, "description": None,
            "banner": None, "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": self.locale,
            "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "joined_at": now, "large": False, "unavailable": False, "member_count": len(self.members),
            "voice_states": [], "presences": [], "stage_instances": [], "guild_scheduled_events": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.channels.values() if c.is_thread and not c.archived],
        }

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name} id={self.id}>"


