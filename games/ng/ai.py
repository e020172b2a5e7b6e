"""NG's AI: the ``normal`` player, why it plays a move (hints), and what ``hard`` needs.

``normal`` (:func:`choose`) is a heuristic that clearly beats uniform random play.

It only uses what its seat can see: its own hand, the public field tops and
resource piles, counts, and which cards it has not seen (in a face-up game:
everything). Each candidate move gets a score and the best one is played
(ties broken with the seeded ``rng``):

- attack a target only when the attack is worth it: a known target it beats
  or ties is scored by what the win removes (an opponent's field card, more
  when that empties a stack, most when it eliminates the opponent); an unseen
  target (face-down card, a blind hand position) by the chances its card has
  against the cards it has not seen; a lost attack costs the card;
- never attacks its own cards, never defends an opponent's stack;
- defends its own stacks with cards that few cards beat, more eagerly when its
  field is small or the anti-stall end is near and it isn't ahead;
- sacrifices only when nothing else is legal, and never its last field card
  if it can help it;
- otherwise draws (or picks its best resource card back into its hand).

``hard`` (:data:`SEARCH`) searches over the hidden cards (unless the game is face up):
the deck, every face-down field card (the owner's too) and every other hand. A
position is worth the seat's field (what keeps it alive and wins a stalled game) and
its resource pile (the cards it won, its strength for the rest of the game) against
the strongest rival.
"""

from __future__ import annotations

from typing import Any

from ..base import Action, SearchHooks, Slot
from ..cards import DECK
from ..concept import CMP, relation
from ..evaluation import margin_value
from ..i18n import Text, say
from ..rng import Rng
from .actions import (
    A_SEAT,
    A_STACK,
    ATTACK,
    DEFEND,
    DRAW,
    HAND0,
    MAX_HAND,
    PICK,
    RES0,
    SACRIFICE,
    SLOTS,
    Kind,
    card_arg,
    index_arg,
)
from .state import NGState

BEATEN_BY: tuple[int, ...] = tuple(sum(1 for a in range(52) if CMP[a][c] > 0) for c in range(52))
"""How many cards of the deck beat card ``c``: how exposed ``c`` is face up."""

LOSS = 1.0        # a hand card lost to the discard pile
PARKED = 0.15     # a winning card goes to the resource pile: a turn to pick it back
ELIMINATE = 100.0


def _unseen(state: NGState, seat: int) -> list[int]:
    """Cards ``seat`` has not seen: the deck, face-down field cards, other hands."""
    pool = list(state.deck)
    for s in range(state.players):
        for i, stack in enumerate(state.fields[s]):
            if stack and state.down[s][i]:
                pool.append(stack[0])
        if s != seat:
            pool += state.hands[s]
    return pool


def _odds(card: int, pool: list[int]) -> tuple[float, float, float]:
    """(win, tie, loss) chances of ``card`` against a card drawn from ``pool``."""
    if not pool:
        return 0.0, 0.0, 1.0
    row = CMP[card]
    win = tie = 0
    for u in pool:
        r = row[u]
        if r > 0:
            win += 1
        elif r == 0:
            tie += 1
    n = len(pool)
    return win / n, tie / n, (n - win - tie) / n


def _attack_value(p: tuple[float, float, float], gain: float) -> float:
    win, tie, loss = p
    return win * (gain - PARKED) + tie * (gain - LOSS) - loss * LOSS


def choose(state: NGState, seat: int, rng: Rng) -> Action:
    """A legal action for ``seat`` (which must be the seat to act)."""
    faceup = state.faceup
    hand = state.hands[seat]
    counts = state.field_counts()
    mine = counts[seat]
    alive = [s for s in range(state.players) if state.alive[s]]
    rivals = [s for s in alive if s != seat]
    best_rival = max(counts[s] for s in rivals)
    pool = [] if faceup else _unseen(state, seat)
    odds = {c: _odds(c, pool) for c in hand} if pool else {}

    scored: list[tuple[float, Action]] = []

    def consider(score: float, action: Action) -> None:
        scored.append((score, action))

    # Attacks on opponents: stack tops, resource tops, hand positions.
    for s in rivals:
        field = state.fields[s]
        for i in range(SLOTS):
            stack = field[i]
            if not stack:
                continue
            gain = 3.0 + (1.0 if len(stack) == 1 else 0.0)
            if counts[s] == 1:
                gain += ELIMINATE
            elif counts[s] == best_rival:
                gain += 0.5
            hidden = len(stack) == 1 and state.down[s][i] and not faceup
            for c in hand:
                if hidden:
                    value = _attack_value(odds[c], gain) + 0.1
                else:
                    r = CMP[c][stack[-1]]
                    if r < 0:
                        continue
                    value = gain - PARKED if r > 0 else gain - LOSS
                consider(value, ATTACK[c][s * SLOTS + i])
        pile = state.resources[s]
        if pile:
            for c in hand:
                r = CMP[c][pile[-1]]
                if r > 0:
                    consider(0.7 - PARKED, ATTACK[c][RES0 + s])
        size = len(state.hands[s])
        if size:
            first = HAND0 + s * MAX_HAND
            if faceup:
                for p, target in enumerate(state.hands[s]):
                    for c in hand:
                        r = CMP[c][target]
                        if r >= 0:
                            consider(1.2 - (PARKED if r > 0 else LOSS), ATTACK[c][first + p])
            else:
                p = rng.below(size)  # positions are meaningless: any one will do
                for c in hand:
                    consider(_attack_value(odds[c], 1.2), ATTACK[c][first + p])

    # Defending own stacks.
    own = state.fields[seat]
    urgency = 0.6
    if mine <= 2:
        urgency += 3.0
    elif mine <= 4:
        urgency += 1.0
    if state.stall >= 25 and mine <= best_rival:
        urgency += 2.0
    for i in range(SLOTS):
        stack = own[i]
        if not stack:
            continue
        exposed = 0.3 if len(stack) == 1 and state.down[seat][i] else 0.0
        for c in hand:
            safety = 1.0 - BEATEN_BY[c] / 51
            consider(urgency * safety + exposed * safety - 0.5, DEFEND[c][seat * SLOTS + i])

    # Cards into the hand.
    if state.deck:
        consider(0.5, DRAW)
    pile = state.resources[seat]
    if pile:
        best = min(pile, key=lambda c: BEATEN_BY[c])
        consider(0.35 + (0.2 if len(hand) == 0 else 0.0), PICK[best])

    # Sacrifice: the last resort.
    for i in range(SLOTS):
        stack = own[i]
        if stack:
            consider(-50.0 if mine == 1 else -3.0 + 0.5 * (len(stack) > 1), SACRIFICE[i])

    top = max(score for score, _ in scored)
    best_moves = [a for score, a in scored if score >= top - 1e-9]
    return best_moves[rng.below(len(best_moves))] if len(best_moves) > 1 else best_moves[0]


def reason(state: NGState, seat: int, action: Action) -> Text:
    """Why :func:`choose` plays ``action``, in one line (see :mod:`games.hints`)."""
    kind, args = action.kind, action.args
    if kind == Kind.DRAW:
        return say("nothing worth attacking or defending now: a new card for your hand")
    if kind == Kind.PICK:
        return say("{card} is your resource card the fewest cards beat: back into your hand",
                   card=DECK[card_arg(args[0])])
    if kind == Kind.DEFEND:
        return say("another card on your own stack keeps your field safe, and few cards beat this one")
    if kind == Kind.SACRIFICE:
        return say("no other move is legal: give up the stack that costs you least")
    card, where, target_seat = card_arg(args[0]), args[1], index_arg(args[2], A_SEAT)
    if where == "hand":
        return say("a card from their hand: a win takes it, and a hand card you can't see is a fair gamble")
    if where == "resource":
        top = state.resources[target_seat][-1]
        return say("{why}, it beats {top} on their resource pile", why=relation(card, top), top=DECK[top])
    slot = index_arg(args[3], A_STACK)
    stack = state.fields[target_seat][slot]
    last = state.field_counts()[target_seat] == 1
    if len(stack) == 1 and state.down[target_seat][slot] and not state.faceup:
        if last:
            return say("a face-down card: {card} beats most of the cards you haven't seen and knocks the player out",
                       card=DECK[card])
        return say("a face-down card: {card} beats most of the cards you haven't seen", card=DECK[card])
    top = stack[-1]
    told = dict(why=relation(card, top), top=DECK[top])
    if CMP[card][top] > 0:
        if last:
            return say("{why}, it beats {top}: a stack card gone and knocks the player out", **told)
        return say("{why}, it beats {top}: a stack card gone", **told)
    if last:
        return say("{why}, it ties with {top}: a stack card gone and knocks the player out", **told)
    return say("{why}, it ties with {top}: a stack card gone", **told)


FIELD_WEIGHT = 2.0


def hidden_slots(snap: dict[str, Any], seat: int | None) -> list[Slot]:
    if snap["options"].get("faceup"):
        return []
    slots: list[Slot] = [(snap["deck"], i) for i in range(len(snap["deck"]))]
    for s, (stacks, down) in enumerate(zip(snap["fields"], snap["down"])):
        slots += [(stack, 0) for stack, hidden in zip(stacks, down) if stack and hidden]
        if s != seat:
            slots += [(snap["hands"][s], i) for i in range(len(snap["hands"][s]))]
    return slots


def strength(state: NGState, seat: int) -> float:
    if not state.alive[seat]:
        return -100.0
    field = sum(len(stack) for stack in state.fields[seat])
    return FIELD_WEIGHT * field + len(state.resources[seat]) + 0.5 * len(state.hands[seat])


def evaluate(state: NGState, seat: int) -> float:
    others = [strength(state, s) for s in range(state.players) if s != seat and state.alive[s]]
    return margin_value(strength(state, seat), others, 3)


SEARCH = SearchHooks(hidden_slots=hidden_slots, evaluate=evaluate, budget=2500, rollout_moves=24)
