"""Links from Discord to a server's site: its address, and the **Open in browser** link button.

A server's site (``web/``) lives under ``<DECKHAND_PUBLIC_URL>/s/<token>/``; the token is random
(:func:`new_site_token`), stored in the server's settings while its site is on (``/settings web``).
"""

from __future__ import annotations

import secrets
from typing import Any

import discord

from bot.service import GameService
from games.i18n import say

OPEN_IN_BROWSER = say("🌐 Open in browser")


def new_site_token() -> str:
    """A new unguessable site token: 32 URL-safe characters (192 random bits)."""
    return secrets.token_urlsafe(24)


def site_url(client: Any, token: str | None, path: str = "") -> str:
    """The address of ``path`` on the site whose links hold ``token`` (``""``: its front page)."""
    return f"{client.settings.public_url}/s/{token}/{path}"


async def page_url(client: Any, service: GameService, guild_id: int, path: str) -> str | None:
    """The address of ``path`` on ``guild_id``'s site; None while its site is off."""
    token = (await service.storage.guild_settings(guild_id)).web_token
    return site_url(client, token, path) if token else None


def table_path(table_id: int, running: bool) -> str:
    """A table's page while it runs (live), its replay once it ended."""
    return f"t/{table_id}" if running else f"r/{table_id}"


def open_in_browser(url: str, language: str) -> dict[str, Any]:
    """A link button (style 5: it opens ``url``; it has no custom_id and sends Deckhand nothing)."""
    return {"type": 2, "style": 5, "label": OPEN_IN_BROWSER.render(language), "url": url}


def open_in_browser_item(url: str, language: str) -> discord.ui.Button[Any]:
    """:func:`open_in_browser` as a discord.py item, for a classic view."""
    return discord.ui.Button(style=discord.ButtonStyle.link, label=OPEN_IN_BROWSER.render(language), url=url)
