"""The REST routes the bot uses, answered from the model like Discord would.

A handler takes ``(model, request, match)`` and returns the response body (``None``
for 204); it raises :class:`HTTPError` for Discord's error answers.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from .entities import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_UPDATE,
    EPHEMERAL,
    LOADING,
    FakeChannel,
    iso,
    json_copy,
)
from .messages import FakeMessage, HTTPError, InteractionRecord, RecordedRequest

if TYPE_CHECKING:
    from .model import DiscordModel

RouteHandler = Callable[["DiscordModel", RecordedRequest, "re.Match[str]"], Any]


def builtin_routes() -> list[tuple[str, re.Pattern[str], RouteHandler]]:
    """(method, full-match path regex, handler) for every route the model answers."""
    S = r"(?P<{}>\d+)"
    T = r"(?P<token>[^/]+)"
    app, cid, mid = S.format("app"), S.format("cid"), S.format("mid")
    webhook_message = rf"/webhooks/{app}/{T}/messages/(?P<mid>@original|\d+)"
    table: list[tuple[str, str, RouteHandler]] = [
        ("GET", r"/users/@me", lambda h, r, m: h.bot_user.payload() | {
            "verified": True, "mfa_enabled": True, "locale": "en-US", "email": None}),
        ("GET", r"/oauth2/applications/@me", _r_application),
        ("GET", r"/users/" + S.format("user"), _r_get_user),
        ("POST", r"/users/@me/channels", _r_create_dm),
        ("GET", r"/guilds/" + S.format("guild") + r"/members/" + S.format("user"), _r_get_member),
        ("PUT", rf"/applications/{app}(?:/guilds/" + S.format("guild") + r")?/commands", _r_bulk_commands),
        ("GET", rf"/applications/{app}(?:/guilds/" + S.format("guild") + r")?/commands", _r_list_commands),
        ("POST", r"/interactions/" + S.format("iid") + "/" + T + r"/callback", _r_callback),
        ("POST", rf"/webhooks/{app}/{T}", _r_followup),
        ("GET", webhook_message, _r_webhook_get),
        ("PATCH", webhook_message, _r_webhook_edit),
        ("DELETE", webhook_message, _r_webhook_delete),
        ("GET", rf"/channels/{cid}", _r_get_channel),
        ("PATCH", rf"/channels/{cid}", _r_edit_channel),
        ("DELETE", rf"/channels/{cid}", _r_delete_channel),
        ("GET", rf"/channels/{cid}/messages", _r_history),
        ("POST", rf"/channels/{cid}/typing", lambda h, r, m: _channel_or_404(h, m["cid"]) and None),
        ("POST", rf"/channels/{cid}/messages", _r_create_message),
        ("GET", rf"/channels/{cid}/messages/{mid}", _r_get_message),
        ("PATCH", rf"/channels/{cid}/messages/{mid}", _r_edit_message),
        ("DELETE", rf"/channels/{cid}/messages/{mid}", _r_delete_message),
        ("POST", rf"/channels/{cid}(?:/messages/{mid})?/threads", _r_create_thread),
        ("PUT", rf"/channels/{cid}/thread-members/(?P<user>@me|\d+)", _r_thread_member),
        ("DELETE", rf"/channels/{cid}/thread-members/(?P<user>@me|\d+)", _r_thread_member),
    ]
    return [(method, re.compile(path), handler) for method, path, handler in table]


def _r_application(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
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


def _r_get_user(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
    uid = int(m["user"])
    if uid not in h._users:
        raise HTTPError(404, 10013, "Unknown User")
    return h._users[uid].payload()


def _r_get_member(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
    guild = h.guilds.get(int(m["guild"]))
    if guild is None:
        raise HTTPError(404, 10004, "Unknown Guild")
    member = guild.members.get(int(m["user"]))
    if member is None:
        raise HTTPError(404, 10007, "Unknown Member")
    return member.payload()


def _r_create_dm(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
    uid = int((req.body or {}).get("recipient_id", 0))
    if uid not in h._users:
        raise HTTPError(400, 50033, "Invalid Recipient(s)")
    for ch in h._channels.values():
        if ch.type == 1 and ch.recipient is not None and ch.recipient.id == uid:
            return ch.payload()
    ch = FakeChannel(h.new_id(), f"dm-{h._users[uid].name}", 1, None, recipient=h._users[uid])
    h._channels[ch.id] = ch
    return ch.payload()


def _r_bulk_commands(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> list[dict]:
    if int(m["app"]) != h.application_id:
        raise HTTPError(403, 50001, "Missing Access")
    gid = int(m["guild"]) if m.groupdict().get("guild") else None
    if gid is not None and gid not in h.guilds:
        raise HTTPError(403, 50001, "Missing Access",
                         failure=f"the bot synced commands to guild {gid}, which it is not in")
    old = h._commands.get(gid, {})
    new: dict[tuple[str, int], dict] = {}
    for cmd in req.body or []:
        ctype = cmd.get("type") or 1
        key = (cmd["name"], ctype)
        prev = old.get(key)
        out = json_copy(cmd)
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
    return [json_copy(c) for c in new.values()]


def _r_list_commands(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> list[dict]:
    gid = int(m["guild"]) if m.groupdict().get("guild") else None
    return [json_copy(c) for c in h._commands.get(gid, {}).values()]


def _r_callback(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict | None:
    rec = h._interactions.get(int(m["iid"]))
    if rec is None or rec.token != unquote(m["token"]):
        raise HTTPError(404, 10062, "Unknown interaction",
                         failure=f"callback for an interaction the harness never sent ({m['iid']})")
    loop = asyncio.get_running_loop()
    elapsed = loop.time() - rec.created
    if rec.expired or elapsed > h.ack_deadline:
        raise HTTPError(404, 10062, "Unknown interaction",
                         failure=f"{rec.label} was acknowledged after {elapsed:.2f}s; Discord requires a "
                                 f"response within {h.ack_deadline:.0f}s (defer first)")
    if rec.callback is not None:
        raise HTTPError(400, 40060, "Interaction has already been acknowledged.",
                         failure=f"{rec.label} was acknowledged twice")
    body = req.body or {}
    ctype = body.get("type")
    if ctype not in ALLOWED_CALLBACKS.get(rec.type, set()):
        raise HTTPError(400, 50035, f"Invalid interaction callback type {ctype}",
                         failure=f"{rec.label}: callback type {ctype} is not valid for interaction type {rec.type}")
    if ctype in (CB_DEFERRED_UPDATE, CB_UPDATE) and rec.message_id is None:
        raise HTTPError(400, 50035, "Interaction has no message to update",
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
            raise HTTPError(404, 10008, "Unknown Message")
        h._require_content(data, req.files, msg, where=f"when {rec.label} updated message {msg.id}")
        msg.apply(data, create=False, files=req.files)
        h._echo_message(msg, "MESSAGE_UPDATE")
        rec.original_id = msg.id
        resource = {"type": CB_UPDATE, "message": msg.payload()}
    rec.callback = json_copy(body)
    if rec.original_id is not None:
        msg = h._messages[rec.original_id]
        inter["response_message_id"] = str(msg.id)
        inter["response_message_ephemeral"] = msg.ephemeral
        req.message_id = msg.id
    out: dict[str, Any] = {"interaction": inter}
    if resource is not None:
        out["resource"] = resource
    return out


def _r_followup(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict | None:
    rec = h._interaction_for_token(m["app"], m["token"])
    req.interaction_id = rec.id
    if rec.callback is None:
        raise HTTPError(404, 10015, "Unknown Webhook",
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
        ephemeral = bool((body.get("flags") or 0) & EPHEMERAL)
        if not ephemeral:
            _check_can_post(h, rec.channel)
        msg = h._new_message(rec.channel, kind="followup", body=body, files=req.files, rec=rec,
                             msg_type=20 if rec.type == APPLICATION_COMMAND else 0, ephemeral=ephemeral)
        h._echo_message(msg, "MESSAGE_CREATE")
        rec.followup_ids.append(msg.id)
        if not ephemeral:
            _unarchive_by_posting(rec.channel)
    req.message_id = msg.id
    if req.query.get("wait") in ("0", "false", "False"):
        return None
    return msg.payload()


def _webhook_message(h: DiscordModel, rec: InteractionRecord, mid: str) -> FakeMessage:
    if mid == "@original":
        if rec.original_id is None:
            raise HTTPError(404, 10008, "Unknown Message",
                             failure=f"{rec.label}: @original used but the interaction has no response message")
        msg = h._messages[rec.original_id]
    else:
        msg = h._messages.get(int(mid))
        if msg is None or (msg.id != rec.original_id and msg.id not in rec.followup_ids):
            raise HTTPError(404, 10008, "Unknown Message",
                             failure=f"{rec.label}: message {mid} does not belong to this interaction's webhook")
    if msg.deleted:
        raise HTTPError(404, 10008, "Unknown Message")
    return msg


def _r_webhook_get(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
    rec = h._interaction_for_token(m["app"], m["token"])
    req.interaction_id = rec.id
    return _webhook_message(h, rec, m["mid"]).payload()


def _r_webhook_edit(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
    rec = h._interaction_for_token(m["app"], m["token"])
    req.interaction_id = rec.id
    msg = _webhook_message(h, rec, m["mid"])
    if msg.public:  # a message in the thread, as through the channel's route
        _check_not_archived(msg.channel)
    h._require_content(req.body or {}, req.files, msg, where=f"when editing message {msg.id} of {rec.label}")
    msg.apply(req.body or {}, create=False, files=req.files)
    if msg.loading:
        msg.flags &= ~LOADING
        rec.deferred_pending = False
    h._echo_message(msg, "MESSAGE_UPDATE")
    req.message_id = msg.id
    return msg.payload()


def _r_webhook_delete(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> None:
    rec = h._interaction_for_token(m["app"], m["token"])
    req.interaction_id = rec.id
    msg = _webhook_message(h, rec, m["mid"])
    if msg.public:  # a message in the thread, as through the channel's route
        _check_not_archived(msg.channel)
    msg.deleted = True
    h._echo_message(msg, "MESSAGE_DELETE")
    req.message_id = msg.id
    return None


def _channel_or_404(h: DiscordModel, cid: str) -> FakeChannel:
    ch = h._channels.get(int(cid))
    if ch is None:
        raise HTTPError(404, 10003, "Unknown Channel", failure=f"the bot used unknown channel {cid}")
    return ch


def _r_get_channel(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
    return _channel_or_404(h, m["cid"]).payload()


def _r_edit_channel(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
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


def _r_delete_channel(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
    ch = _channel_or_404(h, m["cid"])
    payload = ch.payload()
    event, data = h.remove_channel(ch)
    if ch.guild is not None:
        h._echo_later(event, data)
    return payload


def _check_can_post(h: DiscordModel, ch: FakeChannel) -> None:
    if ch.is_thread and (ch.archived and ch.locked):
        raise HTTPError(403, 50083, "Thread is archived",
                         failure=f"the bot posted in locked, archived thread {ch!r}")


def _r_history(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> list[dict]:
    ch = _channel_or_404(h, m["cid"])
    msgs = [x for x in h.messages(ch) if not x.ephemeral]
    if "before" in req.query:
        msgs = [x for x in msgs if x.id < int(req.query["before"])]
    if "after" in req.query:
        msgs = [x for x in msgs if x.id > int(req.query["after"])]
    limit = int(req.query.get("limit", 50))
    return [x.payload() for x in reversed(msgs)][:limit]


def _unarchive_by_posting(ch: FakeChannel) -> None:
    if ch.is_thread and ch.archived and not ch.locked:
        ch.archived = False  # sending unarchives


NONCE_SECONDS = 120.0
"""How long Discord remembers a message's nonce (its docs: "the past few minutes")."""


def _sent_with_nonce(h: DiscordModel, ch: FakeChannel, body: dict) -> FakeMessage | None:
    """The bot's message created in ``ch`` with the same nonce lately: with ``enforce_nonce``,
    Discord returns it instead of creating another."""
    nonce = body.get("nonce")
    if nonce is None or not body.get("enforce_nonce"):
        return None
    now = h.clock()
    for msg in reversed(h.messages(ch)):
        if msg.nonce == str(nonce) and not msg.deleted and now - msg.created_at.timestamp() < NONCE_SECONDS:
            return msg
    return None


def _r_create_message(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
    ch = _channel_or_404(h, m["cid"])
    _check_can_post(h, ch)
    body = req.body or {}
    again = _sent_with_nonce(h, ch, body)
    if again is not None:
        req.message_id = again.id
        return again.payload()
    h._require_content(body, req.files, where=f"in {ch!r}")
    if ch.type == 1:
        msg = h._new_message(ch, kind="dm", body=body, files=req.files,
                             visible_to=ch.recipient.id if ch.recipient else None)
    else:
        msg = h._new_message(ch, kind="channel", body=body, files=req.files,
                             msg_type=19 if body.get("message_reference") else 0)
    if msg.flags & EPHEMERAL:
        msg.flags &= ~EPHEMERAL  # Discord ignores the ephemeral flag on channel messages
    if body.get("nonce") is not None:
        msg.nonce = str(body["nonce"])
    h._echo_message(msg, "MESSAGE_CREATE")
    req.message_id = msg.id
    _unarchive_by_posting(ch)
    return msg.payload()


def _channel_message(h: DiscordModel, cid: str, mid: str) -> FakeMessage:
    ch = _channel_or_404(h, cid)
    msg = h._messages.get(int(mid))
    if msg is None or msg.channel.id != ch.id or msg.deleted or msg.ephemeral:
        raise HTTPError(404, 10008, "Unknown Message",
                         failure=None if msg is None or not msg.ephemeral else
                         f"the bot used the channel route on ephemeral message {mid}; ephemeral messages can only "
                         f"be reached through the interaction webhook (and only for 15 minutes)")
    return msg


def _r_get_message(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
    return _channel_message(h, m["cid"], m["mid"]).payload()


def _check_not_archived(ch: FakeChannel) -> None:
    """Discord refuses edits and deletes of messages in an archived thread until it is reopened
    (only sending a message reopens one, and only when it is not locked)."""
    if ch.is_thread and ch.archived:
        raise HTTPError(400, 50083, "Thread is archived")


def _r_edit_message(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
    msg = _channel_message(h, m["cid"], m["mid"])
    _check_not_archived(msg.channel)
    if msg.author.id != h.bot_user.id:
        raise HTTPError(403, 50005, "Cannot edit a message authored by another user",
                         failure=f"the bot tried to edit message {msg.id} authored by {msg.author.name}")
    h._require_content(req.body or {}, req.files, msg, where=f"when editing message {msg.id}")
    msg.apply(req.body or {}, create=False, files=req.files)
    h._echo_message(msg, "MESSAGE_UPDATE")
    req.message_id = msg.id
    return msg.payload()


def _r_delete_message(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> None:
    msg = _channel_message(h, m["cid"], m["mid"])
    _check_not_archived(msg.channel)
    msg.deleted = True
    h._echo_message(msg, "MESSAGE_DELETE")
    req.message_id = msg.id
    return None


def _r_create_thread(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> dict:
    parent = _channel_or_404(h, m["cid"])
    if parent.guild is None or parent.is_thread:
        raise HTTPError(400, 50024, "Cannot execute action on this channel type",
                         failure=f"the bot tried to create a thread in {parent!r}")
    body = req.body or {}
    mid = m.groupdict().get("mid")
    if mid is not None:
        start = _channel_message(h, m["cid"], mid)
        if start.thread_id:
            raise HTTPError(400, 160004, "A thread has already been created for this message")
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
                         "join_timestamp": iso(thread.created_at), "flags": 0}
    h._echo_later("THREAD_CREATE", {**thread.payload(), "newly_created": True})
    return payload


def _r_thread_member(h: DiscordModel, req: RecordedRequest, m: re.Match[str]) -> None:
    ch = _channel_or_404(h, m["cid"])
    if not ch.is_thread:
        raise HTTPError(400, 50024, "Cannot execute action on this channel type")
    uid = h.bot_user.id if m["user"] == "@me" else int(m["user"])
    if req.method == "PUT":
        ch.thread_members.add(uid)
    else:
        ch.thread_members.discard(uid)
    return None


