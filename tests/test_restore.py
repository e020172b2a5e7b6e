"""Start-up and tables held in memory: tables are loaded when touched and dropped when cold,
without changing how any game plays; timers due at start-up fire once."""

from __future__ import annotations

import pytest

from bot.service import GameService, Player
from bot.service.game_service import RECENT_SECONDS
from bot.storage import Storage
from tests.test_service import Clock, Recorder

ANA, BEN = Player(1, "Ana", 1), Player(2, "Ben", 1)


async def new_service(path, clock, cached_tables=2000) -> GameService:
    storage = await Storage.open(path)
    service = GameService(storage, ai_delay=0, clock=clock, new_seed=lambda: 7, cached_tables=cached_tables)
    service.publisher = Recorder()
    return service


async def stop(service: GameService) -> None:
    await service.close()
    await service.storage.close()


@pytest.fixture
async def tiny_cache(db_url):
    """A service keeping a single table in memory, so every other table is evicted."""
    clock = Clock()
    service = await new_service(db_url, clock, cached_tables=1)
    yield service, clock, db_url
    await stop(service)


async def start_table(service, channel_id, *, timer=0, ai=False):
    snap = await service.lobbies.open(guild_id=1, channel_id=channel_id, game_id="q2j", options={}, host=ANA,
                                    timer_minutes=timer)
    if ai:
        await service.lobbies.add_ai(snap.row.id, ANA)
    else:
        await service.lobbies.join(snap.row.id, BEN)
    return (await service.lobbies.start(snap.row.id, ANA)).row.id


async def play_first_action(service, table_id):
    snap = await service.table(table_id)
    seat = snap.view["to_act"][0]
    player = snap.player(seat)
    hand = await service.play.hand(table_id, player)
    return await service.play.move(table_id, player, hand.version, hand.actions[0])


async def test_evicted_tables_keep_playing_and_lose_nothing(tiny_cache):
    service, _, _ = tiny_cache
    tables = [await start_table(service, channel) for channel in (50, 51, 52)]
    for _ in range(4):
        for table_id in tables:  # each move evicts the table touched before
            await play_first_action(service, table_id)
    await service.wait_idle()
    assert service.tables_in_memory() <= 1 + len(tables)  # one cached table, publishing bookkeeping
    for table_id in tables:
        snap = await service.table(table_id)
        assert snap.row.status == "running" and snap.row.version == 5
        assert len(await service.storage.move_log(table_id)) == 4


async def test_a_stale_click_on_an_evicted_table_is_refused(tiny_cache):
    service, _, _ = tiny_cache
    first, second = await start_table(service, 50), await start_table(service, 51)
    snap = await service.table(first)
    seat = snap.view["to_act"][0]
    player = snap.player(seat)
    hand = await service.play.hand(first, player)
    await service.play.move(first, player, hand.version, hand.actions[0])
    await service.table(second)  # evicts the first table
    with pytest.raises(Exception, match="moved|changed|now"):
        await service.play.move(first, player, hand.version, hand.actions[0])
    assert len(await service.storage.move_log(first)) == 1


async def mark_shown(service: GameService, *table_ids: int) -> None:
    """As the publisher does once Discord took a table's edit (the Recorder stores nothing)."""
    for table_id in table_ids:
        row = await service.storage.get_table(table_id)
        await service.set_publication(table_id, shown=f"{row.status}@{row.version}")


async def test_start_up_loads_no_table_until_touched(db_url):
    """Only tables whose message may be behind are read at start-up (to be shown again)."""
    clock = Clock()
    service = await new_service(db_url, clock)
    tables = [await start_table(service, channel, timer=240) for channel in (50, 51, 52)]
    await mark_shown(service, *tables)
    await stop(service)
    clock.now += RECENT_SECONDS + 1  # moved long ago: their pings went then
    service = await new_service(db_url, clock)
    try:
        assert await service.restore() == 3
        assert all(service.autoplay.timer_scheduled(t) for t in tables)
        assert service.tables.held_entries() == 0
        await play_first_action(service, tables[1])
        assert service.tables.held_entries() == 1
    finally:
        await stop(service)


async def test_a_timer_due_at_start_up_fires_once(db_url):
    clock = Clock()
    service = await new_service(db_url, clock)
    table_id = await start_table(service, 50, timer=5)
    deadline = (await service.table(table_id)).row.deadline
    await stop(service)
    clock.now = deadline + 1
    service = await new_service(db_url, clock)
    try:
        await service.restore()
        await service.wait_idle()
        log = await service.storage.move_log(table_id)
        assert log and all(by_ai for _, _, by_ai in log)  # the late turn, played whole by the AI
        snap = await service.table(table_id)
        assert sum(s.missed_turns for s in snap.row.seats) == 1
        assert service.autoplay.timer_scheduled(table_id)  # the next player's turn is timed again
        await service.wait_idle()
        assert await service.storage.move_log(table_id) == log
    finally:
        await stop(service)


async def test_ai_turns_due_at_start_up_are_played_on_evicted_tables(db_url):
    clock = Clock()
    service = await new_service(db_url, clock)
    service.lobbies.new_seed = lambda: 3  # with this deal the AI (seat 1) starts
    tables = [await start_table(service, channel, ai=True) for channel in (50, 51, 52)]
    await service.close()  # the process stops before the AI's moves are made
    await service.storage.close()
    service = await new_service(db_url, clock, cached_tables=1)
    try:
        await service.restore()
        await service.wait_idle()
        for table_id in tables:
            snap = await service.table(table_id)
            assert snap.row.version == 2 and snap.view["to_act"] == [0]
    finally:
        await stop(service)


async def test_a_restart_shows_each_table_whose_message_may_be_behind_once(db_url):
    """A process killed between committing a change and showing it leaves the table message
    behind: after the restart, exactly those tables are shown (ended ones too), and open lobbies."""
    clock = Clock()
    service = await new_service(db_url, clock)
    on_show, behind, ended = [await start_table(service, channel) for channel in (60, 61, 63)]
    await play_first_action(service, on_show)
    await play_first_action(service, behind)
    await service.play.end(ended, ANA, is_admin=False)
    lobby = (await service.lobbies.open(guild_id=1, channel_id=62, game_id="q2j", options={}, host=ANA,
                                      timer_minutes=0)).row.id
    await service.wait_idle()
    await mark_shown(service, on_show)  # Discord took that one's last edit
    await stop(service)
    clock.now += RECENT_SECONDS + 1  # no game moved lately: only what may be behind is looked at

    restarted = await new_service(db_url, clock)
    assert await restarted.restore() == 3
    await restarted.wait_idle()
    shown = sorted(snap.row.id for snap in restarted.publisher.tables + restarted.publisher.lobbies)
    assert shown == sorted([behind, ended, lobby])
    await stop(restarted)
