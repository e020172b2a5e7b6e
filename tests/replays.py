"""Fingerprints of seeded games, move by move, to prove that a change to an engine keeps
every stored game replaying exactly as before.

A table's stored game is ``(game id, options, seed, action log)``; replaying it must give
the same states, events, views and refusals for ever. :func:`fingerprint` plays a seeded
game (random moves, with the ``normal`` AI now and then) and hashes, at every move, the
seat, the action and its events; every few moves also the snapshot, every view,
the legal actions, what the engine answers to the action written another way (lower-case
arguments: the form an old log or a typed code may hold) and to a few moves that are not
legal now (the error's class and message). Words are hashed as stored (a message id and
its arguments), as a stored game holds them. ``tests/data/replays/<game>.json`` holds the
fingerprints a game's engine gave when they were recorded: ``python -m tests.replays GAME…``
records (or rewrites) them, which is right for a new game and, for one already recorded,
only when a change of behaviour is meant. A game without them is not checked, and
``tests/test_replays.py`` says so (a skip naming this command).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import orjson

import games
from games.ai import choose_action
from games.base import Action, GameState
from games.errors import GameError
from games.rng import Rng
from tests.contract import contract_cases

RECORDINGS = Path(__file__).parent / "data" / "replays"
SEEDS = 1
"""Seeds recorded per table: a change of behaviour shows in nearly every game (the contract plays
more seeds of every table, for its own checks)."""
MAX_MOVES = 4000
DEEP_EVERY = 7
"""Snapshots, views, legal actions, other spellings and refusals are hashed every this many moves:
a state that went astray shows in the events of the moves between."""


def _dump(value: Any) -> bytes:
    """``value`` (plain JSON) as hashed: compact, keys sorted."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _lowered(action: Action) -> Action:
    return Action(action.kind, tuple(a.lower() if isinstance(a, str) else a for a in action.args))


def _answer(state: GameState, snapshot: dict[str, Any], seat: int, action: Any) -> Any:
    """What a copy of ``state`` (``snapshot``: its ``to_json()``) answers to ``action``: its
    events and snapshot, or the refusal."""
    copy = type(state).from_json(snapshot)
    try:
        events = copy.apply(seat, action)
    except GameError as exc:
        return [type(exc).__name__, str(exc)]
    return [[e.to_json() for e in events], copy.to_json()]


def fingerprint(game_id: str, players: int, options: dict[str, Any], seed: int) -> str:
    """The hash of one seeded game played to its end (or :data:`MAX_MOVES`), move by move."""
    game = games.get_game(game_id)
    state = game.new_game(players, options, seed)
    rng = Rng(seed * 7919 + players)
    digest = hashlib.sha256(_dump([e.to_json() for e in state.opening_events()]) + _dump(state.to_json()))
    seen: list[Action] = []
    for move in range(MAX_MOVES):
        acting = state.to_act()
        if not acting:
            break
        seat = acting[rng.below(len(acting))]
        legal = state.legal_actions(seat)
        if move % DEEP_EVERY == 0:
            snapshot = state.to_json()
            digest.update(_dump(snapshot))
            digest.update(_dump([state.view(v) for v in (None, *range(players))]))
            digest.update(_dump([a.code() for a in legal]))
            digest.update(_dump([str(a) for a in legal]))
            digest.update(_dump(_answer(state, snapshot, seat, _lowered(legal[rng.below(len(legal))]))))
            for other in [seen[rng.below(len(seen))] for _ in range(min(3, len(seen)))]:
                digest.update(_dump(_answer(state, snapshot, seat, other)))
        action = choose_action(state, seat, rng, "normal") if rng.below(4) == 0 else legal[rng.below(len(legal))]
        seen.append(action)
        events = state.apply(seat, action)
        digest.update(_dump([seat, action.code(), [e.to_json() for e in events]]))
    outcome = state.outcome()
    digest.update(_dump(outcome.to_json() if outcome else None))
    return digest.hexdigest()


def hard_choices(game_id: str) -> str:
    """The hash of the ``hard`` AI's first choices (a small budget) in a few seeded games."""
    game = games.get_game(game_id)
    digest = hashlib.sha256()
    for seed in range(2):
        state = game.new_game(game.allowed_player_counts()[0], dict(game.quick_options), seed)
        rng = Rng(seed)
        for _ in range(6):
            acting = state.to_act()
            if not acting:
                break
            action = choose_action(state, acting[0], rng, "hard", budget=150)
            digest.update(_dump([acting[0], action.code()]))
            state.apply(acting[0], action)
    return digest.hexdigest()


def cases(game_id: str) -> list[tuple[str, int, dict[str, Any], int]]:
    """A game's player counts × option sets of the contract test × :data:`SEEDS` seeds."""
    return [(game_id, players, options, seed)
            for players, options in contract_cases(games.get_game(game_id))
            for seed in range(SEEDS)]


def label(game_id: str, players: int, options: dict[str, Any], seed: int) -> str:
    return f"{game_id}-{players}p-" + "-".join(f"{k}={v}" for k, v in sorted(options.items())) + f"-s{seed}"


def recording(game_id: str) -> Path:
    return RECORDINGS / f"{game_id}.json"


def recorded(game_id: str) -> dict[str, str] | None:
    """The fingerprints recorded for a game, by :func:`label` (and ``<game>-hard``); ``None``: none yet."""
    path = recording(game_id)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def compute(game_id: str) -> dict[str, str]:
    found = {label(*case): fingerprint(*case) for case in cases(game_id)}
    found[f"{game_id}-hard"] = hard_choices(game_id)
    return found


if __name__ == "__main__":
    wanted = sys.argv[1:] or list(games.GAME_IDS)
    for game_id in wanted:
        games.get_game(game_id)
    for game_id in wanted:
        recording(game_id).write_text(json.dumps(compute(game_id), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        sys.stdout.write(f"wrote {recording(game_id)}\n")
