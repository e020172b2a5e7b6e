"""The rules of a QUASH match: dealing, legal moves, placing and swap chains, and the
turns of scoring (RULINGS §6). The match's fields are :class:`~games.quash.table.QuashTable`'s;
see ``games/quash/__init__.py`` for the rulings these methods implement.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from typing import Any

from ..base import Action, Event, Outcome, normalize_options
from ..cards import DECK, Card, CardLike
from ..errors import GameError, IllegalAction
from ..i18n import Seat, Text, plural, say
from ..phrases import card_count
from ..rng import Rng
from .actions import CHOOSER, TAKEBACK, TIEBREAK, Kind, parse, swap_step
from .chains import Finisher, accepts, chain_text, flying_moves, open_placements, replaces, turn_moves
from .deal import cut_for_deal, deal_round
from .options import NAME, OPTIONS
from .rules import KIND_WORDS, RANK, SIDE_CARDS, SORT_KEY, SPOT_SIZE, SPOTS, card_arg, in_order
from .scoring import SIDE_NAMES, SIDES, names, play_tiebreak, run_scoring, side_seats, track_text
from .table import QuashTable
from .view import build_view

_KEY = SORT_KEY.__getitem__
_RANGE = range(SPOTS)

# Words and events said every move, made once: both are values, shared by every list that holds them.
PLACED: tuple[tuple[tuple[Text, ...], ...], ...] = tuple(tuple(tuple(
    say("{player} placed {card} on {side}'s spot {number} ({kind})", player=Seat(seat), card=card,
        side=SIDE_NAMES[seat % 2], number=s + 1, kind=KIND_WORDS[s]) for s in _RANGE) for card in DECK)
    for seat in range(4))
"""``PLACED[seat][card][spot]``: a hand card placed."""
DREW: tuple[tuple[Event, ...], ...] = tuple(tuple(
    Event("draw", say("You drew {card}.", card=card), seat, private_to=seat) for card in DECK) for seat in range(4))
"""``DREW[seat][card]``: what the seat that drew it is told."""


class QuashState(QuashTable):
    """A QUASH match in progress."""

    # ----------------------------------------------------------- creation

    @classmethod
    def new_game(cls, players: int, options: dict[str, Any], seed: int) -> QuashState:
        """A new match: the cut for the first deal, then round 1 dealt; ``options`` normalised."""
        rng = Rng(seed)
        dealer, cut_text = cut_for_deal(players, rng)
        state = cls(
            players=players, options=options, seed=seed, rng=rng, round_no=0, dealer=dealer,
            hands=[[] for _ in range(players)], pile=[], aside=[], board=[[[] for _ in _RANGE] for _ in range(2)],
            turn=dealer, track=[0, 0],
        )
        sides = plural("Sides — RED: {red}; BLACK: {black}. First to {count} point wins.",
                       "Sides — RED: {red}; BLACK: {black}. First to {count} points wins.", state.finish,
                       red=names(players, 0), black=names(players, 1))
        opening = [Event("sides", sides), Event("cut", cut_text, dealer)]
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
        told = dict(number=self.round_no, dealer=Seat(dealer), cards=card_count(len(self.hands[0])),
                    player=Seat(self.turn))
        if self.players == 2 and self.advanced:
            text = say("Round {number}: {dealer} sets {aside} aside unseen and deals {cards} each; there is no draw "
                       "pile. {player} plays first.", aside=card_count(len(self.aside)), **told)
        elif self.players == 2:
            text = say("Round {number}: {dealer} deals {cards} each; the draw pile holds {pile}. {player} plays first.",
                       pile=card_count(len(self.pile)), **told)
        else:
            text = say("Round {number}: {dealer} deals {cards} to each player; there is no draw pile. {player} "
                       "plays first.", **told)
        events.append(Event("deal", text, dealer))

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
    ) -> QuashState:
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
            raise GameError(say("QUASH is for 2 or 4 players, not {players}", players=repr(players)))
        opts = normalize_options(NAME, OPTIONS, {"advanced": advanced, "finish": finish}, players)

        def ids(cards: Sequence[CardLike] | str) -> list[int]:
            if isinstance(cards, str):
                cards = cards.split()
            return [card_arg(c.code if isinstance(c, Card) else c) for c in cards]

        raw_board = board if board is not None else [[[] for _ in _RANGE] for _ in range(2)]
        if len(raw_board) != 2 or any(len(side) != SPOTS for side in raw_board):
            raise GameError(say("board lists two sides (RED, BLACK) of nine spots each"))
        the_board = [[ids(spot) for spot in side] for side in raw_board]
        for side in the_board:
            for s, cards in enumerate(side):
                if len(cards) > SPOT_SIZE[s]:
                    raise GameError(plural("Spot {number} ({kind}) holds at most {count} card",
                                           "Spot {number} ({kind}) holds at most {count} cards", SPOT_SIZE[s],
                                           number=s + 1, kind=KIND_WORDS[s]))
        the_hands = [ids(h) for h in hands] if hands is not None else [[] for _ in range(players)]
        if len(the_hands) != players:
            raise GameError(say("Give one hand per seat"))
        the_hands = [sorted(h, key=_KEY) for h in the_hands]
        the_pile = ids(pile)
        the_left = [sorted(ids(lst), key=_KEY) for lst in leftovers] if leftovers is not None else [[], []]
        if len(the_left) != 2:
            raise GameError(say("leftovers lists one pool per side"))
        listed = [c for side in the_board for spot in side for c in spot]
        listed += [c for h in the_hands for c in h] + the_pile + [c for lst in the_left for c in lst]
        if len(set(listed)) != len(listed):
            raise GameError(say("A card appears twice in the position"))
        aside = [c for c in range(52) if c not in set(listed)]
        if turn is None:
            turn = ((dealer if dealer is not None else players - 1) + 1) % players
        if type(turn) is not int or not 0 <= turn < players:
            raise GameError(say("turn={turn} is not a seat", turn=repr(turn)))
        if dealer is None:
            dealer = (turn - 1) % players
        if type(dealer) is not int or not 0 <= dealer < players:
            raise GameError(say("dealer={dealer} is not a seat", dealer=repr(dealer)))
        the_chooser = list(chooser) if chooser is not None else [0, 1]
        if len(the_chooser) != 2 or any(type(c) is not int or not 0 <= c < players or c % 2 != side
                                        for side, c in enumerate(the_chooser)):
            raise GameError(say("chooser={chooser}: give one seat of each side (RED seats are even)",
                                chooser=repr(chooser)))
        state = cls(
            players=players, options=opts, seed=seed, rng=Rng(seed), round_no=round_no, dealer=dealer,
            hands=the_hands, pile=the_pile, aside=aside, board=the_board, turn=turn, track=[int(t) for t in track],
            chooser=the_chooser,
        )
        full = [sum(len(spot) for spot in side) == SIDE_CARDS for side in the_board]
        if leftovers is not None:
            if not all(full) or any(the_hands) or the_pile:
                raise GameError(say("A scoring position needs both boards full, empty hands and no pile"))
            state.leftovers = the_left
            if run_scoring(state, state.opening):
                state.end_round(state.opening)
            return state
        if not state._can_place(turn):
            raise GameError(say("Seat {seat} can't place: its side is full or its hand is empty", seat=turn))
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
        move = parse(action)
        match move.kind:
            case Kind.PLACE:
                return self._land(seat, move.card, move.spot)
            case Kind.SWAP if move.chain:
                return self._whole_chain(seat, *move.chain)
            case Kind.SWAP:
                return self._displace(seat, move.card, move.spot, move.displaced)
            case Kind.TIEBREAK:
                return self._tiebreak(seat, move.card)
            case Kind.CHOOSER:
                return self._handover(seat, move.seat)
            case Kind.TAKEBACK:
                return self._take_back(seat)


    # ----------------------------------------------------------- placing

    def _mover(self, seat: int, card: int) -> None:
        """Refuse ``card`` unless it may move now: the card in the air, else a hand card."""
        if self.phase != "play":
            raise IllegalAction(say("Scoring has started: the only move now is a tiebreak card"))
        chain = self.chain
        if chain:
            flying = chain[-1][2]
            if card != flying:
                raise IllegalAction(say("{card} is in the air: place it first (or take the whole chain back)",
                                        card=DECK[flying]))
        elif card not in self.hands[seat]:
            raise IllegalAction(say("You don't hold {card}", card=DECK[card]))

    def _land(self, seat: int, card: int, s: int) -> list[Event]:
        """``card`` (a hand card, or the card in the air) onto an open slot of spot ``s``: the turn ends."""
        self._mover(seat, card)
        side = seat % 2
        cards = self.board[side][s]
        size = SPOT_SIZE[s]
        chain = self.chain
        if len(cards) >= size:
            raise IllegalAction(self._full(s, card, bool(chain)))
        failing = self.advanced and not accepts(cards, size) >> RANK[card] & 1
        if failing and (chain or not self._moves(seat)[1]):
            never = dict(card=DECK[card], number=s + 1, cards=in_order([*cards, card]))
            raise IllegalAction(
                say("{card} can't go to spot {number}: {cards} could never become a run", **never) if chain else
                say("{card} can't go to spot {number}: {cards} could never become a run (advanced play allows that "
                    "only when no placement or swap keeps a run possible)", **never))
        cards.append(card)
        text: Text
        if chain:
            moved = [step[0] for step in chain]
            text = say("{player} swapped on {side}'s side: {chain}", player=Seat(seat), side=SIDE_NAMES[side],
                       chain=chain_text([*moved, card], [step[1] for step in chain] + [s]))
            self.chain = []
        else:
            self.hands[seat].remove(card)
            text = PLACED[seat][card][s]
        if failing:
            text = say("{move} (no move could keep a run possible, so the spot will fail)", move=text)
        self.moves += 1
        self._legal = self._turn = None
        pile = self.pile
        if pile:
            drawn = pile.pop()
            insort(self.hands[seat], drawn, key=_KEY)
            left = len(pile)
            events = [Event("place", say("{move} and drew a card ({count} left in the pile).", move=text, count=left),
                            seat),
                      DREW[seat][drawn]]
            if not left:
                events.append(Event("pile_empty", say("The draw pile is empty: the rest of the round is played from "
                                                      "the hands.")))
        else:
            events = [Event("place", say("{move}.", move=text), seat)]
        board = self.board
        if sum(map(len, board[side])) == SIDE_CARDS and sum(map(len, board[1 - side])) == SIDE_CARDS:
            self._start_scoring(events)
        else:
            self.turn = self._next_turn(seat)
        return events

    def _full(self, s: int, card: int, displaced: bool) -> Text:
        """Why ``card`` (a ``displaced`` one, or not) can't go to the full spot ``s``."""
        full = dict(number=s + 1, kind=KIND_WORDS[s], card=DECK[card])
        if displaced:
            if self.advanced:
                return say("Spot {number} ({kind}) is full: the displaced card {card} needs a spot with an open slot, "
                           "or name a card there to displace", **full)
            return say("Spot {number} ({kind}) is full: the displaced card {card} needs a spot with an open slot",
                       **full)
        if self.advanced:
            return say("Spot {number} ({kind}) is full: the card {card} needs a spot with an open slot, or name a card "
                       "there to displace", **full)
        return say("Spot {number} ({kind}) is full: the card {card} needs a spot with an open slot", **full)

    def _displace(self, seat: int, card: int, s: int, displaced: int) -> list[Event]:
        """Advanced play: ``card`` onto spot ``s`` in place of ``displaced``, which is then in the air."""
        if not self.advanced:
            raise IllegalAction(say("Swap chains are only allowed in advanced play"))
        self._mover(seat, card)
        cards = self.board[seat % 2][s]
        chain = self.chain
        if swap_step(card, s, displaced) not in self._moves(seat)[0]:  # the listing proved which steps finish
            self._refuse_step(seat, card, s, displaced)
        cards[cards.index(displaced)] = card
        if not chain:
            self.hands[seat].remove(card)
        chain.append((card, s, displaced))
        self.moves += 1
        self._legal = None
        return []

    def _refuse_step(self, seat: int, card: int, s: int, displaced: int) -> None:
        """Say why the swap step ``card`` onto spot ``s`` in place of ``displaced`` is not legal."""
        cards = self.board[seat % 2][s]
        if displaced not in cards:
            raise IllegalAction(say("{displaced} is not in your spot {number}, so {card} can't displace it",
                                    displaced=DECK[displaced], number=s + 1, card=DECK[card]))
        if any(step[0] == displaced for step in self.chain):
            raise IllegalAction(say("{card} has already moved this turn: a card moves at most once a turn",
                                    card=DECK[displaced]))
        if not replaces(cards, cards.index(displaced), SPOT_SIZE[s]) >> RANK[card] & 1:
            after = [c for c in cards if c != displaced] + [card]
            raise IllegalAction(say("{card} can't take {displaced}'s place in spot {number}: {cards} could never "
                                    "become a run", card=DECK[card], displaced=DECK[displaced], number=s + 1,
                                    cards=in_order(after)))
        raise IllegalAction(say("{card} could then go nowhere: no open slot takes it, even by displacing again, so "
                                "the chain could never end", card=DECK[displaced]))

    def _take_back(self, seat: int) -> list[Event]:
        """Undo the open chain: the side and the hand as they were when the turn began."""
        chain = self.chain
        if self.phase != "play" or not chain:
            raise IllegalAction(say("There is no swap chain to take back"))
        spots = self.board[seat % 2]
        for card, s, displaced in reversed(chain):
            cards = spots[s]
            cards[cards.index(card)] = displaced
        insort(self.hands[seat], chain[0][0], key=_KEY)
        self.chain = []
        self.moves += 1
        self._legal = None
        return [Event("takeback", say("{player} took a swap chain back; {side}'s side is as it was.",
                                      player=Seat(seat), side=SIDE_NAMES[seat % 2]), seat)]

    def _whole_chain(self, seat: int, cards: Sequence[int], where: Sequence[int]) -> list[Event]:
        """An old whole-chain action (``swap:9D,4,6C,7``, from move logs written before chains
        were played step by step): its steps in turn, as one move; all or nothing."""
        if self.chain:
            raise IllegalAction(say("{card} is in the air: place it first (or take the whole chain back)",
                                    card=DECK[self.chain[-1][2]]))
        moves = self.moves
        try:
            for i in range(len(cards) - 1):
                self._displace(seat, cards[i], where[i], cards[i + 1])
            events = self._land(seat, cards[-1], where[-1])
        except IllegalAction:
            if self.chain:
                self._take_back(seat)
            self.moves = moves
            self._legal = None
            raise
        self.moves = moves + 1
        return events

    def _start_scoring(self, events: list[Event]) -> None:
        """Both sides are full: pool the leftovers per side and score from spot 1."""
        for side in (0, 1):
            pool: list[int] = []
            for s in side_seats(self.players, side):
                pool += self.hands[s]
                self.hands[s] = []
            self.leftovers[side] = sorted(pool, key=SORT_KEY.__getitem__)
        counts = dict(red=len(self.leftovers[0]), black=len(self.leftovers[1]))
        if self.players == 2:
            text = say("Every spot is full. The cards left in hand are kept for tiebreakers (RED {red}, BLACK "
                       "{black}). Scoring starts at spot 1.", **counts)
        else:
            text = say("Every spot is full. Each team pools its leftover cards for tiebreakers (RED {red}, BLACK "
                       "{black}); {red_chooser} chooses RED's and {black_chooser} BLACK's. Scoring starts at spot 1.",
                       red_chooser=Seat(self.chooser[0]), black_chooser=Seat(self.chooser[1]), **counts)
        events.append(Event("scoring", text))
        self.spot = 0
        if run_scoring(self, events):
            self.end_round(events)

    def end_round(self, events: list[Event]) -> None:
        """All nine spots scored without a winner: announce, keep a summary, deal the next round."""
        pts = self.round_points
        events.append(Event(
            "round_end",
            say("Round {number} is scored: RED +{red}, BLACK +{black} ({track}).", number=self.round_no, red=pts[0],
                black=pts[1], track=track_text(self.track)),
        ))
        self.last_round = self._round_summary()
        self._deal((self.dealer + 1) % self.players, events)

    def _round_summary(self) -> dict[str, Any]:
        """The finished round for views: who won each spot, no card codes (every card
        goes back into the deck for the next round and may be hidden again)."""
        return {
            "round": self.round_no,
            "dealer": self.dealer,
            "points": list(self.round_points),
            "spots": [
                {"spot": i + 1, "winner": SIDES[r["winner"]] if r["winner"] >= 0 else None,
                 "points": list(r["points"]), "how": r["how"], "quash": r["quash"]}
                for i, r in enumerate(self.results)
            ],
        }

    # ----------------------------------------------------------- tiebreaks

    def _tiebreak(self, seat: int, card: int) -> list[Event]:
        if self.phase != "tiebreak":
            raise IllegalAction(say("There is no tiebreaker to play now"))
        side = seat % 2
        if card not in self.leftovers[side]:
            if self.players == 2:
                raise IllegalAction(say("{card} is not among your leftover cards", card=DECK[card]))
            raise IllegalAction(say("{card} is not among your team's leftover cards", card=DECK[card]))
        events: list[Event] = []
        self.moves += 1
        self._legal = None
        if play_tiebreak(self, seat, card, events):
            self.end_round(events)
        return events

    def _handover(self, seat: int, target: int) -> list[Event]:
        if self.phase != "tiebreak":
            raise IllegalAction(say("The tiebreak choice can only be handed over during a tiebreaker"))
        if self.players != 4:
            raise IllegalAction(say("Only teams (4 players) can hand the tiebreak choice to a partner"))
        partner = (seat + 2) % 4
        if target != partner:
            raise IllegalAction(say("Only your partner (seat {number}) can take over your team's tiebreak choice",
                                    number=partner + 1))
        side = seat % 2
        self.chooser[side] = partner
        self.moves += 1
        self._legal = None
        return [Event(
            "chooser", say("{player} hands {side}'s tiebreak choice to {partner}.", player=Seat(seat),
                           side=SIDE_NAMES[side], partner=Seat(partner)), seat,
        )]

    # ----------------------------------------------------------- results

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
            reason = say("Both sides reached the finish ({finish}) on the same spot: a draw ({track}).",
                         finish=self.finish, track=t)
            return Outcome((), (tuple(range(self.players)),), scores, reason, teams)
        w = self.winner
        reason = say("{side} ({players}) reached the finish ({finish}) first ({track}).", side=SIDE_NAMES[w],
                     players=names(self.players, w), finish=self.finish, track=t)
        return Outcome(teams[w], (teams[w], teams[1 - w]), scores, reason, teams)

    # ----------------------------------------------------------- cards and views

    def zones(self) -> dict[str, list[Card]]:
        flying = self.flying()
        zones = {"pile": [DECK[c] for c in self.pile], "aside": [DECK[c] for c in self.aside],
                 "used": [DECK[c] for c in self.used], "air": [DECK[flying]] if flying is not None else []}
        for s in range(self.players):
            zones[f"hand:{s}"] = [DECK[c] for c in self.hands[s]]
        for side in (0, 1):
            name = SIDES[side]
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
