"""The War game state: plain data, a seeded Rng, and the rules of a turn (RULINGS §3).

Representation (all JSON-friendly once cards become codes):

- ``fields[s]``: the card ids face up in seat ``s``'s field, in slot order
  (slot 0 first); a drawn card takes the next slot, a discarded card's slot
  closes up;
- ``tapped[c]``: card id ``c`` is tapped (only field cards are ever tapped);
- ``decks[s]``: seat ``s``'s face-down deck, the top card last;
- ``discard``: the discard pile, the top card last;
- ``turn``: the seat to act; ``alive[s]``: the seat still has cards under the
  ``loss`` option; ``out_order``: the groups of seats knocked out, in order
  (seats knocked out by the same attack share a group);
- ``moves``: actions played so far; ``last_attack``: the latest attack as
  ``(seat, attacker, target seat, target, compare, move)``, or ``None``.

``owner[c]`` (the seat whose field holds ``c``, else -1) is derived, not stored.
See ``games/war/__init__.py`` for the rulings these methods implement, and the view keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base import Action, Event, GameState, Outcome, normalize_options
from ..cards import CODE, DECK, Card, CardLike
from ..codec import PLAIN, CardFlags, CardIds, Nullable, Row, flags_of, stored
from ..concept import CMP, relation
from ..errors import GameError, IllegalAction
from ..i18n import Seat, plural, say
from ..phrases import listed, sentences, together
from ..rng import Rng
from .actions import ATTACK, DRAW, RECOVER, Kind, card_id, parse
from .deal import FIELD_SIZE, choose_first, deal_decks, turn_fields
from .options import NAME, OPTIONS

_CARDS = len(DECK)
_CARD = CardIds(CODE, depth=0)
DISCARD_SHOWN = 5
"""How many of the latest discarded cards a view lists (newest first)."""
_DISCARDED = {1: ["target"], -1: ["attacker"], 0: ["attacker", "target"]}


@dataclass(eq=False, kw_only=True)
class WarState(GameState):
    """A game of Q Squared Joe War in progress."""

    fields: list[list[int]] = stored(CardIds(CODE, depth=2))
    tapped: list[bool] = stored(CardFlags(CODE))
    decks: list[list[int]] = stored(CardIds(CODE, depth=2))
    discard: list[int] = stored(CardIds(CODE))
    turn: int
    alive: list[bool]
    out_order: list[list[int]] = stored(default_factory=list)
    over: bool = False
    moves: int = 0
    last_attack: tuple[int, int, int, int, int, int] | None = stored(
        Nullable(Row((PLAIN, _CARD, PLAIN, _CARD, PLAIN, PLAIN))), default=None)
    dealer: int | None = None
    loss: str = field(init=False)
    field_empty_loses: bool = field(init=False, repr=False)
    owner: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.loss = self.options["loss"]
        self.field_empty_loses = self.loss == "field-empty"
        self.owner = [-1] * _CARDS
        for s, cards in enumerate(self.fields):
            for c in cards:
                self.owner[c] = s

    # ----------------------------------------------------------- creation

    @classmethod
    def new_game(cls, players: int, options: dict[str, Any], seed: int) -> WarState:
        """A freshly dealt game; ``options`` must already be normalised."""
        rng = Rng(seed)
        cards = list(range(_CARDS))
        rng.shuffle(cards)
        dealer = rng.below(players)
        decks = deal_decks(cards, players, dealer)
        sizes = [len(d) for d in decks]
        fields = turn_fields(decks)
        turn, reason = choose_first(fields, sizes, rng)
        if len(set(sizes)) == 1:
            dealt = plural("Dealt {count} card each.", "Dealt {count} cards each.", sizes[0])
        else:
            counts = listed([say("{player} {count}", player=Seat(s), count=sizes[s]) for s in range(players)])
            dealt = say("{dealer} dealt the deck from their left: {counts} cards.", dealer=Seat(dealer), counts=counts)
        fields_up = plural("Everyone turns their top {count} card face up, untapped: that is their field.",
                           "Everyone turns their top {count} cards face up, untapped: that is their field.", FIELD_SIZE)
        opening = [Event("deal", sentences([dealt, fields_up])), Event("first_player", reason, turn)]
        return cls(players=players, options=options, seed=seed, rng=rng, fields=fields, tapped=[False] * _CARDS,
                   decks=decks, discard=[], turn=turn, alive=[True] * players, dealer=dealer, opening=opening)

    @classmethod
    def from_position(
        cls,
        fields: Sequence[Sequence[CardLike]],
        decks: Sequence[Sequence[CardLike]] | None = None,
        *,
        tapped: Iterable[CardLike] = (),
        discard: Sequence[CardLike] = (),
        turn: int = 0,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        out_order: Sequence[Sequence[int]] | None = None,
    ) -> WarState:
        """A hand-set position, for tests and puzzles. Only the listed cards are in play.

        ``fields`` lists each seat's field in slot order; ``decks`` each seat's
        deck bottom first (its last card is drawn first); ``tapped`` the field
        cards that are tapped; ``discard`` the pile bottom first. Seats already
        out under the ``loss`` option form one group of ``out_order`` unless it
        is given. If ``turn`` has no legal action the turn passes on at once,
        and :meth:`opening_events` says so. Duplicates, fields over 5 cards,
        tapped cards outside a field, a seat to act that is out, or fewer than
        two seats with cards raise :class:`GameError`.
        """
        players = len(fields)
        if not 2 <= players <= 4:
            raise GameError(say("War is for 2–4 players, not {players}", players=players))
        opts = normalize_options(NAME, OPTIONS, options)
        field_ids = [[card_id(c) for c in f] for f in fields]
        deck_ids = [[card_id(c) for c in d] for d in (decks if decks is not None else [()] * players)]
        if len(deck_ids) != players:
            raise GameError(say("Give one deck per seat"))
        tapped_ids = [card_id(c) for c in tapped]
        discard_ids = [card_id(c) for c in discard]
        every = [c for f in field_ids for c in f] + [c for d in deck_ids for c in d] + discard_ids
        if len(set(every)) != len(every):
            raise GameError(say("A card appears twice in the position"))
        if any(len(f) > FIELD_SIZE for f in field_ids):
            raise GameError(plural("A field holds at most {count} card", "A field holds at most {count} cards",
                                   FIELD_SIZE))
        on_table = {c for f in field_ids for c in f}
        if any(c not in on_table for c in tapped_ids):
            raise GameError(say("Only field cards can be tapped"))
        state = cls(players=players, options=opts, seed=seed, rng=Rng(seed), fields=field_ids,
                    tapped=flags_of(_CARDS, tapped_ids), decks=deck_ids, discard=discard_ids, turn=turn,
                    alive=[True] * players)
        state.alive = [not state._is_out(s) for s in range(players)]
        out = [s for s in range(players) if not state.alive[s]]
        if out_order is None:
            state.out_order = [out] if out else []
        else:
            state.out_order = [list(g) for g in out_order]
            if sorted(s for g in state.out_order for s in g) != out:
                raise GameError(say("out_order must list exactly the seats already out: {out}", out=str(out)))
        if sum(state.alive) < 2:
            raise GameError(say("A position needs at least two seats with cards"))
        if type(turn) is not int or not 0 <= turn < players or not state.alive[turn]:
            raise GameError(say("Seat {seat} can't be the seat to act", seat=repr(turn)))
        if not state._can_act(turn):
            state._pass_on((turn - 1) % players, state.opening)
        return state

    # ----------------------------------------------------------- contract

    def to_act(self) -> list[int]:
        """``[turn]`` (always a seat with a legal action), or ``[]`` once the game is over."""
        return [] if self.over else [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        """Attacks (by own slot, then target seat and slot), recovers (slot order), then
        ``draw``; ``[]`` when ``seat`` is not to act."""
        if self.over or seat != self.turn:
            return []
        fields, tapped = self.fields, self.tapped
        field = fields[seat]
        targets = [t for other, cards in enumerate(fields) if other != seat for t in cards]
        acts: list[Action] = []
        if targets:
            for a in field:
                if not tapped[a]:
                    row = ATTACK[a]
                    acts += [row[t] for t in targets]
        acts += [RECOVER[a] for a in field if tapped[a]]
        if len(field) < FIELD_SIZE and self.decks[seat]:
            acts.append(DRAW)
        return acts

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and play ``action``; on any :class:`GameError` nothing has changed."""
        if self.over or type(seat) is not int or seat != self.turn:
            self.check_turn(seat)
        move = parse(action)
        match move.kind:
            case Kind.ATTACK:
                return self._attack(seat, move.card, move.target)
            case Kind.RECOVER:
                return self._recover(seat, move.card)
            case Kind.DRAW:
                return self._draw(seat)

    # ----------------------------------------------------------- turns

    def _attack(self, seat: int, a: int, t: int) -> list[Event]:
        owner = self.owner
        if owner[a] != seat:
            raise IllegalAction(say("{card} is not in your field: attack with one of your own untapped cards",
                                    card=DECK[a]))
        if self.tapped[a]:
            raise IllegalAction(say("Your {card} is tapped: recover it before it can attack", card=DECK[a]))
        target_seat = owner[t]
        if target_seat == seat:
            raise IllegalAction(say("You can't attack your own field ({card} is yours): pick a card in an "
                                    "opponent's field", card=DECK[t]))
        if target_seat < 0:
            raise IllegalAction(say("{card} is not in any opponent's field, so it can't be attacked", card=DECK[t]))
        result = CMP[a][t]
        self.moves += 1
        told = dict(player=Seat(seat), card=DECK[a], opponent=Seat(target_seat), target=DECK[t])
        if result > 0:
            self._discard(target_seat, t)
            self.tapped[a] = True
            text = say("{player}'s {card} attacked {opponent}'s {target}: {card} is stronger ({why}), so {target} "
                       "is discarded and {card} is tapped.", why=relation(a, t), **told)
        elif result < 0:
            self._discard(seat, a)
            text = say("{player}'s {card} attacked {opponent}'s {target}: {target} is stronger ({why}), so {card} "
                       "is discarded.", why=relation(t, a), **told)
        else:
            self._discard(seat, a)
            self._discard(target_seat, t)
            text = say("{player}'s {card} attacked {opponent}'s {target}: equal strength (same rank), so both are "
                       "discarded.", **told)
        self.last_attack = (seat, a, target_seat, t, result, self.moves)
        events = [Event("attack", text, seat)]
        if result <= 0 and not self.fields[seat] or result >= 0 and not self.fields[target_seat]:
            self._eliminate((seat, target_seat), events)
            if self.over:
                return events
        self._pass_on(seat, events)
        return events

    def _recover(self, seat: int, c: int) -> list[Event]:
        if self.owner[c] != seat:
            raise IllegalAction(say("{card} is not in your field: you can only recover your own tapped cards",
                                    card=DECK[c]))
        if not self.tapped[c]:
            raise IllegalAction(say("Your {card} is not tapped: only a tapped card can be recovered", card=DECK[c]))
        self.tapped[c] = False
        self.moves += 1
        events = [Event("recover", say("{player} recovered {card}: it is untapped and can attack again.",
                                       player=Seat(seat), card=DECK[c]), seat)]
        self._pass_on(seat, events)
        return events

    def _draw(self, seat: int) -> list[Event]:
        field, deck = self.fields[seat], self.decks[seat]
        if len(field) >= FIELD_SIZE:
            raise IllegalAction(plural("Your field is full ({count} card): you can't draw",
                                       "Your field is full ({count} cards): you can't draw", len(field)))
        if not deck:
            raise IllegalAction(say("Your deck is empty: you can't draw"))
        c = deck.pop()
        field.append(c)
        self.owner[c] = seat
        self.moves += 1
        text = plural("{player} drew {card} into their field ({count} card left in their deck).",
                      "{player} drew {card} into their field ({count} cards left in their deck).",
                      len(deck), player=Seat(seat), card=DECK[c])
        events = [Event("draw", text, seat)]
        self._pass_on(seat, events)
        return events

    def _discard(self, seat: int, c: int) -> None:
        self.fields[seat].remove(c)
        self.owner[c] = -1
        self.tapped[c] = False
        self.discard.append(c)

    def _is_out(self, seat: int) -> bool:
        """Out under the ``loss`` option: no field cards, and (no-cards) no deck cards either."""
        return not self.fields[seat] and (self.field_empty_loses or not self.decks[seat])

    def _eliminate(self, seats: Iterable[int], events: list[Event]) -> None:
        """Knock out the seats of an attack that just lost their last cards; end the game if due."""
        fallen = sorted({s for s in seats if self.alive[s] and self._is_out(s)})
        if not fallen:
            return
        for s in fallen:
            self.alive[s] = False
            if self.field_empty_loses:
                out = say("{player}'s field is empty: {player} is out.", player=Seat(s))
            else:
                out = say("{player}'s field and deck are empty: {player} is out.", player=Seat(s))
            events.append(Event("out", out, s))
        self.out_order.append(fallen)
        left = [s for s in range(self.players) if self.alive[s]]
        if len(left) == 1:
            self.over = True
            events.append(Event("win", say("{player} is the last player with cards and wins!", player=Seat(left[0])),
                                left[0]))
        elif not left:
            self.over = True
            events.append(Event("tie", say("{players} lost their last cards in the same attack: the game is a tie.",
                                           players=together([Seat(s) for s in fallen]))))

    def _can_act(self, seat: int) -> bool:
        """Whether ``seat`` has any legal action now (without listing them)."""
        field = self.fields[seat]
        if len(field) < FIELD_SIZE and self.decks[seat]:
            return True
        if not field:
            return False
        tapped = self.tapped
        for c in field:
            if tapped[c]:
                return True
        fields = self.fields
        return any(fields[o] for o in range(self.players) if o != seat)

    def _pass_on(self, seat: int, events: list[Event]) -> None:
        """Give the turn to the next seat after ``seat`` that is still in and can act.

        A seat still in with no legal action at all (every field card untapped,
        no opponent field card to attack, and a full field or an empty deck)
        passes automatically, with an event. While two or more seats are in,
        some seat can always act (see the package docs), so this ends.
        """
        players, alive = self.players, self.alive
        nxt = seat
        for _ in range(2 * players):
            nxt = (nxt + 1) % players
            if not alive[nxt]:
                continue
            if self._can_act(nxt):
                self.turn = nxt
                return
            if len(self.fields[nxt]) >= FIELD_SIZE:
                text = say("{player} has no legal move (every card of theirs is untapped, no opponent has a field "
                           "card to attack, and their field is full), so the turn passes.", player=Seat(nxt))
            else:
                text = say("{player} has no legal move (every card of theirs is untapped, no opponent has a field "
                           "card to attack, and their deck is empty), so the turn passes.", player=Seat(nxt))
            events.append(Event("pass", text, nxt))
        raise RuntimeError("War: no seat still in can act, which the rules make impossible")

    # ----------------------------------------------------------- results

    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        """The last seat with cards wins; the rest rank in reverse order of going out,
        seats knocked out by the same attack sharing a place. A tie (the last
        seats went out together) has no winner: those seats share first place.
        ``scores[s]``: cards ``s`` still has in play (field + deck; 0 once out)."""
        if not self.over:
            return None
        left = [s for s in range(self.players) if self.alive[s]]
        ranking = ([tuple(left)] if left else []) + [tuple(g) for g in reversed(self.out_order)]
        scores = tuple(len(self.fields[s]) + len(self.decks[s]) if self.alive[s] else 0 for s in range(self.players))
        if left:
            winner = left[0]
            reason = plural("{player} is the last player with cards ({count} card left).",
                            "{player} is the last player with cards ({count} cards left).",
                            scores[winner], player=Seat(winner))
            return Outcome((winner,), tuple(ranking), scores, reason)
        reason = say("Tie: {players} lost their last cards in the same attack.",
                     players=together([Seat(s) for s in ranking[0]]))
        return Outcome((), tuple(ranking), scores, reason)

    # ----------------------------------------------------------- cards and views

    def zones(self) -> dict[str, list[Card]]:
        zones = {"discard": [DECK[c] for c in self.discard]}
        for s in range(self.players):
            zones[f"field:{s}"] = [DECK[c] for c in self.fields[s]]
            zones[f"deck:{s}"] = [DECK[c] for c in self.decks[s]]
        return zones

    def hidden_cards(self, seat: int | None) -> list[Card]:
        """Every deck card, for every viewer: fields and the discard pile are face up."""
        return [DECK[c] for deck in self.decks for c in deck]

    def statuses(self) -> list[str]:
        """Per seat: ``playing`` or ``out``; once over, ``won`` for the winner, or
        ``tied`` for the seats that share a tie."""
        out = ["playing" if alive else "out" for alive in self.alive]
        outcome = self.outcome()
        if outcome is not None:
            for s in outcome.winners or outcome.ranking[0]:
                out[s] = "won" if outcome.winners else "tied"
        return out

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The table as ``seat`` sees it (``None``: the public; keys in the package docs): the
        same for every viewer, every field card face up, decks as counts only, except that a
        seat's view adds ``hand`` (always ``[]``), ``your_turn`` and ``legal``."""
        self.check_viewer(seat)
        tapped = self.tapped
        outcome = self.outcome()
        last = self.last_attack
        view: dict[str, Any] = {
            "game": self.game_id,
            "players": self.players,
            "viewer": seat,
            "loss": self.loss,
            "turn": None if self.over else self.turn,
            "to_act": self.to_act(),
            "moves": self.moves,
            "fields": [[{"card": CODE[c], "tapped": tapped[c]} for c in field] for field in self.fields],
            "deck_counts": [len(d) for d in self.decks],
            "card_counts": [len(f) + len(d) for f, d in zip(self.fields, self.decks, strict=True)],
            "discard_count": len(self.discard),
            "discard_top": [CODE[c] for c in reversed(self.discard[-DISCARD_SHOWN:])],
            "status": self.statuses(),
            "out_order": [list(g) for g in self.out_order],
            "last_attack": None if last is None else {
                "seat": last[0],
                "attacker": CODE[last[1]],
                "target_seat": last[2],
                "target": CODE[last[3]],
                "compare": last[4],
                "discarded": list(_DISCARDED[last[4]]),
                "move": last[5],
            },
            "over": self.over,
            "outcome": outcome.to_json() if outcome else None,
        }
        if seat is not None:
            legal = self.legal_actions(seat)
            view["hand"] = []
            view["your_turn"] = bool(legal)
            view["legal"] = [a.code() for a in legal]
        return view
