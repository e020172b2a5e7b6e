"""Standings (games/tournament): points and tiebreaks by hand, and against a direct recomputation.

The recomputation here walks the rounds one by one and scores every seat against every
other, a different road from the code's closed forms; only the drawn lot is borrowed.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import Finish, Result, Standing, group_pairing, lot, standings, swiss_pairing

ANA, BEN, CY, DEE, EVE = 1, 2, 3, 4, 5
F = Fraction


def beat(round: int, winner: int, loser: int) -> Result:
    return Result(round, (Finish(winner, 1), Finish(loser, 2)))


def drew(round: int, a: int, b: int) -> Result:
    return Result(round, (Finish(a, 1), Finish(b, 1)))


def test_the_worked_example_of_the_package_docstring() -> None:
    results = [
        beat(1, ANA, DEE), drew(1, BEN, EVE), Result.bye(1, CY),
        beat(2, ANA, CY), beat(2, DEE, BEN), Result.bye(2, EVE),
        drew(3, ANA, EVE), beat(3, CY, DEE), Result.bye(3, BEN),
    ]
    lines = standings([ANA, BEN, CY, DEE, EVE], results, seed=0)
    assert [(s.entrant, s.points, s.buchholz, s.sonneborn_berger) for s in lines] == [
        (ANA, F(5, 2), F(4), F(4)),
        (EVE, F(2), F(4), F(2)),
        (CY, F(2), F(7, 2), F(1)),
        (BEN, F(3, 2), F(3), F(1)),
        (DEE, F(1), F(9, 2), F(3, 2)),
    ]
    assert [s.rank for s in lines] == [1, 2, 3, 4, 5]
    assert [(s.played, s.byes) for s in lines] == [(3, 0), (2, 1), (2, 1), (2, 1), (3, 0)]
    assert lines[0].opponents == (DEE, CY, EVE)


def test_placement_points_share_ties_and_count_ai_seats() -> None:
    four = Result(1, (Finish(1, 1), Finish(2, 2), Finish(3, 3), Finish(4, 4)))
    assert [four.points(e) for e in (1, 2, 3, 4)] == [F(1), F(2, 3), F(1, 3), F(0)]
    tied = Result(1, (Finish(1, 1), Finish(2, 2), Finish(3, 2), Finish(4, 4)))
    assert [tied.points(e) for e in (1, 2, 3, 4)] == [F(1), F(1, 2), F(1, 2), F(0)]
    with_ai = Result(1, (Finish(1, 1), Finish(None, 2), Finish(2, 3), Finish(3, 4)))
    assert [with_ai.points(e) for e in (1, 2, 3)] == [F(1), F(1, 3), F(0)]
    assert with_ai.opponents(1) == (2, 3), "an AI seat is nobody's opponent"
    assert drew(1, 1, 2).points(1) == F(1, 2) and Result.bye(1, 1).points(1) == 1


def test_an_ai_opponent_counts_in_no_tiebreak() -> None:
    results = [Result(1, (Finish(1, 1), Finish(None, 2))), beat(1, 2, 3), beat(2, 1, 2), beat(2, 3, 4)]
    line = standings([1, 2, 3, 4], results, seed=0)[0]
    assert (line.entrant, line.points, line.played, line.opponents) == (1, 2, 2, (2,))
    assert line.buchholz == F(0) + F(1) - F(0), "round 1 (only an AI) is a 0, and it is cut"
    assert line.sonneborn_berger == F(1), "beat 2, who has 1 point; the AI counts nothing"


def test_a_late_joiner_has_a_loss_for_each_missed_round_and_a_dropped_entrant_stays() -> None:
    results = [beat(1, 1, 2), beat(2, 1, 3), beat(2, 2, 4), beat(3, 3, 1), beat(3, 4, 2)]
    lines = {s.entrant: s for s in standings([1, 2, 3, 4], results, seed=0, late_joins={3: 2, 4: 2}, dropped={2})}
    assert lines[3].points == 1 and lines[3].buchholz == F(2) + F(2) + F(0) - F(0)
    assert lines[2].dropped and lines[2].points == 1 and lines[1].buchholz == F(1) + F(1) + F(1) - F(1)


@pytest.mark.parametrize("places", [(1, 1, 2), (2, 3), (1, 3), (0, 1), (1, 2, 2, 3)])
def test_a_result_is_a_ranking(places: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="ranking"):
        Result(1, tuple(Finish(k, p) for k, p in enumerate(places)))


def test_inconsistent_results_are_refused() -> None:
    with pytest.raises(ValueError, match="twice at one table"):
        Result(1, (Finish(1, 1), Finish(1, 2)))
    with pytest.raises(ValueError, match="only AI seats"):
        Result(1, (Finish(None, 1),))
    with pytest.raises(ValueError, match="not an entrant"):
        standings([1, 2], [beat(1, 1, 3)], seed=0)
    with pytest.raises(ValueError, match="seated twice"):
        standings([1, 2, 3], [beat(1, 1, 2), beat(1, 3, 1)], seed=0)
    with pytest.raises(ValueError, match="joined in round 2"):
        standings([1, 2], [beat(1, 1, 2)], seed=0, late_joins={2: 2})
    with pytest.raises(ValueError, match="not entrants"):
        standings([1, 2], [], seed=0, dropped={3})


def test_the_lot_is_the_entrants_alone_and_breaks_every_tie() -> None:
    lines = standings(list(range(50)), [], seed=3)
    assert [s.lot for s in lines] == sorted(s.lot for s in lines) and len({s.lot for s in lines}) == 50
    assert {s.entrant: s.lot for s in standings(list(range(60)), [], seed=3)}[7] == lot(3, 7)
    assert lot(3, 7) != lot(4, 7)


# -- against a direct recomputation -----------------------------------------------------------


def recomputed(entrants: list[int], results: list[Result], *, seed: int, dropped: set[int],
               late_joins: dict[int, int]) -> list[tuple]:
    """The standings, written out from the definitions, round by round."""
    last = max((r.round for r in results), default=0)
    table = {(r.round, f.entrant): r for r in results for f in r.finishes if f.entrant is not None}

    def place(result: Result, entrant: int) -> int:
        return next(f.place for f in result.finishes if f.entrant == entrant)

    def versus(mine: int, theirs: int) -> Fraction:
        return F(1) if mine < theirs else F(1, 2) if mine == theirs else F(0)

    def earned(result: Result, entrant: int) -> Fraction:
        if len(result.finishes) == 1:
            return F(1)
        mine = place(result, entrant)
        others = [f.place for f in result.finishes if f.entrant != entrant]
        return sum((versus(mine, p) for p in others), F(0)) / len(others)

    points = {e: sum((earned(table[r, e], e) for r in range(1, last + 1) if (r, e) in table), F(0)) for e in entrants}
    rows = []
    for e in entrants:
        values, sb, margin = [], F(0), 0
        for r in range(1, last + 1):
            if r < late_joins.get(e, 1):
                values.append(F(0))
                continue
            if (r, e) not in table:
                continue
            result = table[r, e]
            margin += next(f.margin for f in result.finishes if f.entrant == e)
            people = [f.entrant for f in result.finishes if f.entrant not in (None, e)]
            if not people:
                values.append(F(0))
                continue
            values.append(sum((points[o] for o in people), F(0)) / len(people))
            sb += sum((versus(place(result, e), place(result, o)) * points[o] for o in people), F(0)) / len(people)
        buchholz = sum(values, F(0)) - (min(values) if values else 0)
        rows.append((e, points[e], buchholz, sb, margin, e in dropped))
    rows.sort(key=lambda row: (-row[1], -row[2], -row[3], -row[4], lot(seed, row[0])))
    return rows


def shown(lines: list[Standing]) -> list[tuple]:
    return [(s.entrant, s.points, s.buchholz, s.sonneborn_berger, s.margin, s.dropped) for s in lines]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_standings_equal_a_direct_recomputation_after_rounds_drops_late_joins_and_re_pairs(data: st.DataObject) -> None:
    table_size = data.draw(st.sampled_from([2, 3, 4]), label="table size")
    seed = data.draw(st.integers(0, 2**32))
    entrants = list(range(1, data.draw(st.integers(2, 12), label="players") + 1))
    dropped: set[int] = set()
    late_joins: dict[int, int] = {}
    results: list[Result] = []

    def pair() -> tuple:
        lines = standings(entrants, results, seed=seed, dropped=dropped, late_joins=late_joins)
        pairing = swiss_pairing(lines) if table_size == 2 else group_pairing(lines, table_size=table_size)
        assert sorted(pairing.entrants) == sorted(set(entrants) - dropped), "everyone in play seated once"
        return pairing

    def change_the_field(round: int) -> None:
        if data.draw(st.booleans(), label="a late join"):
            late_joins[len(entrants) + 1] = round
            entrants.append(len(entrants) + 1)
        in_play = sorted(set(entrants) - dropped)
        if len(in_play) > 2 and data.draw(st.booleans(), label="a drop"):
            dropped.add(data.draw(st.sampled_from(in_play)))

    for round in range(1, data.draw(st.integers(1, 5), label="rounds") + 1):
        change_the_field(round)
        pairing = pair()
        if data.draw(st.booleans(), label="re-pair"):  # the field changes before a move: the round is paired again
            change_the_field(round)
            pairing = pair()
        for t in pairing.tables:
            seats = [*t.entrants, *[None] * t.ai_seats]
            scores = data.draw(st.lists(st.integers(0, 3), min_size=len(seats), max_size=len(seats)))
            margins = data.draw(st.lists(st.integers(-20, 20), min_size=len(seats), max_size=len(seats)))
            places = [1 + sum(other > mine for other in scores) for mine in scores]
            results.append(Result(round, tuple(Finish(e, p, m) for e, p, m in zip(seats, places, margins))))
        results += [Result.bye(round, e) for e in pairing.byes]
        lines = standings(entrants, results, seed=seed, dropped=dropped, late_joins=late_joins)
        assert shown(lines) == recomputed(entrants, results, seed=seed, dropped=dropped, late_joins=late_joins)
        assert [s.rank for s in lines] == list(range(1, len(entrants) + 1))
        shuffled = random.Random(round).sample(results, len(results))
        assert standings(entrants, shuffled, seed=seed, dropped=dropped, late_joins=late_joins) == lines, \
            "computed from the results, in any order"
