"""The engine contract shared by every game (DESIGN.md, "Engine contract").

A game module provides a :class:`Game` (rules, options, ``new_game``,
``from_json``) and a :class:`GameState` subclass. States are plain data plus a
seeded :class:`~games.rng.Rng`; they never touch Discord, asyncio, a database
or the wall clock.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, MutableMapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, NamedTuple, Self, TypeVar

from .cards import Card, shown_arg
from .codec import RNG, Objects, restore, snapshot, stored
from .errors import GameError, GameFinished, MalformedAction, NotYourTurn
from .i18n import SOURCE, Seat, Text, say
from .phrases import either
from .rng import Rng
from .rules_text import GameRules
from .slots import slot_setters

JsonScalar = str | int | bool | None


class Action(NamedTuple):
    """One move: a ``kind`` and positional ``args`` of JSON scalars (card codes, ints).

    Actions are values: equal when kind and args are equal, hashable, and
    comparable across the subclasses games define to word their moves (:meth:`words`).
    """

    kind: str
    args: tuple[JsonScalar, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": list(self.args)}

    @classmethod
    def from_json(cls, data: Any) -> Action:
        if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
            raise MalformedAction(say("not an action: {data}", data=repr(data)))
        args = data.get("args", [])
        if not isinstance(args, (list, tuple)) or not all(
            isinstance(a, (str, int, bool)) or a is None for a in args
        ):
            raise MalformedAction(say("action arguments must be a list of scalars: {args}", args=repr(args)))
        return cls(data["kind"], tuple(args))

    def code(self) -> str:
        """Compact text form (``play:QS``, ``draw``), used in custom_ids and logs."""
        if not self.args:
            return self.kind
        return self.kind + ":" + ",".join("" if a is None else str(a) for a in self.args)

    @classmethod
    def from_code(cls, text: str) -> Action:
        """Inverse of :meth:`code` for actions whose args are strings and ints."""
        if not isinstance(text, str) or not text or len(text) > 200:
            raise MalformedAction(say("not an action code: {text}", text=repr(text)))
        kind, _, rest = text.partition(":")
        args: list[JsonScalar] = []
        if rest:
            for part in rest.split(","):
                args.append(int(part) if re.fullmatch(r"-?\d+", part) else part)
        return cls(kind, tuple(args))

    def words(self) -> Text:
        """The move as players read it. A game's action class words its own moves (``play 7♠``);
        any other is shown as it is: its kind, then its arguments, cards in display form."""
        return Text.from_json(" ".join([self.kind, *(shown_arg(a) for a in self.args)]))

    def __str__(self) -> str:
        return str(self.words())


def action_parts(action: Any, what: Text) -> tuple[str, tuple[Any, ...]]:
    """``(kind, args)`` of anything shaped like an action (a kind and a tuple of args);
    otherwise :class:`MalformedAction` saying it is not ``what`` (e.g. ``say("a Q2J move")``).

    Whatever reaches ``apply`` (a decoded custom_id, a stored move) may be junk, so an
    engine calls this before it reads ``action.kind`` or ``action.args``."""
    try:
        kind, args = action
    except (TypeError, ValueError):
        raise MalformedAction(say("Not {what}: {action}", what=what, action=repr(action))) from None
    if type(kind) is not str or type(args) is not tuple:
        raise MalformedAction(say("Not {what}: {action}", what=what, action=repr(action)))
    return kind, args


T = TypeVar("T")


def prebuilt(table: Mapping[Action, T], action: Any) -> T | None:
    """``table``'s entry for ``action`` when it is one of a game's prebuilt actions (or
    equal to one); ``None`` for anything else, unhashable junk included. Engines keep their
    legal actions as constants parsed once, so ``apply`` reads a move with one lookup."""
    try:
        return table.get(action)
    except TypeError:
        return None


_SEAT_PLACEHOLDER = re.compile(r"\{p(\d+)\}")


def stored_text(data: Mapping[str, Any] | str) -> Text:
    """Words as an event or outcome stores them: a :class:`Text`'s plain form, or a sentence
    stored before words were data, its seats written ``{p0}``, ``{p1}``… (read back as that
    sentence, in the language it was stored in, seats named when it is rendered)."""
    if not isinstance(data, str):
        return Text.from_json(data)
    parts = _SEAT_PLACEHOLDER.split(data)
    if len(parts) == 1:
        return Text.from_json(data)
    words = [part.replace("{", "{{").replace("}", "}}") for part in parts[::2]]
    seats = [f"{{p{number}}}" for number in parts[1::2]]
    source = "".join(w + s for w, s in zip(words, [*seats, ""], strict=True))
    return Text(source, {f"p{number}": Seat(int(number)) for number in parts[1::2]})


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """A fact about the game, in words not yet in any language.

    ``text`` names players as :class:`~games.i18n.Seat` values, so the table shows their
    names. ``private_to`` is ``None`` for a public fact, or the only seat that may see it
    (e.g. which card that seat drew).
    """

    kind: str
    text: Text
    seat: int | None
    private_to: int | None

    def __init__(self, kind: str, text: Text, seat: int | None = None, private_to: int | None = None) -> None:
        _set_kind(self, kind)
        _set_text(self, text)
        _set_seat(self, seat)
        _set_private_to(self, private_to)

    def render(self, names: Sequence[str], language: str = SOURCE) -> str:
        """The fact in ``language``, seats named by ``names`` (a seat without a name: "Seat 3")."""
        return self.text.render(language, names)

    def visible_to(self, seat: int | None) -> bool:
        return self.private_to is None or self.private_to == seat

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text.to_json(), "seat": self.seat, "private_to": self.private_to}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """The inverse of :meth:`to_json`; an event stored before words were data (its text a
        sentence with ``{pN}`` seats) reads back as that sentence (:func:`stored_text`)."""
        return cls(data["kind"], stored_text(data["text"]), data.get("seat"), data.get("private_to"))


_set_kind, _set_text, _set_seat, _set_private_to = slot_setters(Event, "kind", "text", "seat", "private_to")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``ranking`` lists groups of seats from best to worst (a group holds seats
    that share a place); ``winners`` is the first group, empty when nobody won.
    ``scores`` is per seat, in the game's own points. ``reason`` says how it ended, in
    words naming players as seats, like :class:`Event` text.
    """

    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    reason: Text
    teams: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def by_place(cls, players: int, winners: tuple[int, ...], ranking: Sequence[tuple[int, ...]],
                 reason: Text) -> Outcome:
        """An outcome whose score for each seat is the number of the ``players`` seats ranked below it."""
        scores = [0] * players
        below = players
        for group in ranking:
            below -= len(group)
            for s in group:
                scores[s] = below
        return cls(winners, tuple(ranking), tuple(scores), reason)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "ranking": [list(g) for g in self.ranking],
            "scores": list(self.scores),
            "reason": self.reason.to_json(),
            "teams": [list(t) for t in self.teams],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """The inverse of :meth:`to_json`. A stored outcome lacking a part has it empty, and
        a reason stored before words were data (a sentence with ``{pN}`` seats) reads back
        as that sentence (:func:`stored_text`)."""
        return cls(
            tuple(data.get("winners") or ()),
            tuple(tuple(group) for group in data.get("ranking") or ()),
            tuple(data.get("scores") or ()),
            stored_text(data.get("reason") or ""),
            tuple(tuple(team) for team in data.get("teams") or ()),
        )


@dataclass(frozen=True)
class OptionSpec:
    """One table option: its default, and either fixed ``choices`` or a ``parse`` check
    (it returns the value, or raises :class:`GameError` saying what it expects)."""

    name: str
    default: Any
    description: Text
    choices: tuple[Any, ...] = ()
    parse: Callable[[Any], Any] | None = None
    prompt: Text | None = None
    """The option asked in one short line (at most 100 characters), e.g. as a slash-command
    option's description; ``None``: the description."""
    labels: Mapping[Any, Text] = field(default_factory=dict, compare=False)
    """Names players read for some ``choices`` (War's ``"no-cards"``: "Out when field and deck are empty")."""

    @property
    def bounds(self) -> tuple[int, int] | None:
        """``(low, high)`` for a whole-number option (its ``parse`` is :func:`int_option`)."""
        return (self.parse.low, self.parse.high) if isinstance(self.parse, IntRange) else None

    def check(self, value: Any) -> Any:
        """``value`` as the game takes it; :class:`GameError` saying why when it is not valid."""
        if self.choices:
            if value not in self.choices:
                allowed = ", ".join(str(c) for c in self.choices)
                raise GameError(say("Option {name}={value} is not valid; choose one of: {allowed}",
                                    name=self.name, value=repr(value), allowed=allowed))
            return value
        if self.parse is not None:
            try:
                return self.parse(value)
            except GameError as exc:
                raise GameError(say("Option {name}={value} is not valid: {why}",
                                    name=self.name, value=repr(value), why=exc.text)) from None
        return value


@dataclass(frozen=True)
class IntRange:
    """An OptionSpec ``parse`` for whole numbers in ``[low, high]``."""

    low: int
    high: int

    def __call__(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise GameError(say("expected a whole number"))
        if not self.low <= value <= self.high:
            raise GameError(say("expected a number from {low} to {high}", low=self.low, high=self.high))
        return value


def int_option(low: int, high: int) -> IntRange:
    """An OptionSpec ``parse`` for whole numbers in ``[low, high]``."""
    return IntRange(low, high)


def bool_option(value: Any) -> bool:
    """An OptionSpec ``parse`` for ``true`` or ``false``."""
    if not isinstance(value, bool):
        raise GameError(say("expected true or false"))
    return value


CheckOptions = Callable[[dict[str, Any], int | None], None]


def normalize_options(
    game_name: str,
    specs: Sequence[OptionSpec],
    options: Mapping[str, Any] | None,
    players: int | None = None,
    check: CheckOptions | None = None,
) -> dict[str, Any]:
    """Fill defaults and validate; unknown names, bad values or combinations raise GameError.

    With ``players`` unknown (a lobby), checks that depend on the count wait for ``new_game``.
    A game's state uses this directly (its hand-set positions), its :class:`Game` through
    :meth:`Game.normalize_options`.
    """
    options = dict(options or {})
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(options) - set(known))
    if unknown:
        if known:
            raise GameError(say("Unknown option {option} for {game}; options are: {names}",
                                option=repr(unknown[0]), game=game_name, names=", ".join(known)))
        raise GameError(say("Unknown option {option} for {game}; options are: none", option=repr(unknown[0]),
                            game=game_name))
    normalized = {name: spec.check(options.get(name, spec.default)) for name, spec in known.items()}
    if check is not None:
        check(normalized, players)
    return normalized


def count_text(counts: tuple[int, ...]) -> Text:
    """``2–10``, ``2 or 4``, ``2`` — player counts in words."""
    if len(counts) > 1 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return say("{low}–{high}", low=counts[0], high=counts[-1])
    return say("{counts}", counts=either(counts))


@dataclass(eq=False, kw_only=True)
class GameState(ABC):
    """A game in progress. Subclasses are dataclasses of plain data and a seeded Rng;
    every constructor field is stored in the snapshot (see :mod:`games.codec`).

    ``apply`` validates first and raises a :class:`GameError` subclass without
    changing anything when the action is not allowed.
    """

    game_id: ClassVar[str]
    """The id of the game played: set by the :class:`Game` whose ``state_class`` this is
    (a state class without a Game, such as a test's, declares it)."""
    snapshot_format: ClassVar[int] = 1
    """Bump it when the stored fields change, and keep reading the old format: override
    ``from_json`` to upgrade an older snapshot before handing it to ``super().from_json``."""

    players: int
    options: dict[str, Any]
    seed: int
    rng: Rng = stored(RNG)
    opening: list[Event] = stored(Objects(Event), default_factory=list)
    """Public facts of the deal, announced before the first move (see :meth:`opening_events`)."""

    @classmethod
    @abstractmethod
    def new_game(cls, players: int, options: dict[str, Any], seed: int) -> Self:
        """A freshly dealt game; ``options`` are already normalised and checked
        (use :meth:`Game.new_game`, which does that)."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The state :meth:`to_json` wrote; a broken snapshot raises :class:`MalformedAction`."""
        return restore(cls, data)

    def to_json(self, *, shared: bool = False) -> dict[str, Any]:
        """A JSON-safe snapshot; :meth:`from_json` is its exact inverse. With ``shared`` it
        holds the state's own lists (see :func:`~games.codec.snapshot`): serialise it at once."""
        return snapshot(self, shared=shared)

    @abstractmethod
    def to_act(self) -> list[int]:
        """Seats that may act now; ``[]`` when the game is over; several when simultaneous."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (``[]`` when it may not act)."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and play ``action`` for ``seat``; return what happened."""

    @abstractmethod
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` (``None``: the public) may see, JSON-safe; a seat's own cards under ``"hand"``."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def opening_events(self) -> list[Event]:
        """Public facts of the deal the table announces before the first move
        (e.g. why a seat starts); ``[]`` for games without any."""
        return list(self.opening)

    @abstractmethod
    def zones(self) -> dict[str, list[Card]]:
        """Every card of the game by zone (``"stock"``, ``"hand:0"``…), for conservation checks."""

    @abstractmethod
    def hidden_cards(self, seat: int | None) -> list[Card]:
        """The cards ``seat`` (``None``: the public) may not see now, duplicates included."""

    def check_seat(self, seat: int) -> None:
        """Raise :class:`MalformedAction` unless ``seat`` is a seat at this table."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise MalformedAction(say("There is no seat {seat} at this table", seat=repr(seat)))

    def check_viewer(self, seat: int | None) -> None:
        """For views: raise :class:`MalformedAction` unless ``seat`` is ``None`` (the public) or a seat."""
        if seat is not None:
            self.check_seat(seat)

    def check_turn(self, seat: int) -> None:
        """Raise the right error when ``seat`` may not act now (shared by engines)."""
        self.check_seat(seat)
        if self.is_over():
            raise GameFinished(say("This game is over; no more moves can be made"))
        if seat not in self.to_act():
            raise NotYourTurn(say("It's not your turn"))


S = TypeVar("S", bound=GameState)
Policy = Callable[[S, int, Rng], Action]
"""A way to play: the action a seat takes in a state (a legal one), drawing on the rng."""
Container = MutableSequence[Any] | MutableMapping[str, Any]
Slot = tuple[Container, Any]
"""A place in a snapshot that holds one card: ``(list or dict, index or key)``."""


@dataclass(frozen=True)
class SearchHooks(Generic[S]):
    """What the ``hard`` AI (:mod:`games.search`, :mod:`games.determinize`) needs to know
    about a game: where the cards a seat can't see lie, what an unfinished position is
    worth, and how long to search. Only the first four are required."""

    hidden_slots: Callable[[dict[str, Any], int | None], list[Slot]]
    """Every place in a snapshot holding a card ``seat`` (``None``: the public) can't see;
    the cards there are exactly ``state.hidden_cards(seat)``."""
    evaluate: Callable[[S, int], float]
    """What an unfinished position is worth to ``seat``, from 0 (lost) to 1 (won)."""
    budget: int
    """Simulated moves per decision (the same on any machine: no clock)."""
    rollout_moves: int
    """The most moves one playout plays before ``evaluate`` judges it."""
    tidy: Callable[[dict[str, Any]], None] | None = None
    """Restores an order the engine keeps (sorted hands) after hidden cards are dealt again."""
    excluded: Callable[[dict[str, Any], int | None, list[Slot]], list[frozenset[str] | None]] | None = None
    """Per slot, the codes the seat's view rules out of it (``None``: nothing)."""
    playout_length: Callable[[S], int] | None = None
    """A playout length that depends on the position, instead of ``rollout_moves``."""
    stage: Callable[[S], object] | None = None
    """Playouts stop when this changes (e.g. when a new round is dealt)."""
    candidates: Callable[[S, int, list[Action], Action], list[Action]] | None = None
    """The moves worth comparing, the ``base_policy`` choice first; only it: nothing to search."""
    base_policy: Policy[S] | None = None
    """The move the search starts from and plays when there is nothing to search (default: ``normal``)."""
    rollout_policy: Policy[S] | None = None
    """How every seat plays in playouts (default: ``base_policy``)."""
    margin: float | None = None
    """How much better than the first candidate another must look to replace it
    (default: :data:`games.search.MARGIN`)."""
    search_action: Callable[[S, int, Rng, int | None, Policy[S]], Action | None] | None = None
    """A search of the game's own instead of the shared one: its choice, or ``None`` to play the policy's."""


@dataclass(frozen=True)
class Game(Generic[S]):
    """A registered game: its rules entry point, table options and AI.

    A game declares who it is once, here: its id, name and command are given to its state
    class (``GameState.game_id``) and its rules (``GameRules.id``, ``name``, ``command``)."""

    id: str
    """Lower case, words joined by ``-`` (``queen-of-spades``); the package (or module) is
    the id with ``-`` turned into ``_`` (``games/queen_of_spades/``)."""
    name: str
    """The game's name, a proper name said the same in every language (``Q Squared Joe War``)."""
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    state_class: type[S]
    action_class: type[Action] = Action
    player_counts: tuple[int, ...] = field(default=())
    ai: Policy[S] | None = None
    """The game's ``normal`` AI policy (legal actions only); ``None`` plays uniformly at random."""
    reason: Callable[[S, int, Action], Text] | None = None
    """Why ``ai`` plays an action, in one line for a hint ("same suit, lower is stronger:
    it beats J♣"); ``None``: a generic line (:data:`games.hints.GENERIC_REASON`)."""
    search: SearchHooks[S] | None = None
    """What the ``hard`` AI needs; ``None``: ``hard`` plays like ``normal``."""
    points: Text | None = None
    """What ``Outcome.scores`` count when they are points worth adding up on a
    leaderboard (e.g. ``"match points"``); ``None`` when scores only order players."""
    standing: Callable[[int], Text] | None = None
    """A seat's final score (its ``Outcome.scores`` entry) in words with its unit, for the
    final standings: ``lambda score: plural("{count} book", "{count} books", score)``;
    ``None``: the score followed by ``points`` (see :meth:`standing_text`)."""
    on_timeout: Callable[[S, int], Action] | None = None
    """What a seat's move becomes when its turn timer runs out; ``None``: the AI plays it."""
    check_options: CheckOptions | None = None
    """Cross-option checks, raising GameError; ``players`` is ``None`` before the seats are known."""
    command: str = ""
    """The slash-command group that opens a table (``"qos"`` for ``/qos start``); empty: the id."""
    summary: Text | None = None
    """One line saying what the game is, for command descriptions and lists."""
    sides: tuple[Text, ...] = ()
    """Names of the sides seats play on (QUASH: ``("RED", "BLACK")``), seat ``s`` on side
    ``s % len(sides)``; empty for games where everyone plays alone."""
    order: int = 100
    """Where the game comes in lists (``GAME_IDS``, ``/rules``, ``docs/rules.md``): lowest first."""
    rules: GameRules | None = None
    """The game's rules in words, for ``/rules`` and ``docs/rules.md`` (the game fills in
    their id, name and start command)."""
    quick_options: Mapping[str, Any] = field(default_factory=dict)
    """Options that keep a game played at random short (e.g. a few rounds instead of a
    target score), merged into every case of the shared contract test."""
    usual_players: int = 2
    """How many usually sit at a table of it: a tournament's tables have this many seats
    unless its host chooses otherwise (or the options chosen refuse it: then the fewest)."""

    def __post_init__(self) -> None:
        if not self.command:
            object.__setattr__(self, "command", self.id)
        bound = self.state_class.__dict__.get("game_id")
        if bound is not None and bound != self.id:
            raise GameError(say("{state} is the state of {bound}, not of {game}", state=self.state_class.__name__,
                                bound=repr(bound), game=repr(self.id)))
        self.state_class.game_id = self.id
        if self.rules is not None:
            object.__setattr__(self, "rules", self.rules.of_game(self.id, self.name, self.start_command))
        if self.usual_players not in self.allowed_player_counts():
            raise GameError(say("{game} is for {counts} players, not {players}", game=self.name,
                                counts=count_text(self.allowed_player_counts()), players=repr(self.usual_players)))

    @property
    def start_command(self) -> str:
        """The command that opens a table, as typed in English: ``/qos start``."""
        return f"/{self.command} start"

    def standing_text(self, score: int) -> Text | None:
        """A seat's final score in words with its unit: :attr:`standing`'s, else the score and
        :attr:`points` ("42 match points"); ``None`` when the game gives its scores no unit."""
        if self.standing is not None:
            return self.standing(score)
        if self.points is not None:
            return say("{points} {unit}", points=score, unit=self.points)
        return None

    @property
    def package(self) -> str:
        """The game's package name under ``games/``: the id with ``-`` turned into ``_``."""
        return self.id.replace("-", "_")

    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Which seats play together: one group per side, or every seat alone."""
        if not self.sides:
            return tuple((seat,) for seat in range(players))
        return tuple(tuple(range(side, players, len(self.sides))) for side in range(len(self.sides)))

    def allowed_player_counts(self) -> tuple[int, ...]:
        return self.player_counts or tuple(range(self.min_players, self.max_players + 1))

    def normalize_options(self, options: Mapping[str, Any] | None, players: int | None = None) -> dict[str, Any]:
        """:func:`normalize_options` with this game's options and checks."""
        return normalize_options(self.name, self.options, options, players, self.check_options)

    def new_game(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> S:
        """A new game: checks the player count, seed and options, then deals (``state_class.new_game``)."""
        if isinstance(players, bool) or not isinstance(players, int) or players not in self.allowed_player_counts():
            raise GameError(say("{game} is for {counts} players, not {players}", game=self.name,
                                counts=count_text(self.allowed_player_counts()), players=repr(players)))
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise GameError(say("seed must be an integer, not {seed}", seed=repr(seed)))
        return self.state_class.new_game(players, self.normalize_options(options, players), seed)

    def from_json(self, data: Mapping[str, Any]) -> S:
        return self.state_class.from_json(data)

    def action_from_json(self, data: Any) -> Action:
        return self.action_class.from_json(data)

    def replay(self, players: int, options: Mapping[str, Any] | None, seed: int,
               log: Iterable[tuple[int, Action]]) -> S:
        """Rebuild a state from its seed and action log."""
        state = self.new_game(players, options, seed)
        for seat, action in log:
            state.apply(seat, action)
        return state
