"""The NG game state: plain data, a seeded Rng, and the rules of a turn (RULINGS §4).

Representation (card ids of :data:`games.cards.DECK`; codes once serialised):

- ``hands[s]``: seat ``s``'s hand in *position order* (what a hand attack's
  position indexes). In a face-up game hands are kept sorted (the order is
  public anyway). Otherwise the order is a secret uniform permutation: the
  deal order of a shuffled deck, a gained card is inserted at a seeded random
  position, and a hand whose card was revealed by an attack and stayed is
  reshuffled, so no one can tell which card sits where;
- ``fields[s]``: five stack slots, each a list bottom → top; ``[]`` is a gone
  stack; ``down[s][i]``: the bottom card of stack ``i`` is still face down
  (cards above it are always face up);
- ``resources[s]``: the resource pile, bottom → top, all face up;
- ``deck`` and ``discard``: the top is the last element; the discard pile is
  face up (only its count and top are shown);
- ``turn``; ``stall``: turns in a row with no card reaching the discard pile;
  ``alive[s]``; ``eliminated``: seats in order of elimination; ``over``,
  ``winners``, ``end`` (``"last"`` or ``"stall"``).

See ``games/ng/__init__.py`` for the rulings these methods implement, and the view keys.
A view strips the secrets: face-down field cards are ``None`` (unless the game is face
up), other seats' hands and the deck are counts only.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain, compress
from operator import itemgetter
from typing import Any

from ..base import Action, Event, GameState, Outcome, action_parts, normalize_options
from ..cards import CODE, DECK, PRETTY, Card, CardLike, pretty_ids
from ..codec import CardIds, stored
from ..concept import CMP, relation
from ..errors import GameError, IllegalAction, MalformedAction
from ..rng import Rng
from .actions import (
    DRAW,
    HAND_TARGETS,
    MOVES_OF,
    N_TARGETS,
    PICK,
    RES0,
    SACRIFICE,
    SLOTS,
    STALL_LIMIT,
    Kind,
    arity,
    card_arg,
    card_id,
    index_arg,
)
from .deal import deal_game
from .options import NAME, OPTIONS


@dataclass(eq=False, kw_only=True)
class NGState(GameState):
    """An NG game in progress."""

    game_id = "ng"

    hands: list[list[int]] = stored(CardIds(CODE, depth=2))
    fields: list[list[list[int]]] = stored(CardIds(CODE, depth=3))
    down: list[list[bool]]
    resources: list[list[int]] = stored(CardIds(CODE, depth=2))
    deck: list[int] = stored(CardIds(CODE))
    discard: list[int] = stored(CardIds(CODE))
    turn: int
    stall: int = 0
    alive: list[bool]
    eliminated: list[int] = stored(default_factory=list)
    over: bool = False
    winners: list[int] = stored(default_factory=list)
    end: str | None = None
    faceup: bool = field(init=False)

    def __post_init__(self) -> None:
        self.faceup = bool(self.options["faceup"])

    # ----------------------------------------------------------- creation

    @classmethod
    def new_game(cls, players: int, options: dict[str, Any], seed: int) -> NGState:
        """A freshly dealt game; ``options`` must already be normalised."""
        rng = Rng(seed)
        dealt = deal_game(players, rng)
        hands = [sorted(h) for h in dealt.hands] if options["faceup"] else dealt.hands
        down = [[True] * SLOTS for _ in range(players)]
        state = cls(players=players, options=options, seed=seed, rng=rng, hands=hands, fields=dealt.fields,
                    down=down, resources=dealt.resources, deck=dealt.deck, discard=[], turn=dealt.first,
                    alive=[True] * players)
        seats = ", ".join(f"{{p{s}}}" for s in range(players))
        opening = [
            Event("deal", f"Dealt to {seats}: 5 cards in hand, 5 face-down field stacks and 1 face-up "
                          f"resource card each. The deck holds {len(state.deck)} cards."),
            Event("resources", "Resource piles: " + ", ".join(
                f"{{p{s}}} {pretty_ids(state.resources[s])}" for s in range(players)) + "."),
        ]
        if state.faceup:
            opening.append(Event("faceup", "Face-up game: every card is public, the deck order included."))
        opening.append(Event("first_player", f"{{p{state.turn}}} starts (drawn by lot).", state.turn))
        state.opening = opening
        return state

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[CardLike]],
        fields: Sequence[Sequence[Sequence[str]]],
        resources: Sequence[Sequence[CardLike]] | None = None,
        deck: Sequence[CardLike] = (),
        discard: Sequence[CardLike] = (),
        *,
        turn: int = 0,
        faceup: bool = False,
        seed: int = 0,
        stall: int = 0,
        eliminated: Sequence[int] = (),
    ) -> NGState:
        """A hand-set position, for tests and puzzles. Only the listed cards are in play.

        ``hands`` lists each hand in position order (sorted instead in a face-up
        game). ``fields[s]`` lists up to five stacks (missing ones are gone), each
        bottom first; ``"~KS"`` marks a face-down card, allowed only at the bottom.
        ``resources``, ``deck`` and ``discard`` list their cards bottom first, so
        the deck's last card is drawn first. Seats in ``eliminated`` (in order)
        must hold nothing; every other seat needs a field card. Duplicate cards,
        fewer than two seats in play, or a bad ``turn`` raise :class:`GameError`.
        """
        players = len(hands)
        if not 2 <= players <= 4:
            raise GameError(f"NG is for 2–4 players, not {players}")
        opts = normalize_options(NAME, OPTIONS, {"faceup": faceup})
        if len(fields) != players or (resources is not None and len(resources) != players):
            raise GameError("hands, fields and resources need one entry per seat")
        hand_ids = [[card_id(c) for c in h] for h in hands]
        if opts["faceup"]:
            hand_ids = [sorted(h) for h in hand_ids]
        field_ids: list[list[list[int]]] = []
        down: list[list[bool]] = []
        for seat_field in fields:
            if len(seat_field) > SLOTS:
                raise GameError(f"A field has at most {SLOTS} stacks")
            stacks, flags = [], []
            for stack in list(seat_field) + [[]] * (SLOTS - len(seat_field)):
                ids, flag = [], False
                for depth, code in enumerate(stack):
                    if isinstance(code, str) and code.startswith("~"):
                        if depth:
                            raise GameError(f"Only the bottom card of a stack can be face down, not {code}")
                        flag, code = True, code[1:]
                    ids.append(card_id(code))
                stacks.append(ids)
                flags.append(flag)
            field_ids.append(stacks)
            down.append(flags)
        res_ids = [[card_id(c) for c in r] for r in resources] if resources is not None else [[] for _ in hands]
        deck_ids = [card_id(c) for c in deck]
        discard_ids = [card_id(c) for c in discard]
        every = [c for h in hand_ids for c in h] + [c for f in field_ids for st in f for c in st]
        every += [c for r in res_ids for c in r] + deck_ids + discard_ids
        if len(set(every)) != len(every):
            raise GameError("A card appears twice in the position")
        out = list(eliminated)
        alive = [s not in out for s in range(players)]
        for s in range(players):
            has_field = any(field_ids[s])
            if alive[s] and not has_field:
                raise GameError(f"Seat {s + 1} has no field card, so it must be listed as eliminated")
            if not alive[s] and (has_field or hand_ids[s] or res_ids[s]):
                raise GameError(f"Eliminated seat {s + 1} can't hold cards")
        if sum(alive) < 2:
            raise GameError("A position needs at least two seats still in play")
        if type(turn) is not int or not 0 <= turn < players or not alive[turn]:
            raise GameError(f"turn={turn!r} is not a seat in play")
        return cls(players=players, options=opts, seed=seed, rng=Rng(seed), hands=hand_ids, fields=field_ids,
                   down=down, resources=res_ids, deck=deck_ids, discard=discard_ids, turn=turn, stall=stall,
                   alive=alive, eliminated=out)

    # ----------------------------------------------------------- contract

    def to_act(self) -> list[int]:
        """``[turn]``, or ``[]`` once the game is over."""
        return [] if self.over else [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        """``draw``, picks, sacrifices, then for each hand card its attacks (every stack
        top, then per seat its resource pile and, for opponents, each hand position) and
        its defends; ``[]`` off turn."""
        if self.over or seat != self.turn:
            return []
        acts: list[Action] = [DRAW] if self.deck else []
        acts += map(PICK.__getitem__, self.resources[seat])
        acts += compress(SACRIFICE, self.fields[seat])
        hand = self.hands[seat]
        if hand:
            # Seats out of the game hold nothing, so only stacks, piles and hands with cards count.
            stacks = list(compress(range(self.players * SLOTS), chain.from_iterable(self.fields)))
            others: list[int] = []
            for s, (pile, held) in enumerate(zip(self.resources, self.hands)):
                if pile:
                    others.append(RES0 + s)
                if held and s != seat:
                    others += HAND_TARGETS[s][:len(held)]
            # At least two items (the mover's own stack and its defend), so a tuple every time.
            moves = itemgetter(*stacks, *others, *[N_TARGETS + t for t in stacks])
            for c in hand:
                acts += moves(MOVES_OF[c])
        return acts

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and play ``action``; on any :class:`GameError` nothing has changed."""
        if self.over or type(seat) is not int or seat != self.turn:
            self.check_turn(seat)
        name, args = action_parts(action, "an NG move")
        try:
            kind = Kind(name)
        except ValueError:
            raise MalformedAction(
                f"Unknown move {name!r}; NG moves are draw, pick, defend, sacrifice and attack") from None
        before = len(self.discard)
        match kind:
            case Kind.ATTACK:
                events = self._attack(seat, args)
            case Kind.DRAW:
                if args:
                    raise MalformedAction("draw takes no arguments")
                events = self._draw(seat)
            case Kind.DEFEND:
                events = self._defend(seat, args)
            case Kind.PICK:
                events = self._pick(seat, args)
            case Kind.SACRIFICE:
                events = self._sacrifice(seat, args)
        self._end_turn(seat, len(self.discard) > before, events)
        return events


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

    # ----------------------------------------------------------- queries

    def field_counts(self) -> list[int]:
        """Cards in each seat's field, over all its stacks (face down or up)."""
        return [sum(len(st) for st in f) for f in self.fields]

    def statuses(self) -> list[str]:
        """Per seat: ``playing`` or ``out`` during the game; ``won``, ``lost`` or ``out`` at the end."""
        out = []
        for s in range(self.players):
            if not self.alive[s]:
                out.append("out")
            elif self.over:
                out.append("won" if s in self.winners else "lost")
            else:
                out.append("playing")
        return out


    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The table as ``seat`` sees it (``None``: the public). Keys are listed in the package docs."""
        self.check_viewer(seat)
        faceup = self.faceup
        fields: list[list[list[str | None]]] = []
        face_down: list[list[bool]] = []
        for s in range(self.players):
            stacks: list[list[str | None]] = []
            flags: list[bool] = []
            for i, stack in enumerate(self.fields[s]):
                shown: list[str | None] = [CODE[c] for c in stack]
                down = bool(stack) and self.down[s][i]
                if down and not faceup:
                    shown[0] = None
                stacks.append(shown)
                flags.append(down)
            fields.append(stacks)
            face_down.append(flags)
        outcome = self.outcome()
        view: dict[str, Any] = {
            "game": self.game_id,
            "players": self.players,
            "viewer": seat,
            "faceup": faceup,
            "turn": None if self.over else self.turn,
            "to_act": self.to_act(),
            "status": self.statuses(),
            "fields": fields,
            "face_down": face_down,
            "field_counts": self.field_counts(),
            "resources": [[CODE[c] for c in pile] for pile in self.resources],
            "hand_counts": [len(h) for h in self.hands],
            "hands": [[CODE[c] for c in h] for h in self.hands] if faceup else None,
            "deck_count": len(self.deck),
            "deck": [CODE[c] for c in self.deck] if faceup else None,
            "discard_count": len(self.discard),
            "discard_top": CODE[self.discard[-1]] if self.discard else None,
            "turns_since_discard": self.stall,
            "stall_limit": STALL_LIMIT,
            "eliminated": list(self.eliminated),
            "over": self.over,
            "outcome": outcome.to_json() if outcome else None,
        }
        if seat is not None:
            legal = self.legal_actions(seat)
            hand = self.hands[seat]
            view["hand"] = [CODE[c] for c in (hand if faceup else sorted(hand))]
            view["your_turn"] = bool(legal)
            view["legal"] = [a.code() for a in legal]
        return view

    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        """Winners first; at a stall end the other seats still in play by field cards (more is
        better); then eliminated seats, the last eliminated first. ``scores[s]`` is how
        many seats ``s`` finished above."""
        if not self.over:
            return None
        winners = tuple(self.winners)
        ranking: list[tuple[int, ...]] = [winners]
        if self.end == "stall":
            counts = self.field_counts()
            rest: dict[int, list[int]] = {}
            for s in range(self.players):
                if self.alive[s] and s not in winners:
                    rest.setdefault(counts[s], []).append(s)
            ranking += [tuple(rest[k]) for k in sorted(rest, reverse=True)]
            names = " and ".join(f"{{p{s}}}" for s in winners)
            most = counts[winners[0]]
            if len(winners) == 1:
                reason = f"{STALL_LIMIT} turns passed without a discard; {names} has the most field cards ({most})."
            else:
                reason = f"{STALL_LIMIT} turns passed without a discard; {names} share the most field cards ({most})."
        else:
            reason = f"{{p{winners[0]}}} is the last player standing."
        ranking += [(s,) for s in reversed(self.eliminated)]
        return Outcome.by_place(self.players, winners, ranking, reason)

    def zones(self) -> dict[str, list[Card]]:
        zones = {"deck": [DECK[c] for c in self.deck], "discard": [DECK[c] for c in self.discard]}
        for s in range(self.players):
            zones[f"hand:{s}"] = [DECK[c] for c in self.hands[s]]
            zones[f"field:{s}"] = [DECK[c] for st in self.fields[s] for c in st]
            zones[f"resource:{s}"] = [DECK[c] for c in self.resources[s]]
        return zones

    def hidden_cards(self, seat: int | None) -> list[Card]:
        """Nothing in a face-up game. Otherwise the deck, every face-down field card
        (the owner's too: nobody has seen them) and every hand but the viewer's.
        Resource piles, face-up field cards and the discard pile are public."""
        if self.faceup:
            return []
        hidden = [DECK[c] for c in self.deck]
        for s in range(self.players):
            for i, stack in enumerate(self.fields[s]):
                if stack and self.down[s][i]:
                    hidden.append(DECK[stack[0]])
            if s != seat:
                hidden += [DECK[c] for c in self.hands[s]]
        return hidden
