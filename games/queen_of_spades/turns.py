"""Queen of Spades moves: the cut and the deal, taking, laying, discarding, the
end of a round, and the hand and set helpers they share (a mixin of :class:`QoSState`).

The methods work on the state's fields (listed in :mod:`games.queen_of_spades.state`);
the rulings they implement are in ``games/queen_of_spades/__init__.py``."""

from __future__ import annotations

from typing import Iterable

from ..base import Event
from ..errors import IllegalAction
from .actions import EXTEND, LAY, STALL_LIMIT
from .deal import HAND_SIZE, deal_round, land_cut, perfect_cuts, shuffled
from .points import IDS_OF_RANK, KINDS, PLURAL, POINTS, PRETTY, RANK_COUNT, RANK_OF, SINGULAR, TWO, pretty
from .scoring import CUT_BONUS, OUT_BONUS, breakdown_row, match_end, summary_text


def _plural(n: int, rank: int) -> str:
    return f"{n} {SINGULAR[rank] if n == 1 else PLURAL[rank]}"


class Turns:
    """The moves of a Queen of Spades match (a mixin of :class:`QoSState`)."""

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
            mine = self.where[seat][rank] >= 0
            also = f": it can't just extend your {PLURAL[rank]}" if mine else ""
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

    def _lay(self, seat: int, op: int, rank: int, n: int, wilds: int) -> list[Event]:
        name = PLURAL[rank]
        i = self.where[seat][rank]
        if op == LAY and i >= 0:
            raise IllegalAction(f"You already have a set of {name}: add to it instead (“Add to your {name}”)")
        if op == EXTEND and i < 0:
            raise IllegalAction(
                f"You have no set of {name} to add to (you can only add to your own sets); lay a new one "
                f"(“Lay a set of {name}”) with at least three cards"
            )
        if wilds > 1:
            raise IllegalAction(
                f"At most one wild 2 per set, so two 2s with {_plural(n, rank)} is no set"
                if op == LAY else f"At most one wild 2 per set: you can't add {wilds} to your {name}"
            )
        if rank == TWO and wilds:
            raise IllegalAction("2s in a set of 2s are natural: lay or add them without w (e.g. lay:2,3)")
        if op == LAY:
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
        if op == LAY:
            text = f"{{p{seat}}} laid a set of {name}: {shown}."
        else:
            text = f"{{p{seat}}} added {shown} to their {name} (now {self._set_size(seat, rank)} cards)."
        return [Event(op == LAY and "lay" or "extend", text, seat)]

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
            events.append(Event("round_over", f"Round {self.round_no} is over: everyone, click **Continue to the "
                                              f"next round** when you're ready for round {self.round_no + 1}."))

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

    # ----------------------------------------------------------- what the table saw

    def _forget_seen(self) -> None:
        """A new round: nothing is known of any hand."""
        self.known = [[0] * KINDS for _ in range(self.players)]
        self.let_go = [[False] * RANK_COUNT for _ in range(self.players)]
        self.passed = [[False] * RANK_COUNT for _ in range(self.players)]

    def _seen_taking(self, seat: int, cards: Iterable[int]) -> None:
        """``seat`` took these cards from the discard pile into its hand, in sight of the table."""
        known, let_go, passed = self.known[seat], self.let_go[seat], self.passed[seat]
        for c in cards:
            known[c] += 1
            let_go[RANK_OF[c]] = passed[RANK_OF[c]] = False

    def _seen_leaving(self, seat: int, naturals: Iterable[int], wild: int = -1) -> None:
        """Cards left ``seat``'s hand face up (laid, or discarded): each was a known one, if
        any of it was known (the table can't tell two copies of a card apart)."""
        known = self.known[seat]
        for c in naturals:
            if known[c]:
                known[c] -= 1
        if wild >= 0 and known[wild]:
            known[wild] -= 1

    def unknown_ids(self, seat: int) -> list[int]:
        """Seat ``seat``'s hand without its ``known`` cards, as sorted card ids."""
        cnt, known = self.cnt[seat], self.known[seat]
        return [c for c in range(KINDS) for _ in range(cnt[c] - known[c])]

    # ----------------------------------------------------------- hand and set helpers

    def _gain(self, seat: int, cards: Iterable[int]) -> None:
        cnt, rc = self.cnt[seat], self.rc[seat]
        n = 0
        for c in cards:
            cnt[c] += 1
            rc[RANK_OF[c]] += 1
            n += 1
        self.size[seat] += n

    def _lose(self, seat: int, card: int) -> None:
        self.cnt[seat][card] -= 1
        self.rc[seat][RANK_OF[card]] -= 1
        self.size[seat] -= 1

    def _remove_rank(self, seat: int, rank: int, n: int) -> list[int]:
        """Take ``n`` cards of ``rank`` out of the hand in suit order (♠ first: Q♠ before other queens)."""
        cnt = self.cnt[seat]
        out: list[int] = []
        for c in IDS_OF_RANK[rank]:
            while cnt[c] and len(out) < n:
                cnt[c] -= 1
                out.append(c)
            if len(out) == n:
                break
        self.rc[seat][rank] -= n
        self.size[seat] -= n
        return out

    def _add_to_set(self, seat: int, rank: int, naturals: list[int], wild: int) -> bool:
        """Add cards to the seat's set of ``rank``, creating it if needed; True if it existed."""
        i = self.where[seat][rank]
        if i < 0:
            self.where[seat][rank] = len(self.sets[seat])
            self.sets[seat].append([rank, sorted(naturals), wild])
            return False
        st = self.sets[seat][i]
        st[1] = sorted(st[1] + naturals)
        if wild >= 0:
            st[2] = wild
        return True

    def _set_size(self, seat: int, rank: int) -> int:
        st = self.sets[seat][self.where[seat][rank]]
        return len(st[1]) + (st[2] >= 0)

    def hand_ids(self, seat: int) -> list[int]:
        """Seat ``seat``'s hand as sorted card ids (by rank, then suit; jokers last)."""
        cnt = self.cnt[seat]
        return [c for c in range(KINDS) for _ in range(cnt[c])]

    def laid_points(self, seat: int) -> int:
        return sum(POINTS[c] for st in self.sets[seat] for c in st[1]) + sum(
            POINTS[st[2]] for st in self.sets[seat] if st[2] >= 0)

    def has_set_actions(self, seat: int) -> bool:
        """Whether ``seat`` (in the lay phase) may lay or extend anything now."""
        return bool(self._set_actions(seat))
