"""Seasons on both backends: season ratings start from the all-time ones with their uncertainty
raised and never change them; who is ranked and who is listed; an end at its time through a
restart, posted once, also with two processes on one PostgreSQL database; archived standings
equal a recomputation from the results; reminders, rollover and refusals."""

from __future__ import annotations

import asyncio
import math

import pytest

from bot.errors import UserError
from bot.ratings import MODEL, OVERALL, SEASON_SIGMA, ordinal, rate, season_start
from bot.seasons import REMINDER_SECONDS, Board, Season, period
from bot.service import GameService, Player
from bot.storage import Storage
from tests.test_results import finished_game, rows
from tests.test_service import Clock, Recorder

G = 9
ANA, BEN, CAT = Player(1, "Ana", G), Player(2, "Ben", G), Player(3, "Cat", G)
DAY = 24 * 60 * 60


class Herald:
    """The Discord layer's part, recorded: what the seasons asked to post."""

    def __init__(self) -> None:
        self.ended: list[tuple[Season, list[Board]]] = []
        self.reminded: list[Season] = []

    async def season_ended(self, season, boards):
        self.ended.append((season, boards))

    async def season_ends_soon(self, season, boards):
        self.reminded.append(season)


async def new_service(db_url, clock) -> GameService:
    service = GameService(await Storage.open(db_url), ai_delay=0, clock=clock, new_seed=lambda: 11)
    service.publisher = Recorder()
    service.seasons.herald = Herald()
    return service


async def stop(service: GameService) -> None:
    await service.close()
    await service.storage.close()


@pytest.fixture
async def timed(db_url):
    clock = Clock()
    service = await new_service(db_url, clock)
    yield service, clock
    await stop(service)


async def ratings(service, table: str, where: str = "") -> dict[tuple[str, int], tuple[float, float, int]]:
    found = await rows(service, f"SELECT game_id, user_id, mu, sigma, rated_games FROM {table} {where}")
    return {(r[0], r[1]): (r[2], r[3], r[4]) for r in found}


async def places(service, table_id: int) -> tuple[dict[int, int], list[list[int]], dict[int, int]]:
    """A result's seats as stored: seat → user, the teams, seat → place."""
    seats = await rows(service, "SELECT seat, user_id, team, place FROM result_seats WHERE table_id = ? ORDER BY seat",
                       table_id)
    teams: dict[int, list[int]] = {}
    for seat, _, team, _ in seats:
        teams.setdefault(team, []).append(seat)
    return {s[0]: s[1] for s in seats}, list(teams.values()), {s[0]: s[3] for s in seats}


async def test_season_ratings_start_from_all_time_less_sure_and_never_change_it(timed) -> None:
    service, _ = timed
    await finished_game(service, [ANA, BEN])
    await service.storage.run_write(lambda db: db.execute("UPDATE ratings SET sigma = 3.0"))  # regulars by now
    before = await ratings(service, "ratings")
    await service.seasons.start(G, 50, "Spring", None)
    table_id = await finished_game(service, [ANA, BEN])
    users, teams, place_of = await places(service, table_id)
    after = await ratings(service, "ratings")
    in_season = await ratings(service, "season_ratings")
    for game_id in ("q2j", OVERALL):
        old = {seat: before[(game_id, user)][:2] for seat, user in users.items()}
        for seat, expected in rate(old, teams, place_of).items():  # all time: as if no season ran
            assert after[(game_id, users[seat])][:2] == pytest.approx(expected)
        soft = {seat: season_start(rating) for seat, rating in old.items()}
        assert all(sigma == SEASON_SIGMA > old[seat][1] for seat, (_, sigma) in soft.items())
        for seat, expected in rate(soft, teams, place_of).items():
            assert in_season[(game_id, users[seat])] == pytest.approx((*expected, 1))
    moved = {user: abs(in_season[("q2j", user)][0] - before[("q2j", user)][0]) for user in users.values()}
    assert all(moved[u] > abs(after[("q2j", u)][0] - before[("q2j", u)][0]) for u in moved)  # moves more
    second = await finished_game(service, [ANA, BEN])  # from the season's own rating now, not reset again
    users, teams, place_of = await places(service, second)
    again = await ratings(service, "season_ratings")
    for seat, expected in rate({s: in_season[("q2j", u)][:2] for s, u in users.items()}, teams, place_of).items():
        assert again[("q2j", users[seat])] == pytest.approx((*expected, 2))


async def test_a_newcomer_starts_the_season_as_a_newcomer(timed) -> None:
    service, _ = timed
    await service.seasons.start(G, 50, "Spring", None)
    await finished_game(service, [ANA, BEN])
    assert season_start((MODEL.mu, MODEL.sigma)) == (MODEL.mu, MODEL.sigma)
    assert (await ratings(service, "ratings")).keys() == (await ratings(service, "season_ratings")).keys()


async def test_a_player_is_ranked_in_a_season_from_the_minimum_of_rated_games(timed) -> None:
    service, _ = timed
    season = await service.seasons.start(G, 50, "Spring", None)
    await finished_game(service, [ANA], ai=1)  # not rated: not toward the minimum
    for _ in range(4):
        await finished_game(service, [ANA, BEN])
    assert await service.results.leaderboard(G, None, season=season) == []
    await finished_game(service, [ANA, BEN])
    board = await service.results.leaderboard(G, "q2j", season=season)
    assert sorted((e.user_id, e.rated_games, e.games) for e in board) == [(ANA.user_id, 5, 6), (BEN.user_id, 5, 5)]
    await service.storage.set_guild_settings(G, season_min_games=6)
    assert await service.results.leaderboard(G, "q2j", season=season) == []
    stats = await service.results.stats(G, ANA.user_id, "q2j")
    assert stats.season is not None and (stats.season.rated_games, stats.season.games) == (5, 6)


async def test_the_all_time_board_lists_players_active_lately(timed) -> None:
    service, clock = timed
    await finished_game(service, [ANA, BEN])
    clock.now += 59 * DAY
    await finished_game(service, [ANA, CAT], channel=51)
    assert {e.user_id for e in await service.results.leaderboard(G, None)} == {1, 2, 3}
    clock.now += 2 * DAY  # Ben's only game is 61 days old
    assert {e.user_id for e in await service.results.leaderboard(G, None)} == {1, 3}
    await service.storage.set_guild_settings(G, active_days=0)
    assert {e.user_id for e in await service.results.leaderboard(G, None)} == {1, 2, 3}
    await service.storage.set_guild_settings(G, active_days=1)
    assert await service.results.leaderboard(G, None) == []


async def recomputed(service, season: Season, min_games: int,
                     all_time: dict[tuple[str, int], tuple[float, float]]) -> dict[str, list[tuple]]:
    """The season's standings recomputed from its results alone: ratings replayed from each
    player's ``all_time`` rating before the season (a newcomer's if none), less sure; games and
    wins counted."""
    results = await rows(service, "SELECT table_id, game_id, rated FROM results WHERE guild_id = ? AND status ="
                                  " 'finished' AND finished_at >= ? AND finished_at < ? ORDER BY finished_at, table_id",
                         G, season.started_at, season.until)
    rating: dict[tuple[str, int], tuple[tuple[float, float], int]] = {}
    counted: dict[tuple[str, int], list[int]] = {}
    for table_id, game_id, rated in results:
        users, teams, place_of = await places(service, table_id)
        for board in (game_id, OVERALL):
            for seat, user in users.items():
                won = place_of[seat] == 1
                tally = counted.setdefault((board, user), [0, 0])
                tally[0], tally[1] = tally[0] + 1, tally[1] + won
            if not rated:
                continue
            for seat, user in users.items():
                if (board, user) not in rating:  # their first season game: no all-time game came between
                    rating[(board, user)] = (season_start(all_time.get((board, user), (MODEL.mu, MODEL.sigma))), 0)
            new = rate({s: rating[(board, u)][0] for s, u in users.items()}, teams, place_of)
            for seat, user in users.items():
                rating[(board, user)] = (new[seat], rating[(board, user)][1] + 1)
    boards: dict[str, list[tuple]] = {}
    for (board, user), ((mu, sigma), games_rated) in rating.items():
        if games_rated >= min_games:
            boards.setdefault(board, []).append((user, ordinal(mu, sigma), games_rated, *counted[(board, user)]))
    return {board: [(place, *entry) for place, entry in enumerate(
        sorted(found, key=lambda e: (-e[1], -e[4], e[0])), start=1)] for board, found in boards.items()}


async def test_a_season_ends_at_its_time_through_a_restart_once_and_its_archive_is_a_recomputation(db_url) -> None:
    clock = Clock()
    service = await new_service(db_url, clock)
    await service.storage.set_guild_settings(G, season_min_games=2)
    await finished_game(service, [ANA, BEN])
    before = {key: value[:2] for key, value in (await ratings(service, "ratings")).items()}
    clock.now += 60
    season = await service.seasons.start(G, 50, "Spring", clock.now + 10 * DAY)
    assert service.seasons.scheduled(season.id)
    for players, game in (([ANA, BEN], "q2j"), ([BEN, CAT], "war"), ([ANA, CAT], "q2j"), ([ANA, BEN], "war"),
                          ([CAT, ANA], "war")):
        await finished_game(service, players, game=game)
        clock.now += 60
    await finished_game(service, [ANA], ai=1)
    await stop(service)

    clock.now = season.ends_at - REMINDER_SECONDS / 2  # down past the reminder's time: reminded at start-up
    service = await new_service(db_url, clock)
    await service.restore()
    await service.wait_idle()
    assert [s.id for s in service.seasons.herald.reminded] == [season.id] and not service.seasons.herald.ended
    await stop(service)

    clock.now = season.ends_at + 3600  # down at the end: ended at start-up, at its time
    service = await new_service(db_url, clock)
    await finished_game(service, [ANA, BEN])  # after the end: not the season's
    await service.restore()
    await service.wait_idle()
    ((ended, boards),) = service.seasons.herald.ended
    assert not service.seasons.herald.reminded
    assert ended.id == season.id and ended.ended_at == season.ends_at
    archived = {b.game_id: [(s.place, s.user_id, s.rating, s.rated_games, s.games, s.wins) for s in b.standings]
                for b in boards}
    expected = await recomputed(service, ended, 2, before)
    assert archived.keys() == expected.keys() == {OVERALL, "q2j", "war"}
    for board, standing in expected.items():
        assert len(archived[board]) == len(standing), board
        for got, wanted in zip(archived[board], standing):
            assert got[:2] == wanted[:2] and got[2] == pytest.approx(wanted[2]) and got[3:] == wanted[3:], board
    champions = await rows(service, "SELECT user_id, tier, season_id FROM achievements WHERE achievement ="
                                    " 'champion'")
    assert {(u, t, s) for u, t, s in champions} == {(expected[b][0][1], 1, season.id) for b in expected}
    await stop(service)

    service = await new_service(db_url, clock)  # posted: never again
    await service.restore()
    await service.wait_idle()
    assert not service.seasons.herald.ended
    assert await rows(service, "SELECT announced, reminded FROM seasons") == [(1, 1)]
    await stop(service)


async def test_two_processes_on_postgresql_end_a_season_once(pg_url) -> None:
    clock = Clock()
    first, second = await new_service(pg_url, clock), await new_service(pg_url, clock)
    await first.storage.set_guild_settings(G, season_min_games=1)
    season = await first.seasons.start(G, 50, "Spring", clock.now + 60)
    await finished_game(first, [ANA, BEN])
    await second.restore()  # both time it: each thinks it owns the server's shard
    clock.now += 61
    await asyncio.gather(first.restore(), second.restore())
    await asyncio.gather(first.wait_idle(), second.wait_idle())
    posts = first.seasons.herald.ended + second.seasons.herald.ended
    assert [s.id for s, _ in posts] == [season.id]
    assert await rows(first, "SELECT COUNT(*) FROM season_standings") == [(4,)]  # 2 players, q2j and overall
    assert await rows(first, "SELECT announced FROM seasons") == [(1,)]
    await stop(first)
    await stop(second)


async def test_ended_by_command_rolling_over_and_refused(timed) -> None:
    service, clock = timed
    with pytest.raises(UserError, match="No season is running"):
        await service.seasons.end_now(G)
    with pytest.raises(UserError, match="in the past"):
        await service.seasons.start(G, 50, "Spring", clock.now - 1)
    for blank in ("", "   "):
        with pytest.raises(UserError, match="name"):
            await service.seasons.start(G, 50, blank, None)
    with pytest.raises(UserError, match="at most 40"):
        await service.seasons.start(G, 50, "x" * 41, None)
    spring = await service.seasons.start(G, 50, "  Spring   2025 ", None)
    assert spring.name == "Spring 2025" and spring.ends_at is None and not service.seasons.scheduled(spring.id)
    with pytest.raises(UserError, match="is running"):
        await service.seasons.start(G, 50, "Summer", None)
    ended = await service.seasons.end_now(G)
    assert ended.ended_at == clock.now and [s.id for s, _ in service.seasons.herald.ended] == [spring.id]
    with pytest.raises(UserError, match="already had a season named"):
        await service.seasons.start(G, 50, "spring 2025", None)
    assert await service.storage.run_read(lambda db: db.fetchval("SELECT COUNT(*) FROM seasons")) == 1

    started = await service.seasons.roll_over(G, 51, "monthly")
    name, end = period("monthly", clock.now)
    assert started is not None and (started.name, started.ends_at, started.channel_id) == (name, end, 51)
    clock.now = end + 1
    await service.restore()
    await service.wait_idle()
    following = await service.seasons.current(G)
    assert following is not None and following.started_at == end and following.name == period("monthly", end)[0]
    assert [s.name for s, _ in service.seasons.herald.ended] == ["Spring 2025", name]
    # A rollover set or turned off while a season runs starts none and ends none.
    for rollover in ("quarterly", None):
        assert await service.seasons.roll_over(G, 52, rollover) is None
        assert (await service.storage.guild_settings(G)).season_rollover == rollover
        assert await service.seasons.current(G) == following


async def test_two_ends_at_once_end_the_season_once(timed) -> None:
    """Two moderators' ``/season end`` at the same moment: one ends it, the other is told it just ended
    (or, where the other's end came first, that none runs)."""
    service, _ = timed
    spring = await service.seasons.start(G, 50, "Spring", None)
    first, second = await asyncio.gather(service.seasons.end_now(G), service.seasons.end_now(G),
                                         return_exceptions=True)
    ended, refused = (first, second) if isinstance(second, UserError) else (second, first)
    assert isinstance(refused, UserError) and str(refused) in (
        "The season had just ended.", "No season is running here: start one with `/season start`.")
    assert isinstance(ended, Season) and ended.id == spring.id
    assert [s.id for s, _ in service.seasons.herald.ended] == [spring.id]
    assert await rows(service, "SELECT COUNT(*) FROM seasons WHERE ended_at IS NOT NULL") == [(1,)]


class RefusingHerald(Herald):
    """Discord refusing every post (a missing permission, an outage), noting each attempt."""

    def __init__(self) -> None:
        super().__init__()
        self.tried: list[str] = []

    async def season_ended(self, season, boards):
        self.tried.append(f"end {season.id}")
        raise RuntimeError("Discord refused the post")

    async def season_ends_soon(self, season, boards):
        self.tried.append(f"reminder {season.id}")
        raise RuntimeError("Discord refused the post")


async def test_an_end_discord_refused_stands_and_is_posted_once_after_a_restart(db_url, caplog) -> None:
    clock = Clock()
    service = await new_service(db_url, clock)
    service.seasons.herald = refusing = RefusingHerald()
    spring = await service.seasons.start(G, 50, "Spring", clock.now + 10 * DAY)
    ended = await service.seasons.end_now(G)  # ended, though its post was refused: tried again in 30 s
    assert ended.id == spring.id and refusing.tried == [f"end {spring.id}"]
    assert "could not post the end of season" in caplog.text and service.seasons.scheduled(spring.id)
    assert await service.seasons.current(G) is None
    assert await rows(service, "SELECT announced FROM seasons") == [(0,)]
    await stop(service)  # the process stops before trying again

    service = await new_service(db_url, clock)
    await service.restore()
    await service.wait_idle()
    assert [(s.id, s.ended_at) for s, _ in service.seasons.herald.ended] == [(spring.id, clock.now)]
    assert await rows(service, "SELECT announced FROM seasons") == [(1,)]
    await stop(service)
    service = await new_service(db_url, clock)
    await service.restore()
    await service.wait_idle()
    assert not service.seasons.herald.ended  # posted once
    await stop(service)


async def test_a_reminder_is_tried_once_by_one_process_even_when_discord_refused_it(db_url) -> None:
    """Marked before it goes: of two processes timing the season, one tries; a refusal is not tried again."""
    clock = Clock()
    first, second = await new_service(db_url, clock), await new_service(db_url, clock)
    first.seasons.herald, second.seasons.herald = RefusingHerald(), RefusingHerald()
    spring = await first.seasons.start(G, 50, "Spring", clock.now + 10 * DAY)
    clock.now = spring.ends_at - REMINDER_SECONDS / 2
    await asyncio.gather(first.restore(), second.restore())
    await asyncio.gather(first.wait_idle(), second.wait_idle())
    assert first.seasons.herald.tried + second.seasons.herald.tried == [f"reminder {spring.id}"]
    assert await rows(first, "SELECT reminded, ended_at FROM seasons") == [(1, None)]
    assert first.seasons.scheduled(spring.id) and second.seasons.scheduled(spring.id)  # its end, still to come
    await stop(first)
    await stop(second)


def test_periods_follow_the_calendar_in_utc() -> None:
    march = 1_741_000_000.0  # 2025-03-03
    assert period("monthly", march) == ("2025-03", 1_743_465_600.0)  # 2025-04-01 00:00 UTC
    assert period("quarterly", march) == ("2025-Q1", 1_743_465_600.0)
    assert period("quarterly", 1_767_000_000.0) == ("2025-Q4", 1_767_225_600.0)  # into 2026
    assert math.isclose(period("monthly", 1_767_225_600.0)[1], 1_769_904_000.0)  # January 2026 ends


class SlowHerald(Herald):
    """Discord taking its time over each end's post: every post waits for ``go``."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()

    async def season_ended(self, season, boards):
        self.ended.append((season, boards))
        await self.go.wait()


async def test_an_end_being_posted_is_not_posted_again_by_a_restore_meanwhile(tmp_path) -> None:
    """The process takes over its shards again (``restore``) while a season's end it ended is still
    being posted: the end is posted once (on SQLite, whose one thread answers in order, so the
    restore's work has gone as far as it can before the post completes)."""
    clock = Clock()
    service = await new_service(str(tmp_path / "deckhand.sqlite3"), clock)
    service.seasons.herald = slow = SlowHerald()
    spring = await service.seasons.start(G, 50, "Spring", clock.now + DAY / 2)
    clock.now = spring.ends_at
    await service.restore()  # the end is due: ended, and its post is under way
    while not slow.ended:
        await service.storage.run_read(lambda db: db.fetchval("SELECT 1"))
    await service.restore()  # reads the season ended and not announced yet
    for _ in range(10):
        await service.storage.run_read(lambda db: db.fetchval("SELECT 1"))
    slow.go.set()
    await service.wait_idle()
    assert [s.id for s, _ in slow.ended] == [spring.id]
    assert await rows(service, "SELECT announced FROM seasons") == [(1,)]
    await stop(service)
