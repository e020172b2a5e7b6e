"""A tournament's stored rows as :mod:`games.tournament` sees them.

Results, standings, the
knockout's bracket, the next round's stage and pairing, the final placings.

Everything is computed from the stored results every time (never running totals), so a
restart or a round paired again cannot make it drift. A team's two seats are one entrant: its
first seat's place and score stand for the team.

**Swiss.** A table ended early without a result (abandoned: its tournament cancelled, its
thread deleted, ended by a moderator) is no result at all: every person at it scores a loss
for the round (0), and it is no meeting. Tables of two entrants are paired by
:func:`~games.tournament.swiss_pairing`, bigger ones by
:func:`~games.tournament.group_pairing` (AI seats filling).

**Knockout** (the whole tournament, or the best ``top`` after the Swiss rounds): a
:class:`~games.tournament.Bracket` seeded by rating or by lot (a top cut: by the Swiss
standings after the last Swiss round, those dropped by then left out). An entrant dropped
(after timeouts, or by leaving) forfeits: at their table from the round they were dropped,
they finish behind every entrant still in, so they never go through while someone else can.
A table ended early without a result counts as a tie of its people, so the better seed goes
through (the bracket breaks ties by margin, then seed), and the knockout never stalls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.tournament import (
    Bracket,
    BracketTable,
    Finish,
    Pairing,
    Result,
    Standing,
    group_pairing,
    seed_at_random,
    seed_by_rating,
    standings,
    swiss_pairing,
    top_cut,
)

from .records import EntrantRow, RoundTableRow, TableResult, TournamentRow


@dataclass(frozen=True)
class Scores:
    """Where a tournament stands: its Swiss standings (none for a knockout), its bracket once
    the knockout began, and once it is over its final places (each a group sharing the place)."""

    standings: list[Standing]
    bracket: Bracket | None = None
    bracket_tables: tuple[tuple[BracketTable, ...], ...] = ()
    """The bracket's rounds as far as the results decide them (:meth:`Bracket.tables`)."""
    placings: tuple[tuple[int, ...], ...] = ()


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
    """Each side's place (1 is first, tied sides sharing the best of their places: 1, 2, 2, 4)
    and margin: its score against the others', the way the game counts (higher better when
    the winner scored more), so a big win counts more than a narrow one. A team's first seat
    stands for it; each AI seat is a side of its own."""
    seen: set[int] = set()
    sides: list[tuple[int | None, int | None, int]] = []
    for s in result.seats:
        entrant = table.entrants[s.seat] if s.seat < len(table.entrants) else None
        if entrant is None or entrant not in seen:
            sides.append((entrant, s.place, s.score or 0))
        if entrant is not None:
            seen.add(entrant)
    worst = len(sides) + 1
    ranks = [place if place is not None else worst for _, place, _ in sides]
    places = [1 + sum(other < rank for other in ranks) for rank in ranks]
    scores = [score for _, _, score in sides]
    ordered = sorted(range(len(sides)), key=places.__getitem__)
    sign = 1 if scores[ordered[0]] >= scores[ordered[-1]] else -1
    total, others = sum(scores), len(scores) - 1
    return tuple(Finish(entrant, places[k], sign * (scores[k] * others - (total - scores[k])))
                 for k, (entrant, _, _) in enumerate(sides))


def current_standings(tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[RoundTableRow],
                      recorded: Sequence[TableResult], *, upto: int | None = None) -> list[Standing]:
    """Everyone's standing, best first (dropped entrants included, flagged): now, or after
    round ``upto`` (its results, and who was dropped by then)."""
    last = upto if upto is not None else tournament.round
    return standings(
        [e.entrant for e in entrants], [r for r in results_of(tables, recorded) if r.round <= last],
        seed=tournament.seed, dropped={e.entrant for e in entrants if e.dropped_round is not None
                                       and e.dropped_round <= last},
        late_joins={e.entrant: e.joined_round for e in entrants if e.joined_round > 1},
        ratings={e.entrant: e.rating for e in entrants if e.rating is not None},
    )


def bracket_of(tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[RoundTableRow],
               recorded: Sequence[TableResult]) -> Bracket | None:
    """The knockout's bracket once the tournament is in its knockout stage (``None`` before),
    seeded as the module's docstring says; ``None`` too when fewer than two make a top cut."""
    t = tournament
    if t.stage != "knockout":
        return None
    if t.format == "knockout":
        pool = [e.entrant for e in entrants]
        if t.seeding == "rating":
            seeds = seed_by_rating(pool, {e.entrant: e.rating for e in entrants if e.rating is not None}, seed=t.seed)
        else:
            seeds = seed_at_random(pool, seed=t.seed)
        first = 1
    else:
        rounds = t.rounds or 0
        seeds, first = top_cut(current_standings(t, entrants, tables, recorded, upto=rounds), t.top), rounds + 1
    if len(seeds) < 2:
        return None
    return Bracket(seeds, table_size=t.per_table, advance=t.advance if t.per_table > 2 else 1, first_round=first)


def knockout_results(bracket: Bracket, entrants: Sequence[EntrantRow], tables: Sequence[RoundTableRow],
                     recorded: Sequence[TableResult]) -> list[Result]:
    """The results of the bracket's tables as it counts them: forfeits of dropped entrants
    applied, a table ended early a tie of its people (the module's docstring)."""
    dropped = {e.entrant: e.dropped_round for e in entrants if e.dropped_round is not None}
    by_table = {r.table_id: r for r in recorded}
    found = []
    for table in tables:
        result = by_table.get(table.table_id) if table.table_id is not None else None
        if table.bye or table.round < bracket.first_round or result is None:
            continue
        if result.status == "finished":
            out = {e for e, since in dropped.items() if since <= table.round}
            ranked = _reranked(finishes(table, result), lambda f: (f.entrant in out, f.place))
        else:
            people = [Finish(e, 1) for e in table.playing] + [Finish(None, 1) for e in table.entrants if e is None]
            ranked = _reranked(people, lambda f: f.entrant is None)
        found.append(Result(table.round, ranked))
    return found


def _reranked(found: Sequence[Finish], key: Callable[[Finish], Any]) -> tuple[Finish, ...]:
    """``found`` placed again by ``key`` (lower first; equal keys share the best of their places)."""
    keys = [key(f) for f in found]
    return tuple(replace(f, place=1 + sum(k < mine for k in keys)) for f, mine in zip(found, keys))


def next_stage(tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[RoundTableRow],
               recorded: Sequence[TableResult]) -> str | None:
    """The stage round ``round + 1`` belongs to (``"swiss"`` or ``"knockout"``), every table of
    the current round having its result; ``None`` if the tournament is over: its last Swiss
    round played (and no top cut of two or more), fewer than two left to pair, or the final decided."""
    t, following = tournament, tournament.round + 1
    if t.stage == "swiss":
        if following <= (t.rounds or 0):
            return "swiss" if in_play(entrants, following) >= 2 else None
        cut = replace(t, stage="knockout") if t.top else None
        return "knockout" if cut is not None and bracket_of(cut, entrants, tables, recorded) is not None else None
    bracket = bracket_of(t, entrants, tables, recorded)
    if bracket is None or bracket.placings(knockout_results(bracket, entrants, tables, recorded)) is not None:
        return None
    return "knockout"


def next_pairing(tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[RoundTableRow],
                 recorded: Sequence[TableResult], round: int) -> Pairing:
    """Round ``round``'s pairing, in the tournament's ``stage``: the bracket's tables, or a Swiss
    round of everyone not dropped who may play it (a late joiner from their round)."""
    t = tournament
    if t.stage == "knockout":
        bracket = bracket_of(t, entrants, tables, recorded)
        if bracket is None:
            raise ValueError(f"tournament {t.id}: a knockout round without a bracket of two or more")
        return bracket.pairing(round, knockout_results(bracket, entrants, tables, recorded))
    eligible = {e.entrant for e in entrants if e.joined_round <= round}
    lines = [s for s in current_standings(t, entrants, tables, recorded) if s.entrant in eligible]
    return swiss_pairing(lines) if t.per_table == 2 else group_pairing(lines, table_size=t.per_table)


def scores(tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[RoundTableRow],
           recorded: Sequence[TableResult]) -> Scores:
    """Where the tournament stands (:class:`Scores`); nothing before its first round."""
    t = tournament
    if not t.round:
        return Scores([])
    swiss = current_standings(t, entrants, tables, recorded, upto=t.rounds if t.stage == "knockout" else None) \
        if t.format == "swiss" else []
    bracket = bracket_of(t, entrants, tables, recorded)
    if bracket is None:
        placed = tuple((s.entrant,) for s in swiss) if t.status == "finished" else ()
        return Scores(swiss, placings=placed)
    results = knockout_results(bracket, entrants, tables, recorded)
    placings = bracket.placings(results) if t.status == "finished" else None
    if placings is not None:
        placings += tuple((s.entrant,) for s in swiss if s.entrant not in bracket.seeds)
    return Scores(swiss, bracket, bracket.tables(results), placings or ())


def in_play(entrants: Sequence[EntrantRow], round: int) -> int:
    """How many entrants round ``round`` would pair."""
    return sum(1 for e in entrants if not e.dropped and e.joined_round <= round)

