"""Nothing an engine says escapes the French catalog: seeded random games of every game, at
every player count and option set, are played while every event, outcome, refusal (of moves
not legal now, of malformed ones, of bad options), hint reason and move is rendered in French.
Each sentence with English words must read differently in French (so must each sentence nested
in it), and no placeholder may be left unfilled. English words the two languages share
(:data:`SAME_IN_FRENCH`) may stay."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import games
from games.base import Action, Game, GameState
from games.errors import GameError
from games.hints import hint
from games.i18n import SOURCE, Text
from games.i18n.__main__ import merged
from games.rng import Rng
from tests.contract import NONSENSE, contract_cases
from tests.replays import label

FRENCH = "fr"
NAMES = ("Ana", "Ben", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
SEEDS = 1
MAX_MOVES = 600
PROBE_EVERY = 5
"""Hints, moves' words and refusals are gathered every this many moves."""
SAME_IN_FRENCH = frozenset({"triple", "double", "joker", "jokers", "As", "table", "version", "page", "Page", "menu",
                            "Points", "normal", "score", "bonus", "standard", "QUASH", "pt", "pts"})
"""English words French writes the same (QUASH's spot kinds; "As" is the plural of an ace there; what a
refusal of a forged control names; the leaderboard's order "Points"; a score, a bonus, the standard
variant, the normal AI level, the game QUASH, points as "pts")."""
WORD = re.compile(r"[A-Za-z]{2,}")
PLACEHOLDER = re.compile(r"\{\w+\}")


def problems(text: Text) -> list[str]:
    """What is wrong with ``text`` in French: a placeholder left unfilled, or a sentence (it or
    one nested in it) whose French is its English although it has English words."""
    english, french = text.render(SOURCE, NAMES), text.render(FRENCH, NAMES)
    found = []
    if "{" in french or "}" in french:
        found.append(f"unfilled placeholder: {french!r}")
    if french == english and english_words(english):
        found.append(f"untranslated: {text.source!r} -> {french!r}")
    for value in text.args.values():
        if isinstance(value, Text):
            found += problems(value)
    return found


def english_words(text: str) -> set[str]:
    """The words of ``text`` that French would not write the same: not placeholders, names
    or :data:`SAME_IN_FRENCH`."""
    return set(WORD.findall(PLACEHOLDER.sub("", text))) - set(NAMES) - SAME_IN_FRENCH


def refusal(state: GameState, seat: int, action: Any) -> Text | None:
    """What the engine answers to ``action`` (not legal now), or ``None`` when it played it."""
    try:
        state.apply(seat, action)
    except GameError as exc:
        assert str(exc) == exc.text.render(SOURCE)
        return exc.text
    return None


def variants(action: Action) -> list[Action]:
    """``action`` written wrong: an argument short, one too many, codes that name nothing."""
    args = action.args
    return [Action(action.kind, args[:-1]), Action(action.kind, (*args, "zz")),
            Action(action.kind, tuple("ZZ" if isinstance(a, str) else -7 for a in args))]


def table_words(game: Game) -> Iterator[Text]:
    """What players read of a game before it is played: its summary, points, results' unit, sides
    and options, and the refusals of bad options and player counts."""
    yield from (t for t in (game.summary, game.points, game.standing_text(2), *game.sides) if t is not None)
    for spec in game.options:
        yield spec.description
        yield from (t for t in (spec.prompt, *spec.labels.values()) if t is not None)
        try:
            spec.check(object())
        except GameError as exc:
            yield exc.text
    for bad in ({"no-such-option": 1}, ):
        try:
            game.normalize_options(bad)
        except GameError as exc:
            yield exc.text
    try:
        game.new_game(99)
    except GameError as exc:
        yield exc.text


def played_words(game: Game, players: int, options: dict[str, Any], seed: int) -> Iterator[Text]:
    """Everything a seeded random game says: events, outcome, hints, moves and refusals."""
    state = game.new_game(players, options, seed)
    rng = Rng(seed)
    yield from (e.text for e in state.opening_events())
    seen: list[Action] = []
    for move in range(MAX_MOVES):
        acting = state.to_act()
        if not acting:
            break
        seat = acting[rng.below(len(acting))]
        legal = state.legal_actions(seat)
        if move % PROBE_EVERY == 0:
            yield hint(state, seat).why
            yield from (a.words() for a in legal[:20])
            tries = [a for a in seen[-30:] if a not in legal] + list(NONSENSE) + variants(legal[rng.below(len(legal))])
            tries = [a for a in tries if a not in legal]
            others = [s for s in range(players) if s not in acting]
            answers = [refusal(state, seat, a) for a in tries]
            answers += [refusal(state, s, legal[0]) for s in others[:1]]
            if any(answer is None for answer in answers):
                continue  # a spelling the engine accepts was played: go on from there
            yield from (a for a in answers if a is not None)
        action = legal[rng.below(len(legal))]
        seen.append(action)
        yield from (e.text for e in state.apply(seat, action))
    outcome = state.outcome()
    if outcome is not None:
        yield outcome.reason
        yield from (t for t in [refusal(state, 0, seen[-1])] if t is not None)


def _cases() -> list[Any]:
    return [pytest.param(game.id, players, options, seed, id=label(game.id, players, options, seed))
            for game in games.all_games() for players, options in contract_cases(game) for seed in range(SEEDS)]


@pytest.mark.parametrize("game_id", [game.id for game in games.all_games()])
def test_every_word_of_a_table_is_french(game_id: str) -> None:
    wrong = [p for text in table_words(games.get_game(game_id)) for p in problems(text)]
    assert not wrong, "\n".join(sorted(set(wrong)))


@pytest.mark.parametrize(("game_id", "players", "options", "seed"), _cases())
def test_every_word_of_a_game_is_french(game_id: str, players: int, options: dict[str, Any], seed: int) -> None:
    wrong = [p for text in played_words(games.get_game(game_id), players, options, seed) for p in problems(text)]
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_no_engine_sentence_of_the_catalog_is_left_in_english() -> None:
    """The catalog's side of the same promise, for what random play rarely reaches (a tie of
    four, a hand-set position's refusals): each engine sentence reads differently in French.
    The rules texts are translated on their own and not judged here."""
    left = []
    for message in merged(FRENCH):
        if not message.id or message.context or all("rules_text" in path for path, _ in message.locations):
            continue
        sources = list(message.id) if isinstance(message.id, (tuple, list)) else [message.id]
        strings = list(message.string) if isinstance(message.string, (tuple, list)) else [message.string]
        if any(str(t) == sources[min(i, len(sources) - 1)] and english_words(str(t)) for i, t in enumerate(strings)):
            left.append(sources[0])
    assert not left, left
