"""NG's moves: checking a move's arguments and playing it (a mixin of :class:`NGState`).

The methods work on the state's fields (listed in :mod:`games.ng.state`); the
rulings they implement are in ``games/ng/__init__.py``."""

from __future__ import annotations

from bisect import insort

from ..base import Event
from ..cards import PRETTY, pretty_ids
from ..concept import CMP, relation
from ..errors import IllegalAction, MalformedAction
from .actions import SLOTS, STALL_LIMIT, arity, card_arg, index_arg


class Turns:
    """NG's moves: checking a move's arguments and playing it (a mixin of :class:`NGState`)."""

    # ----------------------------------------------------------- checks

    def _seat_arg(self, arg: object) -> int:
        s = index_arg(arg, "A seat")
        if not 0 <= s < self.players:
            raise MalformedAction(f"There is no seat {s + 1} at this table (seats 1–{self.players})")
        if not self.alive[s]:
            raise IllegalAction(f"Seat {s + 1} is out of the game")
        return s

    def _stack_arg(self, s: int, arg: object, own: bool) -> list[int]:
        i = index_arg(arg, "A stack number")
        if not 0 <= i < SLOTS:
            raise MalformedAction(f"Stacks are numbered 1 to {SLOTS}, not {i + 1}")
        stack = self.fields[s][i]
        if not stack:
            whose = "Your" if own else f"Seat {s + 1}'s"
            raise IllegalAction(f"{whose} stack {i + 1} is gone")
        return stack

    def _hand_card(self, seat: int, arg: object) -> int:
        card = card_arg(arg)
        if card not in self.hands[seat]:
            raise IllegalAction(f"You don't hold {PRETTY[card]}")
        return card

    # ----------------------------------------------------------- turns

    def _gain(self, seat: int, card: int) -> None:
        """Put ``card`` into ``seat``'s hand at a position that says nothing about it."""
        hand = self.hands[seat]
        if self.faceup:
            insort(hand, card)
        else:
            hand.insert(self.rng.below(len(hand) + 1), card)

    def _draw(self, seat: int) -> list[Event]:
        if not self.deck:
            raise IllegalAction("The deck is empty, so you can't draw: pick, defend, sacrifice or attack instead")
        card = self.deck.pop()
        self._gain(seat, card)
        if self.faceup:
            return [Event("draw", f"{{p{seat}}} drew {PRETTY[card]}.", seat)]
        return [
            Event("draw", f"{{p{seat}}} drew a card.", seat),
            Event("drew", f"You drew {PRETTY[card]}.", seat, private_to=seat),
        ]

    def _pick(self, seat: int, args: tuple) -> list[Event]:
        arity("pick", args, 1, "pick:7H")
        card = card_arg(args[0])
        pile = self.resources[seat]
        if card not in pile:
            held = f"it holds {pretty_ids(pile)}" if pile else "it is empty"
            raise IllegalAction(f"{PRETTY[card]} is not in your resource pile ({held})")
        pile.remove(card)
        self._gain(seat, card)
        # Resource piles are face up, so everyone saw which card was taken.
        return [Event("pick", f"{{p{seat}}} picked {PRETTY[card]} from their resource pile into their hand.", seat)]

    def _defend(self, seat: int, args: tuple) -> list[Event]:
        arity("defend", args, 3, "defend:7H,1,3")
        card = self._hand_card(seat, args[0])
        s = self._seat_arg(args[1])
        stack = self._stack_arg(s, args[2], s == seat)
        i = args[2]
        under = "a face-down card" if len(stack) == 1 and self.down[s][i] else PRETTY[stack[-1]]
        self.hands[seat].remove(card)
        stack.append(card)
        whose = "their own" if s == seat else f"{{p{s}}}'s"
        return [Event("defend", f"{{p{seat}}} defended {whose} stack {i + 1} with {PRETTY[card]}, on {under}.", seat)]

    def _sacrifice(self, seat: int, args: tuple) -> list[Event]:
        arity("sacrifice", args, 1, "sacrifice:2")
        stack = self._stack_arg(seat, args[0], True)
        i = args[0]
        card = stack.pop()
        hidden = not stack and self.down[seat][i]
        if not stack:
            self.down[seat][i] = False
        self._gain(seat, card)
        gone = "" if stack else f" Their stack {i + 1} is gone."
        if hidden and not self.faceup:
            text = f"{{p{seat}}} took the face-down card of their stack {i + 1} into their hand.{gone}"
            events = [Event("sacrifice", text, seat),
                      Event("sacrificed", f"It was {PRETTY[card]}.", seat, private_to=seat)]
        else:
            text = f"{{p{seat}}} sacrificed {PRETTY[card]} from their stack {i + 1} into their hand.{gone}"
            events = [Event("sacrifice", text, seat)]
        if not stack:
            self._check_field(seat, events)
        return events

    def _attack(self, seat: int, args: tuple) -> list[Event]:
        if len(args) < 2:
            arity("attack", args, (3, 4), "attack:7H,stack,1,3")
        where = args[1]
        if where == "resource":
            arity("attack", args, 3, "attack:7H,resource,1")
        elif where in ("stack", "hand"):
            arity("attack", args, 4, f"attack:7H,{where},1,3")
        else:
            raise MalformedAction(f"An attack targets a stack, a hand or a resource pile, not {where!r}")
        card = self._hand_card(seat, args[0])
        s = self._seat_arg(args[2])
        name, who = f"{{p{seat}}}", f"{{p{s}}}"
        whose = "their own" if s == seat else f"{who}'s"
        turned = False
        if where == "stack":
            stack = self._stack_arg(s, args[3], s == seat)
            i = args[3]
            target = stack[-1]
            turned = len(stack) == 1 and self.down[s][i]
            what = f"{whose} stack {i + 1}"
        elif where == "hand":
            if s == seat:
                raise IllegalAction("You can't attack your own hand")
            p = index_arg(args[3], "A hand position")
            size = len(self.hands[s])
            if not 0 <= p < size:
                if not size:
                    raise IllegalAction(f"Seat {s + 1}'s hand is empty")
                raise IllegalAction(f"Seat {s + 1} holds {size} card{'s' * (size != 1)}: "
                                    f"choose a position from 1 to {size}, not {p + 1}")
            target = self.hands[s][p]
            what = f"{who}'s hand (card {p + 1} of {size})"
        else:
            pile = self.resources[s]
            if not pile:
                whose_pile = "Your" if s == seat else f"Seat {s + 1}'s"
                raise IllegalAction(f"{whose_pile} resource pile is empty")
            target = pile[-1]
            what = f"{whose} resource pile"

        # Validated: now the attack happens.
        self.hands[seat].remove(card)
        a, t = PRETTY[card], PRETTY[target]
        if turned:
            self.down[s][args[3]] = False
            text = f"{name} attacked {what} with {a}, turning up the face-down card: {t}."
        elif where == "hand":
            text = f"{name} attacked {what} with {a}: it is {t}."
        else:
            text = f"{name} attacked {what} ({t}) with {a}."
        result = CMP[card][target]
        stays = ""
        if result > 0:
            self._remove_target(where, s, args, target)
            self.discard.append(target)
            self.resources[seat].append(card)
            told = f"{a} beats {t} ({relation(card, target)}): {t} is discarded and {a} goes to {name}'s resource pile."
        elif result < 0:
            self.discard.append(card)
            if turned:
                stays = " face up"
            elif where == "hand" and not self.faceup:
                # The revealed card stays: new secret positions, so it can't be found again.
                self.rng.shuffle(self.hands[s])
            told = f"{a} loses to {t} ({relation(target, card)}): {a} is discarded and {t} stays{stays}."
        else:
            self._remove_target(where, s, args, target)
            self.discard += (card, target)
            told = f"{a} and {t} are equal ({relation(card, target)}): both are discarded."
        text += " " + told
        if where == "stack" and not self.fields[s][args[3]]:
            owner = "Their" if s == seat else f"{who}'s"
            text += f" {owner} stack {args[3] + 1} is gone."
        events = [Event("attack", text, seat)]
        if where == "stack":
            self._check_field(s, events)
        return events

    def _remove_target(self, where: str, s: int, args: tuple, target: int) -> None:
        if where == "stack":
            stack = self.fields[s][args[3]]
            stack.pop()
            if not stack:
                self.down[s][args[3]] = False
        elif where == "hand":
            self.hands[s].pop(args[3])
        else:
            self.resources[s].pop()

    def _check_field(self, s: int, events: list[Event]) -> None:
        """Eliminate ``s`` if its field is empty: hand and resource pile go to the discard pile."""
        if not self.alive[s] or any(self.fields[s]):
            return
        hand, pile = sorted(self.hands[s]), self.resources[s]
        parts = []
        if hand:
            parts.append(f"their hand ({pretty_ids(hand)})")
        if pile:
            parts.append(f"their resource pile ({pretty_ids(pile)})")
        text = f"{{p{s}}}'s field is empty: {{p{s}}} is eliminated."
        if parts:
            joined = " and ".join(parts)
            text += f" T{joined[1:]} {'are' if len(parts) > 1 else 'is'} discarded."
        self.discard += hand
        self.discard += pile
        self.hands[s] = []
        self.resources[s] = []
        self.alive[s] = False
        self.eliminated.append(s)
        events.append(Event("eliminated", text, s))
        left = [x for x in range(self.players) if self.alive[x]]
        if len(left) == 1:
            self.over, self.winners, self.end = True, left, "last"
            events.append(Event("win", f"{{p{left[0]}}} is the last player standing and wins!", left[0]))

    def _end_turn(self, seat: int, discarded: bool, events: list[Event]) -> None:
        if self.over:
            return
        self.stall = 0 if discarded else self.stall + 1
        if self.stall >= STALL_LIMIT:
            counts = self.field_counts()
            left = [s for s in range(self.players) if self.alive[s]]
            best = max(counts[s] for s in left)
            self.over, self.end = True, "stall"
            self.winners = [s for s in left if counts[s] == best]
            shown = ", ".join(f"{{p{s}}} {counts[s]}" for s in left)
            names = " and ".join(f"{{p{s}}}" for s in self.winners)
            result = f"{names} wins." if len(self.winners) == 1 else f"{names} share the win."
            events.append(Event("stall", f"{STALL_LIMIT} turns in a row without a discard: the game ends. "
                                         f"Field cards: {shown}. {result}"))
            return
        nxt = (seat + 1) % self.players
        while not self.alive[nxt]:
            nxt = (nxt + 1) % self.players
        self.turn = nxt
