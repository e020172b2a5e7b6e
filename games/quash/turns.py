"""QUASH's moves: placing cards, scoring a round, tiebreaks (a mixin of :class:`QuashState`).

The methods work on the state's fields (listed in :mod:`games.quash.state`); the
rulings they implement are in ``games/quash/__init__.py``."""

from __future__ import annotations

from bisect import insort
from typing import Any

from ..base import Event
from ..cards import PRETTY
from ..errors import IllegalAction
from .actions import swap_step
from .chains import accepts, chain_text, replaces
from .rules import KIND, RANK, SIDE_CARDS, SORT_KEY, SPOT_SIZE, SPOTS, pretty
from .scoring import SIDE_NAMES, play_tiebreak, run_scoring, side_seats, track_text

_KEY = SORT_KEY.__getitem__
SEATS = tuple(f"{{p{seat}}}" for seat in range(4))
PLACED = tuple(tuple(tuple(f" placed {PRETTY[c]} on {SIDE_NAMES[side]}'s spot {s + 1} ({KIND[s]})" for s in range(SPOTS))
                     for c in range(52)) for side in (0, 1))
"""``PLACED[side][card][spot]``: the words after the seat for a placement (built once, not per move)."""
DREW = tuple(f"You drew {PRETTY[c]}." for c in range(52))


class Turns:
    """QUASH's moves: placing cards, scoring a round, tiebreaks (a mixin of :class:`QuashState`)."""

    # ----------------------------------------------------------- placing

    def _mover(self, seat: int, card: int) -> None:
        """Refuse ``card`` unless it may move now: the card in the air, else a hand card."""
        if self.phase != "play":
            raise IllegalAction("Scoring has started: the only move now is a tiebreak card")
        chain = self.chain
        if chain:
            flying = chain[-1][2]
            if card != flying:
                raise IllegalAction(f"{PRETTY[flying]} is in the air: place it first (or take the whole chain back)")
        elif card not in self.hands[seat]:
            raise IllegalAction(f"You don't hold {PRETTY[card]}")

    def _land(self, seat: int, card: int, s: int) -> list[Event]:
        """``card`` (a hand card, or the card in the air) onto an open slot of spot ``s``: the turn ends."""
        self._mover(seat, card)
        side = seat % 2
        cards = self.board[side][s]
        size = SPOT_SIZE[s]
        chain = self.chain
        if len(cards) >= size:
            raise IllegalAction(
                f"Spot {s + 1} ({KIND[s]}) is full: the {'displaced card' if chain else 'card'} {PRETTY[card]} "
                "needs a spot with an open slot" + (", or name a card there to displace" if self.advanced else ""))
        failing = self.advanced and not accepts(cards, size) >> RANK[card] & 1
        if failing and (chain or not self._moves(seat)[1]):
            raise IllegalAction(
                f"{PRETTY[card]} can't go to spot {s + 1}: {pretty([*cards, card])} could never become a run"
                + ("" if chain else " (advanced play allows that only when no placement or swap keeps a run possible)"))
        cards.append(card)
        if chain:
            moved = [step[0] for step in chain]
            text = f"{SEATS[seat]} swapped on {SIDE_NAMES[side]}'s side: " + chain_text(
                [*moved, card], [step[1] for step in chain] + [s])
            self.chain = []
        else:
            self.hands[seat].remove(card)
            text = SEATS[seat] + PLACED[side][card][s]
        if failing:
            text += " (no move could keep a run possible, so the spot will fail)"
        self.moves += 1
        self._legal = self._turn = None
        pile = self.pile
        if pile:
            drawn = pile.pop()
            insort(self.hands[seat], drawn, key=_KEY)
            left = len(pile)
            events = [Event("place", f"{text} and drew a card ({left} left in the pile).", seat),
                      Event("draw", DREW[drawn], seat, private_to=seat)]
            if not left:
                events.append(Event("pile_empty", "The draw pile is empty: the rest of the round is played "
                                                  "from the hands."))
        else:
            events = [Event("place", text + ".", seat)]
        board = self.board
        if sum(map(len, board[side])) == SIDE_CARDS and sum(map(len, board[1 - side])) == SIDE_CARDS:
            self._start_scoring(events)
        else:
            self.turn = self._next_turn(seat)
        return events

    def _displace(self, seat: int, card: int, s: int, displaced: int) -> list[Event]:
        """Advanced play: ``card`` onto spot ``s`` in place of ``displaced``, which is then in the air."""
        if not self.advanced:
            raise IllegalAction("Swap chains are only allowed in advanced play")
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
            raise IllegalAction(f"{PRETTY[displaced]} is not in your spot {s + 1}, so {PRETTY[card]} can't displace it")
        if any(step[0] == displaced for step in self.chain):
            raise IllegalAction(f"{PRETTY[displaced]} has already moved this turn: a card moves at most once a turn")
        if not replaces(cards, cards.index(displaced), SPOT_SIZE[s]) >> RANK[card] & 1:
            after = [c for c in cards if c != displaced] + [card]
            raise IllegalAction(f"{PRETTY[card]} can't take {PRETTY[displaced]}'s place in spot {s + 1}: "
                                f"{pretty(after)} could never become a run")
        raise IllegalAction(f"{PRETTY[displaced]} could then go nowhere: no open slot takes it, even by "
                            "displacing again, so the chain could never end")

    def _take_back(self, seat: int) -> list[Event]:
        """Undo the open chain: the side and the hand as they were when the turn began."""
        chain = self.chain
        if self.phase != "play" or not chain:
            raise IllegalAction("There is no swap chain to take back")
        spots = self.board[seat % 2]
        for card, s, displaced in reversed(chain):
            cards = spots[s]
            cards[cards.index(card)] = displaced
        insort(self.hands[seat], chain[0][0], key=_KEY)
        self.chain = []
        self.moves += 1
        self._legal = None
        return [Event("takeback", f"{SEATS[seat]} took a swap chain back; {SIDE_NAMES[seat % 2]}'s side is "
                                  "as it was.", seat)]

    def _whole_chain(self, seat: int, cards: list[int], where: list[int]) -> list[Event]:
        """An old whole-chain action (``swap:9D,4,6C,7``, from move logs written before chains
        were played step by step): its steps in turn, as one move; all or nothing."""
        if self.chain:
            raise IllegalAction(f"{PRETTY[self.chain[-1][2]]} is in the air: place it first (or take the "
                                "whole chain back)")
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
