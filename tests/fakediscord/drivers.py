"""Users' side of interactions: slash commands, autocomplete, context menus, clicks,
selects and modal submits, checked as Discord's client checks them (options, choices,
ranges, disabled components, who may see a message) and turned into INTERACTION_CREATE
payloads. Each transport sends them its own way (``_dispatch_interaction``)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from .entities import (
    ALL_PERMS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    EVERYONE_PERMS,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    OPT_BOOL,
    OPT_CHANNEL,
    OPT_INT,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_USER,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeUser,
    component_desc,
    id_of,
    strip_none,
)
from .messages import FakeMessage, InteractionRecord, InteractionResult


class InteractionDrivers:
    """What a user does; mixed into ``model.DiscordModel``, whose state it reads."""

    # ============================================================ interactions
    def _member(self, user: FakeUser | FakeMember | int, channel: FakeChannel) -> tuple[FakeUser, FakeMember | None]:
        uid = id_of(user)
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
        app_perms = bot_member.permissions if bot_member else EVERYONE_PERMS
        if channel.id in self.closed_to_bot:
            app_perms &= ~discord.Permissions(view_channel=True, send_messages=True,
                                              send_messages_in_threads=True).value
        ch_payload = channel.payload()
        ch_payload["permissions"] = str(member.permissions if member else EVERYONE_PERMS)
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.application_id), "type": itype, "data": data,
            "channel_id": str(channel.id), "channel": ch_payload, "token": token, "version": 1,
            "app_permissions": str(app_perms), "locale": user.locale, "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None and member is not None:
            payload.update({
                "guild_id": str(guild.id),
                "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                "guild_locale": guild.locale,
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

    def _new_interaction(self, itype: int, data: dict, *, user: FakeUser | FakeMember | int,
                         channel: FakeChannel, label: str, message: FakeMessage | None = None,
                         parent: InteractionRecord | None = None) -> InteractionRecord:
        """Register a new interaction (its token answers callbacks and webhooks) and build
        the INTERACTION_CREATE payload a transport sends to the bot."""
        fake_user, member = self._member(user, channel)
        iid, token, payload = self._interaction_payload(itype, data, user=fake_user, member=member,
                                                        channel=channel, message=message)
        rec = InteractionRecord(iid, token, itype, fake_user, channel, payload, asyncio.get_running_loop().time(),
                                label, message_id=message.id if message else None, parent=parent,
                                issued=self.clock(), requests_before=len(self.requests))
        self._interactions[iid] = rec
        self._tokens[token] = rec
        return rec

    async def _dispatch_interaction(self, itype: int, data: dict, *, user: FakeUser | FakeMember | int,
                                    channel: FakeChannel, label: str, message: FakeMessage | None = None,
                                    parent: InteractionRecord | None = None, **send: Any) -> InteractionResult:
        """Send an interaction to the bot; ``send`` holds the transport's own options."""
        raise NotImplementedError

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
                                                       id_of(value) in self._users):
            uid = id_of(value)
            user = self._users[uid]
            resolved.setdefault("users", {})[str(uid)] = user.payload()
            if guild is not None and uid in guild.members:
                resolved.setdefault("members", {})[str(uid)] = guild.members[uid].payload(
                    with_user=False, with_permissions=True)
            return str(uid)
        elif otype in (OPT_ROLE, OPT_MENTIONABLE):
            rid = id_of(value)
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
            cp["permissions"] = str(ALL_PERMS)
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
        **send: Any,
    ) -> InteractionResult:
        """Run ``/command`` (``"game start"`` for subcommands, ``"a b c"`` for groups).

        ``options`` maps option names to Python values: str/int/float/bool, a
        :class:`FakeUser`/:class:`FakeMember` (user options), :class:`FakeChannel`,
        :class:`FakeRole`.  The command id and shape come from the synced tree.
        """
        ch = self._resolve_channel(channel)
        data = self._command_data(command, options, ch)
        return await self._dispatch_interaction(APPLICATION_COMMAND, data, user=user, channel=ch,
                                                label=f"/{command.strip().lstrip('/')}", **send)

    async def autocomplete(
        self,
        command: str,
        focused: str,
        value: str = "",
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeUser | FakeMember | int,
        channel: FakeChannel | int,
        **send: Any,
    ) -> InteractionResult:
        """Type ``value`` into option ``focused`` of ``/command``; ``.choices`` has the answer."""
        ch = self._resolve_channel(channel)
        opts = dict(options or {})
        opts[focused] = value
        data = self._command_data(command, opts, ch, focused=focused)
        return await self._dispatch_interaction(AUTOCOMPLETE, data, user=user, channel=ch,
                                                label=f"autocomplete /{command} {focused}={value!r}", **send)

    async def context_menu(
        self,
        name: str,
        target: FakeUser | FakeMember | FakeMessage,
        *,
        user: FakeUser | FakeMember | int,
        channel: FakeChannel | int,
        **send: Any,
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
                                                label=f"context menu {name!r}", **send)

    # ------------------------------------------------------------ components
    def _as_message(self, message: FakeMessage | InteractionResult | int) -> FakeMessage:
        if isinstance(message, InteractionResult):
            if message.message is None:
                raise AssertionError(f"{message.record.label} produced no message to interact with")
            return message.message
        return self.message(message)

    def _check_can_use(self, msg: FakeMessage, user: FakeUser | FakeMember | int, comp: dict) -> None:
        uid = id_of(user)
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
            raise AssertionError(f"{component_desc(comp)} on message {msg.id} is disabled; Discord won't send "
                                 f"a click")

    async def click(
        self,
        message: FakeMessage | InteractionResult | int,
        *,
        user: FakeUser | FakeMember | int,
        label: str | None = None,
        custom_id: str | None = None,
        custom_id_prefix: str | None = None,
        **send: Any,
    ) -> InteractionResult:
        """Click the button (by ``label``/``custom_id``/``custom_id_prefix``) on a recorded message."""
        msg = self._as_message(message)
        crit = {k: v for k, v in (("label", label), ("custom_id", custom_id),
                                  ("custom_id_prefix", custom_id_prefix)) if v is not None}
        comp = msg.component(type=2, **crit)
        if comp.get("style") in (5, 6) or "custom_id" not in comp:
            raise AssertionError(f"{component_desc(comp)} is a link/premium button: clicking it sends no "
                                 f"interaction")
        self._check_can_use(msg, user, comp)
        data = {"custom_id": comp["custom_id"], "component_type": 2, "id": comp.get("id")}
        return await self._dispatch_interaction(
            MESSAGE_COMPONENT, strip_none(data), user=user, channel=msg.channel, message=msg,
            label=f"click {comp.get('label') or comp['custom_id']!r} on message {msg.id}", **send)

    async def select(
        self,
        message: FakeMessage | InteractionResult | int,
        values: Sequence[Any],
        *,
        user: FakeUser | FakeMember | int,
        custom_id: str | None = None,
        custom_id_prefix: str | None = None,
        placeholder: str | None = None,
        **send: Any,
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
            raise AssertionError(f"{component_desc(comp)} accepts {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": ctype, "id": comp.get("id")}
        guild = msg.channel.guild
        if ctype == 3:
            options = {o["value"]: o for o in comp.get("options", [])}
            bad = [v for v in values if v not in options]
            if bad:
                listing = ", ".join(f"{o.get('label')!r}={v!r}" for v, o in options.items())
                raise AssertionError(f"{bad} not among the options of {component_desc(comp)}: {listing}")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict] = {}
            otype = {5: OPT_USER, 6: OPT_ROLE, 7: OPT_MENTIONABLE, 8: OPT_CHANNEL}[ctype]
            data["values"] = [self._option_value({"type": otype, "name": "value"}, v, guild, resolved, "select")
                              for v in values]
            data["resolved"] = resolved
        return await self._dispatch_interaction(
            MESSAGE_COMPONENT, strip_none(data), user=user, channel=msg.channel, message=msg,
            label=f"select {list(values)!r} in {comp.get('placeholder') or comp['custom_id']!r} on message {msg.id}",
            **send)

    async def submit_modal(
        self,
        opened: InteractionResult,
        values: Mapping[str, Any],
        *,
        user: FakeUser | FakeMember | int | None = None,
        **send: Any,
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
                    vals = [str(id_of(v)) for v in vals]
                return {"type": ctype, "id": comp.get("id"), "custom_id": cid, "values": vals}
            return None

        components = [c for c in (submitted(c) for c in modal.get("components", [])) if c]
        if remaining:
            raise AssertionError(f"modal {modal.get('custom_id')!r} has no field(s) {sorted(remaining)}")
        data = {"custom_id": modal["custom_id"], "components": strip_none(components)}
        message = self._messages.get(rec.message_id) if rec.message_id else None
        return await self._dispatch_interaction(
            MODAL_SUBMIT, data, user=submitter, channel=rec.channel, message=message, parent=rec,
            label=f"modal {modal.get('title')!r} submit", **send)

