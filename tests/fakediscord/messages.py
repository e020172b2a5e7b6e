"""Messages, recorded requests and interactions, as the model keeps them."""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from .entities import (
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MODAL,
    EPHEMERAL,
    INTERACTION_KIND,
    IS_COMPONENTS_V2,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    FakeChannel,
    FakeUser,
    component_desc,
    iso,
    json_copy,
    stored_components,
    walk_components,
)

if TYPE_CHECKING:
    from .model import DiscordModel

_MENTION_USER = re.compile(r"<@!?(\d+)>")
_MENTION_ROLE = re.compile(r"<@&(\d+)>")


class FakeMessage:
    """The fake's record of one message, always in its latest state.

    ``ephemeral`` messages carry ``visible_to`` (the id of the user they were shown
    to); ``kind`` is ``"channel"`` (POST /channels/.../messages), ``"response"``
    (an interaction callback), ``"followup"`` or ``"dm"``.  ``history`` holds the
    payload of every earlier revision.
    """

    def __init__(
        self,
        model: DiscordModel,
        *,
        id: int,
        channel: FakeChannel,
        author: FakeUser,
        kind: str,
        type: int = 0,
        interaction: InteractionRecord | None = None,
        visible_to: int | None = None,
    ) -> None:
        self.model = model
        self.id = id
        self.channel = channel
        self.author = author
        self.kind = kind
        self.type = type
        self.content: str = ""
        self.embeds: list[dict] = []
        self.components: list[dict] = []
        self.attachments: list[dict] = []
        self._file_bytes: dict[str, bytes] = {}
        self.flags: int = 0
        self.message_reference: dict | None = None
        self.interaction = interaction
        self.interaction_metadata: dict | None = None
        self.visible_to = visible_to
        self.deleted = False
        self.thread_id: int | None = None
        self.nonce: str | None = None
        """The nonce it was created with (Discord answers a repeat with this message)."""
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
        """Users mentioned in the content or, in a V2 message, in its text displays."""
        return [int(m) for m in _MENTION_USER.findall(self._mention_text)]

    @property
    def _mention_text(self) -> str:
        texts = [c.get("content") or "" for c in walk_components(self.components) if c.get("type") == 10]
        return "\n".join([self.content or "", *texts])

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

    @property
    def files(self) -> list[tuple[str, bytes]]:
        """The message's attachments now, as (filename, bytes) in order."""
        return [(a["filename"], self._file_bytes[a["id"]]) for a in self.attachments]

    def file(self, filename: str) -> bytes:
        """The bytes of the attachment named ``filename`` (KeyError if there is none)."""
        return dict(self.files)[filename]

    def embed_images(self) -> list[str]:
        """The ``image.url`` of each embed that has one."""
        return [(emb.get("image") or {}).get("url") for emb in self.embeds if (emb.get("image") or {}).get("url")]

    def gallery_images(self) -> list[str]:
        """The ``media.url`` of each media gallery item and thumbnail (V2), in order."""
        found = []
        for comp in walk_components(self.components):
            if comp.get("type") == 12:
                found += [(item.get("media") or {}).get("url") for item in comp.get("items") or []]
            elif comp.get("type") == 11:
                found.append((comp.get("media") or {}).get("url"))
        return [url for url in found if url]

    def unresolved_images(self) -> list[str]:
        """``attachment://`` references in the embeds or V2 components that name no attachment of the message."""
        names = {a["filename"] for a in self.attachments}
        refs = [url for emb in self.embeds for part in ("image", "thumbnail")
                if (url := (emb.get(part) or {}).get("url", "")).startswith("attachment://")]
        refs += [url for url in self.gallery_images() if url.startswith("attachment://")]
        return [url for url in refs if url[len("attachment://"):] not in names]

    def _assign_component_ids(self, components: list[dict]) -> list[dict]:
        components = stored_components(json_copy(components))
        for comp in walk_components(components):
            if "id" not in comp:
                comp["id"] = self._next_component_id
            self._next_component_id = max(self._next_component_id, int(comp["id"])) + 1
        return components

    def apply(self, body: Mapping[str, Any], *, create: bool, files: Sequence[tuple[str, bytes]] = ()) -> None:
        """Apply a create/edit body (Discord semantics: absent keys are unchanged)."""
        if not create:
            self.history.append(self.payload())
            self.edited_at = _dt.datetime.now(_dt.UTC)
        if "content" in body:
            self.content = body["content"] or ""
        if "embeds" in body:
            embeds = json_copy(body["embeds"] or [])
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
            att_id = str(self.model.new_id())
            self._file_bytes[att_id] = bytes(data)
            new_atts.append({
                "id": att_id, "filename": name, "size": len(data),
                "url": f"https://cdn.discordapp.com/attachments/{self.channel.id}/{self.id}/{name}",
                "proxy_url": f"https://media.discordapp.net/attachments/{self.channel.id}/{self.id}/{name}",
                "content_type": "image/png" if name.endswith(".png") else "application/octet-stream",
            })
        if "attachments" in body and body["attachments"] is not None:
            # Discord keeps the existing attachments the list names (by id) and adds the
            # uploaded files; any attachment left out is dropped.
            keep_ids = {str(a.get("id")) for a in body["attachments"]}
            self.attachments = [a for a in self.attachments if a["id"] in keep_ids] + new_atts
        else:
            self.attachments = self.attachments + new_atts
        self._file_bytes = {a["id"]: self._file_bytes[a["id"]] for a in self.attachments}
        missing = self.unresolved_images()
        if missing:
            self.model._failures.append(
                f"message {self.id} shows {missing} in an embed or a media gallery, but has no attachment by that "
                f"name (its attachments: {[a['filename'] for a in self.attachments]}); Discord would show no picture")
        if self.flags & IS_COMPONENTS_V2 and (self.content or self.embeds):
            self.model._failures.append(
                f"message {self.id} is Components V2 but keeps content or embeds: Discord sets the flag on an edit "
                "only when that edit clears them")
        if self.flags & IS_COMPONENTS_V2:
            shown = {url[len("attachment://"):] for url in self.gallery_images() if url.startswith("attachment://")}
            hidden = [a["filename"] for a in self.attachments if a["filename"] not in shown]
            if hidden:
                self.model._failures.append(
                    f"message {self.id} (Components V2) has attachments {hidden} that no component shows; "
                    "Discord shows a V2 message's attachments only through its components")
        if "message_reference" in body and body["message_reference"]:
            ref = {k: (str(v) if k.endswith("_id") and v is not None else v)
                   for k, v in body["message_reference"].items() if k != "fail_if_not_exists"}
            ref.setdefault("type", 0)
            self.message_reference = ref

    def payload(self) -> dict:
        """The message as Discord's REST API / gateway would return it."""
        users = self.model._users
        d: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [users[m].payload() for m in dict.fromkeys(self.mentions) if m in users],
            "mention_roles": list(dict.fromkeys(_MENTION_ROLE.findall(self._mention_text))),
            "attachments": json_copy(self.attachments),
            "embeds": json_copy(self.embeds),
            "pinned": False,
            "flags": self.flags,
            "components": json_copy(self.components),
        }
        if self.kind in ("response", "followup"):
            d["webhook_id"] = str(self.model.application_id)
            d["application_id"] = str(self.model.application_id)
        if self.interaction_metadata is not None:
            d["interaction_metadata"] = json_copy(self.interaction_metadata)
        if self.message_reference:
            ref = dict(self.message_reference)
            ref.setdefault("channel_id", str(self.channel.id))
            if self.guild_id:
                ref.setdefault("guild_id", str(self.guild_id))
            d["message_reference"] = ref
        if self.thread_id and self.thread_id in self.model._channels:
            d["thread"] = self.model._channels[self.thread_id].payload()
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
            listing = "\n  ".join(component_desc(c) for c in self.walk()) or "(no components)"
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
    via: str  # in-process "http" (HTTPClient) or "webhook" (AsyncWebhookAdapter); loopback "rest"
    method: str
    path: str  # concrete path without /api/v10 and query
    query: dict[str, str]
    body: Any = field(repr=False)  # JSON body (payload_json for multipart), None if there was none
    multipart: bool = False
    files: list[tuple[str, bytes]] = field(default_factory=list, repr=False)  # (filename, bytes) uploaded
    reason: str | None = None
    status: int = 0
    response: Any = field(default=None, repr=False)
    error: str | None = None  # why the fake refused it (spec violation, 404, ...)
    operation: str | None = None  # OpenAPI operationId
    message_id: int | None = None  # message created/edited/deleted by this request
    interaction_id: int | None = None
    file_fields: list[str] = field(default_factory=list)  # the form field name of each file ("files[0]")
    headers: dict[str, str] = field(default_factory=dict, repr=False)  # the answer's headers (rate limits on)
    rate_limited: str | None = None  # what answered it 429: "global", a route name or "30046"
    at: float = 0.0  # when the fake's limits counted it (their clock; 0.0 with rate limits off)

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
    parent: InteractionRecord | None = None  # interaction that opened the modal
    callback: dict | None = field(default=None, repr=False)
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    deferred_pending: bool = False  # type 5 whose loading message is not filled yet
    expired: bool = False  # expired early (``expire_tokens``)
    issued: float = 0.0  # when Discord sent it, on its clock (``DiscordModel.clock``): its token lasts 15 minutes
    requests_before: int = 0  # requests the bot had made when this interaction was sent

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

    def __init__(self, model: DiscordModel, record: InteractionRecord, requests: list[RecordedRequest]):
        self.model = model
        self.record = record
        self.requests = requests

    # -------------------------------------------------------------- basics
    @property
    def id(self) -> int:
        return self.record.id

    @property
    def kind(self) -> str:
        return INTERACTION_KIND.get(self.record.type, str(self.record.type))

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
        return None if mid is None else self.model._messages.get(mid)

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.model._messages[m] for m in self.record.followup_ids]

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
        return [self.model._messages[i] for i in ids if i in self.model._messages]

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


class HTTPError(Exception):
    """Discord's error answer to a request; ``failure`` (when set) also fails the test;
    ``headers`` are the answer's (rate-limit headers, when the fake enforces rate limits)."""

    def __init__(self, status: int, code: int, message: str, *, failure: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.failure = status, code, message, failure
        self.headers: dict[str, str] = dict(headers or {})

    def payload(self) -> dict[str, Any]:
        """The JSON body Discord answers with."""
        return {"code": self.code, "message": self.message}
