"""QUASH's moves: placing cards, scoring a round, tiebreaks (a mixin of :class:`QuashState`).

The methods work on the state's fields (listed in :mod:`games.quash.state`); the
rulings they implement are in ``games/quash/__init__.py``."""

from __future__ import annotations

from bisect import insort
from typing import Any

from ..base import Event
from ..cards import PRETTY
from ..errors import IllegalAction
from .chains import chain_text, check_chain
from .rules import KIND, SORT_KEY, SPOT_SIZE, SPOTS, pretty
from .scoring import SIDE_NAMES, play_tiebreak, run_scoring, side_seats, track_text


class Turns:
    """QUASH's moves: placing cards, scoring a round, tiebreaks (a mixin of :class:`QuashState`)."""

    # ----------------------------------------------------------- placing

    def _place(self, seat: int, cards: list[int], where: list[int]) -> list[Event]:
        if self.phase != "play":
            raise IllegalAction("Scoring has started: the only move now is a tiebreak card")
        side = seat % 2
        spots = self.board[side]
        hand = self.hands[seat]
        runnable = check_chain(spots, hand, cards, where, self.advanced)
        if self.advanced and not runnable:
            moves, free = self._moves(seat)
            if not free:
                s = where[0]
                raise IllegalAction(
                    f"{PRETTY[cards[0]]} can't go to spot {s + 1}: {pretty([*spots[s], cards[0]])} could never "
                    "become a run (advanced play allows that only when no placement or swap keeps a run possible)"
                )
        hand.remove(cards[0])
        last = len(where) - 1
        for i, s in enumerate(where):
            spot = spots[s]
            if i < last:
                spot[spot.index(cards[i + 1])] = cards[i]
            else:
                spot.append(cards[i])
        self.moves += 1
        self._legal = None
        s0 = where[0] + 1
        if len(cards) == 1:
            text = f"{{p{seat}}} placed {PRETTY[cards[0]]} on {SIDE_NAMES[side]}'s spot {s0} ({KIND[where[0]]})"
        else:
            text = f"{{p{seat}}} swapped on {SIDE_NAMES[side]}'s side: {chain_text(cards, where)}"
        if self.advanced and not runnable:
            text += " (no move could keep a run possible, so the spot will fail)"
        events = [Event("place", text + ".", seat)]
        if self.pile:
            drawn = self.pile.pop()
            insort(hand, drawn, key=SORT_KEY.__getitem__)
            left = len(self.pile)
            events[0] = Event("place", f"{text} and drew a card ({left} left in the pile).", seat)
            events.append(Event("draw", f"You drew {PRETTY[drawn]}.", seat, private_to=seat))
            if not left:
                events.append(Event("pile_empty", "The draw pile is empty: the rest of the round is played "
                                                  "from the hands."))
        board = self.board
        if all(len(board[x][s]) == SPOT_SIZE[s] for x in (0, 1) for s in range(SPOTS)):
            self._start_scoring(events)
        else:
            self.turn = self._next_turn(seat)
        return events

    def _start_scoring(self, events: list[Event]) -> None:
        """Both sides are full: pool the leftovers per side and score from spot 1."""
        for side in (0, 1):
            pool: list[int] = []
            for s in side_seats(self.players, side):
                pool += self.hands[s]
                self.hands[s] = []
            self.leftovers[side] = sorted(pool, key=SORT_KEY.__getitem__)
        counts = ", ".join(f"{SIDE_NAMES[x]} {len(self.leftovers[x])}" for x in (0, 1))
        if self.players == 2:
            text = f"Every spot is full. The cards left in hand are kept for tiebreakers ({counts})."
        else:
            text = (f"Every spot is full. Each team pools its leftover cards for tiebreakers ({counts}); "
                    f"{{p{self.chooser[0]}}} chooses RED's and {{p{self.chooser[1]}}} BLACK's.")
        events.append(Event("scoring", text + " Scoring starts at spot 1."))
        self.spot = 0
        run_scoring(self, events)

    def end_round(self, events: list[Event]) -> None:
        """All nine spots scored without a winner: announce, keep a summary, deal the next round."""
        pts = self.round_points
        events.append(Event(
            "round_end",
            f"Round {self.round_no} is scored: RED +{pts[0]}, BLACK +{pts[1]} ({track_text(self.track)}).",
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
                {"spot": i + 1, "winner": SIDE_NAMES[r["winner"]] if r["winner"] >= 0 else None,
                 "points": list(r["points"]), "how": r["how"], "quash": r["quash"]}
                for i, r in enumerate(self.results)
            ],
        }

    def finish_match(self, winner: int) -> None:
        """End the match: ``winner`` is a side, or -1 for a draw."""
        self.winner = winner
        self.phase = "over"
        self.pending = [-1, -1]
        self._legal = None

    # ----------------------------------------------------------- tiebreaks

    def _tiebreak(self, seat: int, card: int) -> list[Event]:
        if self.phase != "tiebreak":
            raise IllegalAction("There is no tiebreaker to play now")
        side = seat % 2
        if card not in self.leftovers[side]:
            whose = "your leftover cards" if self.players == 2 else "your team's leftover cards"
            raise IllegalAction(f"{PRETTY[card]} is not among {whose}")
        events: list[Event] = []
        self.moves += 1
        self._legal = None
        play_tiebreak(self, seat, card, events)
        return events

    def _handover(self, seat: int, target: int) -> list[Event]:
        if self.phase != "tiebreak":
            raise IllegalAction("The tiebreak choice can only be handed over during a tiebreaker")
        if self.players != 4:
            raise IllegalAction("Only teams (4 players) can hand the tiebreak choice to a partner")
        partner = (seat + 2) % 4
        if target != partner:
            raise IllegalAction(f"Only your partner (seat {partner + 1}) can take over your team's tiebreak choice")
        side = seat % 2
        self.chooser[side] = partner
        self.moves += 1
        self._legal = None
        return [Event(
            "chooser", f"{{p{seat}}} hands {SIDE_NAMES[side]}'s tiebreak choice to {{p{partner}}}.", seat,
        )]
