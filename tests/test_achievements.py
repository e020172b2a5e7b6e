"""Achievements: every shared one unlocks at its tier and not one short (from built facts);
stored after each game on both backends (AI tables count toward games finished only), told in
the ending or privately when secret, recomputed to the same rows (twice: no change), backfilled
when missing, and forgotten with the person."""

from __future__ import annotations

import asyncio

import pytest

from bot.__main__ import main
from bot.achievements import (
    CHAMPION,
    GAMES_TIERS,
    PLACING,
    RATING,
    RATING_TIERS,
    STREAK,
    GameFact,
    RatingPoint,
    Title,
    catalog,
    champion_unlocks,
    game_unlocks,
    placing_unlocks,
    played_id,
    rating_unlocks,
    won_id,
)
from bot.service import GameService
from bot.storage import Storage
from tests.test_results import ANA, BEN, finished_game, rows
from tests.test_seasons import new_service, stop
from tests.test_service import Clock

G = 9  # the server


@pytest.fixture
async def service(db_url):
    service = await new_service(db_url, Clock())
    yield service
    await stop(service)


def facts(*kinds: str, game: str = "war") -> list[GameFact]:
    """Games in order: ``w`` a rated win, ``l`` a rated loss, ``a`` a game with an AI seat (won)."""
    return [GameFact(n, game, float(n), kind != "a", kind in "wa") for n, kind in enumerate(kinds, start=1)]


def tiers(unlocks, achievement: str) -> list[int]:
    return [u.tier for u in unlocks if u.achievement == achievement]


def test_games_finished_count_every_table_and_wins_only_rated_ones() -> None:
    nine, ten = game_unlocks(G, 1, facts(*"a" * 9)), game_unlocks(G, 1, facts(*"a" * 10))
    assert tiers(nine, played_id("war")) == [1] and tiers(ten, played_id("war")) == [1, 10]
    assert tiers(ten, won_id("war")) == []  # games with an AI seat count toward volume only
    hundred = game_unlocks(G, 1, facts(*"w" * 99) + facts(*"a" * 5) + facts("w"))
    assert tiers(hundred, won_id("war")) == list(GAMES_TIERS)
    assert tiers(game_unlocks(G, 1, facts(*"w" * 99) + facts("l")), won_id("war")) == [1, 10]
    tenth = next(u for u in ten if u.achievement == played_id("war") and u.tier == 10)
    assert (tenth.table_id, tenth.at) == (10, 10.0)  # unlocked by the game that crossed it


def test_a_streak_counts_rated_wins_in_a_row() -> None:
    assert tiers(game_unlocks(G, 1, facts("w", "w", "l", "w", "w")), STREAK) == []
    assert tiers(game_unlocks(G, 1, facts("w", "w", "a", "w")), STREAK) == [3]  # an AI game breaks nothing
    assert tiers(game_unlocks(G, 1, facts(*"w" * 4) + facts("l") + facts(*"w" * 5)), STREAK) == [3, 5]


def test_a_rating_is_reached_at_the_figure_shown() -> None:
    just_short = RatingPoint(1, 1.0, (RATING_TIERS[0] - 1 - 1000) / 40)
    reached = RatingPoint(2, 2.0, (RATING_TIERS[0] - 1000) / 40)
    assert tiers(rating_unlocks(G, 1, [just_short]), RATING) == []
    assert [(u.tier, u.table_id) for u in rating_unlocks(G, 1, [just_short, reached])] == [(RATING_TIERS[0], 2)]


def test_season_titles_and_tournament_podiums() -> None:
    titles = [Title(n, float(n)) for n in range(1, 4)]
    assert tiers(champion_unlocks(G, 1, titles[:2]), CHAMPION) == [1]
    assert tiers(champion_unlocks(G, 1, titles), CHAMPION) == [1, 3]
    assert champion_unlocks(G, 1, titles)[1].season_id == 3
    assert placing_unlocks(G, 1, [(4, 1.0)]) == [] and tiers(placing_unlocks(G, 1, [(4, 1.0), (3, 2.0)]), PLACING)


def test_every_achievement_has_words_for_each_tier() -> None:
    for achievement in catalog().values():
        for tier in achievement.tiers:
            assert str(achievement.title(tier)) and str(achievement.description(tier)).endswith(".")


async def stored(service: GameService) -> list[tuple]:
    return await rows(service, "SELECT guild_id, user_id, achievement, tier, at, table_id, season_id"
                               " FROM achievements ORDER BY user_id, achievement, tier")


async def test_a_game_unlocks_and_its_ending_tells_what_is_not_secret(service) -> None:
    table_id = await finished_game(service, [ANA, BEN])
    first = await stored(service)
    assert {(r[1], r[2], r[3]) for r in first} >= {(ANA.user_id, played_id("q2j"), 1),
                                                   (BEN.user_id, played_id("q2j"), 1)}
    winner = next(r[1] for r in first if r[2] == won_id("q2j"))
    told = await service.results.unlocks.of_table(table_id)
    assert {(u.user_id, u.achievement) for u in told} == {(r[1], r[2]) for r in first
                                                          if not catalog()[r[2]].secret}
    snap = await service.table(table_id)
    assert winner in {u.user_id for u in told} and snap.row.status == "finished"
    await finished_game(service, [ANA, BEN])  # nothing stored twice, nothing told again at the second table
    second_table = (await stored(service))
    assert [r for r in second_table if r[5] == table_id] == [r for r in first if r[5] == table_id]


async def test_ai_tables_count_toward_games_finished_only(service) -> None:
    await finished_game(service, [ANA], ai=1)
    assert {r[2] for r in await stored(service)} <= {played_id("q2j")} | {
        a for a in catalog() if a.startswith("feat:q2j:")}


async def test_a_secret_unlock_waits_to_be_told_to_its_holder_alone(service) -> None:
    unlocks = service.results.unlocks
    table_id = await finished_game(service, [ANA, BEN])
    secret = next(a for a in catalog().values() if a.secret)
    await service.storage.run_write(lambda db: db.execute(
        "INSERT INTO achievements (guild_id, user_id, achievement, tier, at, table_id, announce)"
        " VALUES (?, ?, ?, 1, 1.0, ?, 'private')", (G, ANA.user_id, secret.id, table_id)))
    await unlocks.restore()
    assert unlocks.has_untold(G, ANA.user_id) and not unlocks.has_untold(G, BEN.user_id)
    assert secret.id not in {u.achievement for u in await unlocks.of_table(table_id)}
    untold = await unlocks.untold(G, ANA.user_id)
    assert [u.achievement for u in untold] == [secret.id]
    await unlocks.told(untold)
    assert await unlocks.untold(G, ANA.user_id) == [] and not unlocks.has_untold(G, ANA.user_id)


async def test_recomputing_twice_gives_the_same_rows_and_backfills(service) -> None:
    for _ in range(3):
        await finished_game(service, [ANA, BEN])
    await finished_game(service, [ANA], ai=1, game="war")
    after_games = await stored(service)
    first = await service.results.unlocks.recompute()
    assert await stored(service) == after_games  # what each game stored is what the history earns
    assert (first.added, first.removed, first.changed) == (0, 0, 0)
    await service.storage.run_write(lambda db: db.execute("DELETE FROM achievements WHERE achievement = ?",
                                                          (played_id("q2j"),)))
    await service.storage.run_write(lambda db: db.execute(
        "INSERT INTO achievements (guild_id, user_id, achievement, tier, at, announce) VALUES (?, ?, 'gone', 1, 0,"
        " 'quiet')", (G, ANA.user_id)))
    again = await service.results.unlocks.recompute()
    assert (again.added, again.removed) == (2, 1)  # ANA's and BEN's first game of Q2J back; the unknown one gone
    assert await stored(service) == after_games
    assert await rows(service, "SELECT DISTINCT announce FROM achievements WHERE achievement = ?",
                      played_id("q2j")) == [("quiet",)]  # backfilled: not announced
    third = await service.results.unlocks.recompute()
    assert (third.added, third.removed, third.changed) == (0, 0, 0) and await stored(service) == after_games


async def test_forgetting_removes_achievements_and_season_rows(service) -> None:
    await service.storage.set_guild_settings(G, season_min_games=1)
    await service.seasons.start(G, 50, "Spring", None)
    await finished_game(service, [ANA, BEN])
    await service.seasons.end_now(G)
    await service.results.forget(ANA.user_id)
    for table in ("achievements", "season_ratings", "season_standings"):
        assert await rows(service, f"SELECT COUNT(*) FROM {table} WHERE user_id = ?", ANA.user_id) == [(0,)]
        assert await rows(service, f"SELECT COUNT(*) FROM {table} WHERE user_id = ?", BEN.user_id) != [(0,)], table


async def test_the_recompute_command_rebuilds_a_database(tmp_path, monkeypatch, capsys) -> None:
    path = tmp_path / "deckhand.sqlite3"
    storage = await Storage.open(path)
    svc = GameService(storage, ai_delay=0, new_seed=lambda: 11)
    await finished_game(svc, [ANA, BEN])
    await svc.storage.run_write(lambda db: db.execute("DELETE FROM achievements"))
    await svc.close()
    await storage.close()
    monkeypatch.setenv("DECKHAND_DB", str(path))
    assert await asyncio.to_thread(main, ["achievements", "--recompute"]) == 0
    assert "achievements recomputed: 3 added" in capsys.readouterr().out  # two first games, one first win
