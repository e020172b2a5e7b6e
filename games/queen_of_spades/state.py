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
from ..i18n import Seat, Text, plural, say
from ..phrases import card_count, sentences
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
    POINTS,
    RANK_COUNT,
    RANK_OF,
    RANK_WORDS,
    SET_OF,
    TWO,
    card_id,
    cards_of,
    full_deck,
    rank_count,
)
from .scoring import CUT_BONUS, OUT_BONUS, breakdown_row, match_end, match_outcome, summary_text
from .table import QoSTable
from .view import build_view


def classify_set(cards: Sequence[int]) -> tuple[int, list[int], int]:
    """``(rank, naturals, wild)`` of a valid set of card ids, or :class:`GameError`:
    three or more cards of one rank (jokers being a rank) with at most one wild 2,
    at least two naturals; three or more 2s are a natural set of 2s."""
    shown = cards_of(cards)
    if len(cards) < 3:
        raise GameError(say("{cards} is no set: a set has at least three cards", cards=shown))
    if all(RANK_OF[c] == TWO for c in cards):
        return TWO, sorted(cards), -1
    ranks = {RANK_OF[c] for c in cards if RANK_OF[c] != TWO}
    if len(ranks) != 1:
        raise GameError(say("{cards} is no set: a set is one rank, plus at most one wild 2", cards=shown))
    rank = ranks.pop()
    twos = [c for c in cards if RANK_OF[c] == TWO]
    if len(twos) > 1:
        raise GameError(say("{cards} is no set: at most one wild 2 per set", cards=shown))
    return rank, sorted(c for c in cards if RANK_OF[c] != TWO), twos[0] if twos else -1



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
        # English says "points" even for a target of 1, as it always has: the replays' fingerprints hold it.
        goal = plural("first to {count} points", "first to {count} points", target) if target else \
            say("no target score (endless)")
        if state.rounds:
            goal = plural("{goal}, at most {count} round", "{goal}, at most {count} rounds", state.rounds, goal=goal)
        state.opening = [
            Event("match", say("Queen of Spades: {decks} with jokers ({cards}), 13 cards each; {goal}.",
                               decks=plural("{count} deck", "{count} decks", decks), cards=card_count(len(draw)),
                               goal=goal)),
            Event("round", state._round_text(), dealer),
        ]
        return state

    def _round_text(self) -> Text:
        a, b = perfect_cuts(self.players)
        dealer = Seat(self.dealer)
        if self.round_no == 1:
            deals = say("Round {number}: {dealer} deals (drawn by lot for the first round).", number=self.round_no,
                        dealer=dealer)
        else:
            deals = say("Round {number}: {dealer} deals.", number=self.round_no, dealer=dealer)
        cut = plural("{dealer}, cut the deck (a cut of {a} or {count} card scores 100) or deal without a cut.",
                     "{dealer}, cut the deck (a cut of {a} or {count} cards scores 100) or deal without a cut.", b,
                     dealer=dealer, a=a)
        return sentences([deals, cut])

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
            raise GameError(say("Queen of Spades is for 2–8 players, not {players}", players=players))
        opts = normalize_options(NAME, OPTIONS, options, players)
        if phase not in ("take", "lay"):
            raise GameError(say("phase must be 'take' or 'lay', not {phase}", phase=repr(phase)))
        hand_ids = [[card_id(c) for c in h] for h in hands]
        if any(not h for h in hand_ids):
            raise GameError(say("Every hand needs a card (a player with none has gone out)"))
        seat_sets = [[] for _ in range(players)] if sets is None else [list(s) for s in sets]
        if len(seat_sets) != players:
            raise GameError(say("Give one list of sets per seat"))
        laid: list[list[list[Any]]] = []
        for s, seat in enumerate(seat_sets):
            rows: list[list[Any]] = []
            for cards in seat:
                rank, naturals, wild = classify_set([card_id(c) for c in cards])
                if any(r[0] == rank for r in rows):
                    raise GameError(say("Seat {number} has two sets of {ranks}: a player has one set per rank",
                                        number=s + 1, ranks=RANK_WORDS[rank]))
                rows.append([rank, naturals, wild])
            laid.append(rows)
        draw_ids = [card_id(c) for c in draw]
        if not draw_ids:
            raise GameError(say("The draw pile can't be empty mid-round (the round would have ended)"))
        discard_ids = [card_id(c) for c in discard]
        listed = Counter(c for h in hand_ids for c in h) + Counter(draw_ids) + Counter(discard_ids)
        listed += Counter(c for rows in laid for r in rows for c in r[1] + ([r[2]] if r[2] >= 0 else []))
        available = Counter(full_deck(deck_size(players) // 54))
        over = {CODE[c]: n for c, n in listed.items() if n > available[c]}
        if over:
            raise GameError(say("More copies than the decks hold: {over}", over=str(over)))
        aside = sorted((available - listed).elements())
        if type(turn) is not int or not 0 <= turn < players:
            raise GameError(say("turn={turn} is not a seat", turn=repr(turn)))
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
                raise NotYourTurn(say("You're already ready for round {number}; waiting for the others",
                                      number=self.round_no + 1))
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
                raise IllegalAction(say("You have already taken a card this turn: lay sets, add to yours, or discard"))
            case "take", Kind.DRAW:
                return self._take_draw(seat)
            case "take", Kind.TAKE_ONE:
                return self._take_lone(seat)
            case "take", Kind.PILE:
                return self._take_pile(seat, move.number, move.wilds)
            case "take", Kind.LAY | Kind.EXTEND | Kind.DISCARD:
                raise IllegalAction(say("First take a card: from the draw pile or the discard pile"))
            case "cut", Kind.CUT:
                return self._cut(seat, move.number)
            case "cut", Kind.DEAL:
                return self._deal_without_cut(seat)
            case "cut", _:
                raise IllegalAction(say("The round starts with the dealer's cut: cut the deck or deal without cutting"))
            case "round_over", Kind.NEXT:
                return self._next(seat)
            case "round_over", _:
                raise IllegalAction(say("The round is over: press Continue when you're ready for the next round"))
            case _, Kind.CUT | Kind.DEAL:
                raise IllegalAction(say("Only the dealer cuts or deals, at the start of a round"))
        raise IllegalAction(say("The round is still being played: next is for between rounds"))


    # ----------------------------------------------------------- the cut and the deal

    def _cut(self, seat: int, aim: int) -> list[Event]:
        size = len(self.draw)
        if not 1 <= aim <= size:
            raise IllegalAction(plural("Cut from 1 to {count} card, not {aim}",
                                       "Cut from 1 to {count} cards, not {aim}", size, aim=aim))
        landed = land_cut(aim, size, self.rng)
        a, b = perfect_cuts(self.players)
        bonus = landed in (a, b)
        self.cut = {"aimed": aim, "landed": landed, "bonus": bonus}
        # English says "cards" even for a cut of 1, as it always has: the replays' fingerprints hold it.
        cut = plural("{player} aimed to cut {aim} and cut {count} cards — {a} or {b} needed: {result}",
                     "{player} aimed to cut {aim} and cut {count} cards — {a} or {b} needed: {result}",
                     landed, player=Seat(seat), aim=aim, a=a, b=b,
                     result=say("+100 cut bonus!") if bonus else say("no bonus."))
        if landed < a:
            dealt = plural("The packet ran out after {count} cards; the deal was finished from the rest of the deck.",
                           "The packet ran out after {count} cards; the deal was finished from the rest of the deck.",
                           landed)
        elif landed == a:
            dealt = say("The packet dealt exactly 13 each; the face-up card came from the rest of the deck.")
        elif landed == b:
            dealt = say("The packet dealt exactly 13 each and the face-up card.")
        else:
            dealt = plural("{count} packet card was left over, on top of the draw pile.",
                           "{count} packet cards were left over, on top of the draw pile.", landed - b)
        events = [Event("cut", sentences([cut, dealt]), seat)]
        self._deal(events)
        return events

    def _deal_without_cut(self, seat: int) -> list[Event]:
        self.cut = {"aimed": None, "landed": None, "bonus": False}
        events = [Event("deal", say("{player} dealt without cutting: no cut bonus this round.", player=Seat(seat)),
                        seat)]
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
            say("Dealt {hand} each. {card} starts the discard pile; the draw pile holds {pile}. {player} plays first.",
                hand=card_count(HAND_SIZE), card=DECK[dealt.face_up], pile=card_count(len(self.draw)),
                player=Seat(self.turn)),
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
        return [
            Event("draw", plural("{player} drew from the draw pile ({count} card left).",
                                 "{player} drew from the draw pile ({count} cards left).", len(self.draw),
                                 player=Seat(seat)), seat),
            Event("drew", say("{player} drew {card}.", player=Seat(seat), card=DECK[card]), seat, private_to=seat),
        ]

    def _take_lone(self, seat: int) -> list[Event]:
        pile = self.discard
        if len(pile) != 1:
            if not pile:
                raise IllegalAction(say("The discard pile is empty: draw from the draw pile"))
            raise IllegalAction(plural(
                "The discard pile holds {count} card, so its top {card} can only be taken into a new natural set "
                "with two or more matching cards from your hand, which also takes the rest of the pile; or draw",
                "The discard pile holds {count} cards, so its top {card} can only be taken into a new natural set "
                "with two or more matching cards from your hand, which also takes the rest of the pile; or draw",
                len(pile), card=DECK[pile[-1]]))
        if self.stall >= STALL_LIMIT:
            raise IllegalAction(plural("{count} turn in a row without a draw from the draw pile: the lone discard "
                                       "can't be taken now: draw from the draw pile",
                                       "{count} turns in a row without a draw from the draw pile: the lone discard "
                                       "can't be taken now: draw from the draw pile", self.stall))
        card = pile.pop()
        self._gain(seat, (card,))
        self._seen_taking(seat, (card,))
        self.stall += 1
        self.phase = "play"
        self.moves += 1
        return [Event("take", say("{player} took the lone discard, {card}.", player=Seat(seat), card=DECK[card]), seat)]

    def _take_pile(self, seat: int, n: int, wilds: int) -> list[Event]:
        pile = self.discard
        if len(pile) < 2:
            if pile:
                raise IllegalAction(say("The discard pile holds one card, {card}: take it freely (“Take the lone "
                                        "discard”)", card=DECK[pile[0]]))
            raise IllegalAction(say("The discard pile is empty: draw from the draw pile"))
        top = pile[-1]
        rank = RANK_OF[top]
        if wilds:
            raise IllegalAction(say("The pile's top {card} can only go into a natural set: no wild 2: take it with "
                                    "{cards} from your hand", card=DECK[top], cards=rank_count(max(n, 2), rank)))
        if n < 2:
            if self.where[seat][rank] >= 0:
                raise IllegalAction(say("The pile's top {card} can only be taken into a new natural set with at "
                                        "least two {ranks} from your hand: it can't just extend your {ranks}",
                                        card=DECK[top], ranks=RANK_WORDS[rank]))
            raise IllegalAction(say("The pile's top {card} can only be taken into a new natural set with at least "
                                    "two {ranks} from your hand", card=DECK[top], ranks=RANK_WORDS[rank]))
        have = self.rc[seat][rank]
        if have < n:
            raise IllegalAction(say("You hold {held}, not {count}: you can't lay the pile's top {card} with {count}",
                                    held=rank_count(have, rank), count=n, card=DECK[top]))
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
        took = dict(player=Seat(seat), card=DECK[top], mine=cards_of(mine), set=SET_OF[rank], rest=cards_of(rest))
        if merged:
            text = plural("{player} took the discard pile: laid its top {card} with {mine} as a new {set}, merged into "
                          "their {ranks} (now {size}), and took the other {count} card into their hand: {rest}.",
                          "{player} took the discard pile: laid its top {card} with {mine} as a new {set}, merged into "
                          "their {ranks} (now {size}), and took the other {count} cards into their hand: {rest}.",
                          len(rest), ranks=RANK_WORDS[rank], size=card_count(self._set_size(seat, rank)), **took)
        else:
            text = plural("{player} took the discard pile: laid its top {card} with {mine} as a new {set}, and took "
                          "the other {count} card into their hand: {rest}.",
                          "{player} took the discard pile: laid its top {card} with {mine} as a new {set}, and took "
                          "the other {count} cards into their hand: {rest}.", len(rest), **took)
        return [Event("take_pile", text, seat)]

    # ----------------------------------------------------------- laying

    def _lay(self, seat: int, op: Kind, rank: int, n: int, wilds: int) -> list[Event]:
        ranks, set_of = RANK_WORDS[rank], SET_OF[rank]
        i = self.where[seat][rank]
        if op == Kind.LAY and i >= 0:
            raise IllegalAction(say("You already have a {set}: add to it instead (“Add to your {ranks}”)", set=set_of,
                                    ranks=ranks))
        if op == Kind.EXTEND and i < 0:
            raise IllegalAction(say("You have no {set} to add to (you can only add to your own sets); lay a new one "
                                    "(“Lay a {set}”) with at least three cards", set=set_of))
        if wilds > 1:
            raise IllegalAction(
                say("At most one wild 2 per set, so two 2s with {cards} is no set", cards=rank_count(n, rank))
                if op == Kind.LAY else
                say("At most one wild 2 per set: you can't add {count} to your {ranks}", count=wilds, ranks=ranks))
        if rank == TWO and wilds:
            raise IllegalAction(say("2s in a set of 2s are natural: lay or add them without w (e.g. lay:2,3)"))
        if op == Kind.LAY:
            if n + wilds < 3:
                what = say("{cards} and a wild 2", cards=rank_count(n, rank)) if wilds else rank_count(n, rank)
                raise IllegalAction(say("A set needs at least three cards (at most one of them a wild 2), not {what}",
                                        what=what))
        else:
            if n + wilds == 0:
                raise IllegalAction(say("Add at least one card to your {ranks}", ranks=ranks))
            if wilds and self.sets[seat][i][2] >= 0:
                raise IllegalAction(say("Your {ranks} already have a wild 2, and a set holds at most one",
                                        ranks=ranks))
        have = self.rc[seat][rank]
        if have < n:
            raise IllegalAction(say("You hold {held}, not {count}", held=rank_count(have, rank), count=n))
        if wilds and self.rc[seat][TWO] < 1:
            raise IllegalAction(say("You have no 2 to use as a wild"))
        if self.size[seat] - n - wilds < 1:
            raise IllegalAction(say("You can't lay your last card: keep one to discard (a discard ends every turn)"))
        naturals = self._remove_rank(seat, rank, n)
        wild = self._remove_rank(seat, TWO, 1)[0] if wilds else -1
        self._add_to_set(seat, rank, naturals, wild)
        self._seen_leaving(seat, naturals, wild)
        self.moves += 1
        shown: Any = cards_of(naturals)
        if wild >= 0:
            shown = say("{cards} and {wild} as a wild", cards=shown, wild=DECK[wild]) if naturals else \
                say("{wild} as a wild", wild=DECK[wild])
        if op == Kind.LAY:
            text = say("{player} laid a {set}: {cards}.", player=Seat(seat), set=set_of, cards=shown)
        else:
            text = say("{player} added {cards} to their {ranks} (now {size}).", player=Seat(seat), cards=shown,
                       ranks=ranks, size=card_count(self._set_size(seat, rank)))
        return [Event(op.value, text, seat)]

    def _discard(self, seat: int, card: int) -> list[Event]:
        if not self.cnt[seat][card]:
            raise IllegalAction(say("You don't hold {card}", card=DECK[card]))
        self._lose(seat, card)
        self._seen_leaving(seat, (card,))
        self.let_go[seat][RANK_OF[card]] = True
        self.discard.append(card)
        self.moves += 1
        player = Seat(seat)
        events = [Event("discard", say("{player} discarded {card}.", player=player, card=DECK[card]), seat)]
        out = not self.size[seat]
        if not self.draw:
            if out:
                empty = say("{player} discarded their last card, but the draw pile is empty: round {number} ends with "
                            "no going-out bonus.", player=player, number=self.round_no)
            else:
                empty = say("The draw pile is empty: round {number} ends with no going-out bonus.",
                            number=self.round_no)
            events.append(Event("exhausted", empty, seat))
            self._end_round(seat if out else None, events, bonus=False)
        elif out:
            events.append(Event("out", say("{player} discarded their last card and went out: +{bonus}!", player=player,
                                           bonus=OUT_BONUS), seat))
            self._end_round(seat, events, bonus=True)
        else:
            self.turn = nxt = (seat + 1) % self.players
            self.phase = "take"
            if self.stall >= STALL_LIMIT and len(self.discard) == 1:
                events.append(Event(
                    "stall",
                    plural("{count} turn in a row without a draw from the draw pile: {player} can't take the lone "
                           "discard and must draw.",
                           "{count} turns in a row without a draw from the draw pile: {player} can't take the lone "
                           "discard and must draw.", self.stall, player=Seat(nxt)),
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
            events.append(Event("round_over", say("Round {number} is over: everyone, press **Continue** in "
                                                  "**My hand** when you're ready for round {next}.",
                                                  number=self.round_no, next=self.round_no + 1)))

    def _next(self, seat: int) -> list[Event]:
        self.ready[seat] = True
        self.moves += 1
        events = [Event("ready", say("{player} is ready for round {number}.", player=Seat(seat),
                                     number=self.round_no + 1), seat)]
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
