"""``python -m games <command>``: developer tools that run the engines without Discord.

Commands: ``play`` (a game in the terminal, see :mod:`games.play`). A command is a
module with ``add_arguments(parser)`` and ``run(args, stdin, stdout) -> int``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import play
from .errors import GameError

COMMANDS = {"play": play}


class _Parser(argparse.ArgumentParser):
    """Reports a usage error as one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def _first_line(doc: str | None) -> str:
    return (doc or "").splitlines()[0] if doc else ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="python -m games", description=_first_line(__doc__))
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, module in COMMANDS.items():
        module.add_arguments(commands.add_parser(name, help=_first_line(module.__doc__)))
    args = parser.parse_args(argv)
    try:
        return COMMANDS[args.command].run(args, sys.stdin, sys.stdout)
    except GameError as exc:
        print(f"{parser.prog} {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop quietly, and keep the interpreter's
        # final flush of stdout from failing too.
        sys.stdout = open(os.devnull, "w")
        return 1


if __name__ == "__main__":
    sys.exit(main())
