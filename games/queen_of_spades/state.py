"""The Queen of Spades match state: plain data, a seeded Rng, legal moves (the moves are in turns.py).

Representation (card ids from :mod:`games.queen_of_spades.points`; codes once
serialised):

- ``cnt[s]``: seat ``s``'s hand as counts per card id (53 entries); ``rc[s]``
  the same per rank index (14 entries) and ``size[s]`` the number of cards;
- ``sets[s]``: seat ``s``'s laid sets in the order laid, each
  ``[rank, naturals, wild]`` (naturals sorted ids, ``wild`` the id of its wild
  2 or ``-1``); ``where[s][rank]`` is the index of the seat's set of that rank,
  or ``-1`` (derived, not stored);
- ``draw``: the draw pile, top last (during the cut phase: the whole shuffled
  deck); ``discard``: the discard pile, top last; ``aside``: cards a hand-built
  position leaves out of play until the next deal (always empty in real games);
- ``phase``: ``cut`` (the dealer cuts or deals), ``take`` and ``play`` (the
  seat ``turn`` takes, then lays / extends / discards), ``round_over`` (every
  seat acknowledges with ``next``; ``ready[s]``), ``match_over``;
- ``round_no`` (from 1), ``dealer``, ``cut`` (this round's cut: ``aimed``,
  ``landed``, ``bonus``), ``stall`` (turns in a row without a draw from the
  draw pile), ``scores`` (match totals), ``history`` (one record per scored
  round, see :func:`~games.queen_of_spades.scoring.breakdown_row`), ``end``
  (``target`` / ``rounds`` once over);
- what the table saw this round (public, so the hard AI may infer from it):
  ``known[s]``, the cards of seat ``s``'s hand it took from the discard pile
  and has not laid or discarded since (counts per card id), and ``let_go[s]``,
  a flag per rank index: ``s`` discarded a card of that rank and has taken none
  from the discard pile since, and ``passed[s]``, the same for ranks ``s`` drew
  from the draw pile instead of taking (the discard pile's top, when it could be
  taken). All three are empty lists until the state fills them per seat
  (snapshots of format 1 had none of them).

See ``games/queen_of_spades/__init__.py`` for the rulings these methods implement.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import compress
from typing import Any, Mapping, Sequence

from ..base import Action, Event, GameState, Outcome
from ..cards import Card, CardLike
from ..codec import CardCounts, CardIds, ListOf, OneOf, counts_of, flags_of, stored
from ..errors import GameError, IllegalAction, NotYourTurn
from ..rng import Rng
from .actions import (
    CUT, CUT_ACTION, DEAL, DEAL_ACTION, DISCARD, DISCARD_ACTION, DRAW, EXTEND, EXTENDS, LAY, LAYS, NEXT, NEXT_ACTION,
    PILE, STALL_LIMIT, TAKE_DISCARD, TAKE_DRAW, TAKE_ONE, TAKE_PILE, parse,
)
from .deal import deck_size, perfect_cuts, shuffled
from .options import normalize
from .points import CODE, DECK, KINDS, PLURAL, RANK_COUNT, RANK_NAME, RANK_OF, TWO, card_id, full_deck, pretty
from .scoring import match_outcome
from .turns import Turns
from .view import build_view
PHASES = ("cut", "take", "play", "round_over", "match_over")


def classify_set(cards: Sequence[int]) -> tuple[int, list[int], int]:
    """``(rank, naturals, wild)`` of a valid set of card ids, or :class:`GameError`:
    three or more cards of one rank (jokers being a rank) with at most one wild 2,
    at least two naturals; three or more 2s are a natural set of 2s."""
    shown = pretty(cards)
    if len(cards) < 3:
        raise GameError(f"{shown} is no set: a set has at least three cards")
    if all(RANK_OF[c] == TWO for c in cards):
        return TWO, sorted(cards), -1
    ranks = {RANK_OF[c] for c in cards if RANK_OF[c] != TWO}
    if len(ranks) != 1:
        raise GameError(f"{shown} is no set: a set is one rank, plus at most one wild 2")
    rank = ranks.pop()
    twos = [c for c in cards if RANK_OF[c] == TWO]
    if len(twos) > 1:
        raise GameError(f"{shown} is no set: at most one wild 2 per set")
    return rank, sorted(c for c in cards if RANK_OF[c] != TWO), twos[0] if twos else -1


_CARDS = CardIds(CODE)
_WILD = CardIds(CODE, depth=0, missing=-1)


class _LaidSet:
    """One laid set, ``[rank, naturals, wild]`` in memory (wild ``-1``: none), stored as
    ``[natural codes, wild code or None]`` (the rank is the naturals')."""

    def dump(self, value: list[Any]) -> list[Any]:
        return [_CARDS.dump(value[1]), _WILD.dump(value[2])]

    def load(self, data: Any) -> list[Any]:
        codes, wild = data
        naturals = _CARDS.load(codes)
        return [RANK_OF[naturals[0]], naturals, _WILD.load(wild)]


class _RankFlags:
    """A flag per rank index, stored as the names of the flagged ranks (``A``, ``2`` … ``joker``)."""

    def dump(self, value: list[bool]) -> list[str]:
        return [RANK_NAME[r] for r, flag in enumerate(value) if flag]

    def load(self, data: Any) -> list[bool]:
        return flags_of(RANK_COUNT, [RANK_NAME.index(name) for name in data])


@dataclass(eq=False, kw_only=True)
class QoSState(Turns, GameState):
    """A Queen of Spades match in progress (every round of it)."""

    game_id = "queen-of-spades"
    snapshot_format = 2

    phase: str = stored(OneOf(PHASES))
    round_no: int = stored(key="round")
    dealer: int
    turn: int
    draw: list[int] = stored(_CARDS)
    discard: list[int] = stored(_CARDS)
    aside: list[int] = stored(_CARDS, default_factory=list)
    cnt: list[list[int]] = stored(ListOf(CardCounts(CODE)), key="hands")
    sets: list[list[list[Any]]] = stored(ListOf(ListOf(_LaidSet())))
    ready: list[bool]
    scores: list[int]
    history: list[dict[str, Any]] = stored(default_factory=list)
    cut: dict[str, Any] | None = None
    stall: int = 0
    end: str | None = None
    moves: int = 0
    known: list[list[int]] = stored(ListOf(CardCounts(CODE)), default_factory=list)
    let_go: list[list[bool]] = stored(ListOf(_RankFlags()), default_factory=list)
    passed: list[list[bool]] = stored(ListOf(_RankFlags()), default_factory=list)
    target: int = field(init=False)
    rounds: int = field(init=False)
    rc: list[list[int]] = field(init=False, repr=False)
    size: list[int] = field(init=False, repr=False)
    where: list[list[int]] = field(init=False, repr=False)
    over: bool = field(init=False)

    def __post_init__(self) -> None:
        self.target = self.options["target"]
        self.rounds = self.options["rounds"]
        self.rc = [[0] * RANK_COUNT for _ in range(self.players)]
        for counts, ranks in zip(self.cnt, self.rc):
            for c, n in enumerate(counts):
                if n:
                    ranks[RANK_OF[c]] += n
        self.size = [sum(counts) for counts in self.cnt]
        self.where = [[-1] * RANK_COUNT for _ in range(self.players)]
        for s, seat_sets in enumerate(self.sets):
            for i, st in enumerate(seat_sets):
                self.where[s][st[0]] = i
        self.over = self.phase == "match_over"
        if not self.known:
            self._forget_seen()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "QoSState":
        """A stored match; format 1 (nothing recorded of what the table saw) is upgraded."""
        if isinstance(data, Mapping) and data.get("game") == cls.game_id and data.get("format") == 1:
            data = {**data, "format": 2, "known": [], "let_go": [], "passed": []}
        return super().from_json(data)

    # ----------------------------------------------------------- creation

    @classmethod
    def new_game(cls, players: int, options: dict[str, Any], seed: int) -> "QoSState":
        """A new match: a seeded first dealer, who cuts the freshly shuffled deck."""
        rng = Rng(seed)
        dealer = rng.below(players)
        draw = shuffled(players, rng)
        state = cls(players=players, options=options, seed=seed, rng=rng, phase="cut", round_no=1, dealer=dealer,
                    turn=dealer, draw=draw, discard=[], cnt=[[0] * KINDS for _ in range(players)],
                    sets=[[] for _ in range(players)], ready=[False] * players, scores=[0] * players)
        decks = len(draw) // 54
        target = state.target
        goal = f"first to {target} points" if target else "no target score (endless)"
        if state.rounds:
            goal += f", at most {state.rounds} round{'' if state.rounds == 1 else 's'}"
        state.opening = [
            Event("match", f"Queen of Spades: {decks} decks with jokers ({len(draw)} cards), 13 cards each; {goal}."),
            Event("round", state._round_text(), dealer),
        ]
        return state

    def _round_text(self) -> str:
        a, b = perfect_cuts(self.players)
        d = self.dealer
        return (f"Round {self.round_no}: {{p{d}}} deals (drawn by lot for the first round). " if self.round_no == 1
                else f"Round {self.round_no}: {{p{d}}} deals. ") + (
            f"{{p{d}}}, cut the deck (a cut of {a} or {b} cards scores 100) or deal without a cut.")

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[CardLike]],
        *,
        sets: Sequence[Sequence[Sequence[CardLike]]] | None = None,
        draw: Sequence[CardLike] = ("3C",),
        discard: Sequence[CardLike] = (),
        turn: int = 0,
        phase: str = "take",
        dealer: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        scores: Sequence[int] | None = None,
        round_no: int = 1,
        stall: int = 0,
        cut: Mapping[str, Any] | None = None,
    ) -> "QoSState":
        """A hand-set position in the middle of a round, for tests and puzzles.

        ``hands`` lists each seat's hand; ``sets[s]`` seat ``s``'s laid sets, each a
        list of cards (a valid set; its rank is inferred, a lone 2 in another rank
        is its wild); ``draw`` and ``discard`` list their piles bottom first (the
        last card is the top). ``phase`` is ``take`` (``turn`` is about to take) or
        ``lay`` (``turn`` has taken and may lay, extend or discard). ``dealer``
        defaults to the seat before ``turn``; ``cut`` is this round's cut record
        (``{"aimed", "landed", "bonus"}``; default: dealt without a cut).
        Cards of the decks not listed are set aside until the next deal, so a
        following round is dealt from the full decks. More copies of a card than
        the decks hold, invalid sets, two sets of one rank, an empty hand or an
        empty draw pile raise :class:`GameError`.
        """
        players = len(hands)
        if not 2 <= players <= 8:
            raise GameError(f"Queen of Spades is for 2–8 players, not {players}")
        opts = normalize(options, players)
        if phase not in ("take", "lay"):
            raise GameError(f"phase must be 'take' or 'lay', not {phase!r}")
        hand_ids = [[card_id(c) for c in h] for h in hands]
        if any(not h for h in hand_ids):
            raise GameError("Every hand needs a card (a player with none has gone out)")
        seat_sets = [[] for _ in range(players)] if sets is None else [list(s) for s in sets]
        if len(seat_sets) != players:
            raise GameError("Give one list of sets per seat")
        laid: list[list[list[Any]]] = []
        for s, seat in enumerate(seat_sets):
            rows: list[list[Any]] = []
            for cards in seat:
                rank, naturals, wild = classify_set([card_id(c) for c in cards])
                if any(r[0] == rank for r in rows):
                    raise GameError(f"Seat {s + 1} has two sets of {PLURAL[rank]}: a player has one set per rank")
                rows.append([rank, naturals, wild])
            laid.append(rows)
        draw_ids = [card_id(c) for c in draw]
        if not draw_ids:
            raise GameError("The draw pile can't be empty mid-round (the round would have ended)")
        discard_ids = [card_id(c) for c in discard]
        listed = Counter(c for h in hand_ids for c in h) + Counter(draw_ids) + Counter(discard_ids)
        listed += Counter(c for rows in laid for r in rows for c in r[1] + ([r[2]] if r[2] >= 0 else []))
        available = Counter(full_deck(deck_size(players) // 54))
        over = {CODE[c]: n for c, n in listed.items() if n > available[c]}
        if over:
            raise GameError(f"More copies than the decks hold: {over}")
        aside = sorted((available - listed).elements())
        if type(turn) is not int or not 0 <= turn < players:
            raise GameError(f"turn={turn!r} is not a seat")
        dealer = (turn - 1) % players if dealer is None else dealer
        cut_record = dict(cut) if cut is not None else {"aimed": None, "landed": None, "bonus": False}
        return cls(players=players, options=opts, seed=seed, rng=Rng(seed),
                   phase="take" if phase == "take" else "play", round_no=round_no, dealer=dealer, turn=turn,
                   draw=draw_ids, discard=discard_ids,
                   cnt=[counts_of(KINDS, h) for h in hand_ids], sets=laid, ready=[False] * players,
                   scores=list(scores) if scores is not None else [0] * players, cut=cut_record, stall=stall,
                   aside=aside)

    # ----------------------------------------------------------- contract

    def to_act(self) -> list[int]:
        """The dealer (cut), the seat whose turn it is (take, lay), every seat not yet
        ready (between rounds; simultaneous), or ``[]`` once the match is over."""
        phase = self.phase
        if phase == "round_over":
            return [s for s in range(self.players) if not self.ready[s]]
        if phase == "match_over":
            return []
        return [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        """In order: ``deal`` then ``cut:1`` … ``cut:<deck size>``; or ``take:draw``,
        ``take:discard``, ``take:pile,2`` …; or, per rank (A … K, joker), new sets
        (``lay``, by count, then with a wild) or additions to your set (``extend``),
        then one discard per distinct card in hand (hand order); or ``next``.
        ``[]`` when ``seat`` may not act."""
        phase = self.phase
        if phase == "play":
            if seat != self.turn:
                return []
            return self._set_actions(seat) + self._discard_actions(seat)
        if phase == "take":
            if seat != self.turn:
                return []
            acts: list[Action] = [TAKE_DRAW]
            pile = self.discard
            if len(pile) == 1:
                if self.stall < STALL_LIMIT:
                    acts.append(TAKE_DISCARD)
            elif pile:
                have = self.rc[seat][RANK_OF[pile[-1]]]
                acts += TAKE_PILE[2:have + 1]
            return acts
        if phase == "cut":
            if seat != self.turn:
                return []
            return [DEAL_ACTION, *CUT_ACTION[1:len(self.draw) + 1]]
        if phase == "round_over":
            return [NEXT_ACTION] if type(seat) is int and 0 <= seat < self.players and not self.ready[seat] else []
        return []

    def _set_actions(self, seat: int) -> list[Action]:
        """Every lay and extend ``seat`` may make now (a lay or extend must leave a card to discard)."""
        room = self.size[seat] - 1
        if room < 1:
            return []
        rc = self.rc[seat]
        where = self.where[seat]
        sets = self.sets[seat]
        twos = rc[TWO]
        acts: list[Action] = []
        for r in range(RANK_COUNT):
            have = rc[r]
            i = where[r]
            if i < 0:
                if have < 2:
                    continue
                natural, wild = LAYS[r]
                acts += natural[3:min(have, room) + 1]
                if twos and r != TWO:
                    acts += wild[2:min(have, room - 1) + 1]
            else:
                natural, wild = EXTENDS[r]
                acts += natural[1:min(have, room) + 1]
                if twos and r != TWO and sets[i][2] < 0:
                    acts += wild[:min(have, room - 1) + 1]
        return acts

    def _discard_actions(self, seat: int) -> list[Action]:
        return list(compress(DISCARD_ACTION, self.cnt[seat]))

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and play ``action`` for ``seat``; on any :class:`GameError` nothing has changed."""
        phase = self.phase
        if phase == "round_over":
            self.check_seat(seat)
            if self.ready[seat]:
                raise NotYourTurn(f"You're already ready for round {self.round_no + 1}; waiting for the others")
        elif self.over or type(seat) is not int or seat != self.turn:
            self.check_turn(seat)
        op, a, b, c = parse(action)
        if phase == "play":
            if op == LAY or op == EXTEND:
                return self._lay(seat, op, a, b, c)
            if op == DISCARD:
                return self._discard(seat, a)
            if op in (DRAW, TAKE_ONE, PILE):
                raise IllegalAction("You have already taken a card this turn: lay sets, add to yours, or discard")
        elif phase == "take":
            if op == DRAW:
                return self._take_draw(seat)
            if op == TAKE_ONE:
                return self._take_lone(seat)
            if op == PILE:
                return self._take_pile(seat, a, b)
            if op in (LAY, EXTEND, DISCARD):
                raise IllegalAction("First take a card: from the draw pile or the discard pile")
        elif phase == "cut":
            if op == CUT:
                return self._cut(seat, a)
            if op == DEAL:
                return self._deal_without_cut(seat)
            raise IllegalAction("The round starts with the dealer's cut: cut the deck or deal without cutting")
        elif phase == "round_over":
            if op == NEXT:
                return self._next(seat)
            raise IllegalAction("The round is over: click Continue to the next round when you're ready")
        if op in (CUT, DEAL):
            raise IllegalAction("Only the dealer cuts or deals, at the start of a round")
        raise IllegalAction("The round is still being played: next is for between rounds")

    # ----------------------------------------------------------- results

    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> Outcome | None:
        """Once over: the highest match total wins (shared on a tie); ``scores`` are the totals."""
        if not self.over:
            return None
        return match_outcome(self.scores, self.end or "rounds", self.target, self.round_no)

    # ----------------------------------------------------------- cards and views

    def zones(self) -> dict[str, list[Card]]:
        zones = {
            "draw": [DECK[c] for c in self.draw],
            "discard": [DECK[c] for c in self.discard],
            "aside": [DECK[c] for c in self.aside],
        }
        for s in range(self.players):
            zones[f"hand:{s}"] = [DECK[c] for c in self.hand_ids(s)]
            zones[f"sets:{s}"] = [DECK[c] for st in self.sets[s] for c in st[1] + ([st[2]] if st[2] >= 0 else [])]
        return zones

    def hidden_cards(self, seat: int | None) -> list[Card]:
        """The draw pile and set-aside cards, and every hand but the viewer's, except the
        cards the table saw a seat take from the discard pile (``known``); once a round is
        over (or the match), every hand is shown, so only the draw pile stays hidden.
        Laid sets and the whole discard pile are public."""
        hidden = [DECK[c] for c in self.draw] + [DECK[c] for c in self.aside]
        if self.phase in ("take", "play"):
            for s in range(self.players):
                if s != seat:
                    hidden += [DECK[c] for c in self.unknown_ids(s)]
        return hidden

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The table as ``seat`` sees it (``None``: the public); keys in the package docs."""
        return build_view(self, seat)
