"""The Q2J game state: plain data, a seeded Rng, and the rules of a turn (RULINGS §1–2).

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

See ``games/q2j/__init__.py`` for the rulings these methods implement, and the view
keys. A view strips the secrets: other hands are counts (every hand is shown in the
face-up variant), the stock is a count. Every move is added to ``history`` packed as
:func:`games.q2j.history.record` packs it (duty 0, 1, 2: none, owed, free; 4 and 8
added: the card, or each queen, was ``known``), written out inline because it runs in
every simulated move. A played card leaves ``known``.
"""

from __future__ import annotations

import copy
from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..base import Action, Event, GameState, Outcome, normalize_options
from ..cards import CODE, DECK, Card, CardLike
from ..codec import CardIds, stored
from ..concept import CMP
from ..errors import GameError, IllegalAction
from ..i18n import Seat, Text, plural, say
from ..phrases import cards_of, listed, sentences
from ..rng import Rng
from .actions import DRAW, PLAY, QQ, Kind, parse
from .deal import choose_first, deal_hands, shown_at_deal
from .history import DRAW_MOVE, QQ_MOVE, move_text
from .options import NAME, OPTIONS, check_options
from .rules import IS_JACK, IS_QUEEN, PLAYABLE_ON, card_id, why_not

HAND_SIZE = 5


@dataclass(eq=False, kw_only=True)
class Q2JState(GameState):
    """A Q2J game, or a whole elimination match, in progress."""

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
    def from_json(cls, data: Mapping[str, Any]) -> Q2JState:
        """A stored game; format 1 (before the public move history) is upgraded with none recorded."""
        if isinstance(data, Mapping) and data.get("game") == cls.game_id and data.get("format") == 1:
            data = {**data, "format": 2, "history": [], "known": []}
        return super().from_json(data)

    def copy(self, hands: list[list[int]] | None = None) -> Q2JState:
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
    def new_game(cls, players: int, options: dict[str, Any], seed: int) -> Q2JState:
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
    ) -> Q2JState:
        """A hand-set position, for tests and puzzles. Only the listed cards are in play.

        ``top`` is a card, or two queens with ``duty`` the seat that played them;
        ``under`` lists the discard pile below the top (bottom first); ``stock``
        lists the stock bottom first, so its last card is drawn first. Duplicate
        cards, or a queen pair on top without ``duty``, raise :class:`GameError`.
        """
        players = len(hands)
        opts = normalize_options(NAME, OPTIONS, options, players, check_options)
        tops = [top] if isinstance(top, (str, Card)) else list(top)
        top_ids = [card_id(c) for c in tops]
        if len(top_ids) == 2:
            if duty is None or not all(IS_QUEEN[c] for c in top_ids):
                raise GameError(say("A two-card top must be a Q² queen pair, with duty= the seat that played it"))
        elif len(top_ids) != 1 or duty is not None:
            raise GameError(say("top is one card, or a Q² pair of queens together with duty="))
        hand_ids = [sorted(card_id(c) for c in h) for h in hands]
        stock_ids = [card_id(c) for c in stock]
        discard = [card_id(c) for c in under] + top_ids
        every = [c for h in hand_ids for c in h] + stock_ids + discard
        if len(set(every)) != len(every):
            raise GameError(say("A card appears twice in the position"))
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
        if short is not None:
            text = say("Challenge: {short} is dealt 1 card, {long} 5 cards.", short=Seat(short), long=Seat(1 - short))
        else:
            text = plural("Dealt {count} card each to {players}.", "Dealt {count} cards each to {players}.", HAND_SIZE,
                          players=listed([Seat(s) for s in seats]))
        if self.elimination:
            text = say("Game {number}: {deal}", number=self.game_number, deal=text)
        events.append(Event("deal", text))
        events.append(Event("first_player", reason, self.turn))
        events.append(Event("top", say("The top card of the stock, {card}, starts the discard pile.",
                                       card=DECK[self.discard[-1]])))
        for seat in seats:
            events.append(Event("hand", say("Your hand: {cards}", cards=cards_of(self.hands[seat])), seat,
                                private_to=seat))

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
            acts: list[Action]
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
        move = parse(action)
        match move.kind:
            case Kind.PLAY:
                return self._play(seat, move.card)
            case Kind.DRAW:
                return self._draw_turn(seat)
            case Kind.QQ:
                return self._qq(seat, move.card, move.other)


    # ----------------------------------------------------------- turns

    def _play(self, seat: int, card: int) -> list[Event]:
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction(say("You don't hold {card}", card=DECK[card]))
        top = self.discard[-1]
        duty = self.duty
        played = dict(player=Seat(seat), card=DECK[card])
        text: Text
        if duty is not None:
            seen = 2 if self.free else 1
            if self.free:
                text = say("{player} played {card} on the queens: the Q² came back, so any card goes.", **played)
            elif IS_JACK[card]:
                text = say("{player} played {card}: Joe! The Q² duty is over.", **played)
            else:
                raise IllegalAction(say("You can't play {card} now: {pair} (Q²) is on the pile, so play a jack or draw",
                                        card=DECK[card], pair=cards_of(self.discard[-2:])))
            penalty = False
            self.duty = None
            self.free = False
        else:
            seen = 0
            result = CMP[card][top]
            if result < 0:
                raise IllegalAction(why_not(card, top))
            penalty = result == 0
            if penalty:
                text = say("{player} played {card} on {top}: equal strength, so {player} draws a penalty card.",
                           top=DECK[top], **played)
            else:
                text = say("{player} played {card} on {top}.", top=DECK[top], **played)
        known = self.known
        if known and card in known[seat]:
            known[seat].remove(card)
            seen |= 4
        self.history.append(seat | card << 4 | top << 10 | seen << 16)
        hand.remove(card)
        self.discard.append(card)
        events = [Event("play", text, seat)]
        if penalty:
            self._draw_card(seat, events, penalty=True)
        self._finish_turn(seat, events)
        return events

    def _qq(self, seat: int, a: int, b: int) -> list[Event]:
        if not self.qq_rule:
            raise IllegalAction(say("Classic has no Q² rule: play one card at a time"))
        hand = self.hands[seat]
        for card in (a, b):
            if card not in hand:
                raise IllegalAction(say("You don't hold {card}", card=DECK[card]))
        pair = cards_of((a, b))
        if self.duty is not None:
            raise IllegalAction(say("You can't play {pair} on {top}: Q² can't go on another queen pair", pair=pair,
                                    top=cards_of(self.discard[-2:])))
        top = self.discard[-1]
        if IS_JACK[top]:
            raise IllegalAction(say("You can't play {pair} on {top}: Q² can't go on a jack", pair=pair,
                                    top=DECK[top]))
        known = self.known[seat] if self.known else []
        seen = 0
        for flag, card in ((4, a), (8, b)):
            if card in known:
                known.remove(card)
                seen |= flag
        self.history.append(seat | QQ_MOVE[(a, b)] << 4 | top << 10 | seen << 16)
        hand.remove(a)
        hand.remove(b)
        self.discard += (a, b)
        self.duty, self.free = seat, False
        events: list[Event] = []
        self._finish_turn(seat, events)
        text = say("{player} played {pair}: Q²!", player=Seat(seat), pair=pair)
        if self.duty == seat and not self.over:
            text = sentences([text, say("{player} must play a jack or draw.", player=Seat(self.turn))])
        events.insert(0, Event("qq", text, seat))
        return events

    def _draw_turn(self, seat: int) -> list[Event]:
        events: list[Event] = []
        seen = 0 if self.duty is None else (2 if self.free else 1)
        self.history.append(seat | DRAW_MOVE << 4 | self.discard[-1] << 10 | seen << 16)
        self._draw_card(seat, events)
        nxt = self.turn = self._next(seat)
        duty = self.duty
        if duty is not None:
            # The duty "comes back" when passing from seat to nxt goes past the Q² seat
            # (who may have left the game in an elimination match).
            players = self.players
            back = 0 < (duty - seat) % players <= (nxt - seat) % players
            was_free, self.free = self.free, back
            if back:
                if nxt == duty:
                    text = say("Nobody played a jack: the turn is back to {player}, who may play any card or draw.",
                               player=Seat(nxt))
                else:
                    text = say("Nobody played a jack: the duty went round past {gone}, who has left, "
                               "so {player} may play any card or draw.", gone=Seat(duty), player=Seat(nxt))
            elif was_free:
                text = say("The Q² duty goes round again: {player} must play a jack or draw.", player=Seat(nxt))
            else:
                text = say("The Q² duty passes to {player}: play a jack or draw.", player=Seat(nxt))
            events.append(Event("duty", text, nxt))
        return events

    def _finish_turn(self, seat: int, events: list[Event]) -> None:
        """After a play: deal with an emptied hand, then pass the turn on."""
        if not self.hands[seat] and self._hand_emptied(seat, events):
            return
        self.turn = self._next(seat)

    def _next(self, seat: int) -> int:
        """The next seat after ``seat`` still holding cards in this game."""
        players, playing = self.players, self.playing
        nxt = (seat + 1) % players
        while not playing[nxt]:
            nxt = (nxt + 1) % players
        return nxt

    def _hand_emptied(self, seat: int, events: list[Event]) -> bool:
        """Countdown refill, a win, or leaving the game; True when the turn is already settled."""
        player = Seat(seat)
        if self.countdown and self.levels[seat] > 1:
            size = self.levels[seat] = self.levels[seat] - 1
            new = self._take(size, events)
            self.hands[seat] = sorted(new)
            text = say("{player} emptied their hand and draws a new hand of {count}.", player=player, count=size)
            if len(new) < size:
                short = plural("Only {count} could be drawn.", "Only {count} could be drawn.", len(new)) if new else \
                    say("There are no cards left to draw.")
                text = sentences([text, short])
            events.append(Event("new_hand", text, seat))
            if new:
                events.append(Event("drew", say("Your new hand: {cards}", cards=cards_of(self.hands[seat])), seat,
                                    private_to=seat))
            return False
        if not self.elimination:
            self.over, self.winner = True, seat
            won = say("{player} emptied their one-card hand and wins!", player=player) if self.countdown else \
                say("{player} emptied their hand and wins!", player=player)
            events.append(Event("win", won, seat))
            return True
        self.playing[seat] = False
        safe = say("{player} emptied their one-card hand and is safe this game.", player=player) if self.countdown \
            else say("{player} emptied their hand and is safe this game.", player=player)
        events.append(Event("safe", safe, seat))
        left = [s for s in range(self.players) if self.playing[s]]
        if len(left) > 1:
            return False
        last = left[0]
        self.playing[last] = False
        self.eliminated.append(last)
        events.append(Event("eliminated", say("{player} is the last player holding cards and is eliminated.",
                                              player=Seat(last)), last))
        survivors = [s for s in range(self.players) if s not in self.eliminated]
        if len(survivors) == 1:
            self.over, self.winner = True, survivors[0]
            winner = survivors[0]
            events.append(Event("win", say("{player} is the last player standing and wins the match!",
                                           player=Seat(winner)), winner))
            return True
        self.game_number += 1
        self._deal(survivors, events)
        return True

    # ----------------------------------------------------------- drawing

    def _reshuffle(self, events: list[Event]) -> None:
        """Turn the discard pile except its top (both queens of a Q² top) into the stock."""
        keep = 2 if self.duty is not None else 1
        if len(self.discard) <= keep:
            return
        cards = self.discard[:-keep]
        del self.discard[:-keep]
        self.rng.shuffle(cards)
        self.stock = cards
        events.append(Event("reshuffle", plural(
            "The stock ran out: the discard pile under the top was shuffled into a new stock of {count} card.",
            "The stock ran out: the discard pile under the top was shuffled into a new stock of {count} cards.",
            len(cards))))

    def _draw_card(self, seat: int, events: list[Event], penalty: bool = False) -> int | None:
        """Move the stock's top card to ``seat``'s hand (reshuffling when needed), as a
        ``penalty`` or not; None when nothing is left."""
        player = Seat(seat)
        if not self.stock:
            self._reshuffle(events)
            if not self.stock:
                text = say("No card is left to draw, so {player} draws nothing as a penalty.", player=player) \
                    if penalty else say("No card is left to draw, so {player} draws nothing.", player=player)
                events.append(Event("draw_skipped", text, seat))
                return None
        card = self.stock.pop()
        insort(self.hands[seat], card)
        if penalty:  # the play that cost it said so already: only the drawer hears which card
            events.append(Event("drew", say("You drew {card} as a penalty.", card=DECK[card]), seat, private_to=seat))
            return card
        events.append(Event("draw", say("{player} drew a card.", player=player), seat))
        events.append(Event("drew", say("You drew {card}.", card=DECK[card]), seat, private_to=seat))
        return card

    def _take(self, count: int, events: list[Event]) -> list[int]:
        """Up to ``count`` cards from the stock, reshuffling once if it runs out."""
        taken: list[int] = []
        while len(taken) < count:
            if not self.stock:
                self._reshuffle(events)
                if not self.stock:
                    break
            taken.append(self.stock.pop())
        return taken

    # ----------------------------------------------------------- views

    def statuses(self) -> list[str]:
        """Per seat: ``playing``, ``safe`` (finished this game of a match) or ``out``; once over,
        ``won`` for the winner and ``out`` or ``lost`` for the others."""
        out = []
        for s in range(self.players):
            if self.over:
                out.append("won" if s == self.winner else ("out" if s in self.eliminated else "lost"))
            elif s in self.eliminated:
                out.append("out")
            else:
                out.append("playing" if self.playing[s] else "safe")
        return out


    def shown_history(self) -> list[str]:
        """The public history as the views show it (a fresh list). The history only grows, or
        is replaced by a new list at a deal, so the words already made for this list are kept."""
        history = self.history
        kept = self.history_words
        if kept is None or kept[0] is not history or len(kept[1]) > len(history):
            kept = self.history_words = (history, [])
        words = kept[1]
        if len(words) < len(history):
            words.extend(map(move_text, history[len(words):]))
        return list(words)


    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The table as ``seat`` sees it (``None``: the public; keys in the package docs); a
        seat's view adds its ``hand``, ``your_turn``, ``legal`` and ``penalty_cards`` (cards
        it would play with a penalty)."""
        self.check_viewer(seat)
        outcome = self.outcome()
        top = self.discard[-2:] if self.duty is not None else self.discard[-1:]
        view: dict[str, Any] = {
            "game": self.game_id,
            "variant": self.variant,
            "match": self.match,
            "players": self.players,
            "viewer": seat,
            "turn": None if self.over else self.turn,
            "to_act": self.to_act(),
            "top": [CODE[c] for c in top],
            "top_is_qq": self.duty is not None,
            "stock_count": len(self.stock),
            "discard_count": len(self.discard),
            "hand_counts": [len(h) for h in self.hands],
            "hands": [[CODE[c] for c in h] for h in self.hands] if self.faceup else None,
            "duty": None if self.duty is None else {"qq_seat": self.duty, "owed_by": self.turn, "free_play": self.free},
            "status": self.statuses(),
            "eliminated": list(self.eliminated),
            "game_number": self.game_number,
            "countdown": list(self.levels) if self.countdown else None,
            "short_hand": self.short_hand,
            "history": self.shown_history(),
            "known": [[CODE[c] for c in cards] for cards in self.known],
            "over": self.over,
            "outcome": outcome.to_json() if outcome else None,
        }
        if seat is not None:
            legal = self.legal_actions(seat)
            view["hand"] = [CODE[c] for c in self.hands[seat]]
            view["your_turn"] = bool(legal)
            view["legal"] = [a.code() for a in legal]
            penalty: list[str] = []
            if legal and self.duty is None:
                top_card = self.discard[-1]
                penalty = [CODE[c] for c in self.hands[seat] if CMP[c][top_card] == 0]
            view["penalty_cards"] = penalty
        return view

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
            ranking: list[tuple[int, ...]] = [(winner,), *[(s,) for s in reversed(self.eliminated)]]
            # English says "eliminations" even for one, as it always has: the replays' fingerprints hold it.
            reason = plural("{player} is the last player standing after {count} eliminations.",
                            "{player} is the last player standing after {count} eliminations.",
                            len(self.eliminated), player=Seat(winner))
        else:
            left: dict[int, list[int]] = {}
            for s in range(self.players):
                if s != winner:
                    owed = len(self.hands[s]) + (sum(range(1, self.levels[s])) if self.countdown else 0)
                    left.setdefault(owed, []).append(s)
            ranking = [(winner,), *[tuple(left[k]) for k in sorted(left)]]
            reason = say("{player} emptied their one-card hand first.", player=Seat(winner)) if self.countdown \
                else say("{player} emptied their hand first.", player=Seat(winner))
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

