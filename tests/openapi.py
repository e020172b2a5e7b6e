"""Validate REST requests against Discord's own OpenAPI spec.

The spec is ``discord-api-spec/openapi.json`` in the ``shared`` folder that sits
beside the repository root (``<repo>/../shared/discord-api-spec/openapi.json``);
``DISCORD_OPENAPI_SPEC`` overrides the location.  It is OpenAPI 3.1, so every
schema in it is JSON Schema 2020-12; ``$ref``\\ s are resolved with the
``referencing`` library against the whole document.

The spec is read and indexed once per process (i.e. once per test session) and
one validator per operation is built lazily and cached, so validating a request
costs a dictionary lookup plus the schema check itself.

Public API::

    spec = get_spec()                                  # cached OpenAPISpec
    op = spec.find_operation("POST", "/channels/1/messages")
    op.template, op.method, op.operation_id, op.path_params
    validate_request("POST", "/interactions/1/tok/callback", {"type": 4, ...})
    validate_request("POST", "/webhooks/1/tok", form=[{"name": "payload_json", "value": "{...}"}, ...])

Request bodies may carry snowflakes as integers (Discord accepts them and
discord.py sends some, e.g. custom emoji ids and ``message_reference`` ids);
responses are checked strictly (strings).  Errors inside ``anyOf``/``oneOf``
unions (components, callbacks, command options) are reported for the branch the
body meant, judged by its ``type`` discriminator.

``validate_request`` raises :class:`SpecViolation` (an ``AssertionError``) naming
the route, the operation, the body and every validation error (with the JSON path
of the offending value) when the route is unknown to the spec or the body does not
validate.  Paths are concrete request paths *without* the ``/api/v10`` prefix and
without the query string (both are stripped if present).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import jsonschema
import orjson
import referencing
from jsonschema import Draft202012Validator
from referencing.jsonschema import DRAFT202012

__all__ = [
    "REPO_ROOT",
    "SPEC_PATH",
    "SPEC_URI",
    "Operation",
    "OpenAPISpec",
    "SpecViolation",
    "get_spec",
    "validate_request",
    "validate_response",
]

#: The repository root (the folder holding ``pyproject.toml``).
REPO_ROOT: Path = Path(__file__).resolve().parents[1]
#: Discord's OpenAPI document: ``../shared/discord-api-spec/openapi.json`` beside the repo.
SPEC_PATH: Path = Path(
    os.environ.get("DISCORD_OPENAPI_SPEC")
    or REPO_ROOT.parent / "shared" / "discord-api-spec" / "openapi.json"
)
#: The URI the spec document is registered under in the ``referencing`` registry.
SPEC_URI = "urn:discord-api-spec:openapi.json"

_METHODS = ("get", "put", "post", "patch", "delete")
_API_PREFIX = re.compile(r"^/api(?:/v\d+)?(?=/)")


class SpecViolation(AssertionError):
    """A request Discord's spec does not allow: unknown route or invalid body."""


@dataclass(frozen=True)
class Operation:
    """One (method, path template) of the spec."""

    method: str  # upper case
    template: str  # e.g. "/channels/{channel_id}/messages/{message_id}"
    operation_id: str
    path_params: Mapping[str, str] = field(default_factory=dict)  # filled by find_operation

    def __str__(self) -> str:
        return f"{self.method} {self.template} ({self.operation_id})"


def _rebase_refs(node: Any) -> Any:
    """Copy ``node`` turning local refs (``#/...``) into refs into the registered spec."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#"):
                out[key] = SPEC_URI + value
            else:
                out[key] = _rebase_refs(value)
        return out
    if isinstance(node, list):
        return [_rebase_refs(v) for v in node]
    return node


def _json_path(parts: Iterable[Any]) -> str:
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _as_key(value: Any) -> bytes:
    """``value`` as JSON text with sorted keys, to remember what validated (orjson; the standard
    encoder for what orjson refuses, an integer over 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS, default=repr)
    except orjson.JSONEncodeError:
        return json.dumps(value, sort_keys=True, default=repr).encode()


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_discriminator_miss(err: jsonschema.ValidationError) -> bool:
    """True when ``err`` only says "this union branch is for another ``type``"."""
    path = list(err.relative_path)
    if path == ["type"] and err.validator in ("enum", "const"):
        return True
    # The branch expects an object/array/... and the value is another JSON type.
    return not path and err.validator == "type"


def explain(err: jsonschema.ValidationError) -> list[str]:
    """Human-readable leaf errors of ``err``.

    For ``anyOf``/``oneOf`` unions (Discord's components, callbacks, ...) it drops
    the branches that fail only because their ``type`` discriminator differs and
    reports the errors of the branches that were plausibly meant.
    """
    if err.validator in ("anyOf", "oneOf") and err.context:
        branches: dict[Any, list[jsonschema.ValidationError]] = defaultdict(list)
        for sub in err.context:
            branches[sub.relative_schema_path[0]].append(sub)
        meant = {
            idx: subs
            for idx, subs in branches.items()
            if not any(_is_discriminator_miss(s) for s in subs)
        }
        if meant:
            lines: list[str] = []
            for subs in meant.values():
                for sub in subs:
                    lines.extend(explain(sub))
            return lines
    where = _json_path(err.absolute_path)
    detail = err.message
    if len(detail) > 300:
        detail = detail[:299] + "…"
    if err.validator in ("maxLength", "minLength", "maxItems", "minItems", "maximum", "minimum", "pattern"):
        detail += f" ({err.validator}={err.validator_value!r})"
    return [f"{where}: {detail}"]


def _branch_kind(document: Mapping[str, Any], branch: Any) -> int | None:
    """The one integer a union branch's ``type`` property allows (``enum: [n]`` or ``const``),
    following a ``$ref`` into ``document``; ``None`` when the branch names no single type."""
    ref = branch.get("$ref") if isinstance(branch, dict) else None
    if isinstance(ref, str):
        pointer = ref.removeprefix(SPEC_URI)
        if not pointer.startswith("#/"):
            return None
        branch = document
        for part in pointer[2:].split("/"):
            branch = branch.get(part) if isinstance(branch, dict) else None
    kind = branch.get("properties", {}).get("type") if isinstance(branch, dict) else None
    if not isinstance(kind, dict):
        return None
    allowed = kind["enum"] if isinstance(kind.get("enum"), list) else [kind["const"]] if "const" in kind else []
    return allowed[0] if len(allowed) == 1 and type(allowed[0]) is int else None


_ANNOTATED_CONST = frozenset({"const", "title", "description"})


def _directed_unions(document: Mapping[str, Any]) -> type[Draft202012Validator]:
    """A 2020-12 validator whose ``anyOf``/``oneOf`` try only the branches an object's ``type``
    can match.

    Discord's unions (components, callbacks, command options) are discriminated by an integer
    ``type``: a branch whose ``type`` allows one other integer cannot accept an object that has
    a ``type`` key, so leaving it out gives the same verdict for ``anyOf`` and for ``oneOf`` (at
    most one of the branches left can pass where only one of all could). A container of twenty
    components thus checks twenty branches, not twenty times every kind of component. Unions of
    bare constants (Discord's enums: component types, button styles) are one lookup, and an
    object or array that passed a union is not checked against it again (the same buttons and
    rows come back in message after message; a value that fails is checked in full each time)."""
    from jsonschema import _keywords

    learned: dict[tuple[str, int], tuple[Any, Any]] = {}  # (what, id(branches)) -> (branches, what was learned)

    def of_union(what: str, branches: Any, learn: Any) -> Any:
        """``learn(branches)``, worked out once per union of the schema."""
        known = learned.get((what, id(branches)))
        if known is None or known[0] is not branches:
            known = learned[what, id(branches)] = (branches, learn(branches))
        return known[1]

    def constants(branches: Any) -> Counter[tuple[type, Any]] | None:
        """The values of a union whose branches are all ``{"const": …}`` (with a title or a
        description), by type and value; ``None`` for any other union."""
        if not all(isinstance(b, dict) and "const" in b and b.keys() <= _ANNOTATED_CONST for b in branches):
            return None
        return Counter((type(b["const"]), b["const"]) for b in branches)

    def type_kinds(branches: Any) -> tuple[int | None, ...]:
        return tuple(_branch_kind(document, b) for b in branches)

    passed: dict[tuple[int, bytes], None] = {}  # (id(branches), an object or array as JSON) that passed

    def directed(check: Any) -> Any:
        def union(validator: Any, branches: Any, instance: Any, schema: Any) -> Any:
            remembered = None
            if type(instance) in (dict, list):  # a value that passed a union passes it again
                remembered = (id(branches), _as_key(instance))
                if remembered in passed:
                    return
            elif type(instance) in (int, str) and (consts := of_union("consts", branches, constants)) is not None:
                matches = consts[(type(instance), instance)]  # an enum: one lookup; a miss is explained in full
                if matches == 1 or (matches and check is _keywords.anyOf):
                    return
            if type(instance) is dict and type(instance.get("type")) is int:
                kinds = of_union("kinds", branches, type_kinds)
                branches = [b for b, kind in zip(branches, kinds) if kind is None or kind == instance["type"]]
            errors = list(check(validator, branches, instance, schema))
            if not errors and remembered is not None:
                if len(passed) > 200_000:
                    passed.clear()
                passed[remembered] = None
            yield from errors

        return union

    return jsonschema.validators.extend(
        Draft202012Validator, {"anyOf": directed(_keywords.anyOf), "oneOf": directed(_keywords.oneOf)}
    )


class OpenAPISpec:
    """An indexed, validating view of Discord's OpenAPI document."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        resource = referencing.Resource.from_contents(document, default_specification=DRAFT202012)
        #: strict registry (responses: Discord always sends snowflakes as strings)
        self.registry: referencing.Registry = referencing.Registry().with_resource(SPEC_URI, resource)
        # Requests: Discord also accepts integer snowflakes, and discord.py sends some
        # (e.g. a custom emoji's id), so SnowflakeType accepts non-negative integers too.
        schemas = dict(document["components"]["schemas"])
        schemas["SnowflakeType"] = {
            "anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]
        }
        relaxed = {**document, "components": {**document["components"], "schemas": schemas}}
        self.request_registry: referencing.Registry = referencing.Registry().with_resource(
            SPEC_URI, referencing.Resource.from_contents(relaxed, default_specification=DRAFT202012)
        )
        # (METHOD, n_segments) -> [(regex, template, literal count)] most specific first
        self._routes: dict[tuple[str, int], list[tuple[re.Pattern[str], str, int]]] = defaultdict(list)
        for template, item in document["paths"].items():
            segments = template.strip("/").split("/")
            literal = sum(1 for s in segments if not s.startswith("{"))
            regex = "^/" + "/".join(
                f"(?P<{s[1:-1]}>[^/]+)" if s.startswith("{") else re.escape(s) for s in segments
            ) + "$"
            for method in _METHODS:
                if method in item:
                    self._routes[(method.upper(), len(segments))].append((re.compile(regex), template, literal))
        for routes in self._routes.values():
            routes.sort(key=lambda r: -r[2])
        self._validator_classes = {"request": _directed_unions(relaxed), "response": _directed_unions(document)}
        self._validators: dict[tuple[str, str, str], Draft202012Validator | None] = {}
        self._valid_bodies: dict[tuple[str, str, bytes], None] = {}  # memo of bodies that validated
        self._param_validators: dict[tuple[str, str], Draft202012Validator] = {}
        self._valid_params: set[tuple[str, str, str]] = set()  # (route, parameter, value) that validated

    # ------------------------------------------------------------------ lookup
    @staticmethod
    def normalise_path(path: str) -> str:
        """Strip scheme/host, ``/api/v10`` and the query string from ``path``."""
        parts = urlsplit(path)
        p = parts.path or "/"
        p = _API_PREFIX.sub("", p)
        return p

    def find_operation(self, method: str, path: str) -> Operation | None:
        """The operation for a concrete request path, or ``None`` if the spec has none."""
        method = method.upper()
        path = self.normalise_path(path)
        segments = path.strip("/").split("/")
        for regex, template, _ in self._routes.get((method, len(segments)), ()):
            m = regex.match(path)
            if m:
                op = self.document["paths"][template][method.lower()]
                params = {k: unquote(v) for k, v in m.groupdict().items()}
                return Operation(method, template, op.get("operationId", "?"), params)
        return None

    def operation_object(self, op: Operation) -> Mapping[str, Any]:
        return self.document["paths"][op.template][op.method.lower()]

    def _validator(self, op: Operation, kind: str, content_type: str) -> Draft202012Validator | None:
        key = (op.method + " " + op.template, kind, content_type)
        if key in self._validators:
            return self._validators[key]
        operation = self.operation_object(op)
        if kind == "request":
            container = operation.get("requestBody")
        else:
            container = (operation.get("responses") or {}).get(kind)
            if container and "$ref" in container:
                ref = container["$ref"].lstrip("#/").split("/")
                container = self.document
                for part in ref:
                    container = container[part]
        schema = None
        if container:
            content = container.get("content") or {}
            chosen = content_type if content_type in content else None
            if chosen is None and content_type == "multipart/form-data" and "application/json" in content:
                chosen = "application/json"  # payload_json carries the JSON body
            if chosen is None and content:
                chosen = next(iter(content))
            if chosen is not None:
                schema = content[chosen].get("schema")
        validator = None
        if schema is not None:
            registry = self.request_registry if kind == "request" else self.registry
            validator_class = self._validator_classes["request" if kind == "request" else "response"]
            validator = validator_class(_rebase_refs(schema), registry=registry)
        self._validators[key] = validator
        return validator

    def _param_validator(self, template: str, name: str, schema: Mapping[str, Any]) -> Draft202012Validator:
        found = self._param_validators.get((template, name))
        if found is None:
            found = self._param_validators[template, name] = Draft202012Validator(
                _rebase_refs(schema), registry=self.registry)
        return found

    # -------------------------------------------------------------- validation
    def validate_request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        form: Iterable[Mapping[str, Any]] | None = None,
    ) -> Operation:
        """Check a request against the spec; return its :class:`Operation`.

        ``body`` is the JSON body (``None`` when there is none). ``form`` is
        discord.py's multipart form list; its ``payload_json`` field is the body.
        Raises :class:`SpecViolation` on an unknown route, a malformed path
        parameter, or a body that does not validate.
        """
        method = method.upper()
        norm = self.normalise_path(path)
        op = self.find_operation(method, norm)
        if op is None:
            raise SpecViolation(
                f"{method} {norm}: no such route in Discord's OpenAPI spec ({SPEC_PATH.name}); "
                f"body: {_short(body, 600)}"
            )
        content_type = "application/json"
        if form is not None:
            content_type = "multipart/form-data"
            body = None
            for fld in form:
                if fld.get("name") == "payload_json":
                    body = json.loads(fld["value"])
        errors: list[str] = []
        # Path parameters (snowflakes must be digits, tokens bounded, ...).
        params_spec = {p["name"]: p for p in self.document["paths"][op.template].get("parameters", [])}
        for name, value in op.path_params.items():
            pspec = params_spec.get(name)
            if pspec and "schema" in pspec and (op.template, name, value) not in self._valid_params:
                found = [f"path parameter {name}={value!r}: {e.message}"
                         for e in self._param_validator(op.template, name, pspec["schema"]).iter_errors(value)]
                if not found:
                    self._valid_params.add((op.template, name, value))
                errors.extend(found)
        operation = self.operation_object(op)
        has_body = body is not None and body != {} and body != []
        if "requestBody" not in operation:
            if has_body:
                errors.append("this operation takes no request body, but one was sent")
        else:
            if body is None and operation["requestBody"].get("required"):
                errors.append("this operation requires a request body, but none was sent")
            elif body is not None:
                memo = (op.method + " " + op.template, content_type, _as_key(body))
                validator = self._validator(op, "request", content_type)
                if validator is not None and memo not in self._valid_bodies:
                    for err in sorted(validator.iter_errors(body), key=lambda e: list(map(str, e.absolute_path))):
                        errors.extend(explain(err))
                    if not errors:
                        if len(self._valid_bodies) > 4096:
                            self._valid_bodies.clear()
                        self._valid_bodies[memo] = None
        if errors:
            lines = "\n  - ".join(dict.fromkeys(errors))
            raise SpecViolation(
                f"{method} {norm} ({op.operation_id}, spec path {op.template}) does not match "
                f"Discord's OpenAPI spec:\n  - {lines}\nbody: {_short(body, 4000)}"
            )
        return op

    def validate_response(self, method: str, path: str, body: Any, *, status: int | None = None) -> None:
        """Check a *response* body (e.g. a fake Discord's answer) against the spec.

        ``status`` defaults to the operation's first 2xx response with a body."""
        op = self.find_operation(method, path)
        if op is None:
            raise SpecViolation(f"{method.upper()} {self.normalise_path(path)}: no such route in the spec")
        if status is None:
            responses = self.operation_object(op).get("responses") or {}
            status = next((int(code) for code, r in responses.items()
                           if code.startswith("2") and code.isdigit() and "content" in r), 200)
        validator = self._validator(op, str(status), "application/json")
        if validator is None:
            return
        errors: list[str] = []
        for err in validator.iter_errors(body):
            errors.extend(explain(err))
        if errors:
            lines = "\n  - ".join(dict.fromkeys(errors))
            raise SpecViolation(
                f"response to {method.upper()} {self.normalise_path(path)} ({op.operation_id}) "
                f"does not match the spec:\n  - {lines}\nbody: {_short(body, 4000)}"
            )


@cache
def _load(path: str) -> OpenAPISpec:
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(
            f"Discord's OpenAPI spec was not found at {p}; it is expected in "
            f"../shared/discord-api-spec/openapi.json beside the repository root "
            f"(or set DISCORD_OPENAPI_SPEC)."
        )
    with p.open(encoding="utf-8") as fh:
        return OpenAPISpec(json.load(fh))


def get_spec(path: Path | str | None = None) -> OpenAPISpec:
    """The parsed spec, loaded once per process (per path)."""
    return _load(str(path or SPEC_PATH))


def validate_request(
    method: str, path: str, body: Any = None, *, form: Iterable[Mapping[str, Any]] | None = None
) -> Operation:
    """Validate one request against the default spec; see :meth:`OpenAPISpec.validate_request`."""
    return get_spec().validate_request(method, path, body, form=form)


def validate_response(method: str, path: str, body: Any, *, status: int | None = None) -> None:
    """Validate a response body against the default spec (used to keep fakes honest)."""
    get_spec().validate_response(method, path, body, status=status)
