"""Q2J's ``hard``: a search that plans the searching seat's own later moves.

:mod:`games.search` compares the seat's moves by playing each out with ``normal`` for
every seat, its own later moves included. Here those later moves are searched too:
information-set MCTS over the seat's decisions only.

Each round deals one guess of the hidden cards (:class:`Dealer`: the same guesses as
:func:`games.determinize.determinized_snapshot`, inference notes included) and tries
every legal root move in it, all with the same playout seed, as the flat search does.
After the root move the other seats play ``normal`` on their guessed hands until the
seat must act again. A node of the tree is what the seat has seen by then since the
root (its moves, the others' public moves, its own hand), so every guess reaching a
node offers the same legal moves. At a node the seat first tries each move once
(``normal``'s first), then picks by UCB (:data:`UCB_C`). A walk adds at most one node,
then the game is played out with ``normal`` for everyone and the result (0..1, as the
flat search scores it) is backed up along the walk. The root move with the best
average is played.

The budget counts simulated moves, so a seed gives the same choice on any machine;
the guesses depend only on the seat's view, and node keys only on what it saw.
"""

from __future__ import annotations

import math
from typing import Any

from ..base import Action, Policy, SearchHooks
from ..cards import CODE
from ..determinize import hidden_places, repair
from ..rng import Rng
from ..search import playout
from .state import Q2JState

UCB_C = 0.7
"""Exploration weight of UCB1 at the seat's later decisions (values are 0..1)."""

_ID = {code: i for i, code in enumerate(CODE)}


class Dealer:
    """Deals guesses of the hidden cards as :func:`games.determinize.determinized_snapshot`
    does (the same guess for the same rng), without a snapshot per guess: the slots, the
    sorted unseen cards and the inference notes are worked out once per search."""

    def __init__(self, state: Q2JState, seat: int, hooks: SearchHooks[Q2JState]) -> None:
        snap, slots, self.unseen = hidden_places(state, seat, hooks)
        self.excluded: list[frozenset[str] | None] = (
            hooks.excluded(snap, seat, slots) if hooks.excluded is not None else [None] * len(slots))
        self.places: list[tuple[int, int]] = []
        """Each slot as (hand index, or -1 for the stock; position)."""
        for container, key in slots:
            if container is snap["stock"]:
                self.places.append((-1, key))
            else:
                self.places.append((next(s for s, h in enumerate(snap["hands"]) if h is container), key))
        self.state = state

    def deal(self, rng: Rng) -> Q2JState:
        cards = list(self.unseen)
        rng.shuffle(cards)
        repair(cards, self.excluded, rng)
        root = self.state
        hands = [list(h) for h in root.hands]
        stock = list(root.stock)
        for (where, key), code in zip(self.places, cards):
            if where < 0:
                stock[key] = _ID[code]
            else:
                hands[where][key] = _ID[code]
        for hand in hands:
            hand.sort()
        guess = root.copy(hands)
        guess.stock = stock
        guess.seed = rng.next64() >> 1
        guess.rng = Rng(rng.next64())
        return guess


class Node:
    """A decision of the searching seat: per move tried, [visits, total value]; children
    keyed by what the seat saw after the move."""

    __slots__ = ("visits", "stats", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.stats: dict[Action, list[float]] = {}
        self.children: dict[Any, Node] = {}


def tree_action(state: Q2JState, seat: int, rng: Rng, budget: int, policy: Policy[Q2JState],
                hooks: SearchHooks[Q2JState]) -> Action | None:
    """The root move with the best average, or ``None`` when there is nothing to search."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return None
    rollout = hooks.rollout_policy or policy
    root = Node()
    spent = 0
    dealer = Dealer(state, seat, hooks)
    while spent < budget:
        guess = dealer.deal(rng)
        seed = rng.next64()
        for action in legal:
            start = guess if action is legal[-1] else guess.copy()
            spent += _iterate(start, seat, root, Rng(seed), rollout, hooks, action)
    return max(legal, key=lambda a: root.stats[a][1])


def _iterate(guess: Q2JState, seat: int, root: Node, prng: Rng, rollout: Policy[Q2JState], hooks: SearchHooks[Q2JState],
             forced: Action) -> int:
    """One walk down the tree from ``forced`` at the root, and a playout; the moves simulated."""
    node = root
    path: list[tuple[Node, Action]] = []
    moves = 0
    next_action: Action | None = forced
    expanded = False
    while True:
        stats = node.stats
        if next_action is not None:
            action = next_action
        else:
            acts = guess.legal_actions(seat)
            untried = [a for a in acts if a not in stats]
            if untried:
                first = rollout(guess, seat, prng)
                action = first if first in untried else untried[0]
                expanded = True
            else:
                log_n = math.log(node.visits)
                action = acts[0]
                best = -1.0
                for a in acts:
                    n, w = stats[a]
                    score = w / n + UCB_C * math.sqrt(log_n / n)
                    if score > best:
                        best, action = score, a
        if action not in stats:
            stats[action] = [0, 0.0]
        path.append((node, action))
        h0, game0 = len(guess.history), guess.game_number
        guess.apply(seat, action)
        moves += 1
        acting = guess.to_act()
        while acting and acting[0] != seat:
            guess.apply(acting[0], rollout(guess, acting[0], prng))
            moves += 1
            acting = guess.to_act()
        if not acting or expanded:
            break
        seen = guess.history[h0:] if guess.game_number == game0 else guess.history
        key = (action, guess.game_number, tuple(seen), tuple(guess.hands[seat]))
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = Node()
            expanded = True
        node = child
        next_action = None
        if expanded:
            break
    value, played = playout(guess, seat, prng, hooks, rollout, hooks.rollout_moves, None)
    for visited, a in path:
        visited.visits += 1
        st = visited.stats[a]
        st[0] += 1
        st[1] += value
    return moves + played + 1
