"""Test-only launcher: run ``python -m bot`` against a fake Discord.

Usage::

    python tests/launch_bot.py <rest_base_url> <gateway_url>
    # or DECKHAND_FAKE_REST_BASE=... DECKHAND_FAKE_GATEWAY=... python tests/launch_bot.py

``rest_base_url`` is the full API base (``http://127.0.0.1:PORT/api/v10``, i.e.
``LoopbackDiscord.base_url``); ``gateway_url`` the websocket URL (``LoopbackDiscord.gateway_url``).

Before the bot is imported this points every URL discord.py uses for login, the
gateway, interactions/webhooks (they share ``Route.BASE``) and the CDN at the fake, and
refuses any socket connection that is not to loopback, so a mistake can never reach the
real Discord. Then it runs the ``bot`` package exactly as ``python -m bot`` does
(``runpy``, ``__name__ == "__main__"``) and exits with its status. The product code
carries no test switches.
"""

from __future__ import annotations

import faulthandler
import ipaddress
import os
import runpy
import signal
import socket
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
BLOCKED_MARKER = "launch_bot: BLOCKED non-loopback network access"
_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def _is_loopback(host: object) -> bool:
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    host = str(host).strip("[]").lower()
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def guard_network() -> None:
    """Make any DNS lookup or connection to a non-loopback address fail loudly."""
    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def refuse(what: object) -> OSError:
        print(f"{BLOCKED_MARKER}: {what!r}", file=sys.stderr, flush=True)
        return OSError(f"{BLOCKED_MARKER}: {what!r} (tests never touch the network)")

    def getaddrinfo(host, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not _is_loopback(host):
            raise refuse(host)
        return real_getaddrinfo(host, *args, **kwargs)

    def check(sock: socket.socket, address: object) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            host = address[0] if isinstance(address, tuple) else address
            if not _is_loopback(host):
                raise refuse(address)

    def connect(self, address):  # type: ignore[no-untyped-def]
        check(self, address)
        return real_connect(self, address)

    def connect_ex(self, address):  # type: ignore[no-untyped-def]
        check(self, address)
        return real_connect_ex(self, address)

    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]
    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]


def point_discord_at(rest_base: str, gateway_url: str) -> None:
    """Redirect discord.py's hard-coded Discord URLs to a fake on loopback."""
    import yarl
    from discord import asset, gateway, http

    rest = yarl.URL(rest_base.rstrip("/"))
    gw = yarl.URL(gateway_url)
    for url in (rest, gw):
        if not _is_loopback(url.host):
            raise SystemExit(f"launch_bot: refusing non-loopback URL {url}")
    if not rest.path.endswith(f"/v{http.INTERNAL_API_VERSION}"):
        raise SystemExit(f"launch_bot: REST base must end in /api/v{http.INTERNAL_API_VERSION}: {rest}")
    # Every REST call, including interaction callbacks and webhook follow-ups
    # (discord.webhook.async_ builds its routes from http.Route too).
    http.Route.BASE = str(rest)
    # Gateway: Client.connect() uses DEFAULT_GATEWAY; READY's resume_gateway_url (set
    # by the fake) is used for resumes.
    gateway.DiscordWebSocket.DEFAULT_GATEWAY = gw
    # Asset URLs (avatars, icons) are only fetched if the bot reads them; point them at
    # the fake too so such a fetch shows up as a recorded unknown route.
    asset.Asset.BASE = str(rest.with_path("/cdn"))


def main(argv: list[str]) -> None:
    if len(argv) >= 3:
        rest_base, gateway_url = argv[1], argv[2]
    else:
        rest_base = os.environ.get("DECKHAND_FAKE_REST_BASE", "")
        gateway_url = os.environ.get("DECKHAND_FAKE_GATEWAY", "")
    if not rest_base or not gateway_url:
        raise SystemExit("usage: python tests/launch_bot.py <rest_base_url> <gateway_url>")
    guard_network()
    point_discord_at(rest_base, gateway_url)
    # A process that will not stop is asked for its stacks before it is killed (BotProcess.stop).
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    # As `python -m bot` run from the repository root: sys.path[0] is the repository
    # (not tests/, which `python tests/launch_bot.py` put there) and sys.argv carries no
    # launcher arguments.
    if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
        sys.path[0] = str(REPO_ROOT)
    else:
        sys.path.insert(0, str(REPO_ROOT))
    sys.argv = [sys.argv[0]]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)  # ends in sys.exit(main())


if __name__ == "__main__":
    main(sys.argv)
