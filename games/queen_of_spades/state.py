"""The rules of a Queen of Spades match: the cut and the deal, taking, laying,
discarding, the end of a round (RULINGS §5). The match's fields and the hand helpers
are :class:`~games.queen_of_spades.table.QoSTable`'s; see
``games/queen_of_spades/__init__.py`` for the rulings these methods implement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import compress
from typing import Any

from ..base import Action, Event, Outcome, normalize_options
from ..cards import Card, CardLike
from ..codec import counts_of
from ..errors import GameError, IllegalAction, NotYourTurn
from ..rng import Rng
from .actions import (
    CUT_ACTION,
    DEAL_ACTION,
    DISCARD_ACTION,
    EXTENDS,
    LAYS,
    NEXT_ACTION,
    STALL_LIMIT,
    TAKE_DISCARD,
    TAKE_DRAW,
    TAKE_PILE,
    Kind,
    parse,
)
from .deal import HAND_SIZE, deal_round, deck_size, land_cut, perfect_cuts, shuffled
from .options import NAME, OPTIONS
from .points import (
    CODE,
    DECK,
    KINDS,
    PLURAL,
    POINTS,
    PRETTY,
    RANK_COUNT,
    RANK_OF,
    SINGULAR,
    TWO,
    card_id,
    full_deck,
    pretty,
)
from .scoring import CUT_BONUS, OUT_BONUS, breakdown_row, match_end, match_outcome, summary_text
from .table import QoSTable
from .view import build_view


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


def _plural(n: int, rank: int) -> str:
    return f"{n} {SINGULAR[rank] if n == 1 else PLURAL[rank]}"



class QoSState(QoSTable):
    """A Queen of Spades match in progress (every round of it)."""

    # ----------------------------------------------------------- creation

    @classmethod
    def new_game(cls, players: int, options: dict[str, Any], seed: int) -> QoSState:
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
    ) -> QoSState:
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
        opts = normalize_options(NAME, OPTIONS, options, players)
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
        move = parse(action)
        kind = move.kind
        match phase, kind:
            case "play", Kind.LAY | Kind.EXTEND:
                return self._lay(seat, kind, move.item, move.number, move.wilds)
            case "play", Kind.DISCARD:
                return self._discard(seat, move.item)
            case "play", Kind.DRAW | Kind.TAKE_ONE | Kind.PILE:
                raise IllegalAction("You have already taken a card this turn: lay sets, add to yours, or discard")
            case "take", Kind.DRAW:
                return self._take_draw(seat)
            case "take", Kind.TAKE_ONE:
                return self._take_lone(seat)
            case "take", Kind.PILE:
                return self._take_pile(seat, move.number, move.wilds)
            case "take", Kind.LAY | Kind.EXTEND | Kind.DISCARD:
                raise IllegalAction("First take a card: from the draw pile or the discard pile")
            case "cut", Kind.CUT:
                return self._cut(seat, move.number)
            case "cut", Kind.DEAL:
                return self._deal_without_cut(seat)
            case "cut", _:
                raise IllegalAction("The round starts with the dealer's cut: cut the deck or deal without cutting")
            case "round_over", Kind.NEXT:
                return self._next(seat)
            case "round_over", _:
                raise IllegalAction("The round is over: press Continue when you're ready for the next round")
            case _, Kind.CUT | Kind.DEAL:
                raise IllegalAction("Only the dealer cuts or deals, at the start of a round")
        raise IllegalAction("The round is still being played: next is for between rounds")


    # ----------------------------------------------------------- the cut and the deal

    def _cut(self, seat: int, aim: int) -> list[Event]:
        size = len(self.draw)
        if not 1 <= aim <= size:
            raise IllegalAction(f"Cut from 1 to {size} cards, not {aim}")
        landed = land_cut(aim, size, self.rng)
        a, b = perfect_cuts(self.players)
        bonus = landed in (a, b)
        self.cut = {"aimed": aim, "landed": landed, "bonus": bonus}
        text = (f"{{p{seat}}} aimed to cut {aim} and cut {landed} cards — {a} or {b} needed: "
                + ("+100 cut bonus!" if bonus else "no bonus."))
        if landed < a:
            text += f" The packet ran out after {landed} cards; the deal was finished from the rest of the deck."
        elif landed == a:
            text += " The packet dealt exactly 13 each; the face-up card came from the rest of the deck."
        elif landed == b:
            text += " The packet dealt exactly 13 each and the face-up card."
        else:
            left = landed - b
            text += f" {left} packet card{' was' if left == 1 else 's were'} left over, on top of the draw pile."
        events = [Event("cut", text, seat)]
        self._deal(events)
        return events

    def _deal_without_cut(self, seat: int) -> list[Event]:
        self.cut = {"aimed": None, "landed": None, "bonus": False}
        events = [Event("deal", f"{{p{seat}}} dealt without cutting: no cut bonus this round.", seat)]
        self._deal(events)
        return events

    def _deal(self, events: list[Event]) -> None:
        dealt = deal_round(self.draw, self.players, self.dealer)
        for s, hand in enumerate(dealt.hands):
            self._gain(s, hand)
        self.discard.append(dealt.face_up)
        self.turn = (self.dealer + 1) % self.players
        self.phase = "take"
        self.stall = 0
        self.moves += 1
        events.append(Event(
            "dealt",
            f"Dealt {HAND_SIZE} cards each. {PRETTY[dealt.face_up]} starts the discard pile; the draw pile holds "
            f"{len(self.draw)} cards. {{p{self.turn}}} plays first.",
            self.turn,
        ))

    # ----------------------------------------------------------- taking

    def _take_draw(self, seat: int) -> list[Event]:
        pile = self.discard
        if pile and (self.stall < STALL_LIMIT or len(pile) > 1):  # its top could be taken: passed
            self.passed[seat][RANK_OF[pile[-1]]] = True
        card = self.draw.pop()
        self._gain(seat, (card,))
        self.stall = 0
        self.phase = "play"
        self.moves += 1
        left = len(self.draw)
        return [
            Event("draw", f"{{p{seat}}} drew from the draw pile ({left} card{'' if left == 1 else 's'} left).", seat),
            Event("drew", f"{{p{seat}}} drew {PRETTY[card]}.", seat, private_to=seat),
        ]

    def _take_lone(self, seat: int) -> list[Event]:
        pile = self.discard
        if len(pile) != 1:
            if not pile:
                raise IllegalAction("The discard pile is empty: draw from the draw pile")
            raise IllegalAction(
                f"The discard pile holds {len(pile)} cards, so its top {PRETTY[pile[-1]]} can only be taken "
                f"into a new natural set with two or more matching cards from your hand, which "
                f"also takes the rest of the pile; or draw"
            )
        if self.stall >= STALL_LIMIT:
            raise IllegalAction(
                f"{self.stall} turns in a row without a draw from the draw pile: the lone discard can't be "
                f"taken now: draw from the draw pile"
            )
        card = pile.pop()
        self._gain(seat, (card,))
        self._seen_taking(seat, (card,))
        self.stall += 1
        self.phase = "play"
        self.moves += 1
        return [Event("take", f"{{p{seat}}} took the lone discard, {PRETTY[card]}.", seat)]

    def _take_pile(self, seat: int, n: int, wilds: int) -> list[Event]:
        pile = self.discard
        if len(pile) < 2:
            if pile:
                raise IllegalAction(
                    f"The discard pile holds one card, {PRETTY[pile[0]]}: take it freely (“Take the lone discard”)"
                )
            raise IllegalAction("The discard pile is empty: draw from the draw pile")
        top = pile[-1]
        rank = RANK_OF[top]
        if wilds:
            raise IllegalAction(
                f"The pile's top {PRETTY[top]} can only go into a natural set: no wild 2: take it with "
                f"{max(n, 2)} {PLURAL[rank]} from your hand"
            )
        if n < 2:
            has_set = self.where[seat][rank] >= 0
            also = f": it can't just extend your {PLURAL[rank]}" if has_set else ""
            raise IllegalAction(
                f"The pile's top {PRETTY[top]} can only be taken into a new natural set with at least two "
                f"{PLURAL[rank]} from your hand{also}"
            )
        have = self.rc[seat][rank]
        if have < n:
            raise IllegalAction(
                f"You hold {_plural(have, rank)}, not {n}: you can't lay the pile's top {PRETTY[top]} with {n}"
            )
        mine = self._remove_rank(seat, rank, n)
        rest = pile[:-1]
        pile.clear()
        self._gain(seat, rest)
        self._seen_taking(seat, rest)
        self.let_go[seat][rank] = self.passed[seat][rank] = False
        merged = self._add_to_set(seat, rank, [top, *mine], -1)
        self.stall += 1
        self.phase = "play"
        self.moves += 1
        text = (f"{{p{seat}}} took the discard pile: laid its top {PRETTY[top]} with {pretty(mine)} as a new set of "
                f"{PLURAL[rank]}")
        if merged:
            text += f", merged into their {PLURAL[rank]} (now {self._set_size(seat, rank)} cards)"
        text += f", and took the other {len(rest)} card{'' if len(rest) == 1 else 's'} into their hand: {pretty(rest)}."
        return [Event("take_pile", text, seat)]

    # ----------------------------------------------------------- laying

    def _lay(self, seat: int, op: Kind, rank: int, n: int, wilds: int) -> list[Event]:
        name = PLURAL[rank]
        i = self.where[seat][rank]
        if op == Kind.LAY and i >= 0:
            raise IllegalAction(f"You already have a set of {name}: add to it instead (“Add to your {name}”)")
        if op == Kind.EXTEND and i < 0:
            raise IllegalAction(
                f"You have no set of {name} to add to (you can only add to your own sets); lay a new one "
                f"(“Lay a set of {name}”) with at least three cards"
            )
        if wilds > 1:
            raise IllegalAction(
                f"At most one wild 2 per set, so two 2s with {_plural(n, rank)} is no set"
                if op == Kind.LAY else f"At most one wild 2 per set: you can't add {wilds} to your {name}"
            )
        if rank == TWO and wilds:
            raise IllegalAction("2s in a set of 2s are natural: lay or add them without w (e.g. lay:2,3)")
        if op == Kind.LAY:
            if n + wilds < 3:
                what = _plural(n, rank) + (" and a wild 2" if wilds else "")
                raise IllegalAction(f"A set needs at least three cards (at most one of them a wild 2), not {what}")
        else:
            if n + wilds == 0:
                raise IllegalAction(f"Add at least one card to your {name}")
            if wilds and self.sets[seat][i][2] >= 0:
                raise IllegalAction(f"Your {name} already have a wild 2, and a set holds at most one")
        have = self.rc[seat][rank]
        if have < n:
            raise IllegalAction(f"You hold {_plural(have, rank)}, not {n}")
        if wilds and self.rc[seat][TWO] < 1:
            raise IllegalAction("You have no 2 to use as a wild")
        if self.size[seat] - n - wilds < 1:
            raise IllegalAction("You can't lay your last card: keep one to discard (a discard ends every turn)")
        naturals = self._remove_rank(seat, rank, n)
        wild = self._remove_rank(seat, TWO, 1)[0] if wilds else -1
        self._add_to_set(seat, rank, naturals, wild)
        self._seen_leaving(seat, naturals, wild)
        self.moves += 1
        shown = pretty(naturals)
        if wild >= 0:
            shown = (shown + " and " if shown else "") + f"{PRETTY[wild]} as a wild"
        if op == Kind.LAY:
            text = f"{{p{seat}}} laid a set of {name}: {shown}."
        else:
            text = f"{{p{seat}}} added {shown} to their {name} (now {self._set_size(seat, rank)} cards)."
        return [Event(op.value, text, seat)]

    def _discard(self, seat: int, card: int) -> list[Event]:
        if not self.cnt[seat][card]:
            raise IllegalAction(f"You don't hold {PRETTY[card]}")
        self._lose(seat, card)
        self._seen_leaving(seat, (card,))
        self.let_go[seat][RANK_OF[card]] = True
        self.discard.append(card)
        self.moves += 1
        events = [Event("discard", f"{{p{seat}}} discarded {PRETTY[card]}.", seat)]
        out = not self.size[seat]
        if not self.draw:
            empty = (f"{{p{seat}}} discarded their last card, but the draw pile is empty" if out
                     else "The draw pile is empty")
            events.append(Event("exhausted", f"{empty}: round {self.round_no} ends with no going-out bonus.", seat))
            self._end_round(seat if out else None, events, bonus=False)
        elif out:
            events.append(Event("out", f"{{p{seat}}} discarded their last card and went out: +{OUT_BONUS}!", seat))
            self._end_round(seat, events, bonus=True)
        else:
            self.turn = nxt = (seat + 1) % self.players
            self.phase = "take"
            if self.stall >= STALL_LIMIT and len(self.discard) == 1:
                events.append(Event(
                    "stall",
                    f"{self.stall} turns in a row without a draw from the draw pile: {{p{nxt}}} can't take the "
                    "lone discard and must draw.",
                    nxt,
                ))
        return events

    # ----------------------------------------------------------- rounds and the match

    def _end_round(self, out_seat: int | None, events: list[Event], *, bonus: bool) -> None:
        """Score the round: ``out_seat`` emptied their hand (or None); ``bonus``
        whether they earn the going-out bonus (not when the draw pile is empty too)."""
        dealer_bonus = bool(self.cut and self.cut.get("bonus"))
        rows = []
        for s in range(self.players):
            laid = sum(POINTS[c] for st in self.sets[s] for c in st[1]) + sum(
                POINTS[st[2]] for st in self.sets[s] if st[2] >= 0)
            cnt = self.cnt[s]
            hand = sum(POINTS[c] * cnt[c] for c in range(KINDS) if cnt[c])
            row = breakdown_row(laid, hand, OUT_BONUS if bonus and s == out_seat else 0,
                                CUT_BONUS if dealer_bonus and s == self.dealer else 0, self.scores[s])
            self.scores[s] = row["total"]
            rows.append(row)
        cut = self.cut
        record = {
            "round": self.round_no, "dealer": self.dealer, "end": "out" if bonus else "exhausted",
            "out": out_seat, "cut": dict(cut) if cut is not None else None, "rows": rows,
        }
        self.history.append(record)
        events.append(Event("round_scores", summary_text(record)))
        end = match_end(self.scores, self.round_no, self.target, self.rounds)
        if end is not None:
            self.phase = "match_over"
            self.over = True
            self.end = end
            outcome = self.outcome()
            assert outcome is not None
            events.append(Event("match_over", outcome.reason))
        else:
            self.phase = "round_over"
            self.ready = [False] * self.players
            events.append(Event("round_over", f"Round {self.round_no} is over: everyone, press **Continue** in "
                                              f"**My hand** when you're ready for round {self.round_no + 1}."))

    def _next(self, seat: int) -> list[Event]:
        self.ready[seat] = True
        self.moves += 1
        events = [Event("ready", f"{{p{seat}}} is ready for round {self.round_no + 1}.", seat)]
        if all(self.ready):
            self._start_round(events)
        return events

    def _start_round(self, events: list[Event]) -> None:
        """Gather every card, shuffle, and hand the deck to the next dealer to cut."""
        players = self.players
        self.round_no += 1
        self.dealer = (self.dealer + 1) % players
        self.turn = self.dealer
        self.draw = shuffled(players, self.rng)
        self.discard = []
        self.aside = []
        self.cnt = [[0] * KINDS for _ in range(players)]
        self.rc = [[0] * RANK_COUNT for _ in range(players)]
        self.size = [0] * players
        self.sets = [[] for _ in range(players)]
        self.where = [[-1] * RANK_COUNT for _ in range(players)]
        self._forget_seen()
        self.ready = [False] * players
        self.cut = None
        self.stall = 0
        self.phase = "cut"
        events.append(Event("round", self._round_text(), self.dealer))

    def has_set_actions(self, seat: int) -> bool:
        """Whether ``seat`` (in the lay phase) may lay or extend anything now."""
        return bool(self._set_actions(seat))

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
