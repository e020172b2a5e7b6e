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
from ..cards import CODE, DECK, Card, CardLike
from ..codec import CardIds, stored
from ..concept import CMP, relation
from ..errors import GameError, IllegalAction, MalformedAction
from ..i18n import Seat, Text, plural, say
from ..phrases import cards_of, listed, sentences, together
from ..rng import Rng
from .actions import (
    A_POSITION,
    A_SEAT,
    A_STACK,
    AN_NG_MOVE,
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
        seats = listed([Seat(s) for s in range(players)])
        piles = listed([say("{player} {cards}", player=Seat(s), cards=cards_of(state.resources[s]))
                        for s in range(players)])
        opening = [
            Event("deal", plural("Dealt to {players}: 5 cards in hand, 5 face-down field stacks and 1 face-up "
                                 "resource card each. The deck holds {count} card.",
                                 "Dealt to {players}: 5 cards in hand, 5 face-down field stacks and 1 face-up "
                                 "resource card each. The deck holds {count} cards.", len(state.deck), players=seats)),
            Event("resources", say("Resource piles: {piles}.", piles=piles)),
        ]
        if state.faceup:
            opening.append(Event("faceup", say("Face-up game: every card is public, the deck order included.")))
        opening.append(Event("first_player", say("{player} starts (drawn by lot).", player=Seat(state.turn)),
                             state.turn))
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
            raise GameError(say("NG is for 2–4 players, not {players}", players=players))
        opts = normalize_options(NAME, OPTIONS, {"faceup": faceup})
        if len(fields) != players or (resources is not None and len(resources) != players):
            raise GameError(say("hands, fields and resources need one entry per seat"))
        hand_ids = [[card_id(c) for c in h] for h in hands]
        if opts["faceup"]:
            hand_ids = [sorted(h) for h in hand_ids]
        field_ids: list[list[list[int]]] = []
        down: list[list[bool]] = []
        for seat_field in fields:
            if len(seat_field) > SLOTS:
                raise GameError(plural("A field has at most {count} stack", "A field has at most {count} stacks",
                                       SLOTS))
            stacks, flags = [], []
            for stack in list(seat_field) + [[]] * (SLOTS - len(seat_field)):
                ids, flag = [], False
                for depth, code in enumerate(stack):
                    if isinstance(code, str) and code.startswith("~"):
                        if depth:
                            raise GameError(say("Only the bottom card of a stack can be face down, not {code}",
                                                code=str(code)))
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
            raise GameError(say("A card appears twice in the position"))
        out = list(eliminated)
        alive = [s not in out for s in range(players)]
        for s in range(players):
            has_field = any(field_ids[s])
            if alive[s] and not has_field:
                raise GameError(say("Seat {number} has no field card, so it must be listed as eliminated",
                                    number=s + 1))
            if not alive[s] and (has_field or hand_ids[s] or res_ids[s]):
                raise GameError(say("Eliminated seat {number} can't hold cards", number=s + 1))
        if sum(alive) < 2:
            raise GameError(say("A position needs at least two seats still in play"))
        if type(turn) is not int or not 0 <= turn < players or not alive[turn]:
            raise GameError(say("turn={turn} is not a seat in play", turn=repr(turn)))
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
        name, args = action_parts(action, AN_NG_MOVE)
        try:
            kind = Kind(name)
        except ValueError:
            raise MalformedAction(say("Unknown move {kind}; NG moves are draw, pick, defend, sacrifice and attack",
                                      kind=repr(name))) from None
        before = len(self.discard)
        match kind:
            case Kind.ATTACK:
                events = self._attack(seat, args)
            case Kind.DRAW:
                if args:
                    raise MalformedAction(say("draw takes no arguments"))
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
        s = index_arg(arg, A_SEAT)
        if not 0 <= s < self.players:
            raise MalformedAction(say("There is no seat {number} at this table (seats 1–{players})", number=s + 1,
                                      players=self.players))
        if not self.alive[s]:
            raise IllegalAction(say("Seat {number} is out of the game", number=s + 1))
        return s

    def _stack_arg(self, s: int, arg: object, own: bool) -> list[int]:
        i = index_arg(arg, A_STACK)
        if not 0 <= i < SLOTS:
            raise MalformedAction(say("Stacks are numbered 1 to {count}, not {number}", count=SLOTS, number=i + 1))
        stack = self.fields[s][i]
        if not stack:
            if own:
                raise IllegalAction(say("Your stack {stack} is gone", stack=i + 1))
            raise IllegalAction(say("Seat {number}'s stack {stack} is gone", number=s + 1, stack=i + 1))
        return stack

    def _hand_card(self, seat: int, arg: object) -> int:
        card = card_arg(arg)
        if card not in self.hands[seat]:
            raise IllegalAction(say("You don't hold {card}", card=DECK[card]))
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
            raise IllegalAction(say("The deck is empty, so you can't draw: pick, defend, sacrifice or attack instead"))
        card = self.deck.pop()
        self._gain(seat, card)
        if self.faceup:
            return [Event("draw", say("{player} drew {card}.", player=Seat(seat), card=DECK[card]), seat)]
        return [
            Event("draw", say("{player} drew a card.", player=Seat(seat)), seat),
            Event("drew", say("You drew {card}.", card=DECK[card]), seat, private_to=seat),
        ]

    def _pick(self, seat: int, args: tuple) -> list[Event]:
        arity("pick", args, 1, "pick:7H")
        card = card_arg(args[0])
        pile = self.resources[seat]
        if card not in pile:
            if pile:
                raise IllegalAction(say("{card} is not in your resource pile (it holds {cards})", card=DECK[card],
                                        cards=cards_of(pile)))
            raise IllegalAction(say("{card} is not in your resource pile (it is empty)", card=DECK[card]))
        pile.remove(card)
        self._gain(seat, card)
        # Resource piles are face up, so everyone saw which card was taken.
        return [Event("pick", say("{player} picked {card} from their resource pile into their hand.",
                                  player=Seat(seat), card=DECK[card]), seat)]

    def _defend(self, seat: int, args: tuple) -> list[Event]:
        arity("defend", args, 3, "defend:7H,1,3")
        card = self._hand_card(seat, args[0])
        s = self._seat_arg(args[1])
        stack = self._stack_arg(s, args[2], s == seat)
        i = args[2]
        under = say("a face-down card") if len(stack) == 1 and self.down[s][i] else DECK[stack[-1]]
        self.hands[seat].remove(card)
        stack.append(card)
        told = dict(player=Seat(seat), stack=i + 1, card=DECK[card], under=under)
        if s == seat:
            text = say("{player} defended their own stack {stack} with {card}, on {under}.", **told)
        else:
            text = say("{player} defended {owner}'s stack {stack} with {card}, on {under}.", owner=Seat(s), **told)
        return [Event("defend", text, seat)]

    def _sacrifice(self, seat: int, args: tuple) -> list[Event]:
        arity("sacrifice", args, 1, "sacrifice:2")
        stack = self._stack_arg(seat, args[0], True)
        i = args[0]
        card = stack.pop()
        hidden = not stack and self.down[seat][i]
        if not stack:
            self.down[seat][i] = False
        self._gain(seat, card)
        if hidden and not self.faceup:
            text = say("{player} took the face-down card of their stack {stack} into their hand.", player=Seat(seat),
                       stack=i + 1)
        else:
            text = say("{player} sacrificed {card} from their stack {stack} into their hand.", player=Seat(seat),
                       card=DECK[card], stack=i + 1)
        if not stack:
            text = sentences([text, say("Their stack {stack} is gone.", stack=i + 1)])
        events = [Event("sacrifice", text, seat)]
        if hidden and not self.faceup:
            events.append(Event("sacrificed", say("It was {card}.", card=DECK[card]), seat, private_to=seat))
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
            raise MalformedAction(say("An attack targets a stack, a hand or a resource pile, not {where}",
                                      where=repr(where)))
        card = self._hand_card(seat, args[0])
        s = self._seat_arg(args[2])
        player, owner = Seat(seat), Seat(s)
        turned = False
        what: Text
        if where == "stack":
            stack = self._stack_arg(s, args[3], s == seat)
            i = args[3]
            target = stack[-1]
            turned = len(stack) == 1 and self.down[s][i]
            what = say("their own stack {stack}", stack=i + 1) if s == seat else \
                say("{owner}'s stack {stack}", owner=owner, stack=i + 1)
        elif where == "hand":
            if s == seat:
                raise IllegalAction(say("You can't attack your own hand"))
            p = index_arg(args[3], A_POSITION)
            size = len(self.hands[s])
            if not 0 <= p < size:
                if not size:
                    raise IllegalAction(say("Seat {number}'s hand is empty", number=s + 1))
                raise IllegalAction(plural("Seat {number} holds {count} card: choose a position from 1 to {count}, "
                                           "not {position}",
                                           "Seat {number} holds {count} cards: choose a position from 1 to {count}, "
                                           "not {position}", size, number=s + 1, position=p + 1))
            target = self.hands[s][p]
            what = say("{owner}'s hand (card {position} of {count})", owner=owner, position=p + 1, count=size)
        else:
            pile = self.resources[s]
            if not pile:
                if s == seat:
                    raise IllegalAction(say("Your resource pile is empty"))
                raise IllegalAction(say("Seat {number}'s resource pile is empty", number=s + 1))
            target = pile[-1]
            what = say("their own resource pile") if s == seat else say("{owner}'s resource pile", owner=owner)

        # Validated: now the attack happens.
        self.hands[seat].remove(card)
        a, t = DECK[card], DECK[target]
        if turned:
            self.down[s][args[3]] = False
            text = say("{player} attacked {what} with {card}, turning up the face-down card: {target}.",
                       player=player, what=what, card=a, target=t)
        elif where == "hand":
            text = say("{player} attacked {what} with {card}: it is {target}.", player=player, what=what, card=a,
                       target=t)
        else:
            text = say("{player} attacked {what} ({target}) with {card}.", player=player, what=what, card=a, target=t)
        result = CMP[card][target]
        if result > 0:
            self._remove_target(where, s, args, target)
            self.discard.append(target)
            self.resources[seat].append(card)
            told = say("{card} beats {target} ({why}): {target} is discarded and {card} goes to {player}'s resource "
                       "pile.", card=a, target=t, why=relation(card, target), player=player)
        elif result < 0:
            self.discard.append(card)
            if where == "hand" and not self.faceup:
                # The revealed card stays: new secret positions, so it can't be found again.
                self.rng.shuffle(self.hands[s])
            if turned:
                told = say("{card} loses to {target} ({why}): {card} is discarded and {target} stays face up.",
                           card=a, target=t, why=relation(target, card))
            else:
                told = say("{card} loses to {target} ({why}): {card} is discarded and {target} stays.",
                           card=a, target=t, why=relation(target, card))
        else:
            self._remove_target(where, s, args, target)
            self.discard += (card, target)
            told = say("{card} and {target} are equal ({why}): both are discarded.", card=a, target=t,
                       why=relation(card, target))
        parts = [text, told]
        if where == "stack" and not self.fields[s][args[3]]:
            parts.append(say("Their stack {stack} is gone.", stack=args[3] + 1) if s == seat else
                         say("{owner}'s stack {stack} is gone.", owner=owner, stack=args[3] + 1))
        events = [Event("attack", sentences(parts), seat)]
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
        text = say("{player}'s field is empty: {player} is eliminated.", player=Seat(s))
        if hand and pile:
            text = sentences([text, say("Their hand ({hand}) and their resource pile ({pile}) are discarded.",
                                        hand=cards_of(hand), pile=cards_of(pile))])
        elif hand:
            text = sentences([text, say("Their hand ({hand}) is discarded.", hand=cards_of(hand))])
        elif pile:
            text = sentences([text, say("Their resource pile ({pile}) is discarded.", pile=cards_of(pile))])
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
            events.append(Event("win", say("{player} is the last player standing and wins!", player=Seat(left[0])),
                                left[0]))

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
            shown = listed([say("{player} {count}", player=Seat(s), count=counts[s]) for s in left])
            if len(self.winners) == 1:
                result = say("{player} wins.", player=Seat(self.winners[0]))
            else:
                result = say("{players} share the win.", players=together([Seat(s) for s in self.winners]))
            events.append(Event("stall", plural("{count} turn in a row without a discard: the game ends. "
                                                "Field cards: {shown}. {result}",
                                                "{count} turns in a row without a discard: the game ends. "
                                                "Field cards: {shown}. {result}", STALL_LIMIT, shown=shown,
                                                result=result)))
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
            most = counts[winners[0]]
            if len(winners) == 1:
                reason = plural("{count} turn passed without a discard; {player} has the most field cards ({most}).",
                                "{count} turns passed without a discard; {player} has the most field cards ({most}).",
                                STALL_LIMIT, player=Seat(winners[0]), most=most)
            else:
                reason = plural(
                    "{count} turn passed without a discard; {players} share the most field cards ({most}).",
                    "{count} turns passed without a discard; {players} share the most field cards ({most}).",
                    STALL_LIMIT, players=together([Seat(s) for s in winners]), most=most)
        else:
            reason = say("{player} is the last player standing.", player=Seat(winners[0]))
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
