"""Discord's hard limits that its OpenAPI spec does not encode (content length, rows,
custom_id uniqueness, command shape, ...); the spec itself is checked by ``openapi``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .entities import CB_MESSAGE, CB_MODAL, CB_UPDATE, IS_COMPONENTS_V2, component_desc, walk_components
from .messages import RecordedRequest

_V2_ONLY_TYPES = {9, 10, 11, 12, 13, 14, 17}  # section, text display, thumbnail, gallery, file, separator, container


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


def discord_limits(req: RecordedRequest) -> list[str]:
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
            v2_only = sorted({c.get("type") for c in walk_components(comps)} & _V2_ONLY_TYPES)
            if v2_only:
                problems.append(f"component type(s) {v2_only} need the IS_COMPONENTS_V2 flag")
        else:
            if body.get("content") or body.get("embeds"):
                problems.append("messages with IS_COMPONENTS_V2 cannot have content or embeds")
            total = sum(1 for _ in walk_components(comps))
            if total > 40:
                problems.append(f"{total} components; Discord allows 40 in a message")
            text = sum(len(c.get("content") or "") for c in walk_components(comps) if c.get("type") == 10)
            if text > 4000:
                problems.append(f"{text} characters in text displays; Discord allows 4000 in a message")
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
                    problems.append(f"link button {component_desc(comp)} needs a url and no custom_id")
            elif style == 6 and not comp.get("sku_id"):
                problems.append(f"premium button {component_desc(comp)} needs a sku_id")
            elif style != 6 and not comp.get("custom_id"):
                problems.append(f"button {component_desc(comp)} needs a custom_id")
            if style != 6 and not comp.get("label") and not comp.get("emoji"):
                problems.append(f"button {component_desc(comp)} needs a label or an emoji")
        if ctype == 3:
            values = [o.get("value") for o in comp.get("options") or []]
            dups = {v for v in values if values.count(v) > 1}
            if dups:
                problems.append(f"select {comp.get('custom_id')!r} has duplicate option values {sorted(map(str, dups))}")
            defaults = sum(1 for o in comp.get("options") or [] if o.get("default"))
            if defaults > (comp.get("max_values") or 1):
                problems.append(f"select {comp.get('custom_id')!r} has more default options than max_values")
            if (comp.get("min_values") or 0) > len(values) or (comp.get("max_values") or 1) > len(values):
                problems.append(f"select {comp.get('custom_id')!r} has min_values or max_values above its "
                                f"option count")
    dup_ids = sorted(c for c, n in seen.items() if n > 1)
    if dup_ids:
        problems.append(f"duplicate custom_id(s) in one message/modal: {dup_ids}")
    return problems


def _command_problems(commands_: Sequence[Any]) -> list[str]:
    problems: list[str] = []
    names: set[tuple[str, int]] = set()
    if len(commands_) > 100:
        problems.append(f"{len(commands_)} commands; Discord allows 100")
    for cmd in commands_:
        if not isinstance(cmd, dict):
            continue
        key = (cmd.get("name", ""), cmd.get("type") or 1)
        if key in names:
            problems.append(f"two commands named {key[0]!r} of type {key[1]}")
        names.add(key)
        if key[1] == 1:
            problems.extend(_bad_name(f"/{key[0]}", key[0]))
            problems.extend(_options_problems(f"/{key[0]}", cmd))
    return problems


def _bad_name(path: str, name: Any) -> list[str]:
    if isinstance(name, str) and re.fullmatch(r"[-_\w]{1,32}", name) and name == name.lower():
        return []
    return [f"{path}: {name!r} is not a valid command or option name (1-32 lowercase word characters)"]


def _options_problems(path: str, node: dict, depth: int = 0) -> list[str]:
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
        problems.extend(_bad_name(f"{path} option", opt.get("name")))
        if opt.get("type") in (1, 2):
            if depth >= 2 or (opt.get("type") == 2 and depth >= 1):
                problems.append(f"{path} {opt.get('name')}: subcommands nested too deep")
            problems.extend(_options_problems(f"{path} {opt.get('name')}", opt, depth + 1))
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


