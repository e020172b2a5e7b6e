"""Links from Discord to a server's site: its address, and the **Open in browser** link button.

A server's site (``web/``) lives under ``<DECKHAND_PUBLIC_URL>/s/<token>/``; the token is random
(:func:`new_site_token`), stored in the server's settings while its site is on (``/settings web``).
"""

from __future__ import annotations

import secrets
from typing import Any

from games.i18n import say

OPEN_IN_BROWSER = say("🌐 Open in browser")


def new_site_token() -> str:
    """A new unguessable site token: 32 URL-safe characters (192 random bits)."""
    return secrets.token_urlsafe(24)


def site_url(client: Any, token: str | None, path: str = "") -> str:
    """The address of ``path`` on the site whose links hold ``token`` (``""``: its front page)."""
    return f"{client.settings.public_url}/s/{token}/{path}"


def open_in_browser(url: str, language: str) -> dict[str, Any]:
    """A link button (style 5: it opens ``url``; it has no custom_id and sends Deckhand nothing)."""
    return {"type": 2, "style": 5, "label": OPEN_IN_BROWSER.render(language), "url": url}
