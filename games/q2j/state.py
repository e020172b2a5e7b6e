"""The Q2J game state: plain data, a seeded Rng, and the rules of a turn.

Representation (all JSON-friendly once cards become codes):

- ``hands[s]``: card ids, kept sorted (suit, then rank), for every seat;
- ``stock`` and ``discard``: card ids, the top is the last element;
- ``turn``: the seat to act; ``duty``: the seat that played a Q² pair still
  lying on top of the pile (``None`` otherwise), ``free``: the seat to act
  is the one the duty came back to, who may play any single card;
- ``playing[s]``: the seat still holds cards in the current game (in an
  elimination match seats that emptied their hand or were eliminated stop
  playing); ``eliminated``: seats knocked out, in order; ``game_number``;
- ``levels[s]``: countdown size of the seat's current hand (5 … 1).

See ``games/q2j/__init__.py`` for the rulings these methods implement.
"""

from __future__ import annotations

from bisect import insort
from itertools import combinations
from typing import Any, Iterable, Mapping, Sequence

from ..base import Action, Event, GameState, Outcome, id_reader, reading_snapshot
from ..cards import CODE, DECK, ID_BY_CODE, PRETTY, Card, CardLike
from ..concept import CMP
from ..errors import GameError, IllegalAction, MalformedAction
from ..rng import Rng
from .actions import DRAW, KINDS, PLAY, QQ, play_arg, qq_args
from .deal import choose_first, deal_hands
from .options import normalize
from .rules import IS_JACK, IS_QUEEN, PLAYABLE_ON, card_id, why_not
from .view import build_view

FORMAT = 1
HAND_SIZE = 5


def _pretty(cards: Iterable[int]) -> str:
    return " ".join(PRETTY[c] for c in cards)


class Q2JState(GameState):
    """A Q2J game, or a whole elimination match, in progress."""

    game_id = "q2j"

    def __init__(
        self,
        players: int,
        options: Mapping[str, Any],
        seed: int,
        rng: Rng,
        hands: list[list[int]],
        stock: list[int],
        discard: list[int],
        turn: int,
        duty: int | None = None,
        free: bool = False,
        playing: list[bool] | None = None,
        eliminated: list[int] | None = None,
        game_number: int = 1,
        levels: list[int] | None = None,
        short_hand: int | None = None,
        over: bool = False,
        winner: int | None = None,
        opening: list[Event] | None = None,
    ) -> None:
        """Low-level constructor; use ``GAME.new_game``, :meth:`from_json` or :meth:`from_position`."""
        self.players = players
        self.options = dict(options)
        self.seed = seed
        self.rng = rng
        self.hands = hands
        self.stock = stock
        self.discard = discard
        self.turn = turn
        self.duty = duty
        self.free = free
        self.playing = playing if playing is not None else [True] * players
        self.eliminated = eliminated if eliminated is not None else []
        self.game_number = game_number
        self.levels = levels if levels is not None else [HAND_SIZE] * players
        self.short_hand = short_hand
        self.over = over
        self.winner = winner
        self.opening = opening if opening is not None else []
        variant = self.options["variant"]
        self.variant: str = variant
        self.match: str = self.options["match"]
        self.qq_rule = variant != "classic"
        self.countdown = variant == "countdown"
        self.faceup = variant == "faceup"
        self.elimination = self.match == "elimination"

    # ----------------------------------------------------------- creation

    @classmethod
    def new(cls, players: int, options: Mapping[str, Any], seed: int) -> "Q2JState":
        """A freshly dealt game; ``options`` must already be normalised and checked."""
        rng = Rng(seed)
        short: int | None = None
        if options["variant"] == "challenge":
            choice = options["short_hand"]
            short = rng.below(2) if choice == "random" else choice
        state = cls(players, options, seed, rng, [[] for _ in range(players)], list(range(52)), [], 0, short_hand=short)
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
            players, opts, seed, Rng(seed), hand_ids, stock_ids, discard, turn, duty, free,
            list(playing) if playing is not None else [True] * players, list(eliminated), game_number,
            list(levels) if levels is not None else None, short,
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
            events.append(Event("hand", f"Your hand: {_pretty(self.hands[seat])}", seat, private_to=seat))

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
        try:
            kind, args = action
        except (TypeError, ValueError):
            raise MalformedAction(f"Not a Q2J move: {action!r}") from None
        if kind == "play":
            return self._play(seat, play_arg(args))
        if kind == "draw":
            if args:
                raise MalformedAction("draw takes no arguments")
            return self._draw_turn(seat)
        if kind == "qq":
            return self._qq(seat, *qq_args(args))
        raise MalformedAction(f"Unknown move {kind!r}; Q2J moves are: {', '.join(KINDS)}")

    # ----------------------------------------------------------- turns

    def _play(self, seat: int, card: int) -> list[Event]:
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction(f"You don't hold {PRETTY[card]}")
        top = self.discard[-1]
        duty = self.duty
        name = f"{{p{seat}}}"
        if duty is not None:
            if self.free:
                text = f"{name} played {PRETTY[card]} on the queens: the Q² came back, so any card goes."
            elif IS_JACK[card]:
                text = f"{name} played {PRETTY[card]}: Joe! The Q² duty is over."
            else:
                pair = _pretty(self.discard[-2:])
                raise IllegalAction(f"You can't play {PRETTY[card]} now: {pair} (Q²) is on the pile, so play a jack or draw")
            penalty = False
            self.duty = None
            self.free = False
        else:
            result = CMP[card][top]
            if result < 0:
                raise IllegalAction(why_not(card, top))
            penalty = result == 0
            if penalty:
                text = f"{name} played {PRETTY[card]} on {PRETTY[top]}: equal strength, so {name} draws a penalty card."
            else:
                text = f"{name} played {PRETTY[card]} on {PRETTY[top]}."
        hand.remove(card)
        self.discard.append(card)
        events = [Event("play", text, seat)]
        if penalty:
            self._draw_card(seat, events, " as a penalty")
        self._finish_turn(seat, events)
        return events

    def _qq(self, seat: int, a: int, b: int) -> list[Event]:
        if not self.qq_rule:
            raise IllegalAction("Classic has no Q² rule: play one card at a time")
        hand = self.hands[seat]
        for card in (a, b):
            if card not in hand:
                raise IllegalAction(f"You don't hold {PRETTY[card]}")
        pair = f"{PRETTY[a]} {PRETTY[b]}"
        if self.duty is not None:
            raise IllegalAction(f"You can't play {pair} on {_pretty(self.discard[-2:])}: Q² can't go on another queen pair")
        top = self.discard[-1]
        if IS_JACK[top]:
            raise IllegalAction(f"You can't play {pair} on {PRETTY[top]}: Q² can't go on a jack")
        hand.remove(a)
        hand.remove(b)
        self.discard += (a, b)
        self.duty, self.free = seat, False
        events: list[Event] = []
        self._finish_turn(seat, events)
        text = f"{{p{seat}}} played {pair}: Q²!"
        if self.duty == seat and not self.over:
            text += f" {{p{self.turn}}} must play a jack or draw."
        events.insert(0, Event("qq", text, seat))
        return events

    def _draw_turn(self, seat: int) -> list[Event]:
        events: list[Event] = []
        self._draw_card(seat, events, "")
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
                    text = f"Nobody played a jack: the turn is back to {{p{nxt}}}, who may play any card or draw."
                else:
                    text = (f"Nobody played a jack: the duty went round past {{p{duty}}}, who has left, "
                            f"so {{p{nxt}}} may play any card or draw.")
            elif was_free:
                text = f"The Q² duty goes round again: {{p{nxt}}} must play a jack or draw."
            else:
                text = f"The Q² duty passes to {{p{nxt}}}: play a jack or draw."
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
        name = f"{{p{seat}}}"
        if self.countdown and self.levels[seat] > 1:
            size = self.levels[seat] = self.levels[seat] - 1
            new = self._take(size, events)
            self.hands[seat] = sorted(new)
            text = f"{name} emptied their hand and draws a new hand of {size}."
            if len(new) < size:
                text += f" Only {len(new)} could be drawn." if new else " There are no cards left to draw."
            events.append(Event("new_hand", text, seat))
            if new:
                events.append(Event("drew", f"Your new hand: {_pretty(self.hands[seat])}", seat, private_to=seat))
            return False
        last_hand = " one-card" if self.countdown else ""
        if not self.elimination:
            self.over, self.winner = True, seat
            events.append(Event("win", f"{name} emptied their{last_hand} hand and wins!", seat))
            return True
        self.playing[seat] = False
        events.append(Event("safe", f"{name} emptied their{last_hand} hand and is safe this game.", seat))
        left = [s for s in range(self.players) if self.playing[s]]
        if len(left) > 1:
            return False
        last = left[0]
        self.playing[last] = False
        self.eliminated.append(last)
        events.append(Event("eliminated", f"{{p{last}}} is the last player holding cards and is eliminated.", last))
        survivors = [s for s in range(self.players) if s not in self.eliminated]
        if len(survivors) == 1:
            self.over, self.winner = True, survivors[0]
            events.append(Event("win", f"{{p{survivors[0]}}} is the last player standing and wins the match!", survivors[0]))
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
        events.append(Event("reshuffle", f"The stock ran out: the discard pile under the top was shuffled into a new stock of {len(cards)} cards."))

    def _draw_card(self, seat: int, events: list[Event], why: str) -> int | None:
        """Move the stock's top card to ``seat``'s hand (reshuffling when needed); None when nothing is left."""
        if not self.stock:
            self._reshuffle(events)
            if not self.stock:
                events.append(Event("draw_skipped", f"No card is left to draw, so {{p{seat}}} draws nothing{why}.", seat))
                return None
        card = self.stock.pop()
        insort(self.hands[seat], card)
        events.append(Event("draw", f"{{p{seat}}} drew a card{why}.", seat))
        events.append(Event("drew", f"You drew {PRETTY[card]}{why}.", seat, private_to=seat))
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
        scores = [0] * self.players
        below = self.players
        for group in ranking:
            below -= len(group)
            for s in group:
                scores[s] = below
        return Outcome((winner,), tuple(ranking), tuple(scores), reason)

    def opening_events(self) -> list[Event]:
        """The public facts of the first deal: who is dealt what size, who starts and why, the top card."""
        return list(self.opening)

    def zones(self) -> dict[str, list[Card]]:
        zones = {"stock": [DECK[c] for c in self.stock], "discard": [DECK[c] for c in self.discard]}
        for s, hand in enumerate(self.hands):
            zones[f"hand:{s}"] = [DECK[c] for c in hand]
        return zones

    def hidden_cards(self, seat: int | None) -> list[Card]:
        """The stock, and every hand but the viewer's (no hand in the face-up variant).
        The discard pile is public: it was played in the open."""
        hidden = [DECK[c] for c in self.stock]
        if not self.faceup:
            for s, hand in enumerate(self.hands):
                if s != seat:
                    hidden += [DECK[c] for c in hand]
        return hidden

    # ----------------------------------------------------------- snapshots

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "format": FORMAT,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "rng": self.rng.state,
            "hands": [[CODE[c] for c in h] for h in self.hands],
            "stock": [CODE[c] for c in self.stock],
            "discard": [CODE[c] for c in self.discard],
            "turn": self.turn,
            "duty": self.duty,
            "free": self.free,
            "playing": list(self.playing),
            "eliminated": list(self.eliminated),
            "game_number": self.game_number,
            "levels": list(self.levels),
            "short_hand": self.short_hand,
            "over": self.over,
            "winner": self.winner,
            "opening": [e.to_json() for e in self.opening],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Q2JState":
        """Rebuild a state from :meth:`to_json` output; bad snapshots raise :class:`MalformedAction`."""
        with reading_snapshot(data, cls.game_id, FORMAT, "Q2J"):
            ids = id_reader(ID_BY_CODE)

            return cls(
                data["players"], data["options"], data["seed"], Rng(data["rng"]),
                [ids(h) for h in data["hands"]], ids(data["stock"]), ids(data["discard"]),
                data["turn"], data["duty"], data["free"], list(data["playing"]), list(data["eliminated"]),
                data["game_number"], list(data["levels"]), data["short_hand"], data["over"], data["winner"],
                [Event.from_json(e) for e in data["opening"]],
            )
