"""Swiss pairing at two-seat tables (and QUASH teams), as a maximum weight matching.

Every entrant in play is a node; an odd field adds a bye node. Each edge costs, in this
order, each level counting only where every level before it is equal:

1. **Rematches**: how often the two have met already. So no rematch while a pairing without
   one exists, and fewest repeats otherwise.
2. **The bye**: only entrants with the fewest byes in the field can have it (so nobody has a
   second before everyone has had one), and the lower ranked the better.
3. **Score groups**: the square of the two entrants' difference in match points, so people
   meet their own score group, a float goes to the next group rather than two down, and two
   short floats beat one long one.
4. **Order** (Dutch-style): in a score group of ``s``, the entrant ranked ``a``-th meets the
   one ranked ``a + s // 2``-th (1 v 5, 2 v 6, … in a group of eight); a float pairs the bottom
   of its group with the top of the next.

networkx's ``max_weight_matching`` (maximum cardinality) finds the pairing of least cost.
The costs become one integer a level, each level's unit above the most the levels below it
could add up to, so the weights compare exactly.

The matching takes time of the order of nodes × edges (seconds for a few hundred entrants
on every pair), so a field of more than ``block`` entrants (64) is solved in pieces, each
on every pair: the bye set aside for the lowest ranked eligible entrant, then consecutive
score groups gathered top down into pieces of at most ``block`` (the lowest of an odd piece
floating into the next), a group larger than ``block`` cut Dutch-wise into pieces of
``block / 2`` to ``block`` (the first part of its top half with the first part of its bottom
half, and so on). A piece left with a rematch is merged with its neighbour and solved
again. (A piece of ``2 × (rounds + 1)`` or more always has a pairing without one: each
entrant there has met at most ``rounds`` of the others, and by Dirac's theorem what
remains holds a perfect matching.) If a rematch still remains, the whole field is solved
on a sparse graph (each entrant's ``block // 2`` nearest in the standings, as many either
side of their Dutch partner, and the bye node), its width doubling until the result has no
rematch and the lowest bye, or the graph holds every pair. So levels 1 and 2 are always the
best possible, and a field of up to ``block`` is the best on every level.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from math import lcm

import networkx as nx  # type: ignore[import-untyped]  # networkx ships no type information

from .pairing import Pairing, Table, in_play, meetings
from .standings import Standing

BLOCK = 64
"""The largest field solved on every pair at once (see the module's docstring)."""


def swiss_pairing(standings: Sequence[Standing], *, block: int = BLOCK) -> Pairing:
    """The next round's two-seat tables and bye for the entrants in play in ``standings``
    (:func:`~games.tournament.pairing.in_play`), higher ranked first at each table. ``block``
    tunes speed only (the tests shrink it to reach every path with a few entrants)."""
    players = in_play(standings)
    costs = _Costs(players, meetings(standings))
    n = len(players)
    if n > block:
        pairs = costs.by_pieces(block)
        if costs.is_ideal(pairs):
            return costs.pairing(pairs)
    width = n - 1 if n <= block else max(block // 2, 1)
    while True:
        pairs = costs.matching(costs.candidates(width))
        if width >= n - 1 or costs.is_ideal(pairs):
            return costs.pairing(pairs)
        width *= 2


class _Costs:
    """The cost levels of the module's docstring for one field. Nodes are indices into
    ``players`` (best first); ``bye`` is the bye node, ``len(players)``, in an odd field."""

    def __init__(self, players: list[Standing], met: dict[frozenset[int], int]) -> None:
        self.players = players
        n = self.n = len(players)
        self.bye = n if n % 2 else None
        scale = lcm(*(s.points.denominator for s in players))
        self.score = [int(s.points * scale) for s in players]
        index = {s.entrant: i for i, s in enumerate(players)}
        self.met: dict[tuple[int, int], int] = {}
        for pair, times in met.items():
            if pair <= index.keys():
                i, j = sorted(index[e] for e in pair)
                self.met[i, j] = times
        fewest = min(s.byes for s in players)
        eligible = [i for i in range(n) if players[i].byes == fewest]
        self.bye_rank = {i: len(eligible) - 1 - k for k, i in enumerate(eligible)}
        """Bye-eligible nodes to their distance from the lowest ranked of them (0)."""
        self.lowest = eligible[-1] if self.bye is not None else None
        """Who has the bye if nothing stands in the way."""
        self.field = [i for i in range(n) if i != self.lowest]
        """The nodes to seat at tables if the bye goes to ``lowest``."""
        self.score_groups: list[list[int]] = []
        """``field`` cut into score groups, best first (standings sort by points first)."""
        for i in self.field:
            if not self.score_groups or self.score[self.score_groups[-1][0]] != self.score[i]:
                self.score_groups.append([])
            self.score_groups[-1].append(i)
        self.group: list[list[int]] = [[] for _ in range(n)]
        """Each node's score group (``lowest``'s: the one it would sit in)."""
        self.position = [0] * n
        """Each node's place in its group, from 0."""
        for members in self.score_groups:
            for k, i in enumerate(members):
                self.group[i], self.position[i] = members, k
        if self.lowest is not None:
            lowest = self.lowest
            same = (g for g in self.score_groups if self.score[g[0]] == self.score[lowest])
            self.group[lowest] = next(same, [lowest])
            self.position[lowest] = sum(i < lowest for i in self.group[lowest])
        # Each level's unit exceeds the most that the levels below it can add up to over a
        # matching's (n + 1) // 2 edges (order is at most n an edge, the bye rank below n once).
        edges = (n + 1) // 2
        spread = max(self.score) - min(self.score)
        self.score_unit = edges * n + 1
        self.bye_unit = (edges * spread * spread + 1) * self.score_unit
        self.rematch_unit = n * self.bye_unit
        self.top = (edges * max(self.met.values(), default=0) + 1) * self.rematch_unit
        """More than any edge's cost: weights are ``top - cost``, all positive."""

    def cost(self, i: int, j: int) -> int:
        """The edge's cost, all levels in one integer (``i < j``)."""
        if j == self.bye:
            return self.bye_rank[i] * self.bye_unit
        size = len(self.group[i])
        if self.score[i] == self.score[j]:
            order = abs(self.position[j] - self.position[i] - size // 2)
        else:  # a float: the bottom of the upper group meets the top of the lower one
            order = (size - 1 - self.position[i]) + self.position[j]
        return (self.met.get((i, j), 0) * self.rematch_unit + (self.score[i] - self.score[j]) ** 2 * self.score_unit
                + order)

    def matching(self, edges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        """The least-cost matching of most edges over ``edges``, each pair ``(i, j)``, ``i < j``
        (a pair given twice is one edge)."""
        graph = nx.Graph()
        graph.add_weighted_edges_from((i, j, self.top - self.cost(i, j)) for i, j in edges)
        return [(min(e), max(e)) for e in nx.max_weight_matching(graph, maxcardinality=True)]

    def candidates(self, width: int) -> Iterator[tuple[int, int]]:
        """The sparse graph of half-width ``width`` (every pair once ``width`` reaches
        ``n - 1``), and the bye node's edge to each bye-eligible node."""
        n = self.n
        for i in range(n):
            for j in range(i + 1, min(i + width, n - 1) + 1):
                yield i, j
            group, partner = self.group[i], self.position[i] + len(self.group[i]) // 2
            for k in range(max(partner - width, 0), min(partner + width + 1, len(group))):
                if group[k] > i:
                    yield i, group[k]
        if self.bye is not None:
            for i in self.bye_rank:
                yield i, self.bye

    def by_pieces(self, block: int) -> list[tuple[int, int]]:
        """The pairing solved in pieces of about ``block`` entrants (the module's docstring)."""
        pieces: list[list[int]] = []
        current: list[int] = []
        for members in self.score_groups:
            group = list(members)
            if current and len(current) + len(group) > block:
                if len(current) % 2:
                    group.insert(0, current.pop())
                pieces.append(current)
                current = []
            if len(group) > block:
                current = [group.pop()] if len(group) % 2 else []
                half, parts = len(group) // 2, -(-len(group) // block)
                cuts = [half * k // parts for k in range(parts + 1)]
                pieces += [group[a:b] + group[half + a:half + b] for a, b in zip(cuts, cuts[1:])]
            else:
                current += group
        pieces = [p for p in (*pieces, current) if p]
        solved = [self.matching(combinations(sorted(p), 2)) for p in pieces]
        while len(pieces) > 1:
            stuck = next((k for k, pairs in enumerate(solved) if any(pair in self.met for pair in pairs)), None)
            if stuck is None:
                break
            k = min(stuck, len(pieces) - 2)
            pieces[k:k + 2] = [pieces[k] + pieces[k + 1]]
            solved[k:k + 2] = [self.matching(combinations(sorted(pieces[k]), 2))]
        bye = [] if self.lowest is None else [(self.lowest, self.n)]
        return [pair for pairs in solved for pair in pairs] + bye

    def is_ideal(self, pairs: list[tuple[int, int]]) -> bool:
        """Whether ``pairs`` seat everyone with no rematch and the bye (if any) to the lowest
        eligible: then no graph could do better on levels 1 and 2."""
        if 2 * len(pairs) != self.n + (self.bye is not None):
            return False
        return all(i == self.lowest if j == self.bye else (i, j) not in self.met for i, j in pairs)

    def pairing(self, pairs: list[tuple[int, int]]) -> Pairing:
        entrants = [s.entrant for s in self.players]
        tables = sorted((i, j) for i, j in pairs if j != self.bye)
        return Pairing(tables=tuple(Table((entrants[i], entrants[j])) for i, j in tables),
                       byes=tuple(entrants[i] for i, j in pairs if j == self.bye))
