"""Swiss pairing (games/tournament): two seats against a brute force, tables of 3+ by their promises.

Histories are random: random tables, places, ties, AI seats, byes and drops, so rematches
are often forced. The brute force and the meeting counts are written here from the tables
played, not from the code under test (which only turns the results into standings).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.tournament import Finish, Result, Standing, default_rounds, group_pairing, standings, swiss_pairing

QUICK = settings(max_examples=60, deadline=None)


class History:
    """A random past: the results, and what the brute force needs, counted from the tables."""

    def __init__(self, entrants: list[int]) -> None:
        self.entrants = entrants
        self.results: list[Result] = []
        self.met: Counter[frozenset[int]] = Counter()
        self.byes: Counter[int] = Counter()
        self.dropped: set[int] = set()

    def play(self, round: int, table: list[int | None], scores: list[int]) -> None:
        """One table: a seat's place is 1 + the seats scoring more (AI seats are ``None``)."""
        people = [e for e in table if e is not None]
        if len(table) == 1:
            self.results.append(Result.bye(round, people[0]))
            self.byes[people[0]] += 1
            return
        places = [1 + sum(other > mine for other in scores) for mine in scores]
        self.results.append(Result(round, tuple(Finish(e, p, s) for e, p, s in zip(table, places, scores))))
        for a, b in combinations(people, 2):
            self.met[frozenset((a, b))] += 1

    def standings(self) -> list[Standing]:
        return standings(self.entrants, self.results, seed=7, dropped=self.dropped)


@st.composite
def histories(draw: st.DrawFn, *, players: tuple[int, int], table_size: int) -> History:
    """Up to six rounds of random tables of ``table_size`` (two seats: the odd one out has a
    bye; bigger: the last table is filled with AI seats), then random drops."""
    n = draw(st.integers(*players))
    history = History([100 + k for k in range(n)])
    for round in range(1, draw(st.integers(0, 6)) + 1):
        order: list[int | None] = list(draw(st.permutations(history.entrants)))
        if table_size == 2 and n % 2:
            history.play(round, [order.pop()], [0])
        order += [None] * (-len(order) % table_size)
        for k in range(0, len(order), table_size):
            table = order[k:k + table_size]
            history.play(round, table, draw(st.lists(st.integers(0, 2), min_size=len(table), max_size=len(table))))
    history.dropped = draw(st.sets(st.sampled_from(history.entrants), max_size=n - 2))
    return history


def two_seat_pairings(people: list[int]) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
    """Every way to seat ``people`` two by two: (pairs, the bye or ``None``)."""
    if len(people) % 2:
        for bye in people:
            for pairs, _ in two_seat_pairings([p for p in people if p != bye]):
                yield pairs, bye
        return
    if not people:
        yield [], None
        return
    first, rest = people[0], people[1:]
    for partner in rest:
        for pairs, _ in two_seat_pairings([p for p in rest if p != partner]):
            yield [(first, partner), *pairs], None


def check_two_seats(history: History, block: int | None) -> None:
    lines = history.standings()
    pairing = swiss_pairing(lines) if block is None else swiss_pairing(lines, block=block)
    active = [s.entrant for s in lines if not s.dropped]
    assert sorted(pairing.entrants) == sorted(active), "everyone in play seated exactly once"
    assert all(len(t.entrants) == 2 and t.ai_seats == 0 for t in pairing.tables)
    assert len(pairing.byes) == len(active) % 2
    rank = {s.entrant: s.rank for s in lines}
    points = {s.entrant: s.points for s in lines}
    fewest = min(history.byes[e] for e in active)

    def repeats(pairs: list[tuple[int, int]]) -> int:
        return sum(history.met[frozenset(p)] for p in pairs)

    def spread(pairs: list[tuple[int, int]]) -> object:
        return sum((points[a] - points[b]) ** 2 for a, b in pairs)

    ours_pairs = [(t.entrants[0], t.entrants[1]) for t in pairing.tables]
    ours_bye = pairing.byes[0] if pairing.byes else None
    if ours_bye is not None:
        assert history.byes[ours_bye] == fewest, "no second bye while someone in play has fewer"
    valid = [(pairs, bye) for pairs, bye in two_seat_pairings(active) if bye is None or history.byes[bye] == fewest]
    best = min((repeats(pairs), -rank[bye] if bye else 0) for pairs, bye in valid)
    assert (repeats(ours_pairs), -rank[ours_bye] if ours_bye else 0) == best, \
        "fewest rematches possible (none when avoidable), then the lowest ranked bye"
    if block is None:  # the whole field is one piece: score groups are the best possible too
        assert spread(ours_pairs) == min(spread(pairs) for pairs, bye in valid
                                         if (repeats(pairs), -rank[bye] if bye else 0) == best)


@QUICK
@given(histories(players=(2, 10), table_size=2))
def test_two_seats_beat_a_brute_force_up_to_ten(history: History) -> None:
    check_two_seats(history, block=None)


@QUICK
@given(histories(players=(3, 10), table_size=2), st.sampled_from([2, 4]))
def test_pieces_and_the_sparse_graph_keep_rematches_and_byes_the_best(history: History, block: int) -> None:
    """A tiny ``block`` takes the path of big fields: pieces, merges, the widening graph."""
    check_two_seats(history, block=block)


def test_round_one_is_top_half_against_bottom_half() -> None:
    entrants = list(range(1, 9))
    lines = standings(entrants, [], seed=0, ratings={e: 100 - e for e in entrants})
    assert [t.entrants for t in swiss_pairing(lines).tables] == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_score_groups_meet_within_themselves_and_the_lowest_without_a_bye_gets_it() -> None:
    entrants = list(range(1, 10))
    ratings = {e: 100 - e for e in entrants}
    first = swiss_pairing(standings(entrants, [], seed=0, ratings=ratings))
    assert first.byes == (9,) and [t.entrants for t in first.tables] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    won = [Result(1, (Finish(a, 1), Finish(b, 2))) for a, b in [(1, 5), (2, 6), (3, 7), (4, 8)]]
    lines = standings(entrants, [*won, Result.bye(1, 9)], seed=0, ratings=ratings)
    assert [s.entrant for s in lines] == [1, 2, 3, 4, 9, 5, 6, 7, 8]
    second = swiss_pairing(lines)
    # Winners and the bye (1 point): 1 v 3, 2 v 4, and 9 floats down to 5; 8, lowest, has the bye.
    assert [t.entrants for t in second.tables] == [(1, 3), (2, 4), (9, 5), (6, 7)]
    assert second.byes == (8,)


def test_a_rematch_is_avoided_by_moving_the_bye() -> None:
    """Three left in play who all met, one having had the bye: someone must rematch."""
    lines = standings([1, 2, 3], [Result(1, (Finish(1, 1), Finish(2, 2))), Result.bye(1, 3),
                                  Result(2, (Finish(3, 1), Finish(1, 2))), Result.bye(2, 2)], seed=0)
    pairing = swiss_pairing(lines)
    assert pairing.byes == (1,), "1 is the only one without a bye"
    assert pairing.tables[0].entrants in {(2, 3), (3, 2)}


# -- tables of three or more ------------------------------------------------------------------


def seat_counts(pairing_tables: tuple) -> list[int]:
    return [len(t.entrants) for t in pairing_tables]


@QUICK
@given(st.integers(3, 6).flatmap(lambda size: st.tuples(st.just(size), histories(players=(2, 25), table_size=size))))
def test_tables_of_three_or_more_seat_everyone_once_and_no_swap_lowers_repeats(case: tuple[int, History]) -> None:
    table_size, history = case
    lines = history.standings()
    pairing = group_pairing(lines, table_size=table_size)
    active = [s.entrant for s in lines if not s.dropped]
    assert sorted(pairing.entrants) == sorted(active) and not pairing.byes
    counts = seat_counts(pairing.tables)
    assert len(counts) == -(-len(active) // table_size)
    assert all(t.seats == table_size for t in pairing.tables), "AI seats fill every table to its size"
    assert counts == sorted(counts, reverse=True) and counts[0] - counts[-1] <= 1 and counts[-1] >= 2
    tables = [list(t.entrants) for t in pairing.tables]

    def repeats(tables: list[list[int]]) -> int:
        return sum(history.met[frozenset(p)] for t in tables for p in combinations(t, 2))

    ranked = iter(active)
    top_down = [[next(ranked) for _ in range(c)] for c in counts]
    assert repeats(tables) <= repeats(top_down)
    now = repeats(tables)
    for x, y in combinations(range(len(tables)), 2):
        for i in range(len(tables[x])):
            for j in range(len(tables[y])):
                swapped = [list(t) for t in tables]
                swapped[x][i], swapped[y][j] = tables[y][j], tables[x][i]
                assert repeats(swapped) >= now, "a swap would lower the repeats"


def test_tables_of_three_or_more_start_top_down_and_swap_away_a_repeat() -> None:
    entrants = list(range(1, 11))
    ratings = {e: 100 - e for e in entrants}
    first = group_pairing(standings(entrants, [], seed=0, ratings=ratings), table_size=4)
    assert [(t.entrants, t.ai_seats) for t in first.tables] == [((1, 2, 3, 4), 0), ((5, 6, 7), 1), ((8, 9, 10), 1)]
    # 1 and 2 met before and stand first and second: one of them moves a table down, swapped
    # with the nearest in the standings who met nobody at the new table.
    met = Result(1, (Finish(1, 1), Finish(2, 2), Finish(None, 3)))
    lines = standings(entrants, [met, Result(1, (Finish(3, 1), Finish(4, 2), Finish(5, 3)))], seed=0, ratings=ratings)
    tables = [set(t.entrants) for t in group_pairing(lines, table_size=4).tables]
    assert not any({1, 2} <= t or len({3, 4, 5} & t) > 1 for t in tables)


@pytest.mark.parametrize("game", games.all_games(), ids=lambda g: g.id)
def test_every_table_is_within_the_games_seat_bounds(game: games.Game) -> None:
    """Each seat count the game allows, as a tournament's table size: a game played in teams
    (QUASH) seats one entrant a side, so always two."""
    for seats in game.allowed_player_counts():
        size = len(game.sides) if game.sides else seats
        for n in range(2, 3 * size + 2):
            lines = standings(list(range(n)), [], seed=n)
            pairing = swiss_pairing(lines) if size == 2 else group_pairing(lines, table_size=size)
            assert {t.seats for t in pairing.tables} == {size}
            assert all(len(t.entrants) >= 2 for t in pairing.tables)
            assert sorted(pairing.entrants) == list(range(n))


def test_default_rounds_find_a_winner() -> None:
    assert [default_rounds(n) for n in (2, 3, 8, 9, 64, 65, 1024)] == [1, 2, 3, 4, 6, 7, 10]
    assert [default_rounds(n, 4) for n in (4, 5, 10, 16, 17, 256)] == [1, 2, 2, 2, 3, 4]
    with pytest.raises(ValueError):
        default_rounds(1)


def test_fewer_than_two_in_play_is_refused() -> None:
    lines = standings([1, 2], [], seed=0, dropped={2})
    with pytest.raises(ValueError, match="at least two"):
        swiss_pairing(lines)
    with pytest.raises(ValueError, match="at least two"):
        group_pairing(lines, table_size=4)
    with pytest.raises(ValueError, match="three seats or more"):
        group_pairing(standings([1, 2, 3], [], seed=0), table_size=2)
