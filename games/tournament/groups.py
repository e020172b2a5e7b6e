"""Swiss pairing at tables of three or more: by standing, top down, then swaps that avoid repeat opponents.

Every table has the tournament's ``table_size`` seats. With ``n`` entrants in play there
are ``ceil(n / table_size)`` tables, and the people are spread so that table counts differ
by at most one, the fuller tables first; AI seats fill the rest. (So every table has at
least two people: ``n`` is more than ``table_size × (tables - 1)``, hence ``n / tables``
is at least ``3 - 2 / tables``, at least 2 once there are two tables or more.)

The entrants fill the tables in standing order, the leaders at the first. Then swaps lower
the repeat meetings (a pair seated together who have met before counts once per earlier
meeting): each person who has met a tablemate before, in standing order, makes the swap
with someone at another table that lowers the repeats most (the nearest in the standings
among equals), pass after pass until a pass makes no swap. Any swap that
lowers the repeats moves someone who has met a tablemate, so the result is a local
optimum: no single swap lowers the repeats further.
"""

from __future__ import annotations

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
    met: dict[Entrant, dict[Entrant, int]] = {e: {} for e in players}
    for pair, times in meetings(standings).items():
        a, b = pair
        if a in met and b in met:
            met[a][b] = met[b][a] = times
    count = -(-len(players) // table_size)
    sizes = [len(players) // count + (k < len(players) % count) for k in range(count)]
    cuts = [sum(sizes[:k]) for k in range(count + 1)]
    tables = [players[a:b] for a, b in zip(cuts, cuts[1:])]
    _swap_away_repeats(players, tables, met)
    rank = {e: k for k, e in enumerate(players)}
    return Pairing(tuple(Table(tuple(sorted(t, key=rank.__getitem__)), table_size - len(t)) for t in tables))


def _swap_away_repeats(players: list[Entrant], tables: list[list[Entrant]],
                       met: dict[Entrant, dict[Entrant, int]]) -> None:
    """Swap people between ``tables`` (in place) until no swap lowers the repeat meetings:
    each person with a repeat at their table, in standing order, makes the swap that lowers
    them most (with the nearest in the standings among equals), pass after pass."""
    rank = {e: k for k, e in enumerate(players)}
    where = {e: k for k, table in enumerate(tables) for e in table}

    def repeats(e: Entrant) -> int:
        return sum(met[e].get(other, 0) for other in tables[where[e]])

    own = {e: repeats(e) for e in players}
    swapped = True
    while swapped:
        swapped = False
        for a in players:
            if not own[a]:
                continue
            here, met_a = where[a], met[a]
            a_at: dict[int, int] = {}  # a's earlier meetings with each table's people
            for other, times in met_a.items():
                a_at[where[other]] = a_at.get(where[other], 0) + times
            with_here: dict[Entrant, int] = {}  # each person's earlier meetings with a's tablemates
            for mate in tables[here]:
                if mate != a:
                    for other, times in met[mate].items():
                        with_here[other] = with_here.get(other, 0) + times
            best, partner = (0, 0), None
            for b in players:
                there = where[b]
                if there == here:
                    continue
                change = a_at.get(there, 0) - met_a.get(b, 0) + with_here.get(b, 0) - own[a] - own[b]
                key = (change, abs(rank[a] - rank[b]))
                if change < 0 and (partner is None or key < best):
                    best, partner = key, b
            if partner is not None:
                there = where[partner]
                tables[here][tables[here].index(a)], tables[there][tables[there].index(partner)] = partner, a
                where[a], where[partner] = there, here
                for e in (*tables[here], *tables[there]):
                    own[e] = repeats(e)
                swapped = True
