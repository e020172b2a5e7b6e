"""Screenshots of Deckhand's messages as Discord shows them, on a phone and on desktop.

    python -m tests.screens docs/images [--only q2j,lobby] [--language fr] [--theme light]

Builds real messages with the bot's own builders (each game's sample position, as
``games.pictures.samples`` has it, its table and the hand of the seat to act, pictures
attached; a lobby; a finished game; ``/stats``), turns each into the JSON discord.py sends,
draws that JSON as Discord's dark theme does (HTML and CSS in Discord's style, the pictures
inlined) and screenshots it with headless Chromium (Debian's ``chromium``), 380 CSS pixels wide
for a phone (at twice the pixels, as phones have them) and 900 for desktop. Writes
``<scene>-phone.png`` and ``<scene>-desktop.png`` (``<scene>-fr-light-phone.png`` in French
on the light theme). The messages speak ``--language`` (English unless told).

Not part of the product: a tool for the README's pictures and for looking at messages as
players see them. The drawing follows Discord's look closely enough to judge sizes and
layout (a container's padding, a picture's width, buttons that wrap on a phone), not
pixel for pixel.
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from discord.http import handle_message_parameters
from discord.utils import MISSING
from PIL import Image

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars"]
PHONE, DESKTOP = 380, 900
"""CSS pixels of the window: a phone's width, and a desktop's chat column with room around."""
BACKGROUND = (0x31, 0x33, 0x38)
STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link"}

CSS = """
* { box-sizing: border-box; }
body { margin: 0; padding: 12px 0 16px; background: #313338; color: #dbdee1;
       font: 16px/1.375 "Noto Sans", "DejaVu Sans", sans-serif; }
.msg { position: relative; padding: 4px 16px 4px 72px; margin-top: 12px; }
.avatar { position: absolute; left: 16px; top: 6px; width: 40px; height: 40px; border-radius: 50%;
          background: #2e7d32; color: #fff; font-weight: 700; display: flex; align-items: center;
          justify-content: center; font-size: 18px; }
.author { color: #f2f3f5; font-weight: 600; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 700; border-radius: 3px;
       padding: 1px 4px; margin-left: 4px; vertical-align: 2px; }
.time { color: #949ba4; font-size: 12px; margin-left: 6px; }
.content { white-space: normal; overflow-wrap: anywhere; }
.container { margin-top: 4px; max-width: 520px; background: #2b2d31; border: 1px solid #3a3c42;
             border-radius: 8px; padding: 16px; display: flex; flex-direction: column; gap: 8px; }
.container.accent { border-left: 4px solid var(--accent); }
.text p { margin: 0; }
.text h1 { font-size: 24px; margin: 0; line-height: 1.25; }
.text h2 { font-size: 20px; margin: 0; line-height: 1.25; }
.text h3 { font-size: 16px; margin: 0 0 2px; line-height: 1.25; color: #f2f3f5; }
.text .sub { font-size: 13px; color: #949ba4; }
.text blockquote { margin: 0; padding-left: 12px; border-left: 4px solid #4e5058; }
.gallery img { display: block; max-width: 100%; max-height: 350px; border-radius: 8px; }
.sep { border-top: 1px solid #3f4147; margin: 4px 0; }
.link { color: #00a8fc; }
.sep.gap { border-top: none; }
.row { display: flex; flex-wrap: wrap; gap: 8px; }
.button { min-height: 32px; padding: 6px 16px; border-radius: 8px; color: #fff; font-size: 14px;
          font-weight: 600; line-height: 20px; white-space: nowrap; overflow: hidden;
          text-overflow: ellipsis; max-width: 100%; }
.primary { background: #5865f2; } .secondary { background: #4e5058; }
.success { background: #248046; } .danger { background: #da373c; }
.disabled { opacity: 0.5; }
.select { width: 100%; max-width: 400px; min-height: 40px; background: #1e1f22; border-radius: 8px;
          padding: 9px 36px 9px 12px; color: #949ba4; font-size: 15px; position: relative;
          white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.select::after { content: "⌄"; position: absolute; right: 12px; top: 4px; font-size: 20px; color: #b5bac1; }
.mention { background: rgba(88, 101, 242, .3); color: #c9cdfb; border-radius: 3px; padding: 0 2px;
           font-weight: 500; }
.stamp { background: rgba(255, 255, 255, .06); border-radius: 3px; padding: 0 2px; }
code { background: #1e1f22; border-radius: 4px; padding: 0 3px; font-size: 85%;
       font-family: "DejaVu Sans Mono", monospace; }
.ephemeral { font-size: 12px; color: #949ba4; margin-top: 4px; }
.ephemeral a { color: #00a8fc; }
.embed { margin-top: 4px; max-width: 520px; background: #2b2d31; border-left: 4px solid var(--accent);
         border-radius: 4px; padding: 12px 16px; }
.embed .title { font-weight: 700; color: #f2f3f5; margin-bottom: 4px; }
.embed .field-name { font-weight: 700; font-size: 14px; margin-top: 8px; }
.embed .footer { font-size: 12px; color: #949ba4; margin-top: 8px; }
.embed img { display: block; max-width: 100%; border-radius: 4px; margin-top: 12px; }
@media (max-width: 500px) {
  .msg { padding: 4px 12px 4px 64px; } .avatar { left: 12px; }
  .container { max-width: none; padding: 14px; }
  .select { max-width: none; }
}
"""

LIGHT = """
body { background: #ffffff; color: #313338; }
.author, .text h3, .embed .title { color: #060607; }
.container, .embed { background: #f2f3f5; border-color: #e3e5e8; }
.text .sub, .time, .ephemeral, .embed .footer { color: #5c5e66; }
.text blockquote { border-left-color: #c4c9ce; }
.sep { border-top-color: #e3e5e8; }
.secondary { background: #6d6f78; }
.select { background: #ebedef; color: #5c5e66; }
code { background: #ebedef; }
.stamp { background: rgba(6, 6, 7, .06); }
.mention { color: #505cdc; }
"""
THEMES = {"dark": (BACKGROUND, ""), "light": ((0xFF, 0xFF, 0xFF), LIGHT)}
"""Discord's themes: the background behind messages, and the CSS over the dark theme's."""


@dataclass
class Message:
    """One message of a scene: the JSON discord.py sends for it, and its files by name."""

    data: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    ephemeral: bool = False


def message_of(kwargs: dict[str, Any], *, ephemeral: bool = False) -> Message:
    """The JSON discord.py sends for a send's keyword arguments (a ``Rendered.kwargs()``, with
    a picture's ``files``), and those files."""
    kwargs = dict(kwargs)
    files = kwargs.pop("files", None) or []
    with handle_message_parameters(**kwargs, files=files or MISSING) as params:
        data = json.loads(params.multipart[0]["value"]) if params.multipart else params.payload
    return Message(data or {}, {file.filename: file.fp.getvalue() for file in files}, ephemeral)


# -- Discord's Markdown, the part messages use -----------------------------------------------------


def inline(text: str, names: dict[int, str]) -> str:
    text = html.escape(text, quote=False)
    text = re.sub(r"\\([\\*_`~|>#-])", lambda m: f"&#{ord(m.group(1))};", text)
    text = re.sub(r"&lt;@!?(\d+)&gt;", lambda m: f'<span class="mention">@{html.escape(names.get(int(m.group(1)), "user"))}</span>', text)
    text = re.sub(r"&lt;t:(\d+):R&gt;", lambda m: f'<span class="stamp">{relative(int(m.group(1)))}</span>', text)
    text = re.sub(r"&lt;t:(\d+):F&gt;", lambda m: '<span class="stamp">' + time.strftime(
        "%A %d %B %Y %H:%M", time.gmtime(int(m.group(1)))) + "</span>", text)
    text = re.sub(r"\[([^\]]+)\]\((https://[^)\s]+)\)", r'<span class="link">\1</span>', text)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)", r"<i>\1</i>", text)
    text = re.sub(r"(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)", r"<i>\1</i>", text)
    text = re.sub(r"~~(.+?)~~", r"<s>\1</s>", text)
    return text


def relative(timestamp: int) -> str:
    minutes = max(1, round((timestamp - time.time()) / 60))
    return f"in {minutes} minutes" if minutes < 120 else f"in {minutes // 60} hours"


def markdown(text: str, names: dict[int, str]) -> str:
    out = []
    for line in text.split("\n"):
        heading = re.match(r"(#{1,3}) (.*)", line)
        if heading:
            level = len(heading.group(1))
            out.append(f"<h{level}>{inline(heading.group(2), names)}</h{level}>")
        elif line.startswith("-# "):
            out.append(f'<p class="sub">{inline(line[3:], names)}</p>')
        elif line.startswith("> "):
            out.append(f"<blockquote>{inline(line[2:], names)}</blockquote>")
        else:
            out.append(f"<p>{inline(line, names) or '&nbsp;'}</p>")
    return "".join(out)


# -- components and embeds ---------------------------------------------------------------------------


def picture(url: str, files: dict[str, bytes]) -> str:
    name = url.removeprefix("attachment://")
    data = files.get(name)
    if data is None:
        return f'<div class="sub">(missing picture {html.escape(name)})</div>'
    return f'<img src="data:image/png;base64,{base64.b64encode(data).decode()}" alt="">'


def component(c: dict[str, Any], files: dict[str, bytes], names: dict[int, str]) -> str:
    kind = c["type"]
    if kind == 17:
        accent = c.get("accent_color")
        style = f' style="--accent: #{accent:06x}"' if accent is not None else ""
        inner = "".join(component(x, files, names) for x in c["components"])
        return f'<div class="container{" accent" if accent is not None else ""}"{style}>{inner}</div>'
    if kind == 10:
        return f'<div class="text">{markdown(c["content"], names)}</div>'
    if kind == 12:
        return '<div class="gallery">' + "".join(picture(i["media"]["url"], files) for i in c["items"]) + "</div>"
    if kind == 14:
        return f'<div class="sep{"" if c.get("divider", True) else " gap"}"></div>'
    if kind == 1:
        return '<div class="row">' + "".join(component(x, files, names) for x in c["components"]) + "</div>"
    if kind == 2:
        label = html.escape(c.get("label") or "")
        disabled = " disabled" if c.get("disabled") else ""
        return f'<div class="button {STYLES.get(c.get("style", 2), "secondary")}{disabled}">{label}</div>'
    if kind == 3:
        return f'<div class="select">{html.escape(c.get("placeholder") or "Make a selection")}</div>'
    if kind == 9:
        texts = "".join(component(x, files, names) for x in c["components"])
        return f'<div style="display:flex;gap:12px"><div style="flex:1">{texts}</div>{component(c["accessory"], files, names)}</div>'
    return f'<div class="sub">(component {kind})</div>'


def embed(e: dict[str, Any], files: dict[str, bytes], names: dict[int, str]) -> str:
    parts = []
    if e.get("title"):
        parts.append(f'<div class="title">{inline(e["title"], names)}</div>')
    if e.get("description"):
        parts.append(f'<div class="text">{markdown(e["description"], names)}</div>')
    for f in e.get("fields") or []:
        parts.append(f'<div class="field-name">{inline(f["name"], names)}</div>'
                     f'<div class="text">{markdown(f["value"], names)}</div>')
    if (e.get("image") or {}).get("url"):
        parts.append(picture(e["image"]["url"], files))
    if (e.get("footer") or {}).get("text"):
        parts.append(f'<div class="footer">{inline(e["footer"]["text"], names)}</div>')
    return f'<div class="embed" style="--accent: #{e.get("color", 0x2e7d32):06x}">{"".join(parts)}</div>'


def message_html(message: Message, names: dict[int, str]) -> str:
    data = message.data
    body = []
    if data.get("content"):
        body.append(f'<div class="content">{markdown(data["content"], names)}</div>')
    body += [embed(e, message.files, names) for e in data.get("embeds") or []]
    body += [component(c, message.files, names) for c in data.get("components") or []]
    note = ('<div class="ephemeral">👁 Only you can see this • <a>Dismiss message</a></div>'
            if message.ephemeral else "")
    return ('<div class="msg"><div class="avatar">D</div><span class="author">Deckhand</span>'
            f'<span class="tag">APP</span><span class="time">Today at 21:07</span>{"".join(body)}{note}</div>')


def page(messages: Iterable[Message], names: dict[int, str], theme: str = "dark") -> str:
    inner = "".join(message_html(m, names) for m in messages)
    return (f'<!doctype html><html><head><meta charset="utf-8"><style>{CSS}{THEMES[theme][1]}</style></head>'
            f'<body>{inner}</body></html>')


# -- screenshots ---------------------------------------------------------------------------------------


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise SystemExit("Chromium is needed: apt-get install -y chromium fonts-noto-color-emoji fonts-noto-core")
    return found


def screenshot(document: str, width: int, scale: int, out: Path, background: tuple[int, int, int] = BACKGROUND) -> Path:
    """``document`` drawn ``width`` CSS pixels wide at ``scale`` device pixels each, cut below its end."""
    with tempfile.TemporaryDirectory() as folder:
        page_path = Path(folder) / "page.html"
        page_path.write_text(document, encoding="utf-8")
        shot = Path(folder) / "shot.png"
        subprocess.run([chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={folder}/profile",
                        f"--window-size={width},4000", f"--force-device-scale-factor={scale}",
                        f"--screenshot={shot}", page_path.as_uri()],
                       check=True, capture_output=True, timeout=120)
        # 256 colours are plenty for Discord's flat look and keep the README's pictures small.
        trimmed(Image.open(shot), background).quantize(256, method=Image.Quantize.FASTOCTREE).save(out, optimize=True)
    return out


def trimmed(image: Image.Image, background: tuple[int, int, int] = BACKGROUND) -> Image.Image:
    """The screenshot without the empty background below the last message."""
    rgb = image.convert("RGB")
    width, height = rgb.size
    bottom = height
    pixels = rgb.load()
    step = max(1, width // 64)
    while bottom > 1 and all(pixels[x, bottom - 1] == background for x in range(0, width, step)):
        bottom -= 1
    return rgb.crop((0, 0, width, min(height, bottom + 16 * (height // 4000 or 1))))


def shoot(name: str, messages: list[Message], names: dict[int, str], folder: Path, theme: str = "dark") -> list[Path]:
    document = page(messages, names, theme)
    background = THEMES[theme][0]
    return [screenshot(document, PHONE, 2, folder / f"{name}-phone.png", background),
            screenshot(document, DESKTOP, 1, folder / f"{name}-desktop.png", background)]


# -- the scenes ----------------------------------------------------------------------------------------


def scenes() -> dict[str, Callable[[str], tuple[list[Message], dict[int, str]]]]:
    from tests.screen_scenes import SCENES
    return SCENES


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.screens", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="where to write the screenshots")
    parser.add_argument("--only", default="", help="comma-separated scene names (default: every scene)")
    parser.add_argument("--language", default="en", help="the messages' language (default: en)")
    parser.add_argument("--theme", choices=tuple(THEMES), default="dark", help="Discord's theme (default: dark)")
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    wanted = [name for name in args.only.split(",") if name]
    suffix = "".join(f"-{part}" for part in (args.language, args.theme) if part not in ("en", "dark"))
    for name, build in scenes().items():
        if wanted and name not in wanted:
            continue
        messages, names = build(args.language)
        for path in shoot(f"{name}{suffix}", messages, names, args.folder, args.theme):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
