"""Knockout brackets (games/tournament/bracket.py): every field from 2 to 64, byes, seeding, advancing."""

from __future__ import annotations

import random

import pytest

from games.tournament import Bracket, Finish, Result, seed_at_random, seed_by_rating, standings, top_cut

SHAPES = [(2, 1), (3, 1), (4, 1), (4, 2), (6, 2)]
"""(table size, how many go on from a table)."""


def play_round(bracket: Bracket, round: int, results: list[Result], rank) -> None:
    """Play ``round``: ``rank(table)`` orders the table's seats (people and ``None`` for AI), best first."""
    for table in bracket.pairing(round, results).tables:
        seats = rank([*table.entrants, *[None] * table.ai_seats])
        results.append(Result(round, tuple(Finish(e, place) for place, e in enumerate(seats, 1))))


def best_seed_wins(seats: list[int | None]) -> list[int | None]:
    return sorted(seats, key=lambda e: 10**6 if e is None else e)


def test_sixteen_seeds_meet_in_the_classic_order() -> None:
    assert Bracket(tuple(range(1, 17))).layout() == (
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11))
    assert Bracket(tuple(range(1, 17)), table_size=4, advance=2).layout() == (
        (1, 8, 12, 16), (4, 6, 9, 13), (2, 7, 11, 15), (3, 5, 10, 14))


@pytest.mark.parametrize("field", range(2, 65))
def test_two_seat_brackets_seed_pair_and_bye_by_the_book(field: int) -> None:
    size = 1 << (field - 1).bit_length()
    bracket = Bracket(tuple(range(1, field + 1)))
    assert bracket.rounds == size.bit_length() - 1
    results: list[Result] = []
    for round in range(1, bracket.rounds + 1):
        pairing = bracket.pairing(round, results)
        alive = size >> (round - 1)
        assert all(a + b == alive + 1 for a, b in (t.entrants for t in pairing.tables)), "s v field + 1 - s"
        assert pairing.byes == (tuple(range(1, size - field + 1)) if round == 1 else ()), "byes to the top seeds"
        assert sorted(pairing.entrants) == list(range(1, min(alive, field) + 1))
        play_round(bracket, round, results, best_seed_wins)
    expected = [(1,), (2,)] + [tuple(range(k + 1, min(2 * k, field) + 1)) for k in (2, 4, 8, 16, 32)]
    assert bracket.placings(results) == tuple(p for p in expected if p)


@pytest.mark.parametrize("table_size, advance", SHAPES)
def test_every_bracket_from_2_to_64_seats_everyone_once_and_crowns_one(table_size: int, advance: int) -> None:
    ahead = table_size // advance
    for field in range(2, 65):
        for trial in range(3):
            seeds = tuple(random.Random(field).sample(range(100, 200), field))
            bracket = Bracket(seeds, table_size=table_size, advance=advance)
            capacity = table_size * ahead ** (bracket.rounds - 1)
            assert capacity >= field and (bracket.rounds == 1 or capacity // ahead < field), "the smallest bracket"
            rng = random.Random(trial)
            results: list[Result] = []
            alive = list(seeds)
            for round in range(1, bracket.rounds + 1):
                pairing = bracket.pairing(round, results)
                assert sorted(pairing.entrants) == sorted(alive), "everyone still in, once"
                final = round == bracket.rounds
                assert all(t.seats == table_size for t in pairing.tables)
                assert all(len(t.entrants) > (1 if final else advance) for t in pairing.tables)
                if round > 1:
                    assert not pairing.byes and all(t.ai_seats == 0 for t in pairing.tables), "byes in round 1 only"
                play_round(bracket, round, results, lambda seats: rng.sample(seats, len(seats)))
                going_on = [t.going_on for t in bracket.tables(results)[round - 1]]
                assert all(g is not None for g in going_on)
                alive = [e for g in going_on for e in (g or ())]
                if not final:
                    assert len(alive) == len(pairing.byes) + advance * len(pairing.tables)
            placings = bracket.placings(results)
            assert placings is not None and len(placings[0]) == 1
            assert sorted(e for p in placings for e in p) == sorted(seeds), "everyone placed once"


@pytest.mark.parametrize("table_size, advance", SHAPES)
def test_top_seeds_get_the_byes_and_meet_late(table_size: int, advance: int) -> None:
    for field in range(2, 65):
        bracket = Bracket(tuple(range(1, field + 1)), table_size=table_size, advance=advance)
        first = bracket.tables([])[0]
        people = [len(t.entrants) for t in sorted(first, key=lambda t: t.entrants[0])]
        assert people == sorted(people), "the empty seats fall to the top seeds' tables first"
        results: list[Result] = []
        for round in range(1, bracket.rounds + 1):
            tables = [t for t in bracket.tables(results)[round - 1]]
            top = list(range(1, len(tables) + 1))
            assert sorted(t.entrants[0] for t in tables) == top, "the top seeds at different tables"
            play_round(bracket, round, results, best_seed_wins)
        assert bracket.placings(results)[0] == (1,)


def test_a_tie_across_the_line_goes_to_the_margin_then_the_better_seed() -> None:
    bracket = Bracket((10, 20, 30, 40))
    results = [Result(1, (Finish(10, 1, 3), Finish(40, 1, 5))), Result(1, (Finish(20, 1), Finish(30, 1)))]
    assert bracket.pairing(2, results).tables[0].entrants == (20, 40)
    four = Bracket(tuple(range(1, 9)), table_size=4, advance=2)
    table = four.pairing(1, []).tables[0]
    assert table.entrants == (1, 4, 6, 8)
    tied = Result(1, (Finish(1, 2), Finish(4, 1), Finish(6, 2), Finish(8, 4)))
    assert four.tables([tied])[0][0].going_on == (4, 1)


def test_an_ai_seat_takes_a_place_but_never_goes_on() -> None:
    bracket = Bracket((1, 2, 3, 4, 5, 6), table_size=4, advance=2)
    table = bracket.pairing(1, []).tables[0]
    assert (table.entrants, table.ai_seats) == ((1, 4, 6), 1), "seed 8 is missing: an AI seat"
    seats = [None, *table.entrants]
    result = Result(1, tuple(Finish(e, place) for place, e in enumerate(seats, 1)))
    assert bracket.tables([result])[0][0].going_on == table.entrants[:2]


def test_a_round_waits_for_the_last_and_a_stray_result_is_refused() -> None:
    bracket = Bracket((1, 2, 3, 4))
    with pytest.raises(ValueError, match="waits for tables of round 1"):
        bracket.pairing(2, [Result(1, (Finish(1, 1), Finish(4, 2)))])
    with pytest.raises(ValueError, match="match no table"):
        bracket.tables([Result(1, (Finish(1, 1), Finish(2, 2)))])
    with pytest.raises(ValueError, match="not one of the bracket's"):
        bracket.pairing(3, [])
    assert bracket.placings([]) is None
    with pytest.raises(ValueError):
        Bracket((1, 2), table_size=4, advance=3)
    with pytest.raises(ValueError):
        Bracket((1,))


def test_swiss_then_the_best_four() -> None:
    entrants = list(range(1, 9))
    swiss = [Result(1, (Finish(a, 1), Finish(b, 2))) for a, b in [(1, 5), (2, 6), (3, 7), (4, 8)]]
    lines = standings(entrants, swiss, seed=0, ratings={e: -e for e in entrants}, dropped={2})
    seeds = top_cut(lines, 4)
    assert seeds == (1, 3, 4, 5), "the best four not dropped, in the standings' order"
    bracket = Bracket(seeds, first_round=2)
    assert [t.entrants for t in bracket.pairing(2, swiss).tables] == [(1, 5), (3, 4)]


def test_seeds_by_rating_or_by_lot() -> None:
    assert seed_by_rating([1, 2, 3], {1: 10.0, 2: 30.0, 3: 20.0}, seed=0) == (2, 3, 1)
    drawn = seed_at_random(range(20), seed=5)
    assert sorted(drawn) == list(range(20)) and drawn == seed_at_random(range(20), seed=5)
    assert drawn != seed_at_random(range(20), seed=6)
