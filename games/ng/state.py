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

from operator import itemgetter
from typing import Any, Callable, Mapping, Sequence

from ..base import Action, Event, GameState, Outcome, id_reader, reading_snapshot
from ..cards import CODE, DECK, ID_BY_CODE, Card, CardLike, pretty_ids
from ..errors import GameError, MalformedAction
from ..rng import Rng
from .actions import ATTACK, DEFEND, DRAW, HAND0, MAX_HAND, PICK, RES0, SACRIFICE, SLOTS, STALL_LIMIT, card_id
from .deal import deal_game
from .options import normalize
from .turns import Turns
from .view import build_view

FORMAT = 1


def _getter(targets: list[int]) -> Callable[[Sequence[Action]], tuple[Action, ...]]:
    if len(targets) == 1:
        only = targets[0]
        return lambda row: (row[only],)
    return itemgetter(*targets)


class NGState(Turns, GameState):
    """An NG game in progress."""

    game_id = "ng"

    def __init__(
        self,
        players: int,
        options: Mapping[str, Any],
        seed: int,
        rng: Rng,
        hands: list[list[int]],
        fields: list[list[list[int]]],
        down: list[list[bool]],
        resources: list[list[int]],
        deck: list[int],
        discard: list[int],
        turn: int,
        stall: int = 0,
        alive: list[bool] | None = None,
        eliminated: list[int] | None = None,
        over: bool = False,
        winners: list[int] | None = None,
        end: str | None = None,
        opening: list[Event] | None = None,
    ) -> None:
        """Low-level constructor; use ``GAME.new_game``, :meth:`from_json` or :meth:`from_position`."""
        self.players = players
        self.options = dict(options)
        self.seed = seed
        self.rng = rng
        self.hands = hands
        self.fields = fields
        self.down = down
        self.resources = resources
        self.deck = deck
        self.discard = discard
        self.turn = turn
        self.stall = stall
        self.alive = alive if alive is not None else [True] * players
        self.eliminated = eliminated if eliminated is not None else []
        self.over = over
        self.winners = winners if winners is not None else []
        self.end = end
        self.opening = opening if opening is not None else []
        self.faceup: bool = bool(self.options["faceup"])

    # ----------------------------------------------------------- creation

    @classmethod
    def new(cls, players: int, options: Mapping[str, Any], seed: int) -> "NGState":
        """A freshly dealt game; ``options`` must already be normalised."""
        rng = Rng(seed)
        dealt = deal_game(players, rng)
        hands = [sorted(h) for h in dealt.hands] if options["faceup"] else dealt.hands
        down = [[True] * SLOTS for _ in range(players)]
        state = cls(players, options, seed, rng, hands, dealt.fields, down, dealt.resources, dealt.deck, [], dealt.first)
        seats = ", ".join(f"{{p{s}}}" for s in range(players))
        opening = [
            Event("deal", f"Dealt to {seats}: 5 cards in hand, 5 face-down field stacks and 1 face-up "
                          f"resource card each. The deck holds {len(state.deck)} cards."),
            Event("resources", "Resource piles: " + ", ".join(
                f"{{p{s}}} {pretty_ids(state.resources[s])}" for s in range(players)) + "."),
        ]
        if state.faceup:
            opening.append(Event("faceup", "Face-up game: every card is public, the deck order included."))
        opening.append(Event("first_player", f"{{p{state.turn}}} starts (seeded draw).", state.turn))
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
        return cls(players, opts, seed, Rng(seed), hand_ids, field_ids, down, res_ids, deck_ids, discard_ids,
                   turn, stall, alive, out)

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
        acts += [PICK[c] for c in self.resources[seat]]
        own = self.fields[seat]
        acts += [SACRIFICE[i] for i in range(SLOTS) if own[i]]
        hand = self.hands[seat]
        if hand:
            stacks: list[int] = []
            others: list[int] = []
            fields, resources, hands = self.fields, self.resources, self.hands
            for s in range(self.players):
                if not self.alive[s]:
                    continue
                base = s * SLOTS
                stacks += [base + i for i, st in enumerate(fields[s]) if st]
                if resources[s]:
                    others.append(RES0 + s)
                if s != seat and hands[s]:
                    first = HAND0 + s * MAX_HAND
                    others += range(first, first + len(hands[s]))
            attack = _getter(stacks + others)
            defend = _getter(stacks)
            for c in hand:
                acts += attack(ATTACK[c])
                acts += defend(DEFEND[c])
        return acts

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and play ``action``; on any :class:`GameError` nothing has changed."""
        if self.over or type(seat) is not int or seat != self.turn:
            self.check_turn(seat)
        try:
            kind, args = action
        except (TypeError, ValueError):
            raise MalformedAction(f"Not an NG move: {action!r}") from None
        if type(args) is not tuple:
            raise MalformedAction(f"Not an NG move: {action!r}")
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
        scores = [0] * self.players
        below = self.players
        for group in ranking:
            below -= len(group)
            for s in group:
                scores[s] = below
        return Outcome(winners, tuple(ranking), tuple(scores), reason)

    def opening_events(self) -> list[Event]:
        """The public facts of the deal: what was dealt, the resource cards, who starts."""
        return list(self.opening)

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
            "fields": [[[CODE[c] for c in st] for st in f] for f in self.fields],
            "down": [list(d) for d in self.down],
            "resources": [[CODE[c] for c in r] for r in self.resources],
            "deck": [CODE[c] for c in self.deck],
            "discard": [CODE[c] for c in self.discard],
            "turn": self.turn,
            "stall": self.stall,
            "alive": list(self.alive),
            "eliminated": list(self.eliminated),
            "over": self.over,
            "winners": list(self.winners),
            "end": self.end,
            "opening": [e.to_json() for e in self.opening],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "NGState":
        """Rebuild a state from :meth:`to_json` output; bad snapshots raise :class:`MalformedAction`."""
        with reading_snapshot(data, cls.game_id, FORMAT, "NG"):
            ids = id_reader(ID_BY_CODE)

            return cls(
                data["players"], data["options"], data["seed"], Rng(data["rng"]),
                [ids(h) for h in data["hands"]],
                [[ids(st) for st in f] for f in data["fields"]],
                [[bool(x) for x in d] for d in data["down"]],
                [ids(r) for r in data["resources"]], ids(data["deck"]), ids(data["discard"]),
                data["turn"], data["stall"], list(data["alive"]), list(data["eliminated"]),
                data["over"], list(data["winners"]), data["end"],
                [Event.from_json(e) for e in data["opening"]],
            )
