"""The Q2J game state: plain data, a seeded Rng, legal moves (the moves themselves are in turns.py).

Representation (all JSON-friendly once cards become codes):

- ``hands[s]``: card ids, kept sorted (suit, then rank), for every seat;
- ``stock`` and ``discard``: card ids, the top is the last element;
- ``turn``: the seat to act; ``duty``: the seat that played a Q² pair still
  lying on top of the pile (``None`` otherwise), ``free``: the seat to act
  is the one the duty came back to, who may play any single card;
- ``playing[s]``: the seat still holds cards in the current game (in an
  elimination match seats that emptied their hand or were eliminated stop
  playing); ``eliminated``: seats knocked out, in order; ``game_number``;
- ``levels[s]``: countdown size of the seat's current hand (5 … 1);
- ``history``: every move since the cards were last dealt, public, packed as
  :mod:`games.q2j.history` describes (snapshots of format 1 had none: they load
  with ``[]``);
- ``known[s]``: the cards of seat ``s``'s hand the whole table knows: those it
  showed while the first player was chosen at the last deal (its face-up card, and
  any that broke a tie), until it plays them; ``[]`` (nothing known, for every seat)
  in snapshots of format 1 and in hand-set positions.

See ``games/q2j/__init__.py`` for the rulings these methods implement.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Mapping, Sequence

from ..base import Action, Event, GameState, Outcome, action_parts
from ..cards import CODE, DECK, PRETTY, Card, CardLike, pretty_ids
from ..codec import CardIds, stored
from ..errors import GameError, MalformedAction
from ..rng import Rng
from .actions import DRAW, KINDS, PLAY, QQ, play_arg, qq_args
from .deal import choose_first, deal_hands, shown_at_deal
from .options import normalize
from .rules import IS_JACK, IS_QUEEN, PLAYABLE_ON, card_id
from .turns import Turns
from .view import build_view

HAND_SIZE = 5


@dataclass(eq=False, kw_only=True)
class Q2JState(Turns, GameState):
    """A Q2J game, or a whole elimination match, in progress."""

    game_id = "q2j"
    snapshot_format = 2

    hands: list[list[int]] = stored(CardIds(CODE, depth=2))
    stock: list[int] = stored(CardIds(CODE))
    discard: list[int] = stored(CardIds(CODE))
    turn: int
    duty: int | None = None
    free: bool = False
    playing: list[bool]
    eliminated: list[int] = stored(default_factory=list)
    game_number: int = 1
    levels: list[int]
    short_hand: int | None = None
    over: bool = False
    winner: int | None = None
    history: list[int] = stored(default_factory=list)
    known: list[list[int]] = stored(CardIds(CODE, depth=2), default_factory=list)
    variant: str = field(init=False)
    match: str = field(init=False)
    qq_rule: bool = field(init=False, repr=False)
    countdown: bool = field(init=False, repr=False)
    faceup: bool = field(init=False, repr=False)
    elimination: bool = field(init=False, repr=False)
    history_words: tuple[list[int], list[str]] | None = field(init=False, repr=False, default=None)
    """(the ``history`` list, its entries as the views show them so far): every view of a
    move shows the whole history, so its words are kept and only new entries worded."""

    def __post_init__(self) -> None:
        self.variant = self.options["variant"]
        self.match = self.options["match"]
        self.qq_rule = self.variant != "classic"
        self.countdown = self.variant == "countdown"
        self.faceup = self.variant == "faceup"
        self.elimination = self.match == "elimination"

    # ----------------------------------------------------------- creation

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Q2JState":
        """A stored game; format 1 (before the public move history) is upgraded with none recorded."""
        if isinstance(data, Mapping) and data.get("game") == cls.game_id and data.get("format") == 1:
            data = {**data, "format": 2, "history": [], "known": []}
        return super().from_json(data)

    def copy(self, hands: list[list[int]] | None = None) -> "Q2JState":
        """A copy sharing nothing a move changes (with ``hands`` instead of these, when given):
        what a search plays on, far cheaper than a snapshot."""
        other = copy.copy(self)
        other.hands = hands if hands is not None else [list(h) for h in self.hands]
        other.stock, other.discard = list(self.stock), list(self.discard)
        other.playing, other.eliminated, other.levels = list(self.playing), list(self.eliminated), list(self.levels)
        other.history, other.known = list(self.history), [list(k) for k in self.known]
        other.history_words = None
        other.rng = Rng(self.rng.state)
        return other

    @classmethod
    def new_game(cls, players: int, options: dict[str, Any], seed: int) -> "Q2JState":
        """A freshly dealt game; ``options`` must already be normalised and checked."""
        rng = Rng(seed)
        short: int | None = None
        if options["variant"] == "challenge":
            choice = options["short_hand"]
            short = rng.below(2) if choice == "random" else choice
        state = cls(players=players, options=options, seed=seed, rng=rng, hands=[[] for _ in range(players)],
                    stock=list(range(52)), discard=[], turn=0, playing=[True] * players,
                    levels=[HAND_SIZE] * players, short_hand=short)
        events: list[Event] = []
        state._deal(list(range(players)), events)
        state.opening = [e for e in events if e.private_to is None]
        return state

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[CardLike]],
        top: CardLike | Sequence[CardLike],
        stock: Sequence[CardLike] = (),
        *,
        under: Sequence[CardLike] = (),
        turn: int = 0,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        duty: int | None = None,
        free: bool = False,
        playing: Sequence[bool] | None = None,
        eliminated: Sequence[int] = (),
        levels: Sequence[int] | None = None,
        game_number: int = 1,
    ) -> "Q2JState":
        """A hand-set position, for tests and puzzles. Only the listed cards are in play.

        ``top`` is a card, or two queens with ``duty`` the seat that played them;
        ``under`` lists the discard pile below the top (bottom first); ``stock``
        lists the stock bottom first, so its last card is drawn first. Duplicate
        cards, or a queen pair on top without ``duty``, raise :class:`GameError`.
        """
        players = len(hands)
        opts = normalize(options, players)
        tops = [top] if isinstance(top, (str, Card)) else list(top)
        top_ids = [card_id(c) for c in tops]
        if len(top_ids) == 2:
            if duty is None or not all(IS_QUEEN[c] for c in top_ids):
                raise GameError("A two-card top must be a Q² queen pair, with duty= the seat that played it")
        elif len(top_ids) != 1 or duty is not None:
            raise GameError("top is one card, or a Q² pair of queens together with duty=")
        hand_ids = [sorted(card_id(c) for c in h) for h in hands]
        stock_ids = [card_id(c) for c in stock]
        discard = [card_id(c) for c in under] + top_ids
        every = [c for h in hand_ids for c in h] + stock_ids + discard
        if len(set(every)) != len(every):
            raise GameError("A card appears twice in the position")
        short = None
        if opts["variant"] == "challenge":
            short = min(range(players), key=lambda s: len(hand_ids[s]))
        return cls(
            players=players, options=opts, seed=seed, rng=Rng(seed), hands=hand_ids, stock=stock_ids,
            discard=discard, turn=turn, duty=duty, free=free,
            playing=list(playing) if playing is not None else [True] * players, eliminated=list(eliminated),
            game_number=game_number, levels=list(levels) if levels is not None else [HAND_SIZE] * players,
            short_hand=short,
        )

    def _deal(self, seats: list[int], events: list[Event]) -> None:
        """Collect every card, shuffle, deal to ``seats`` and pick who starts."""
        cards = sorted(c for zone in (*self.hands, self.stock, self.discard) for c in zone)
        self.rng.shuffle(cards)
        self.hands = [[] for _ in range(self.players)]
        short = self.short_hand if self.game_number == 1 else None
        dealt = deal_hands(cards, seats, short)
        for seat, hand in zip(seats, dealt):
            self.hands[seat] = sorted(hand)
        self.stock = cards
        self.discard = [cards.pop()]
        self.playing = [s in seats for s in range(self.players)]
        self.levels = [HAND_SIZE] * self.players
        self.duty, self.free = None, False
        self.history = []
        shown = shown_at_deal(seats, dealt)
        self.known = [shown.get(s, []) for s in range(self.players)]
        self.turn, reason = choose_first(seats, dealt, self.rng)
        prefix = f"Game {self.game_number}: " if self.elimination else ""
        if short is not None:
            long = 1 - short
            text = f"{prefix}Challenge: {{p{short}}} is dealt 1 card, {{p{long}}} 5 cards."
        else:
            text = f"{prefix}Dealt {HAND_SIZE} cards each to " + ", ".join(f"{{p{s}}}" for s in seats) + "."
        events.append(Event("deal", text))
        events.append(Event("first_player", reason, self.turn))
        events.append(Event("top", f"The top card of the stock, {PRETTY[self.discard[-1]]}, starts the discard pile."))
        for seat in seats:
            events.append(Event("hand", f"Your hand: {pretty_ids(self.hands[seat])}", seat, private_to=seat))

    # ----------------------------------------------------------- contract

    def to_act(self) -> list[int]:
        """``[turn]``, or ``[]`` once the game (or match) is over."""
        return [] if self.over else [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        """Plays (hand order), then Q² pairs (canonical order), then ``draw``; ``[]`` off turn."""
        if self.over or seat != self.turn:
            return []
        hand = self.hands[seat]
        if self.duty is not None:
            if self.free:
                acts = [PLAY[c] for c in hand]
            else:
                acts = [PLAY[c] for c in hand if IS_JACK[c]]
            acts.append(DRAW)
            return acts
        top = self.discard[-1]
        ok = PLAYABLE_ON[top]
        acts = [PLAY[c] for c in hand if ok[c]]
        if self.qq_rule and not IS_JACK[top]:
            queens = [c for c in hand if IS_QUEEN[c]]
            if len(queens) > 1:
                acts.extend([QQ[pair] for pair in combinations(queens, 2)])
        acts.append(DRAW)
        return acts

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and play ``action``; on any :class:`GameError` nothing has changed."""
        if self.over or type(seat) is not int or seat != self.turn:
            self.check_turn(seat)
        kind, args = action_parts(action, "a Q2J move")
        if kind == "play":
            return self._play(seat, play_arg(args))
        if kind == "draw":
            if args:
                raise MalformedAction("draw takes no arguments")
            return self._draw_turn(seat)
        if kind == "qq":
            return self._qq(seat, *qq_args(args))
        raise MalformedAction(f"Unknown move {kind!r}; Q2J moves are: {', '.join(KINDS)}")

    # ----------------------------------------------------------- views

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The table as ``seat`` sees it (``None``: the public). Keys are listed in the package docs."""
        return build_view(self, seat)

    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        """Winner first. Single games rank the rest by cards still to shed (fewer is better;
        countdown counts the hands still to come); an elimination match ranks in reverse
        elimination order. ``scores[s]`` is how many seats ``s`` finished above."""
        if not self.over or self.winner is None:
            return None
        winner = self.winner
        if self.elimination:
            ranking = [(winner,), *[(s,) for s in reversed(self.eliminated)]]
            reason = f"{{p{winner}}} is the last player standing after {len(self.eliminated)} eliminations."
        else:
            left: dict[int, list[int]] = {}
            for s in range(self.players):
                if s != winner:
                    owed = len(self.hands[s]) + (sum(range(1, self.levels[s])) if self.countdown else 0)
                    left.setdefault(owed, []).append(s)
            ranking = [(winner,), *[tuple(left[k]) for k in sorted(left)]]
            reason = f"{{p{winner}}} emptied their{' one-card' if self.countdown else ''} hand first."
        return Outcome.by_place(self.players, (winner,), ranking, reason)

    def zones(self) -> dict[str, list[Card]]:
        zones = {"stock": [DECK[c] for c in self.stock], "discard": [DECK[c] for c in self.discard]}
        for s, hand in enumerate(self.hands):
            zones[f"hand:{s}"] = [DECK[c] for c in hand]
        return zones

    def hidden_cards(self, seat: int | None) -> list[Card]:
        """The stock, and every hand but the viewer's (no hand in the face-up variant)
        but for its ``known`` cards. The discard pile is public: it was played in the open."""
        hidden = [DECK[c] for c in self.stock]
        if not self.faceup:
            for s, hand in enumerate(self.hands):
                if s != seat:
                    known = self.known[s] if self.known else ()
                    hidden += [DECK[c] for c in hand if c not in known]
        return hidden

