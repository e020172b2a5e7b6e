"""Results and ratings on both backends (a real SQLite file, a real PostgreSQL database): every
kind of table, resets, forgetting."""

from __future__ import annotations

import json
import re

import pytest

from bot.forgetting import FORGOTTEN_NAME
from bot.ratings import OVERALL, PROVISIONAL_GAMES, display_rating
from bot.results import Results
from bot.service import GameService, Player
from bot.storage import SeatRow, Storage, TableRow

ANA, BEN, CAT = Player(1, "Ana", 9), Player(2, "Ben", 9), Player(3, "Cat", 9)


@pytest.fixture
async def service(db_url):
    storage = await Storage.open(db_url)
    service = GameService(storage, ai_delay=0, new_seed=lambda: 11)
    yield service
    await service.close()
    await storage.close()


async def play_out(service: GameService, table_id: int, players: list[Player]) -> None:
    """Humans play their first legal move until the game ends, AI seats theirs.

    Only an AI's turn is waited for, and the table's publishing once at the end: a bot in
    Discord then shows only the newest state, as it does when people click quickly."""
    for _ in range(2000):
        snap = await service.table(table_id)
        if snap.row.status != "running":
            await service.wait_idle()
            return
        seat = snap.view["to_act"][0]
        player = next((p for p in players if snap.row.seat_of(p.user_id) and snap.row.seat_of(p.user_id).seat == seat),
                      None)
        if player is None:
            await service.wait_idle()
            continue
        hand = await service.play.hand(table_id, player)
        await service.play.move(table_id, player, hand.version, hand.actions[0])
    raise AssertionError("game did not end")


async def finished_game(service, players, *, ai=0, channel=50, game="q2j", options=None) -> int:
    snap = await service.lobbies.open(guild_id=9, channel_id=channel, game_id=game, options=options or {},
                                    host=players[0], timer_minutes=0)
    for p in players[1:]:
        await service.lobbies.join(snap.row.id, p)
    for _ in range(ai):
        await service.lobbies.add_ai(snap.row.id, players[0])
    await service.lobbies.start(snap.row.id, players[0])
    await play_out(service, snap.row.id, players)
    return snap.row.id


async def rows(service, sql, *params):
    return [tuple(r) for r in await service.storage.run_read(lambda db: db.fetch(sql, params))]


async def test_two_player_game_is_recorded_and_rated(service):
    table_id = await finished_game(service, [ANA, BEN])
    result = await rows(service, "SELECT status, rated, game_id, guild_id, channel_id FROM results")
    assert result == [("finished", 1, "q2j", 9, 50)]
    seats = await rows(service, "SELECT user_id, place, won, is_ai FROM result_seats ORDER BY place")
    assert [s[1:] for s in seats] == [(1, 1, 0), (2, 0, 0)]
    winner, loser = seats[0][0], seats[1][0]
    ratings = dict(await rows(service, "SELECT user_id, mu FROM ratings WHERE game_id = 'q2j'"))
    assert ratings[winner] > 25 > ratings[loser]
    assert len(await rows(service, "SELECT * FROM ratings WHERE game_id = ?", OVERALL)) == 2
    assert len(await rows(service, "SELECT * FROM rating_history")) == 4
    # Recording is idempotent.
    assert not await service.results.record(await service.storage.get_table(table_id))


async def test_multi_player_places_order_the_ratings(service):
    await finished_game(service, [ANA, BEN, CAT])
    places = dict(await rows(service, "SELECT user_id, place FROM result_seats"))
    assert sorted(places.values())[0] == 1 and len(places) == 3
    mu = dict(await rows(service, "SELECT user_id, mu FROM ratings WHERE game_id = 'q2j'"))
    by_place = sorted(places, key=places.get)
    assert mu[by_place[0]] == max(mu.values()) and mu[by_place[-1]] == min(mu.values())


async def test_games_with_ai_seats_are_recorded_but_not_rated(service):
    await finished_game(service, [ANA], ai=2)
    assert await rows(service, "SELECT rated FROM results") == [(0,)]
    assert await rows(service, "SELECT COUNT(*) FROM result_seats WHERE is_ai = 1") == [(2,)]
    assert await rows(service, "SELECT COUNT(*) FROM ratings") == [(0,)]
    board = await service.results.leaderboard(9, "q2j")
    assert [(e.user_id, e.games, e.rating) for e in board] == [(1, 1, None)]  # no AI on the board


async def test_abandoned_games_are_recorded_as_abandoned(service):
    snap = await service.lobbies.open(guild_id=9, channel_id=50, game_id="q2j", options={}, host=ANA, timer_minutes=0)
    await service.lobbies.join(snap.row.id, BEN)
    await service.lobbies.start(snap.row.id, ANA)
    await service.play.end(snap.row.id, ANA, is_admin=False)
    assert await rows(service, "SELECT status, rated FROM results") == [("abandoned", 0)]
    assert await rows(service, "SELECT place, won FROM result_seats") == [(None, 0), (None, 0)]
    assert await service.results.leaderboard(9, None) == []


def team_row(table_id: int, ranking, teams, users=(1, 2, 3, 4)) -> TableRow:
    return TableRow(
        id=table_id, guild_id=9, channel_id=50, game_id="q2j", options={}, host_id=users[0], status="finished",
        seed=1, version=10, state=None, timer_minutes=0, deadline=None, reminded=False, recent_events=[],
        outcome={"winners": list(ranking[0]), "ranking": [list(g) for g in ranking], "scores": [30, 12, 30, 12],
                 "reason": "{p0} and {p2} win", "teams": [list(t) for t in teams]},
        lobby_message_id=None, table_message_id=None, ping_message_id=None, created_at=0.0, started_at=0.0,
        finished_at=100.0 + table_id, seats=[SeatRow(i, u, f"P{u}", False) for i, u in enumerate(users)],
    )


async def test_teams_are_rated_as_teams(service):
    await service.storage.run_write(lambda conn: conn.execute(
        "INSERT INTO tables (id, guild_id, channel_id, game_id, options, host_id, status, seed, timer_minutes,"
        " created_at) VALUES (1, 9, 50, 'q2j', '{}', 1, 'finished', 1, 0, 0)"))
    await service.results.record(team_row(1, [(0, 2), (1, 3)], [(0, 2), (1, 3)]))
    mu = dict(await rows(service, "SELECT user_id, mu FROM ratings WHERE game_id = 'q2j'"))
    assert mu[1] == mu[3] > 25 > mu[2] == mu[4]
    teams = dict(await rows(service, "SELECT user_id, team FROM result_seats"))
    assert teams == {1: 0, 3: 0, 2: 1, 4: 1}


async def test_leaderboard_sorts_and_reset_starts_afresh(service):
    for _ in range(3):
        await finished_game(service, [ANA, BEN])
    board = await service.results.leaderboard(9, "q2j", "wins")
    assert [e.wins for e in board] == sorted((e.wins for e in board), reverse=True)
    assert sum(e.games for e in board) == 6
    by_rating = await service.results.leaderboard(9, None, "rating")
    assert by_rating[0].rating >= by_rating[1].rating
    await service.results.reset_leaderboard(9, now=10**12)
    assert await service.results.leaderboard(9, None) == []
    assert len(await service.results.history(9)) == 3  # history stays
    assert (await service.results.stats(9, ANA.user_id, None)).rating is None


async def test_rated_games_are_counted_for_the_provisional_mark(service):
    await finished_game(service, [ANA], ai=1)  # recorded, not rated
    for _ in range(2):
        await finished_game(service, [ANA, BEN])
    board = {e.user_id: e for e in await service.results.leaderboard(9, "q2j")}
    assert (board[ANA.user_id].games, board[ANA.user_id].rated_games) == (3, 2)
    assert (board[BEN.user_id].games, board[BEN.user_id].rated_games) == (2, 2)
    stats = await service.results.stats(9, ANA.user_id, None)
    assert (stats.games, stats.rated_games) == (3, 2) and 2 < PROVISIONAL_GAMES


def test_the_displayed_rating_is_a_friendly_whole_number():
    assert display_rating(0.0) == 1000  # a new player (μ 25, σ 25/3)
    assert display_rating(-1.8) == 928 and display_rating(2.26) == 1090


async def test_stats_and_history(service):
    empty = await service.results.stats(9, ANA.user_id, None)
    assert (empty.games, empty.wins, empty.rating, empty.per_game, empty.history) == (0, 0, None, [], [])
    await finished_game(service, [ANA, BEN])
    await finished_game(service, [ANA, BEN], channel=51, game="war")
    stats = await service.results.stats(9, ANA.user_id, None)
    assert stats.games == 2 and stats.rating is not None
    assert stats.favourite == "war"  # as many games of each: the latest played
    assert [(t.game_id, t.games, t.rated_games) for t in stats.per_game] == [("war", 1, 1), ("q2j", 1, 1)]
    assert sum(t.wins for t in stats.per_game) == stats.wins
    assert [point.game_id for point in stats.history] == ["q2j", "war"]  # oldest first, one per rated game
    assert all(point.rating == t.rating for point, t in zip(stats.history, reversed(stats.per_game)))
    only = await service.results.stats(9, ANA.user_id, "war")
    assert [t.game_id for t in only.per_game] == ["war"] and [p.game_id for p in only.history] == ["war"]
    assert [line.game_id for line in await service.results.history(9, channel_id=51)] == ["war"]
    assert len(await service.results.history(9, user_id=CAT.user_id)) == 0
    log = await service.results.move_log(1, guild_id=9)
    assert log[0].startswith("Dealt") and any("drew" in line or "played" in line for line in log)
    assert await service.results.move_log(1, guild_id=8) is None  # another server's game


async def test_forget_removes_a_person(service):
    await finished_game(service, [ANA, BEN])
    snap = await service.lobbies.open(guild_id=9, channel_id=60, game_id="q2j", options={}, host=ANA, timer_minutes=0)
    assert await service.results.open_seats_of(ANA.user_id) == 1
    await service.lobbies.cancel(snap.row.id, ANA)
    assert await service.results.forget(ANA.user_id) == 1
    assert await rows(service, "SELECT COUNT(*) FROM result_seats WHERE user_id = 1") == [(0,)]
    assert await rows(service, "SELECT COUNT(*) FROM result_seats WHERE name = ?", FORGOTTEN_NAME) == [(1,)]
    assert await rows(service, "SELECT COUNT(*) FROM ratings WHERE user_id = 1") == [(0,)]
    assert await rows(service, "SELECT COUNT(*) FROM rating_history WHERE user_id = 1") == [(0,)]
    assert await rows(service, "SELECT COUNT(*) FROM seats WHERE user_id = 1") == [(0,)]
    assert [e.user_id for e in await service.results.leaderboard(9, None)] == [BEN.user_id]
    assert (await service.results.stats(9, ANA.user_id, None)).games == 0


async def test_start_up_records_results_a_crash_left_unrecorded(service, tmp_path):
    await finished_game(service, [ANA, BEN])
    await service.storage.run_write(lambda conn: conn.execute("DELETE FROM results"))
    fresh = GameService(service.storage, ai_delay=0)
    await fresh.restore()
    assert await rows(service, "SELECT COUNT(*) FROM results") == [(1,)]
    assert isinstance(fresh.results, Results)


async def test_a_real_team_game_is_recorded_with_teams_and_rated_as_teams(service):
    dan = Player(4, "Dan", 9)
    table_id = await finished_game(service, [ANA, BEN, CAT, dan], game="quash", options={"finish": 5})
    teams = dict(await rows(service, "SELECT seat, team FROM result_seats WHERE table_id = ?", table_id))
    assert teams == {0: 0, 1: 1, 2: 0, 3: 1}
    won = dict(await rows(service, "SELECT seat, won FROM result_seats WHERE table_id = ?", table_id))
    assert won[0] == won[2] and won[1] == won[3] and won[0] != won[1]
    mu = dict(await rows(service, "SELECT user_id, mu FROM ratings WHERE game_id = 'quash'"))
    assert mu[ANA.user_id] == mu[CAT.user_id] and mu[BEN.user_id] == mu[dan.user_id]
    points = await rows(service, "SELECT score FROM result_seats WHERE table_id = ? ORDER BY seat", table_id)
    board = await service.results.leaderboard(9, "quash", "points")
    assert sorted(e.points for e in board) == sorted(p for (p,) in points)


async def test_forget_scrubs_whole_names_only_and_keeps_the_others(service):
    al, alice = Player(7, "Al", 9), Player(8, "Alice", 9)
    table_id = await finished_game(service, [al, alice])
    await service.storage.run_write(lambda conn: conn.execute(
        "UPDATE results SET summary = 'Al beat Alice; Alice shook hands with Al.' WHERE table_id = ?", (table_id,)))
    assert await service.results.forget(al.user_id, names=["Al"]) == 1
    [line] = await service.results.history(9)
    assert line.summary.render() == "Former player beat Alice; Alice shook hands with Former player."
    assert [p[0] for p in line.players] == ["Former player", "Alice"]
    events = (await service.storage.get_table(table_id)).recent_events
    assert not re.search(r"(?<!\w)Al(?!\w)", json.dumps(events, ensure_ascii=False))


async def test_forget_rewrites_an_enders_line_stored_either_way(service):
    """"<name> ended the game." in a game the person did not play: found whether the event
    lines were stored with other alphabets escaped (older rows) or as they are (moves now)."""
    zoe = Player(12, "Zoë Ørsted", 9)
    line = f"{zoe.name} ended the game."
    table_ids = [await finished_game(service, [ANA, BEN], channel=70 + i) for i in range(2)]
    for table_id, text in zip(table_ids, (json.dumps([line]), json.dumps([line], ensure_ascii=False))):
        await service.storage.run_write(lambda db, t=table_id, x=text: db.execute(
            "UPDATE tables SET recent_events = ? WHERE id = ?", (x, t)))
    await service.results.forget(zoe.user_id, names=[zoe.name])
    for table_id in table_ids:
        assert (await service.storage.get_table(table_id)).recent_events == [f"{FORGOTTEN_NAME} ended the game."]


async def test_forget_rewrites_a_moderators_ender_line_stored_as_data(service):
    """A moderator who ends a game they don't play in is named in its last event and its
    summary (stored as data, read in any language); forgetting them leaves neither."""
    mod = Player(13, "Zoë Ørsted", 9)
    snap = await service.lobbies.open(guild_id=9, channel_id=80, game_id="q2j", options={}, host=ANA, timer_minutes=0)
    await service.lobbies.join(snap.row.id, BEN)
    await service.lobbies.start(snap.row.id, ANA)
    await service.play.end(snap.row.id, mod, is_admin=True)
    [line] = await service.results.history(9)
    assert line.summary.render() == "Zoë Ørsted ended the game."
    assert line.summary.render("fr") == "Zoë Ørsted a mis fin à la partie."
    await service.results.forget(mod.user_id, names=[mod.name])
    [line] = await service.results.history(9)
    assert line.summary.render() == f"{FORGOTTEN_NAME} ended the game."
    events = (await service.storage.get_table(snap.row.id)).recent_events
    assert mod.name not in json.dumps(events, ensure_ascii=False) and FORGOTTEN_NAME in json.dumps(events)


async def test_a_seated_players_lines_name_their_seat(service):
    """The service's own lines are stored with seats, not names: a table's latest events and
    /history name the seat as it is named when read (so forgetting renames it everywhere)."""
    snap = await service.lobbies.open(guild_id=9, channel_id=81, game_id="q2j", options={}, host=ANA, timer_minutes=0)
    await service.lobbies.join(snap.row.id, BEN)
    await service.lobbies.start(snap.row.id, ANA)
    await service.play.end(snap.row.id, ANA, is_admin=False)
    stored = json.dumps((await service.storage.get_table(snap.row.id)).recent_events)
    assert "Ana" not in stored and "Ben" not in stored
    [line] = await service.results.history(9)
    assert line.summary.render("fr", line.names()) == "Ana a mis fin à la partie."
    await service.results.forget(ANA.user_id)
    [line] = await service.results.history(9)
    assert line.summary.render("fr", line.names()) == f"{FORGOTTEN_NAME} a mis fin à la partie."
