"""The NG game state: plain data, a seeded Rng, legal moves (the moves themselves are in turns.py).

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

See ``games/ng/__init__.py`` for the rulings these methods implement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain, compress
from operator import itemgetter
from typing import Any, Sequence

from ..base import Action, Event, GameState, Outcome, action_parts
from ..cards import CODE, DECK, Card, CardLike, pretty_ids
from ..codec import CardIds, stored
from ..errors import GameError, MalformedAction
from ..rng import Rng
from .actions import (
    DRAW, HAND_TARGETS, MOVES_OF, N_TARGETS, PICK, RES0, SACRIFICE, SLOTS, STALL_LIMIT, card_id,
)
from .deal import deal_game
from .options import normalize
from .turns import Turns
from .view import build_view


@dataclass(eq=False, kw_only=True)
class NGState(Turns, GameState):
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
    def new_game(cls, players: int, options: dict[str, Any], seed: int) -> "NGState":
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
    ) -> "NGState":
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
        opts = normalize({"faceup": faceup})
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
        kind, args = action_parts(action, "an NG move")
        before = len(self.discard)
        if kind == "attack":
            events = self._attack(seat, args)
        elif kind == "draw":
            if args:
                raise MalformedAction("draw takes no arguments")
            events = self._draw(seat)
        elif kind == "defend":
            events = self._defend(seat, args)
        elif kind == "pick":
            events = self._pick(seat, args)
        elif kind == "sacrifice":
            events = self._sacrifice(seat, args)
        else:
            raise MalformedAction(f"Unknown move {kind!r}; NG moves are draw, pick, defend, sacrifice and attack")
        self._end_turn(seat, len(self.discard) > before, events)
        return events

    # ----------------------------------------------------------- queries

    def field_counts(self) -> list[int]:
        """Cards in each seat's field, over all its stacks (face down or up)."""
        return [sum(len(st) for st in f) for f in self.fields]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The table as ``seat`` sees it (``None``: the public). Keys are listed in the package docs."""
        return build_view(self, seat)

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
