"""The QUASH game state: plain data, a seeded Rng, legal moves (placing and scoring are in turns.py).

Representation (card ids of :data:`games.cards.DECK`; codes once serialised):

- ``hands[seat]``: a seat's hand, kept sorted by rank (A high) then suit;
- ``pile``: the 2-player draw pile (top last); ``aside``: cards out of play
  this round, unseen by everyone (advanced 2-player play sets 6 aside; a
  hand-set position puts every card it does not list there);
- ``board[side][spot]``: the cards on a side's spot (side 0 RED, 1 BLACK),
  in slot order; a displaced card's slot takes the card that displaced it;
- ``phase``: ``play`` (placing), ``tiebreak`` (scoring waits for secret
  cards), ``over``; scoring itself runs inside ``apply``;
- ``spot``: the spot being scored (0-based; 0 during play); ``results``:
  this round's scored spots, in order; ``reveals``: the current spot's
  tiebreak reveals so far; ``pending[side]``: a side's face-down tiebreak card
  (-1 none); ``leftovers[side]``: the side's leftover cards (pooled per team
  with 4 players), sorted; ``used``: this round's revealed tiebreak cards;
- ``chooser[side]``: the seat that plays the side's tiebreak cards;
- ``chain``: the open swap chain of the placing seat (advanced play), one
  ``(card, spot, displaced)`` per step so far; the card in the air is the last
  step's displaced card; ``[]`` when no card is in the air. Snapshots of format
  1 (before chains were played step by step) had none and load with ``[]``;
- ``track[side]``, ``round_points[side]``, ``round_no``, ``dealer``, ``turn``,
  ``winner`` (side, -1 for a draw, ``None`` while playing), ``moves``.

See ``games/quash/__init__.py`` for the rulings these methods implement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..base import Action, Event, GameState, Outcome, action_parts
from ..cards import CODE, DECK, Card, CardLike
from ..codec import PLAIN, CardIds, ListOf, Record, Row, stored
from ..errors import GameError, MalformedAction
from ..rng import Rng
from .actions import CHOOSER, PARSED, TAKEBACK, TIEBREAK, chain_args, one_arg, spot_arg
from .chains import Finisher, flying_moves, open_placements, turn_moves
from .deal import cut_for_deal, deal_round
from .options import normalize
from .rules import KIND, SIDE_CARDS, SORT_KEY, SPOTS, SPOT_SIZE, card_arg
from .scoring import SIDE_NAMES, names, run_scoring, side_seats, track_text
from .turns import Turns
from .view import build_view

_KEY = SORT_KEY.__getitem__
_RANGE = range(SPOTS)


_CARDS = CardIds(CODE)
_CARD = CardIds(CODE, depth=0)
_SPOT_RESULT = Record({"winner": PLAIN, "points": PLAIN, "how": PLAIN,
                       "reveals": CardIds(CODE, depth=2), "quash": PLAIN})


@dataclass(eq=False, kw_only=True)
class QuashState(Turns, GameState):
    """A QUASH match in progress."""

    game_id = "quash"
    snapshot_format = 2

    round_no: int = stored(key="round")
    dealer: int
    hands: list[list[int]] = stored(CardIds(CODE, depth=2))
    pile: list[int] = stored(_CARDS)
    aside: list[int] = stored(_CARDS)
    board: list[list[list[int]]] = stored(CardIds(CODE, depth=3))
    turn: int
    track: list[int]
    phase: str = "play"
    spot: int = 0
    results: list[dict[str, Any]] = stored(ListOf(_SPOT_RESULT), default_factory=list)
    reveals: list[list[int]] = stored(CardIds(CODE, depth=2), default_factory=list)
    pending: list[int] = stored(CardIds(CODE, missing=-1), default_factory=lambda: [-1, -1])
    leftovers: list[list[int]] = stored(CardIds(CODE, depth=2), default_factory=lambda: [[], []])
    used: list[int] = stored(_CARDS, default_factory=list)
    chooser: list[int] = stored(default_factory=lambda: [0, 1])
    round_points: list[int] = stored(default_factory=lambda: [0, 0])
    winner: int | None = None
    moves: int = 0
    last_round: dict[str, Any] | None = None
    chain: list[tuple[int, int, int]] = stored(ListOf(Row((_CARD, PLAIN, _CARD))), default_factory=list)
    advanced: bool = field(init=False)
    finish: int = field(init=False)
    _legal: tuple[int, int, list[Action], bool] | None = field(init=False, repr=False, default=None)
    _turn: tuple[int, Finisher, list[Action], bool] | None = field(init=False, repr=False, default=None)
    """Advanced play: (seat, the turn's :class:`Finisher`, its legal placements as the turn
    began, free): kept while a chain is open and after a take-back, dropped when a card lands."""

    def __post_init__(self) -> None:
        self.advanced = bool(self.options["advanced"])
        self.finish = self.options["finish"]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "QuashState":
        """A stored match; format 1 (whole swap chains, no card ever in the air) is upgraded."""
        if isinstance(data, Mapping) and data.get("game") == cls.game_id and data.get("format") == 1:
            data = {**data, "format": 2, "chain": []}
        return super().from_json(data)

    # ----------------------------------------------------------- creation

    @classmethod
    def new_game(cls, players: int, options: dict[str, Any], seed: int) -> "QuashState":
        """A new match: the cut for the first deal, then round 1 dealt; ``options`` normalised."""
        rng = Rng(seed)
        dealer, cut_text = cut_for_deal(players, rng)
        state = cls(
            players=players, options=options, seed=seed, rng=rng, round_no=0, dealer=dealer,
            hands=[[] for _ in range(players)], pile=[], aside=[], board=[[[] for _ in _RANGE] for _ in range(2)],
            turn=dealer, track=[0, 0],
        )
        sides = "; ".join(f"{SIDE_NAMES[side]}: {names(players, side)}" for side in (0, 1))
        opening = [Event("sides", f"Sides — {sides}. First to {state.finish} points wins."),
                   Event("cut", cut_text, dealer)]
        state._deal(dealer, opening)
        state.opening = opening
        return state

    def _deal(self, dealer: int, events: list[Event]) -> None:
        """Deal the next round with ``dealer`` dealing; the seat on the dealer's left starts."""
        self.round_no += 1
        self.dealer = dealer
        dealt = deal_round(self.players, dealer, self.advanced, self.rng)
        self.hands, self.pile, self.aside = dealt.hands, dealt.pile, dealt.aside
        self.board = [[[] for _ in _RANGE] for _ in range(2)]
        self.turn = (dealer + 1) % self.players
        self.phase = "play"
        self.spot = 0
        self.results, self.reveals, self.used = [], [], []
        self.pending = [-1, -1]
        self.leftovers = [[], []]
        self.round_points = [0, 0]
        self.chain = []
        self._legal = self._turn = None
        n = len(self.hands[0])
        if self.players == 2 and self.advanced:
            how = f"sets {len(self.aside)} cards aside unseen and deals {n} cards each; there is no draw pile"
        elif self.players == 2:
            how = f"deals {n} cards each; {len(self.pile)} cards form the draw pile"
        else:
            how = f"deals {n} cards to each player; there is no draw pile"
        events.append(Event(
            "deal", f"Round {self.round_no}: {{p{dealer}}} {how}. {{p{self.turn}}} plays first.", dealer,
        ))

    @classmethod
    def from_position(
        cls,
        players: int = 2,
        *,
        board: Sequence[Sequence[Sequence[CardLike] | str]] | None = None,
        hands: Sequence[Sequence[CardLike] | str] | None = None,
        pile: Sequence[CardLike] | str = (),
        leftovers: Sequence[Sequence[CardLike] | str] | None = None,
        turn: int | None = None,
        dealer: int | None = None,
        track: Sequence[int] = (0, 0),
        chooser: Sequence[int] | None = None,
        round_no: int = 1,
        advanced: bool = False,
        finish: int = 30,
        seed: int = 0,
    ) -> "QuashState":
        """A hand-set position, for tests and puzzles.

        ``board`` gives each side's nine spots (spot 1 first; a spot is a list of
        codes or a space-separated string such as ``"9D 10D JD"``); ``hands``
        each seat's hand; ``pile`` the draw pile, bottom first (its last card is
        drawn first). Every card the position does not list is set aside,
        unseen, so later rounds still deal all 52.

        Without ``leftovers`` the position is mid-play: ``turn`` (default: the
        seat on the dealer's left) must be able to place. With ``leftovers``
        (one list per side; both boards must be full and hands empty) the
        position is the start of scoring: scoring runs at once and what it
        announced is :meth:`opening_events` (it may stop at a tiebreak, or even
        end the match). ``dealer`` defaults to the seat before ``turn``. After
        each placement the turn goes to the next seat clockwise that can place;
        a short position (too few cards to fill the board) is fine for tests,
        but playing it until nobody can place raises ``RuntimeError``.
        Duplicates, overfull spots or bad seats raise :class:`GameError`.
        """
        if players not in (2, 4):
            raise GameError(f"QUASH is for 2 or 4 players, not {players!r}")
        opts = normalize({"advanced": advanced, "finish": finish}, players)

        def ids(cards: Sequence[CardLike] | str) -> list[int]:
            if isinstance(cards, str):
                cards = cards.split()
            return [card_arg(c.code if isinstance(c, Card) else c) for c in cards]

        raw_board = board if board is not None else [[[] for _ in _RANGE] for _ in range(2)]
        if len(raw_board) != 2 or any(len(side) != SPOTS for side in raw_board):
            raise GameError("board lists two sides (RED, BLACK) of nine spots each")
        the_board = [[ids(spot) for spot in side] for side in raw_board]
        for side in the_board:
            for s, cards in enumerate(side):
                if len(cards) > SPOT_SIZE[s]:
                    raise GameError(f"Spot {s + 1} ({KIND[s]}) holds at most {SPOT_SIZE[s]} cards")
        the_hands = [ids(h) for h in hands] if hands is not None else [[] for _ in range(players)]
        if len(the_hands) != players:
            raise GameError("Give one hand per seat")
        the_hands = [sorted(h, key=_KEY) for h in the_hands]
        the_pile = ids(pile)
        the_left = [sorted(ids(lst), key=_KEY) for lst in leftovers] if leftovers is not None else [[], []]
        if len(the_left) != 2:
            raise GameError("leftovers lists one pool per side")
        listed = [c for side in the_board for spot in side for c in spot]
        listed += [c for h in the_hands for c in h] + the_pile + [c for lst in the_left for c in lst]
        if len(set(listed)) != len(listed):
            raise GameError("A card appears twice in the position")
        aside = [c for c in range(52) if c not in set(listed)]
        if turn is None:
            turn = ((dealer if dealer is not None else players - 1) + 1) % players
        if type(turn) is not int or not 0 <= turn < players:
            raise GameError(f"turn={turn!r} is not a seat")
        if dealer is None:
            dealer = (turn - 1) % players
        if type(dealer) is not int or not 0 <= dealer < players:
            raise GameError(f"dealer={dealer!r} is not a seat")
        the_chooser = list(chooser) if chooser is not None else [0, 1]
        if len(the_chooser) != 2 or any(type(c) is not int or not 0 <= c < players or c % 2 != side
                                        for side, c in enumerate(the_chooser)):
            raise GameError(f"chooser={chooser!r}: give one seat of each side (RED seats are even)")
        state = cls(
            players=players, options=opts, seed=seed, rng=Rng(seed), round_no=round_no, dealer=dealer,
            hands=the_hands, pile=the_pile, aside=aside, board=the_board, turn=turn, track=[int(t) for t in track],
            chooser=the_chooser,
        )
        full = [sum(len(spot) for spot in side) == SIDE_CARDS for side in the_board]
        if leftovers is not None:
            if not all(full) or any(the_hands) or the_pile:
                raise GameError("A scoring position needs both boards full, empty hands and no pile")
            state.leftovers = the_left
            run_scoring(state, state.opening)
            return state
        if not state._can_place(turn):
            raise GameError(f"Seat {turn} can't place: its side is full or its hand is empty")
        return state

    def _can_place(self, seat: int) -> bool:
        return bool(self.hands[seat]) and sum(map(len, self.board[seat % 2])) < SIDE_CARDS

    def _next_turn(self, seat: int) -> int:
        """The next seat clockwise that can place. In a dealt round that is simply the
        next seat (sides fill in step); hand-set positions may skip a full side."""
        for k in range(1, self.players + 1):
            nxt = (seat + k) % self.players
            if self._can_place(nxt):
                return nxt
        raise RuntimeError("QUASH: open slots remain but no seat holds a card")

    # ----------------------------------------------------------- contract

    def to_act(self) -> list[int]:
        """``[turn]`` while placing; during a tiebreak the choosing seat of each side that
        has not laid its card yet (both at first: the choice is simultaneous); ``[]`` when over."""
        phase = self.phase
        if phase == "play":
            return [self.turn]
        if phase == "tiebreak":
            pending, chooser = self.pending, self.chooser
            return sorted(chooser[side] for side in (0, 1) if pending[side] < 0)
        return []

    def places_freely(self, seat: int) -> bool:
        """Whether ``seat``'s placements now use advanced free placement (no placement or
        chain keeps a run possible, so any card may go on any open slot)."""
        return self._moves(seat)[1]

    def flying(self) -> int | None:
        """The card in the air (displaced by the last step of an open chain), else ``None``."""
        return self.chain[-1][2] if self.chain else None

    def _moves(self, seat: int) -> tuple[list[Action], bool]:
        """(the placing seat's legal placements, whether advanced free placement applies); cached."""
        cached = self._legal
        if cached is not None and cached[0] == self.moves and cached[1] == seat:
            return cached[2], cached[3]
        spots = self.board[seat % 2]
        if not self.advanced:
            moves, free = open_placements(spots, self.hands[seat]), False
        else:
            turn = self._turn
            if turn is None or turn[0] != seat:
                turn = self._turn = self._start_turn(seat)
            if self.chain:
                moves, free = flying_moves(turn[1], spots, self.chain), False
                moves.append(TAKEBACK)
            else:
                moves, free = turn[2], turn[3]
        self._legal = (self.moves, seat, moves, free)
        return moves, free

    def _start_turn(self, seat: int) -> tuple[int, Finisher, list[Action], bool]:
        """Advanced play: the turn's chain search and its first placements, from the side and
        the hand as the turn began (an open chain, e.g. from a snapshot, is undone on copies)."""
        spots = [list(cards) for cards in self.board[seat % 2]]
        hand = self.hands[seat]
        if self.chain:
            for card, s, displaced in reversed(self.chain):
                spots[s][spots[s].index(card)] = displaced
            hand = sorted([*hand, self.chain[0][0]], key=_KEY)
        finisher = Finisher(spots)
        return (seat, finisher, *turn_moves(finisher, spots, hand))

    def legal_actions(self, seat: int) -> list[Action]:
        """Placing: ``place`` actions (hand order, then spot), then in advanced play the
        ``swap`` steps that start a chain. While a card is in the air: its placements
        (open slots, then swap steps), then ``takeback``. Tiebreak: ``tiebreak`` with each
        of the side's leftover cards, then (4 players) ``chooser`` handing the choice to
        the partner. ``[]`` otherwise."""
        phase = self.phase
        if phase == "play":
            if seat != self.turn:
                return []
            if not self.advanced:  # a new list each time: nothing to keep
                return open_placements(self.board[seat % 2], self.hands[seat])
            return list(self._moves(seat)[0])
        if phase == "tiebreak" and seat in self.to_act():
            side = seat % 2
            acts: list[Action] = [TIEBREAK[c] for c in self.leftovers[side]]
            if self.players == 4:
                acts.append(CHOOSER[(seat + 2) % 4])
            return acts
        return []

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and play ``action``; on any :class:`GameError` nothing has changed."""
        phase = self.phase
        if type(seat) is not int or (seat != self.turn if phase == "play"
                                     else phase != "tiebreak" or seat not in self.to_act()):
            self.check_turn(seat)
        try:
            known = PARSED.get(action)
        except TypeError:  # unhashable junk
            known = None
        if known is not None:
            kind, c, s, d = known
            if kind == 0:
                return self._land(seat, c, s)
            if kind == 1:
                return self._displace(seat, c, s, d)
            if kind == 2:
                return self._tiebreak(seat, c)
            if kind == 3:
                return self._handover(seat, c)
            return self._take_back(seat)
        kind, args = action_parts(action, "a QUASH move")
        if kind == "place":
            cards, spots = chain_args(args)
            if len(cards) != 1:
                raise MalformedAction("place takes a card and a spot, e.g. place:9D,4 (a swap step is swap:9D,4,6C)")
            return self._land(seat, cards[0], spots[0])
        if kind == "swap":
            if len(args) == 3:
                return self._displace(seat, card_arg(args[0]), spot_arg(args[1]), card_arg(args[2], "a card to displace"))
            cards, spots = chain_args(args)
            if len(cards) < 2:
                raise MalformedAction("A swap step names the card it displaces, e.g. swap:9D,4,6C")
            return self._whole_chain(seat, cards, spots)
        if kind == "takeback":
            if args:
                raise MalformedAction("takeback takes no arguments")
            return self._take_back(seat)
        if kind == "tiebreak":
            return self._tiebreak(seat, card_arg(one_arg(kind, args, "tiebreak:9H"), "your tiebreak card"))
        if kind == "chooser":
            target = one_arg(kind, args, "chooser:2")
            if type(target) is not int:
                raise MalformedAction(f"chooser takes a seat number, not {target!r}")
            return self._handover(seat, target)
        raise MalformedAction(f"Unknown move {kind!r}; QUASH moves are place, swap, takeback, tiebreak and chooser")

    # ----------------------------------------------------------- results

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def is_over(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> Outcome | None:
        """The side that reached the finish first wins (its seats are ``winners``); a draw
        when both reached it on the same spot. ``scores[seat]`` is the seat's side's track."""
        if self.phase != "over":
            return None
        teams = (tuple(side_seats(self.players, 0)), tuple(side_seats(self.players, 1)))
        scores = tuple(self.track[s % 2] for s in range(self.players))
        t = track_text(self.track)
        if self.winner is None or self.winner < 0:
            reason = f"Both sides reached the finish ({self.finish}) on the same spot: a draw ({t})."
            return Outcome((), (tuple(range(self.players)),), scores, reason, teams)
        w = self.winner
        reason = f"{SIDE_NAMES[w]} ({names(self.players, w)}) reached the finish ({self.finish}) first ({t})."
        return Outcome(teams[w], (teams[w], teams[1 - w]), scores, reason, teams)

    # ----------------------------------------------------------- cards and views

    def zones(self) -> dict[str, list[Card]]:
        flying = self.flying()
        zones = {"pile": [DECK[c] for c in self.pile], "aside": [DECK[c] for c in self.aside],
                 "used": [DECK[c] for c in self.used], "air": [DECK[flying]] if flying is not None else []}
        for s in range(self.players):
            zones[f"hand:{s}"] = [DECK[c] for c in self.hands[s]]
        for side in (0, 1):
            name = SIDE_NAMES[side]
            zones[f"board:{name}"] = [DECK[c] for spot in self.board[side] for c in spot]
            zones[f"leftovers:{name}"] = [DECK[c] for c in self.leftovers[side]]
            zones[f"pending:{name}"] = [DECK[self.pending[side]]] if self.pending[side] >= 0 else []
        return zones

    def hidden_cards(self, seat: int | None) -> list[Card]:
        """The pile and set-aside cards for everyone; every other seat's hand (a
        partner's too); the other side's leftovers and face-down tiebreak card
        (both sides' for the public)."""
        hidden = self.pile + self.aside
        for s in range(self.players):
            if s != seat:
                hidden = hidden + self.hands[s]
        for side in (0, 1):
            if seat is None or seat % 2 != side:
                hidden = hidden + self.leftovers[side]
                if self.pending[side] >= 0:
                    hidden = hidden + [self.pending[side]]
        return [DECK[c] for c in hidden]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The table as ``seat`` sees it (``None``: the public); keys in the package docs."""
        return build_view(self, seat)
