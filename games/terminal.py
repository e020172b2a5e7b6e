"""``python -m games play``: any game in a terminal, human seats against AI seats.

Uses only the engine contract (DESIGN.md, "Engine contract"): it proves the engines
stand alone and lets a developer try a rule in seconds. Nothing here knows a game:
the board is the seat's view dict printed generically, the moves are
``legal_actions``, the AI is :func:`games.ai.choose_action`.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from . import all_games, get_game
from .ai import choose_action
from .base import Action, Event, Game, GameState
from .cards import parse_card
from .errors import GameError
from .i18n import SOURCE, say
from .rng import Rng

QUIT_WORDS = ("q", "quit", "exit")
LINE_WIDTH = 100
MAX_VALUE_CHARS = 400
# View keys the loop already shows another way (hand, moves, turn) or that only identify the view.
_SHOWN_ELSEWHERE = frozenset({"game", "viewer", "hand", "legal", "your_turn", "to_act", "over", "outcome"})


class Quit(Exception):
    """The player left: end of input or a quit word at the prompt."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id or package name, e.g. q2j, queen-of-spades or queen_of_spades")
    parser.add_argument("--players", type=int, help="seats at the table (default: the fewest the game allows)")
    parser.add_argument("--ai", type=int, help="how many of the seats the AI plays (default: all but one)")
    parser.add_argument("--seed", type=int, default=0, help="deal and AI seed (default 0)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="a table option, e.g. --option variant=classic (repeatable)",
    )


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """Set up the table from parsed arguments and play it; the process exit status.

    Set-up errors (unknown game, option or player count) raise :class:`GameError`.
    """
    game = find_game(args.game)
    players = args.players if args.players is not None else game.allowed_player_counts()[0]
    state = game.new_game(players, parse_options(game, args.option), args.seed)
    ai_seats = args.ai if args.ai is not None else players - 1
    if not 0 <= ai_seats <= players:
        raise GameError(say("--ai must be from 0 to {players} (the number of players), not {count}", players=players,
                            count=ai_seats))
    humans = tuple(range(players - ai_seats))
    table = Table(game, state, humans, Rng(args.seed), stdin, stdout)
    try:
        table.play()
    except Quit:
        table.write("Game abandoned.")
    return 0


def find_game(name: str) -> Game[Any]:
    """The game with id ``name``, or whose package (``games/<package>/``) is ``name``;
    otherwise :class:`GameError` listing the ids."""
    found = next((game for game in all_games() if name in (game.id, game.package)), None)
    return found if found is not None else get_game(name)


def parse_options(game: Game, pairs: Iterable[str]) -> dict[str, Any]:
    """``name=value`` texts to option values; the game's own checks judge them later."""
    specs = {spec.name: spec for spec in game.options}
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise GameError(say("Options are written name=value, not {pair}", pair=repr(pair)))
        spec = specs.get(name)
        choices = spec.choices if spec is not None else ()
        matching = [c for c in choices if str(c).lower() == text.lower()]
        options[name] = matching[0] if matching else _scalar(text)
    return options


def _scalar(text: str) -> Any:
    """A command-line word as the JSON scalar it most likely means."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


class Table:
    """One game at the terminal: AI seats move by themselves, human seats are prompted."""

    def __init__(
        self, game: Game, state: GameState, humans: Sequence[int], rng: Rng, stdin: TextIO, stdout: TextIO
    ) -> None:
        self.game = game
        self.state = state
        self.humans = tuple(humans)
        self.rng = rng
        self.stdin = stdin
        self.stdout = stdout
        self.names = [self._name(seat) for seat in range(state.players)]

    def _name(self, seat: int) -> str:
        if seat not in self.humans:
            return f"AI {seat + 1}"
        return "You" if len(self.humans) == 1 else f"Player {seat + 1}"

    def write(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def play(self) -> None:
        seats = ", ".join(self.names)
        self.write(f"{self.game.name}: {seats} (seed {self.state.seed})")
        self.announce(self.state.opening_events())
        while not self.state.is_over():
            acting = self.state.to_act()
            ai_acting = [seat for seat in acting if seat not in self.humans]
            if ai_acting:
                seat = ai_acting[0]
                self.announce(self.state.apply(seat, choose_action(self.state, seat, self.rng)))
            else:
                self.human_turn(acting[0])
        self.show_outcome()

    def announce(self, events: Iterable[Event]) -> None:
        """Print what happened: public facts, and private ones meant for a human seat."""
        for event in events:
            if event.private_to is None:
                self.write(event.render(self.names))
            elif event.private_to in self.humans:
                self.write(f"[{self.names[event.private_to]} only] {event.render(self.names)}")

    def human_turn(self, seat: int) -> None:
        """Show ``seat`` its view and moves, then read until one move is applied."""
        self.write()
        self.write(f"— {self.names[seat]} to act —")
        for line in describe_view(self.state.view(seat)):
            self.write(line)
        legal = self.state.legal_actions(seat)
        self.write("Moves:")
        for line in pack([f"{i}. {action}" for i, action in enumerate(legal, 1)]):
            self.write(line)
        while True:
            text = self.ask(f"{self.names[seat]}, your move (number or code, q to quit): ")
            if not text:
                continue
            try:
                action = self.parse_move(text, legal)
                events = self.state.apply(seat, action)
            except GameError as exc:
                self.write(str(exc))
                continue
            self.announce(events)
            return

    def parse_move(self, text: str, legal: Sequence[Action]) -> Action:
        """A move number (1-based, from the list shown) or an action code such as ``play:QS``."""
        if re.fullmatch(r"[+-]?\d+", text):
            number = int(text)
            if not 1 <= number <= len(legal):
                raise GameError(say("There is no move {number}; choose 1 to {count} or type a move code.",
                                    number=number, count=len(legal)))
            return legal[number - 1]
        return self.game.action_class.from_code(text)

    def ask(self, prompt: str) -> str:
        print(prompt, end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            self.write()
            raise Quit
        text = line.strip()
        if text.lower() in QUIT_WORDS:
            raise Quit
        return text

    def show_outcome(self) -> None:
        outcome = self.state.outcome()
        self.write()
        self.write("Game over.")
        if outcome is None:
            return
        self.write(outcome.reason.render(SOURCE, self.names))
        for place, group in enumerate(outcome.ranking, 1):
            self.write(f"{place}. " + ", ".join(f"{self.names[s]} ({outcome.scores[s]})" for s in group))


def describe_view(view: dict[str, Any]) -> list[str]:
    """A view dict as ``key: value`` lines, cards pretty, hidden (``None``) facts left out."""
    lines = []
    if view.get("hand"):
        lines.append("Your hand: " + describe(view["hand"]))
    for key, value in view.items():
        if key in _SHOWN_ELSEWHERE or value is None or value == [] or value == {}:
            continue
        text = describe(value)
        if len(text) > MAX_VALUE_CHARS:
            text = text[:MAX_VALUE_CHARS] + "…"
        lines.append(f"{key.replace('_', ' ')}: {text}")
    return lines


def describe(value: Any) -> str:
    """Any JSON value as short text: card codes pretty, nested lists bracketed."""
    if value is None:
        return "?"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return _pretty_if_card(value)
    if isinstance(value, list):
        parts = [describe(item) for item in value]
        if any(isinstance(item, (list, dict)) for item in value):
            return " | ".join(f"[{part}]" for part in parts)
        return " ".join(parts)
    if isinstance(value, dict):
        return ", ".join(f"{key} {describe(item)}" for key, item in value.items())
    return str(value)


def _pretty_if_card(text: str) -> str:
    try:
        card = parse_card(text)
    except GameError:
        return text
    return card.pretty if card.code == text else text


def pack(items: Sequence[str], width: int = LINE_WIDTH) -> list[str]:
    """Lay short items side by side in lines of at most ``width`` characters."""
    lines: list[str] = []
    line = ""
    for item in items:
        candidate = f"{line}   {item}" if line else f"  {item}"
        if line and len(candidate) > width:
            lines.append(line)
            candidate = f"  {item}"
        line = candidate
    if line:
        lines.append(line)
    return lines
