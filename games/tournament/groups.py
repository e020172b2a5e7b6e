"""Swiss pairing at tables of three or more: by standing, top down, then swaps that avoid repeat opponents.

Every table has the tournament's ``table_size`` seats. With ``n`` entrants in play there
are ``ceil(n / table_size)`` tables, and the people are spread so that table counts differ
by at most one, the fuller tables first; AI seats fill the rest. (So every table has at
least two people: ``n`` is more than ``table_size × (tables - 1)``, hence ``n / tables``
is at least ``3 - 2 / tables``, at least 2 once there are two tables or more.)

The entrants fill the tables in standing order, the leaders at the first. Then, while
some swap of two people at different tables lowers the number of repeat meetings (a pair
seated together who have met before counts once per earlier meeting), the swap that lowers
it most is made, between the two closest in the standings among equals. Only someone who
has met a tablemate before can be part of such a swap, so few are tried. The result is a
local optimum: no single swap lowers the repeats further.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .pairing import Pairing, Table, in_play, meetings
from .results import Entrant
from .standings import Standing


def group_pairing(standings: Sequence[Standing], *, table_size: int) -> Pairing:
    """The next round's tables of ``table_size`` seats for the entrants in play in
    ``standings`` (:func:`~games.tournament.pairing.in_play`), leaders' table first, each
    table's people best first."""
    if table_size < 3:
        raise ValueError(f"tables of three seats or more are paired here, not {table_size}")
    players = [s.entrant for s in in_play(standings)]
    rank = {e: k for k, e in enumerate(players)}
    met: dict[Entrant, Counter[Entrant]] = {e: Counter() for e in players}
    for pair, times in meetings(standings).items():
        a, b = pair
        if a in rank and b in rank:
            met[a][b] = met[b][a] = times
    count = -(-len(players) // table_size)
    sizes = [len(players) // count + (k < len(players) % count) for k in range(count)]
    tables: list[list[Entrant]] = []
    for size in sizes:
        start = sum(len(t) for t in tables)
        tables.append(players[start:start + size])
    where = {e: k for k, table in enumerate(tables) for e in table}

    while (swap := _best_swap(tables, where, met, rank)) is not None:
        a, b = swap
        ta, tb = where[a], where[b]
        tables[ta][tables[ta].index(a)], tables[tb][tables[tb].index(b)] = b, a
        where[a], where[b] = tb, ta
    return Pairing(tuple(Table(tuple(sorted(t, key=rank.__getitem__)), table_size - len(t)) for t in tables))


def _best_swap(tables: list[list[Entrant]], where: dict[Entrant, int], met: dict[Entrant, Counter[Entrant]],
               rank: dict[Entrant, int]) -> tuple[Entrant, Entrant] | None:
    """The two people at different tables whose swap lowers the repeat meetings most (the
    closest in the standings among equals), or ``None`` if no swap lowers them."""
    own = {e: sum(met[e][other] for other in tables[where[e]]) for e in where}
    best: tuple[int, int, int, int] | None = None
    for a in where:
        if not own[a]:
            continue
        here = where[a]
        a_at: Counter[int] = Counter()  # a's earlier meetings with each table's people
        for other, times in met[a].items():
            a_at[where[other]] += times
        with_here: Counter[Entrant] = Counter()  # everyone's earlier meetings with a's tablemates
        for mate in tables[here]:
            if mate != a:
                with_here.update(met[mate])
        for b in where:
            if where[b] == here:
                continue
            change = a_at[where[b]] - met[a][b] + with_here[b] - own[a] - own[b]
            if change < 0:
                key = (change, abs(rank[a] - rank[b]), min(rank[a], rank[b]), max(rank[a], rank[b]))
                if best is None or key < best:
                    best = key
    if best is None:
        return None
    by_rank = {k: e for e, k in rank.items()}
    return by_rank[best[2]], by_rank[best[3]]
