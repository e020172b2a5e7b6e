"""``python -m web [--port N] [--host H]``: the local play page (no Discord, no token);
``python -m web site``: a server's site as a process of its own, beside the bot's on PostgreSQL."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from aiohttp import web

from .local import local_app
from .process import run_site

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["site"]:
        return run_site()
    parser = argparse.ArgumentParser(prog="python -m web", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"address to serve on (default {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"--port must be from 1 to 65535, not {args.port}")
    print(f"Deckhand: open http://{args.host}:{args.port}/ in your browser (Ctrl+C stops).", flush=True)
    web.run_app(local_app(), host=args.host, port=args.port, print=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
