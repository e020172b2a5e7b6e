"""HTML built safely: every value put into a page is escaped unless it is already :class:`Html`.

Pages are server-rendered from small templates (``str.format`` fields); :func:`html` escapes each
value that is not itself :class:`Html`, so a display name or a server name of ``<script>`` is
text on every page without anyone remembering to escape it. :func:`page` is the frame of
every page: its language, its title, the one stylesheet, and scripts only from ``/static/``
(the Content-Security-Policy forbids any other: :mod:`web.guard`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape
from typing import Any


class Html(str):
    """Text that is already HTML: put into a page as it is."""


def html(template: str, **values: Any) -> Html:
    """``template`` with its ``{fields}`` filled, each value escaped unless it is :class:`Html`."""
    return Html(template.format(**{name: _safe(value) for name, value in values.items()}))


def _safe(value: Any) -> str:
    return value if isinstance(value, Html) else escape(str(value), quote=True)


def join(parts: Iterable[Html | str], separator: str = "") -> Html:
    """Several pieces one after another, each escaped unless it is :class:`Html`."""
    return Html(separator.join(_safe(part) for part in parts))


def page(title: str, body: Html, language: str, scripts: Iterable[str] = (), head: Html = Html("")) -> Html:
    """A whole page: ``scripts`` are names of files under ``/static/`` (never inline)."""
    tags = join(html('<script src="/static/{name}" defer></script>', name=name) for name in scripts)
    return html(
        '<!doctype html>\n<html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<title>{title}</title><link rel="stylesheet" href="/static/site.css">{head}{tags}</head>'
        '<body><main>{body}</main></body></html>\n',
        language=language, title=title, head=head, tags=tags, body=body,
    )


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])[*_](?![\s*])(.+?)(?<![\s*])[*_](?![\w*])")
_CODE = re.compile(r"`([^`]+)`")


def markdown(text: str) -> Html:
    """Discord-style Markdown (the rules' and events' own: headings, lists, bold, italics,
    code, ``-#`` small print) as HTML; the text is escaped first, so nothing in it becomes markup."""
    blocks: list[str] = []
    items: list[str] = []

    def inline(line: str) -> str:
        line = escape(line, quote=False)
        line = _CODE.sub(r"<code>\1</code>", line)
        line = _BOLD.sub(r"<strong>\1</strong>", line)
        return _ITALIC.sub(r"<em>\1</em>", line)

    def close_list() -> None:
        if items:
            blocks.append("<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>")
            items.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("- ", "• ", "* ")):
            items.append(inline(stripped[2:]))
            continue
        close_list()
        if not stripped:
            continue
        if stripped.startswith("#"):
            level, _, rest = stripped.partition(" ")
            if level == "-#":
                blocks.append(f'<p class="small">{inline(rest)}</p>')
            else:
                depth = min(len(level) + 1, 4) if set(level) == {"#"} else 4
                blocks.append(f"<h{depth}>{inline(rest)}</h{depth}>")
            continue
        blocks.append(f"<p>{inline(stripped)}</p>")
    close_list()
    return Html("".join(blocks))
