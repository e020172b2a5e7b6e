"""Request bodies as Discord reads them (JSON, or multipart with ``payload_json`` and files), for both transports of the fake."""

from __future__ import annotations

import json
import re
from typing import Any

_BOUNDARY = re.compile(r'boundary="?([^";]+)')
_PARAMETER = re.compile(rb'(\w+)="((?:[^"\\]|\\.)*)"')


def form_parts(raw: bytes, content_type: str) -> list[tuple[dict[str, str], bytes]]:
    """Each part of a multipart/form-data body: its Content-Disposition parameters (``name``,
    ``filename``) and its bytes. Read here, not by aiohttp's reader, which parses every part's
    headers with the email package (slow for a bench's hundreds of uploads a second)."""
    boundary = _BOUNDARY.search(content_type)
    if boundary is None:
        raise ValueError("a multipart body without a boundary")
    parts = []
    for chunk in raw.split(b"--" + boundary[1].encode())[1:-1]:
        head, _, data = chunk.partition(b"\r\n\r\n")
        disposition = next((line for line in head.split(b"\r\n") if line.lower().startswith(b"content-disposition:")),
                           b"")
        params = {key.decode(): re.sub(rb"\\(.)", rb"\1", value).decode()
                  for key, value in _PARAMETER.findall(disposition)}
        parts.append((params, data.removesuffix(b"\r\n")))
    return parts


def is_form(content_type: str) -> bool:
    """Whether a body of ``content_type`` is multipart/form-data (an upload)."""
    return content_type.partition(";")[0].strip().lower() == "multipart/form-data"


def read_body(raw: bytes, content_type: str) -> tuple[Any, list[tuple[str, bytes]], list[str]]:
    """The JSON body (multipart: its ``payload_json``), the uploaded files (filename, bytes) and
    their field names."""
    if not is_form(content_type):
        return (json.loads(raw) if raw else None), [], []
    body, files, fields = None, [], []
    for params, data in form_parts(raw, content_type):
        name = params.get("name")
        if name == "payload_json":
            body = json.loads(data)
        else:
            files.append((params.get("filename") or name or "file", data))
            fields.append(name or "")
    return body, files, fields
