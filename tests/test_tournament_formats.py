"""Every tournament format and table shape on both backends (bot/tournaments): a knockout seeded
by rating, Swiss then a top cut, tables of four with AI seats filling, QUASH teams of two who
register together; each checked against a computation by hand from the stored places."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.errors import UserError
from bot.service import Player
from bot.tournaments import store as tstore
from tests.test_service import Clock
from tests.test_tournament_service import HOST, Env, finish_round

PEOPLE = [Player(i, name, 1) for i, name in enumerate(
    ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"], start=1)]


@pytest.fixture
async def env(db_url):
    e = Env(db_url, Clock())
    await e.start()
    yield e
    await e.stop()


async def create(env, game_id="war", options=None, **chosen) -> int:
    view = await env.tournaments.create(guild_id=1, channel_id=50, host=HOST, game_id=game_id, options=options or {},
                                        round_minutes=30, **chosen)
    return view.row.id


async def start(env, tid: int):
    view = await env.tournaments.start_now(tid, HOST, is_admin=False)
    await env.games.wait_idle()
    return view


async def rounds_of(env, tid: int, round: int):
    return await env.read(lambda db: tstore.round_tables(db, tid, round))


async def places(env, table_id: int) -> list[tuple[int, int]]:
    """``(place, score)`` of each seat of a finished table, in seat order."""
    rows = await env.read(lambda db: db.fetch("SELECT place, score FROM result_seats WHERE table_id = ? ORDER BY seat",
                                              (table_id,)))
    return [(r[0], r[1] or 0) for r in rows]


async def winner_of(env, table) -> int:
    """Who went through from a knockout table of two sides (a team's seats 0 and 2 v 1 and 3): the
    better place; a draw goes to the margin, then the seed, both favouring seat 0 (the better
    seed sits first, and a draw's margin is counted from the first seat)."""
    found = await places(env, table.table_id)
    return table.entrants[1] if found[1][0] < found[0][0] else table.entrants[0]


async def test_a_knockout_seeded_by_rating_gives_the_top_seeds_byes_and_crowns_the_winner_of_the_final(env):
    five = PEOPLE[:5]
    await env.storage.run_write(lambda db: db.executemany(
        "INSERT INTO ratings (guild_id, game_id, user_id, mu, sigma, rated_games) VALUES (1, 'war', ?, ?, 1, 5)",
        [(p.user_id, 40.0 - 3 * k) for k, p in enumerate(five)]))  # Ana rated best, Eve least
    tid = await create(env, format="knockout")
    for player in reversed(five):  # entrant numbers the reverse of the seeds
        await env.tournaments.join(tid, player)
    number = {e.user_id: e.entrant for e in (await env.tournaments.view(tid)).entrants}
    seed = [number[p.user_id] for p in five]
    view = await start(env, tid)
    assert view.row.stage == "knockout" and view.row.rounds == 0 and view.rounds_left == 3
    first = await rounds_of(env, tid, 1)
    # Eight places for five: seeds 4 and 5 play, the top three have byes.
    assert [(t.entrants, t.bye) for t in first] == [
        ((seed[3], seed[4]), False), ((seed[0],), True), ((seed[1],), True), ((seed[2],), True)]
    with pytest.raises(UserError, match="follow from its bracket"):
        await env.tournaments.repair(tid, HOST, is_admin=False)
    with pytest.raises(UserError, match="No round is left"):
        await env.tournaments.add_player(tid, HOST, PEOPLE[6], is_admin=False)
    await finish_round(env, tid)
    through = await winner_of(env, first[0])
    semis = await rounds_of(env, tid, 2)
    assert [t.entrants for t in semis] == [(seed[0], through), (seed[1], seed[2])]
    assert (await env.tournaments.view(tid)).rounds_left == 2
    await finish_round(env, tid)
    finalists = [await winner_of(env, t) for t in semis]
    (final,) = await rounds_of(env, tid, 3)
    assert sorted(final.entrants) == sorted(finalists)
    assert (await env.tournaments.view(tid)).rounds_left == 1
    await finish_round(env, tid)
    view = await env.tournaments.view(tid)
    champion = await winner_of(env, final)
    semi_losers = [e for t in semis for e in t.entrants if e not in finalists]
    assert view.row.status == "finished" and view.standings == []
    assert view.placings == ((champion,), tuple(e for e in final.entrants if e != champion),
                             tuple(sorted(semi_losers, key=seed.index)),
                             tuple(e for e in first[0].entrants if e != through))
    assert [len(r) for r in view.bracket_tables] == [4, 2, 1]


async def test_swiss_then_a_top_four_seeds_the_knockout_by_the_swiss_standings(env):
    tid = await create(env, rounds=2, top=4)
    for player in PEOPLE[:6]:
        await env.tournaments.join(tid, player)
    await start(env, tid)
    await finish_round(env, tid)
    await finish_round(env, tid)
    view = await env.tournaments.view(tid)
    assert view.row.stage == "knockout" and view.row.round == 3 and view.rounds_left == 2
    cut = [s.entrant for s in view.standings][:4]
    semis = await rounds_of(env, tid, 3)
    assert [t.entrants for t in semis] == [(cut[0], cut[3]), (cut[1], cut[2])]
    frozen = [(s.entrant, s.points) for s in view.standings]
    await finish_round(env, tid)
    view = await env.tournaments.view(tid)
    assert [(s.entrant, s.points) for s in view.standings] == frozen  # the Swiss standings, as the cut saw them
    finalists = [await winner_of(env, t) for t in semis]
    (final,) = await rounds_of(env, tid, 4)
    assert list(final.entrants) == sorted(finalists, key=cut.index)
    await finish_round(env, tid)
    view = await env.tournaments.view(tid)
    champion = await winner_of(env, final)
    assert view.row.status == "finished"
    assert view.placings == ((champion,), tuple(e for e in final.entrants if e != champion),
                             tuple(sorted((e for t in semis for e in t.entrants if e not in finalists), key=cut.index)),
                             *((s.entrant,) for s in view.standings[4:]))


async def test_a_restart_as_the_last_swiss_result_comes_in_opens_the_top_cut_once(env):
    tid = await create(env, rounds=1, top=4)
    for player in PEOPLE[:4]:
        await env.tournaments.join(tid, player)
    await start(env, tid)
    env.games.tables.recorded.clear()  # the process dies as the Swiss round's last result is recorded
    await finish_round(env, tid)
    assert (await env.tournaments.get(tid)).stage == "swiss"
    await env.restart()
    await env.restart()  # and again: nothing more happens
    view = await env.tournaments.view(tid)
    assert (view.row.stage, view.row.round, view.rounds_left) == ("knockout", 2, 2)
    semis = await rounds_of(env, tid, 2)
    assert len(semis) == 2 and all(t.table_id is not None for t in semis)
    assert await env.read(lambda db: db.fetchval("SELECT COUNT(*) FROM tables")) == 4  # two Swiss, two semi-finals


async def test_tables_of_four_fill_with_ai_seats_and_score_placement_points(env):
    tid = await create(env, "queen-of-spades", {"rounds": 2})
    for player in PEOPLE[:6]:
        await env.tournaments.join(tid, player)
    view = await start(env, tid)
    assert view.row.table_size == 4 and view.row.rounds == 2  # the game's usual four; enough rounds for six
    points: dict[int, Fraction] = {}
    for round in (1, 2):
        tables = await rounds_of(env, tid, round)
        assert [len(t.entrants) for t in tables] == [4, 4] and all(t.entrants[3] is None for t in tables)
        assert sorted(e for t in tables for e in t.playing) == [1, 2, 3, 4, 5, 6]
        rows = await env.storage.get_tables([t.table_id for t in tables])
        assert [(s.name, s.is_ai, s.user_id) for s in rows[0].seats][3] == ("AI 1", True, None)
        await finish_round(env, tid)
        for table in tables:
            found = [place for place, _ in await places(env, table.table_id)]
            for seat, entrant in enumerate(table.entrants):
                if entrant is not None:  # at four seats: 1, ⅔, ⅓, 0; tied seats share the mean
                    tied = found.count(found[seat])
                    share = sum(Fraction(4 - p, 3) for p in range(found[seat], found[seat] + tied)) / tied
                    points[entrant] = points.get(entrant, Fraction(0)) + share
        rated = await env.read(lambda db: db.fetch(
            "SELECT rated FROM results WHERE table_id IN (?, ?)", [t.table_id for t in tables]))
        assert [r[0] for r in rated] == [0, 0]  # a table with an AI seat is not rated
    view = await env.tournaments.view(tid)
    assert view.row.status == "finished"
    assert {s.entrant: s.points for s in view.standings} == points
    assert view.placings == tuple((s.entrant,) for s in view.standings)


async def test_a_knockout_at_tables_of_four_sends_the_best_two_people_of_each_to_the_final_table(env):
    tid = await create(env, "queen-of-spades", {"rounds": 1}, format="knockout", seeding="random")
    for player in PEOPLE[:6]:
        await env.tournaments.join(tid, player)
    view = await start(env, tid)
    assert view.row.advance == 2 and view.rounds_left == 2
    first = await rounds_of(env, tid, 1)
    # Six in eight places: the two empty seats, the weakest seeds', go to the top seeds' tables as AI seats.
    assert [len(t.playing) for t in first] == [3, 3] and all(t.entrants.count(None) == 1 for t in first)
    await finish_round(env, tid)
    (final,) = await rounds_of(env, tid, 2)
    for table in first:
        found = await places(env, table.table_id)
        people = sorted(found[seat][0] for seat, e in enumerate(table.entrants) if e is not None)
        line = people[1]  # the second best person's place: an AI seat ahead of them never goes through
        through = {e for e in final.playing if e in table.playing}
        assert len(through) == 2 and all(found[table.entrants.index(e)][0] <= line for e in through)
        assert {e for seat, e in enumerate(table.entrants) if e is not None and found[seat][0] < line} <= through
    assert final.entrants.count(None) == 0
    await finish_round(env, tid)
    view = await env.tournaments.view(tid)
    assert view.row.status == "finished" and [len(p) for p in view.placings] == [1, 1, 1, 1, 2]
    assert {e for group in view.placings[:4] for e in group} == set(final.playing)


async def test_quash_teams_register_together_sit_on_one_side_and_a_partner_leaving_takes_the_team_out(env):
    tid = await create(env, "quash", {"finish": 12}, table_size=4, format="knockout", seeding="random",
                       max_players=8)
    ana, ben, cy, dee, eve, fay, gus, hal, ivy, _ = PEOPLE
    with pytest.raises(UserError, match="teams of two: choose your partner"):
        await env.tournaments.join(tid, ana)
    with pytest.raises(UserError, match="someone else"):
        await env.tournaments.join(tid, ana, ana)
    await env.tournaments.join(tid, ana, ben)
    for player, partner, words in ((cy, ana, "Ana is in this tournament already"),
                                   (ben, cy, "entered this tournament already")):
        with pytest.raises(UserError, match=words):
            await env.tournaments.join(tid, player, partner)
    await env.tournaments.join(tid, cy, dee)
    await env.tournaments.add_player(tid, HOST, eve, partner=fay, is_admin=False)
    with pytest.raises(UserError, match="choose your partner"):
        await env.tournaments.add_player(tid, HOST, gus, is_admin=False)
    await env.tournaments.join(tid, gus, hal)
    with pytest.raises(UserError, match="full"):  # max_players counts people: four teams are eight
        await env.tournaments.join(tid, ivy, PEOPLE[9])
    view = await env.tournaments.view(tid)
    assert [e.label for e in view.entrants] == ["Ana & Ben", "Cy & Dee", "Eve & Fay", "Gus & Hal"]
    await start(env, tid)
    semis = await rounds_of(env, tid, 1)
    by_id = {row.id: row for row in await env.storage.get_tables([t.table_id for t in semis])}
    rows = [by_id[t.table_id] for t in semis]  # opened at once: not necessarily in order
    teams = {e.entrant: e for e in view.entrants}
    for table, row in zip(semis, rows):
        a, b = (teams[e] for e in table.playing)
        assert table.entrants == (a.entrant, b.entrant, a.entrant, b.entrant)
        assert [s.user_id for s in row.seats] == [a.user_id, b.user_id, a.partner_id, b.partner_id]
    # Dee (a partner) leaves: her team is out, the AI plays both its seats, and it does not go through.
    await env.tournaments.leave(tid, dee)
    await env.games.wait_idle()
    table, row = next((t, r) for t, r in zip(semis, rows) if 2 in t.playing)
    seats = (await env.storage.get_table(row.id)).seats
    assert [s.is_ai for s in seats] == [e == 2 for e in table.entrants]
    await finish_round(env, tid)
    (final,) = await rounds_of(env, tid, 2)
    assert 2 not in final.entrants and next(e for e in table.playing if e != 2) in final.entrants
    await finish_round(env, tid)
    view = await env.tournaments.view(tid)
    champion = await winner_of(env, final)
    assert view.row.status == "finished"
    assert view.placings == ((champion,), tuple(e for e in final.playing if e != champion),
                             tuple(sorted((e for t in semis for e in t.playing if e not in final.playing),
                                          key=view.bracket.seeds.index)))


async def test_format_options_are_checked_and_each_refusal_names_its_option(env):
    for chosen, words in (
        ({"format": "knockout", "rounds": 3}, "`swiss_rounds` is for Swiss"),
        ({"format": "knockout", "top": 4}, "`top` is for Swiss"),
        ({"seeding": "random"}, "`seeding` is for knockouts"),
        ({"format": "knockout", "advance": 1}, "`advance` is for knockouts at tables of three"),
        ({"format": "league"}, "`format` is swiss or knockout"),
        ({"top": 6}, "`top` is 0, 4 or 8"),
        ({"table_size": 5}, "tables of 2–4, not 5"),
    ):
        with pytest.raises(UserError, match=words):
            await env.tournaments.create(guild_id=1, channel_id=50, host=HOST, game_id="war", options={}, **chosen)
    with pytest.raises(UserError, match="At tables of 4, `advance` is 1 or 2"):
        await env.tournaments.create(guild_id=1, channel_id=50, host=HOST, game_id="queen-of-spades", options={},
                                     format="knockout", advance=3)
    with pytest.raises(UserError, match="Challenge is for exactly 2 players"):
        await env.tournaments.create(guild_id=1, channel_id=50, host=HOST, game_id="q2j",
                                     options={"variant": "challenge"}, table_size=4)
    assert await env.read(lambda db: db.fetchval("SELECT COUNT(*) FROM tournaments")) == 0
    shapes = []
    for channel, (game_id, options, chosen) in enumerate((
            ("q2j", {}, {}), ("q2j", {"variant": "challenge"}, {}), ("quash", {}, {}),
            ("queen-of-spades", {}, {"format": "knockout"}), ("queen-of-spades", {}, {"top": 8, "table_size": 6}))):
        row = (await env.tournaments.create(guild_id=1, channel_id=60 + channel, host=HOST, game_id=game_id,
                                            options=options, **chosen)).row
        shapes.append((row.table_size, row.per_table, row.in_teams, row.advance, row.seeding, row.stage))
    assert shapes == [(4, 4, False, 1, "standings", "swiss"), (2, 2, False, 1, "standings", "swiss"),
                      (2, 2, False, 1, "standings", "swiss"), (4, 4, False, 2, "rating", "knockout"),
                      (6, 6, False, 3, "standings", "swiss")]


async def test_forgetting_a_partner_anonymises_them_in_ended_tournaments(env):
    tid = await create(env, "quash", {}, table_size=4)
    await env.tournaments.join(tid, PEOPLE[0], PEOPLE[1])
    await env.tournaments.cancel(tid, HOST, is_admin=False)
    await env.games.results.forget(PEOPLE[1].user_id, names=["Ben"])
    (entry,) = await env.read(lambda db: tstore.entrants(db, tid))
    assert (entry.user_id, entry.partner_id, entry.label) == (1, None, "Ana & Former player")


def test_a_dropped_entrant_forfeits_in_a_knockout_even_when_the_ai_wins_for_them():
    from bot.tournaments.records import EntrantRow, RoundTableRow, SeatResult, TableResult
    from bot.tournaments.scoring import knockout_results
    from games.tournament import Bracket

    def entrant(number: int, dropped: int | None = None) -> EntrantRow:
        return EntrantRow(1, number, number, f"P{number}", None, None, 0, True, dropped, None)

    bracket = Bracket((1, 2, 3, 4))
    tables = [RoundTableRow(1, 1, 1, (1, 4), False, 90, 10), RoundTableRow(1, 1, 2, (2, 3), False, 91, 11),
              RoundTableRow(1, 2, 1, (1, 2), False, 92, 12)]
    recorded = [TableResult(1, 1, 10, "finished", (SeatResult(0, 2, 0), SeatResult(1, 1, 5))),
                TableResult(1, 2, 11, "abandoned", (SeatResult(0, None, None), SeatResult(1, None, None))),
                TableResult(2, 1, 12, "finished", (SeatResult(0, 1, 9), SeatResult(1, 2, 0)))]
    # 4 was dropped in round 1, after the AI had won for them; 1 in round 2, where they won.
    found = knockout_results(bracket, [entrant(1, 2), entrant(2), entrant(3), entrant(4, 1)], tables, recorded)
    assert [{f.entrant: f.place for f in r.finishes} for r in found] == [{1: 1, 4: 2}, {2: 1, 3: 1}, {1: 2, 2: 1}]
    # The abandoned table is a tie: the better seed (2) goes through, and wins the final by 1's forfeit.
    assert bracket.placings(found) == ((2,), (1,), (3, 4))
