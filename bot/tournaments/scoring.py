"""A tournament's stored rows as :mod:`games.tournament` sees them: results, standings, the next pairing.

Standings are computed from the stored results every time (never running totals), so a
restart or a round paired again cannot make them drift. A table ended early without a
result (abandoned: its tournament cancelled, its thread deleted, ended by a moderator) is no
result at all: every person at it scores a loss for the round (0), and it is no meeting.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.tournament import Finish, Pairing, Result, Standing, standings, swiss_pairing

from .records import EntrantRow, RoundTableRow, TableResult, TournamentRow


def results_of(tables: Sequence[RoundTableRow], recorded: Sequence[TableResult]) -> list[Result]:
    """The results of every round so far: each bye, and each table finished with places."""
    by_table = {r.table_id: r for r in recorded}
    found = [Result.bye(t.round, entrant) for t in tables if t.bye for entrant in t.entrants if entrant is not None]
    for table in tables:
        result = by_table.get(table.table_id) if table.table_id is not None else None
        if result is not None and result.status == "finished":
            found.append(Result(table.round, finishes(table, result)))
    return found


def finishes(table: RoundTableRow, result: TableResult) -> tuple[Finish, ...]:
    """Each seat's place (1 is first, tied seats sharing the best of their places: 1, 2, 2, 4)
    and margin: its score against the others', the way the game counts (higher better when
    the winner scored more), so a big win counts more than a narrow one."""
    worst = len(result.seats) + 1
    ranks = {s.seat: s.place if s.place is not None else worst for s in result.seats}
    places = {seat: 1 + sum(other < rank for other in ranks.values()) for seat, rank in ranks.items()}
    scores = {s.seat: s.score or 0 for s in result.seats}
    ordered = sorted(scores, key=lambda seat: places[seat])
    sign = 1 if scores[ordered[0]] >= scores[ordered[-1]] else -1
    total, others = sum(scores.values()), len(scores) - 1
    return tuple(Finish(table.entrants[seat] if seat < len(table.entrants) else None, places[seat],
                        sign * (scores[seat] * others - (total - scores[seat])))
                 for seat in sorted(scores))


def current_standings(tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[RoundTableRow],
                      recorded: Sequence[TableResult]) -> list[Standing]:
    """Everyone's standing now, best first (dropped entrants included, flagged)."""
    return standings(
        [e.entrant for e in entrants], results_of(tables, recorded), seed=tournament.seed,
        dropped={e.entrant for e in entrants if e.dropped},
        late_joins={e.entrant: e.joined_round for e in entrants if e.joined_round > 1},
        ratings={e.entrant: e.rating for e in entrants if e.rating is not None},
    )


def next_pairing(tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[RoundTableRow],
                 recorded: Sequence[TableResult], round: int) -> Pairing:
    """Round ``round``'s pairing: everyone not dropped who may play it (a late joiner from their round)."""
    eligible = {e.entrant for e in entrants if e.joined_round <= round}
    lines = current_standings(tournament, entrants, tables, recorded)
    return swiss_pairing([s for s in lines if s.entrant in eligible])


def in_play(entrants: Sequence[EntrantRow], round: int) -> int:
    """How many entrants round ``round`` would pair."""
    return sum(1 for e in entrants if not e.dropped and e.joined_round <= round)
