"""Engine speed: random self-play for every game, variant and player count, beside RLCard's Uno.

    python -m bench.engines [--seconds 0.5] [--games q2j,ng] [--players 2,4] [--options '{"variant": "classic"}']

Every engine is driven by the same loop, the one the bot's AI seats and the
contract tests use: whose turn (``to_act``) → ``legal_actions`` → a uniform
seeded choice → ``apply``, on games from seeds 0, 1, 2, … (deals included in
the time), for about ``--seconds`` per row. A row is one game, variant and
player count: the game's defaults, then each choice option's other values and
each on/off option switched on, one at a time (with the game's
``quick_options``, which keep random play short). ``--options`` measures that
one option set instead. A new game is measured as soon as it is registered.

When ``rlcard`` is installed (``pip install -e ".[bench]"``), RLCard's Uno rule
engine (``rlcard.games.uno.game.UnoGame``, 2 players) runs through the same loop
in the same process, taking turns with each row in slices of 0.05 CPU seconds
(so both see the same machine, however its load changes), and the ``× Uno``
column is the row's actions/s divided by Uno's over those slices. Times are
this process's CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Protocol

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from games.base import OptionSpec, bool_option
from games.rng import Rng

MAX_STEPS = 200_000


class Playable(Protocol):
    """What the loop needs from an engine: Deckhand's ``GameState`` is one, and so is :class:`RLCardUno`."""

    def to_act(self) -> list[int]: ...

    def legal_actions(self, seat: int) -> Sequence[Any]: ...

    def apply(self, seat: int, action: Any) -> Any: ...


NewGame = Callable[[int], Playable]
"""Deals a new game from a seed."""


def play_random(new_game: NewGame, seed: int) -> tuple[int, bool]:
    """One random game; (actions played, finished within MAX_STEPS)."""
    state = new_game(seed)
    rng = Rng(seed ^ 0x5DEECE66D)
    steps = 0
    while steps < MAX_STEPS:
        acting = state.to_act()
        if not acting:
            return steps, True
        seat = acting[0] if len(acting) == 1 else acting[rng.below(len(acting))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
        steps += 1
    return steps, False


class Runner:
    """Random games from seeds 0, 1, 2, … of one engine, played in slices of CPU time."""

    def __init__(self, new_game: NewGame) -> None:
        self.new_game = new_game
        self.seed = self.actions = self.finished = self.unfinished = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        """Play whole games for about ``seconds`` of this process's CPU time (other work on the machine does not count)."""
        start = time.process_time()
        while True:
            steps, done = play_random(self.new_game, self.seed)
            self.actions += steps
            self.finished += done
            self.unfinished += not done
            self.seed += 1
            spent = time.process_time() - start
            if spent >= seconds:
                self.elapsed += spent
                return

    @property
    def rate(self) -> float:
        return self.actions / self.elapsed

    def add(self, other: Runner) -> None:
        """Count ``other``'s games and time as well (for a total over several runs)."""
        self.actions += other.actions
        self.finished += other.finished
        self.unfinished += other.unfinished
        self.elapsed += other.elapsed


SLICE = 0.05
"""CPU seconds per turn when a row and RLCard's Uno take turns: short, so both see the same machine."""


class RLCardUno:
    """RLCard's Uno rule engine (2 players) behind the loop's three calls, seeded through its numpy RNG."""

    def __init__(self, seed: int) -> None:
        import numpy as np
        from rlcard.games.uno.game import UnoGame

        self.game = UnoGame(num_players=2)
        self.game.np_random = np.random.RandomState(seed)
        self.game.init_game()

    def to_act(self) -> list[int]:
        return [] if self.game.is_over() else [self.game.get_player_id()]

    def legal_actions(self, seat: int) -> list[str]:
        return self.game.get_legal_actions()

    def apply(self, seat: int, action: str) -> None:
        self.game.step(action)


def rlcard_available() -> bool:
    try:
        import rlcard.games.uno.game  # noqa: F401
    except ImportError:
        return False
    return True


def _is_switch(spec: OptionSpec) -> bool:
    return spec.parse is bool_option


def variants(game: games.Game) -> Iterator[tuple[str, dict[str, Any]]]:
    """(label, options): the defaults, then each other choice and each switch turned on, one at a time."""
    quick = dict(game.quick_options)
    yield "default", quick
    for spec in game.options:
        others = [c for c in spec.choices if c != spec.default] or ([True] if _is_switch(spec) else [])
        for value in others:
            yield f"{spec.name}={value}", {**quick, spec.name: value}


def _valid(game: games.Game, players: int, options: dict) -> bool:
    try:
        game.new_game(players, options, 0)
    except games.GameError:
        return False
    return True


HEADER = f"{'game':<16} {'variant':<22} {'players':>7} {'actions/s':>11} {'games/s':>9} {'actions/game':>12} {'× Uno':>7}"


def _row(name: str, variant: str, players: int | str, runner: Runner, uno: Runner | None) -> str:
    games_played = runner.finished + runner.unfinished
    ratio = f"{runner.rate / uno.rate:>7.2f}" if uno else f"{'–':>7}"
    note = f"  ({runner.unfinished} unfinished after {MAX_STEPS} steps)" if runner.unfinished else ""
    return (f"{name:<16} {variant:<22} {players!s:>7} {runner.rate:>11,.0f} {games_played / runner.elapsed:>9,.1f}"
            f" {runner.actions / max(1, games_played):>12,.0f} {ratio}{note}")


def _rows(args: argparse.Namespace) -> Iterator[tuple[tuple[str, str, int], NewGame] | str]:
    """Every row to measure, as ((game id, variant, players), new game), or a line saying why a game is skipped."""
    wanted = {int(p) for p in args.players.split(",") if p}
    for game_id in [g for g in args.games.split(",") if g]:
        try:
            game = games.get_game(game_id)
        except Exception as exc:  # an engine still being written must not stop the others
            yield f"{game_id:<16} skipped: {exc!r}"
            continue
        option_sets = [("options", json.loads(args.options))] if args.options else list(variants(game))
        for label, options in option_sets:
            for players in game.allowed_player_counts():
                if (not wanted or players in wanted) and _valid(game, players, options):
                    yield (game_id, label, players), partial(game.new_game, players, options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per row (game, variant, player count)")
    parser.add_argument("--games", default=",".join(games.GAME_IDS), help="comma-separated game ids")
    parser.add_argument("--players", default="", help="comma-separated player counts (default: every allowed count)")
    parser.add_argument("--options", default="", help="one option set as JSON instead of every variant")
    args = parser.parse_args(argv)
    with_uno = rlcard_available()
    if not with_uno:
        print('rlcard is not installed (pip install -e ".[bench]"): no RLCard Uno column')
    print(HEADER)
    everything = Runner(RLCardUno)  # RLCard's Uno over the whole run, for its own line
    for row in _rows(args):
        if isinstance(row, str):
            print(row)
            continue
        key, new_game = row
        runner, uno = Runner(new_game), Runner(RLCardUno) if with_uno else None
        while runner.elapsed < args.seconds:
            runner.run(SLICE)
            if uno:
                uno.run(SLICE)
        if uno:
            everything.add(uno)
        print(_row(*key, runner, uno), flush=True)
    if everything.elapsed:
        print(_row("rlcard-uno", "UnoGame, every row's", 2, everything, None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
