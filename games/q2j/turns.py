"""The moves of a Q Squared Joe game: playing, Q², drawing, and what emptying a
hand does (a mixin of :class:`Q2JState`).

The methods work on the state's fields (listed in :mod:`games.q2j.state`); the
rulings they implement are in ``games/q2j/__init__.py``. Every move is added to
``history`` packed as :func:`games.q2j.history.record` packs it (duty 0, 1, 2: none,
owed, free; 4 and 8 added: the card, or each queen, was ``known``), written out
inline because it runs in every simulated move. A played card leaves ``known``."""

from __future__ import annotations

from bisect import insort

from ..base import Event
from ..cards import PRETTY, pretty_ids
from ..concept import CMP
from ..errors import IllegalAction
from .history import DRAW_MOVE, QQ_MOVE
from .rules import IS_JACK, why_not


class Turns:
    """The moves of a Q Squared Joe game (a mixin of :class:`Q2JState`)."""

    # ----------------------------------------------------------- turns

    def _play(self, seat: int, card: int) -> list[Event]:
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction(f"You don't hold {PRETTY[card]}")
        top = self.discard[-1]
        duty = self.duty
        name = f"{{p{seat}}}"
        if duty is not None:
            seen = 2 if self.free else 1
            if self.free:
                text = f"{name} played {PRETTY[card]} on the queens: the Q² came back, so any card goes."
            elif IS_JACK[card]:
                text = f"{name} played {PRETTY[card]}: Joe! The Q² duty is over."
            else:
                pair = pretty_ids(self.discard[-2:])
                raise IllegalAction(f"You can't play {PRETTY[card]} now: {pair} (Q²) is on the pile, so play a jack or draw")
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
                text = f"{name} played {PRETTY[card]} on {PRETTY[top]}: equal strength, so {name} draws a penalty card."
            else:
                text = f"{name} played {PRETTY[card]} on {PRETTY[top]}."
        known = self.known
        if known and card in known[seat]:
            known[seat].remove(card)
            seen |= 4
        self.history.append(seat | card << 4 | top << 10 | seen << 16)
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
            raise IllegalAction(f"You can't play {pair} on {pretty_ids(self.discard[-2:])}: Q² can't go on another queen pair")
        top = self.discard[-1]
        if IS_JACK[top]:
            raise IllegalAction(f"You can't play {pair} on {PRETTY[top]}: Q² can't go on a jack")
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
        text = f"{{p{seat}}} played {pair}: Q²!"
        if self.duty == seat and not self.over:
            text += f" {{p{self.turn}}} must play a jack or draw."
        events.insert(0, Event("qq", text, seat))
        return events

    def _draw_turn(self, seat: int) -> list[Event]:
        events: list[Event] = []
        seen = 0 if self.duty is None else (2 if self.free else 1)
        self.history.append(seat | DRAW_MOVE << 4 | self.discard[-1] << 10 | seen << 16)
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
                events.append(Event("drew", f"Your new hand: {pretty_ids(self.hands[seat])}", seat, private_to=seat))
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
