"""The engine contract every game must pass (DESIGN.md, "Engine contract" and "Testing").

``contract_cases(game)`` lists the tables to try for a registered game (from its
option specs and player counts); ``check_contract(game_id, players, options,
seed)`` plays one seeded random game and checks, along the way:

- termination within ``max_steps`` actions, then a sane ``outcome()`` and
  ``GameFinished`` for any further move;
- card conservation: the multiset of every card in ``zones()`` is the deal's at every deep
  check and at the end (a card lost or made stays lost or made, so it is found there);
- snapshots: ``to_json`` survives a JSON round trip and
  ``from_json`` exactly, and a restored state continues exactly like the
  original (same events, same snapshots);
- replay: ``Game.replay(players, options, seed, log)`` rebuilds the same state,
  with the log's actions passed through their JSON form;
- legal actions are accepted (every one, or :data:`LEGAL_TRIED` drawn at random where
  there are more); actions seen legal at other times (and a few nonsense ones) are
  refused with a ``GameError`` when not legal now, leaving ``to_json`` unchanged; seats
  not in ``to_act`` have no legal action and get ``NotYourTurn``;
- views are JSON-safe, seat views hold ``"hand"``, and no entry of a view
  shows more copies of a card than ``total - hidden_cards(viewer)``;
- every action round-trips ``to_json``/``from_json`` and ``code``/``from_code`` (each
  action once per process: the same action checks the same way).

Nothing here measures time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import chain, product
from operator import attrgetter
from typing import Any

import orjson

import games
from games.base import Action, Event, Game, GameState, OptionSpec
from games.cards import standard_deck
from games.errors import GameError, GameFinished, NotYourTurn
from games.rng import Rng

CARD_CODES = frozenset(c.code for c in standard_deck(1, 1))
NONSENSE = (Action("no-such-move"), Action("play", ()), Action("play", ("XX",)), Action("draw", ("QS", 99)))


def option_values(spec: OptionSpec) -> tuple[Any, ...]:
    """Every value of an option with a few: its choices, or both values of a true/false option."""
    return spec.choices or ((False, True) if isinstance(spec.default, bool) else ())


def contract_cases(game: Game) -> list[tuple[int, dict[str, Any]]]:
    """``(players, options)`` for every player count ``game`` allows × every combination of its
    options with a few values (choices, or true/false; the others at their defaults), except
    what the game refuses; ``Game.quick_options`` are added to each so that random play ends soon."""
    chosen = [spec for spec in game.options if option_values(spec)]
    cases = []
    for players in game.allowed_player_counts():
        for values in product(*(option_values(spec) for spec in chosen)):
            options = {**game.quick_options, **{spec.name: v for spec, v in zip(chosen, values)}}
            try:
                game.normalize_options(options, players)
            except GameError:
                continue
            cases.append((players, options))
    return cases


def card_counts(state: GameState) -> Counter[str]:
    """Every card in play, by code."""
    return Counter(map(_CODE, chain.from_iterable(state.zones().values())))


_CODE = attrgetter("code")


class Conservation:
    """Checks that the multiset of cards in a state's zones never changes.

    Cards are interned (games/cards.py), so the same cards are the same objects: the check
    compares object identities first (cheap) and compares codes only when those differ, so a
    game that builds a fresh but equal card is judged by codes, as :func:`card_counts` does."""

    def __init__(self, state: GameState) -> None:
        self.codes = card_counts(state)
        self.objects = self._objects(state)

    @staticmethod
    def _objects(state: GameState) -> list[int]:
        return sorted(map(id, chain.from_iterable(state.zones().values())))

    def check(self, state: GameState) -> None:
        if self._objects(state) != self.objects:
            assert card_counts(state) == self.codes, "cards were created or lost"


def codes_in(data: Any) -> Counter[str]:
    """Card codes occurring as whole strings anywhere in a JSON value (keys included)."""
    found: Counter[str] = Counter()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in CARD_CODES:
                found[item] += 1
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def json_roundtrip(value: Any) -> Any:
    """``value`` written as JSON and read back (by orjson, as the storage writes it: a key that
    is not a string is refused, NaN comes back as ``None``, a tuple as a list, so comparing
    with ``value`` finds what is not plain JSON)."""
    return orjson.loads(orjson.dumps(value))


def check_views(state: GameState, viewers: Iterable[int | None] | None = None) -> None:
    """Views (the public's and every seat's, or those of ``viewers``) are JSON-safe and never
    show a card hidden from their viewer."""
    total = card_counts(state)
    shown_by_text: dict[bytes, Counter[str]] = {}  # seats' views share most entries: count each once
    for viewer in [None, *range(state.players)] if viewers is None else viewers:
        view = state.view(viewer)
        texts = {key: orjson.dumps(entry) for key, entry in view.items()}
        plain = all(type(key) is str for key in view) and {k: orjson.loads(t) for k, t in texts.items()} == view
        assert plain, f"view({viewer}) is not plain JSON"
        if viewer is not None:
            assert isinstance(view.get("hand"), list), f"view({viewer}) has no 'hand' list"
        visible = total - Counter(c.code for c in state.hidden_cards(viewer))
        # A view may name a visible card under several keys (a seat's "hand" and a
        # face-up "hands" table, a list of penalty cards…), so the multiset bound
        # applies to each top-level entry; no entry may name a card with no visible copy.
        for key, text in texts.items():
            shown = shown_by_text.get(text)
            if shown is None:
                shown = shown_by_text[text] = codes_in(view[key])
            leaked = {code: n for code, n in shown.items() if n > visible[code]}
            assert not leaked, f"view({viewer})[{key!r}] shows hidden cards {leaked}"


_FORMS_CHECKED: set[tuple[str, Action]] = set()


def check_action_forms(game: Game, action: Action) -> None:
    if (game.id, action) in _FORMS_CHECKED:
        return
    _FORMS_CHECKED.add((game.id, action))
    assert game.action_from_json(json_roundtrip(action.to_json())) == action
    if all(isinstance(a, (str, int)) and not isinstance(a, bool) for a in action.args):
        assert type(action).from_code(action.code()) == action, action.code()
    assert str(action)


def check_refusals(
    game: Game, state: GameState, seat: int, legal: list[Action], pool: Mapping[Action, None], rng: Rng
) -> None:
    """Illegal actions and wrong seats raise GameError and change nothing.

    ``pool`` holds every action seen legal so far, in the order first seen (so the draw
    from it is the same on every run)."""
    before = state.to_json()
    legal_set = set(legal)
    illegal = [a for a in pool if a not in legal_set]
    tries = [illegal[rng.below(len(illegal))] for _ in range(min(4, len(illegal)))] + list(NONSENSE)
    refused = []
    for action in tries:
        if action in legal_set:
            continue
        try:
            state.apply(seat, action)
        except GameError as exc:
            assert str(exc), "error without a message"
        else:
            raise AssertionError(f"illegal {action!r} was accepted for seat {seat}")
        refused.append(action)
    assert state.to_json() == before, f"refusing {refused!r} for seat {seat} changed the state"
    acting = set(state.to_act())
    for other in range(state.players):
        if other in acting:
            continue
        assert state.legal_actions(other) == [], f"seat {other} is not to act but has legal actions"
        try:
            state.apply(other, legal[0])
        except NotYourTurn:
            pass
        else:
            raise AssertionError(f"seat {other} acted out of turn")
    assert state.to_json() == before, f"refusing {legal[0]!r} to seats not to act changed the state"


LEGAL_TRIED = 10
"""Legal actions tried on copies at a deep check: all of them, or this many drawn at random (an
advanced QUASH turn lists hundreds of chains, and each try restores a copy)."""


def check_legal_accepted(
    game: Game, snapshot: Mapping[str, Any], seat: int, legal: list[Action], rng: Rng
) -> None:
    left = list(legal)
    tried = left if len(left) <= LEGAL_TRIED else [left.pop(rng.below(len(left))) for _ in range(LEGAL_TRIED)]
    for action in tried:
        copy = game.from_json(snapshot)
        events = copy.apply(seat, action)
        assert isinstance(events, list) and all(isinstance(e, Event) for e in events)


def check_events(events: Any, names: list[str]) -> None:
    """Events are a list of :class:`Event`, plain JSON, private to a seat or to none, and render
    with the seats' ``names``."""
    assert isinstance(events, list) and all(isinstance(event, Event) for event in events)
    data = [event.to_json() for event in events]
    assert json_roundtrip(data) == data
    for event in events:
        assert event.private_to is None or 0 <= event.private_to < len(names)
        event.render(names)


DEEP_CHECKS_AT_FULL_RATE = 50
"""Past ``check_every × DEEP_CHECKS_AT_FULL_RATE`` steps (the long tail of a 10-seat elimination
match), deep checks thin out as ``steps / DEEP_CHECKS_AT_FULL_RATE``: they still reach its end,
about 50 more for each e-fold of steps, rather than a fixed share of every step."""

VIEWERS_PER_CHECK = 4
"""Views checked at each deep check: the public's, the acting seat's and others drawn at random
(all of them at the start and the end), so that a 10-seat table costs what a 3-seat one does."""


def viewers_to_check(state: GameState, seat: int, rng: Rng) -> list[int | None]:
    others = [s for s in range(state.players) if s != seat]
    drawn = [others.pop(rng.below(len(others))) for _ in range(min(len(others), VIEWERS_PER_CHECK - 2))]
    return [None, seat, *drawn]


def check_contract(
    game_id: str,
    players: int,
    options: Mapping[str, Any] | None,
    seed: int,
    *,
    max_steps: int = 50_000,
    check_every: int = 25,
    follow: int = 30,
) -> GameState:
    """Play one random game, checking the contract; return the finished state.

    Deep checks (views, refusals, every legal action, snapshot round trip) run
    at the start and then on average every ``check_every`` steps (less often in
    very long games: :data:`DEEP_CHECKS_AT_FULL_RATE`); a restored
    copy then follows the original for ``follow`` steps. Every view is checked at
    the start and the end; a deep check looks at :data:`VIEWERS_PER_CHECK` of them.
    """
    game = games.get_game(game_id)
    state = game.new_game(players, options, seed)
    assert state.game_id == game_id
    rng = Rng(seed * 1_000_003 + players)
    tries = Rng(seed)  # draws the legal actions tried, apart from ``rng``: the games played stay the same
    cards = Conservation(state)
    names = [f"P{i}" for i in range(players)]
    for event in state.opening_events():
        assert event.private_to is None
    log: list[tuple[int, Action]] = []
    pool: dict[Action, None] = {}
    shadow: GameState | None = None
    shadow_left = 0
    steps = 0
    while not state.is_over():
        assert steps < max_steps, f"{game_id} {players}p {options} seed {seed}: no end after {steps} steps"
        acting = state.to_act()
        assert acting and all(0 <= s < players for s in acting)
        seat = acting[rng.below(len(acting))]
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to act with no legal action"
        assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
        pool.update(dict.fromkeys(legal))
        if steps == 0:
            check_views(state)
        if steps == 0 or rng.below(max(check_every, steps // DEEP_CHECKS_AT_FULL_RATE)) == 0:
            cards.check(state)
            snapshot = state.to_json()
            restored_data = json_roundtrip(snapshot)
            assert restored_data == snapshot, "to_json is not plain JSON"
            restored = game.from_json(restored_data)
            assert restored.to_json() == snapshot
            check_views(state, viewers_to_check(state, seat, rng))
            check_refusals(game, state, seat, legal, pool, rng)
            check_legal_accepted(game, restored_data, seat, legal, tries)
            if shadow is None:
                shadow, shadow_left = restored, follow
        action = legal[rng.below(len(legal))]
        events = state.apply(seat, action)
        check_events(events, names)
        if shadow is not None:
            assert [e.to_json() for e in shadow.apply(seat, action)] == [e.to_json() for e in events]
            shadow_left -= 1
            if shadow_left == 0 or state.is_over():
                assert shadow.to_json() == state.to_json(), "a restored state diverged"
                shadow = None
        log.append((seat, action))
        steps += 1

    cards.check(state)
    check_finished(game, state, pool)
    check_views(state)
    logged = [(seat, game.action_from_json(a)) for (seat, _), a in zip(log, json_roundtrip([a.to_json() for _, a in log]))]
    replayed = game.replay(players, options, seed, logged)
    assert replayed.to_json() == state.to_json(), "replay from the log differs"
    for action in pool:
        check_action_forms(game, action)
    return state


def check_finished(game: Game, state: GameState, pool: Iterable[Action]) -> None:
    assert state.to_act() == []
    outcome = state.outcome()
    assert outcome is not None
    seats = range(state.players)
    assert len(outcome.scores) == state.players
    ranked = [s for group in outcome.ranking for s in group]
    assert len(ranked) == len(set(ranked)) and all(s in seats for s in ranked)
    assert set(outcome.winners) <= set(seats)
    if outcome.winners:
        assert tuple(outcome.ranking[0]) == tuple(outcome.winners)
    json_roundtrip(outcome.to_json())
    for seat in seats:
        assert state.legal_actions(seat) == []
        for action in list(pool)[:3]:
            try:
                state.apply(seat, action)
            except GameFinished:
                pass
            else:
                raise AssertionError("a move was accepted after the end")


def check_ai_game(
    game_id: str, players: int, options: Mapping[str, Any] | None, seed: int, *, check_every: int = 20,
    max_steps: int = 5_000,
) -> GameState:
    """Play one game with every seat choosing by ``games.ai.choose_action``; return the finished state.

    AI seats reach positions random play rarely shows (long defended stacks, big sets, won
    tiebreaks, stall ends). Every chosen action is legal, cards are conserved, views and a
    snapshot round trip hold every ``check_every`` moves, the game ends within ``max_steps``
    moves as :func:`check_finished` expects, and it replays from its log."""
    from games.ai import choose_action

    game = games.get_game(game_id)
    state = game.new_game(players, options, seed)
    cards = Conservation(state)
    rng = Rng(seed)
    log: list[tuple[int, Action]] = []
    pool: dict[Action, None] = {}
    while not state.is_over():
        assert len(log) < max_steps, f"{game_id} {players}p {options} seed {seed}: AI play did not end"
        acting = state.to_act()
        seat = acting[rng.below(len(acting))]
        legal = state.legal_actions(seat)
        pool.update(dict.fromkeys(legal))
        action = choose_action(state, seat, rng)
        assert action in legal, f"the AI chose {action!r}, which is not legal"
        state.apply(seat, action)
        log.append((seat, action))
        cards.check(state)
        if len(log) % check_every == 0:
            check_views(state)
            snapshot = json_roundtrip(state.to_json())
            assert game.from_json(snapshot).to_json() == state.to_json()
    check_finished(game, state, pool)
    check_views(state)
    assert game.replay(players, options, seed, log).to_json() == state.to_json(), "replay from the log differs"
    return state
