"""Tables held in memory (bot/service/live_tables.py) only move forward, and whatever path
loads a table wakes its AI seats and turn timer: on both backends, through the real service."""

from __future__ import annotations

import asyncio

from bot.service import GameService
from tests.test_restore import ANA, BEN, new_service, start_table, stop
from tests.test_service import Clock

MOVE_BOUND = 1.0
"""Seconds a move may take to commit while a read is held open; a bound, not a measurement."""


def hold_first_read(service: GameService) -> tuple[asyncio.Event, asyncio.Event]:
    """Make the next table read return its row only once released: (reading, release)."""
    reading, release = asyncio.Event(), asyncio.Event()
    storage = service.storage
    real = storage.get_table

    async def held_read(table_id: int):
        row = await real(table_id)
        if not reading.is_set():
            reading.set()
            await release.wait()
        return row

    storage.get_table = held_read  # type: ignore[method-assign]
    return reading, release


async def test_a_read_started_before_a_move_never_brings_the_older_table_back(db_url):
    clock = Clock()
    service = await new_service(db_url, clock)
    try:
        table_id = await start_table(service, 50)
        snap = await service.table(table_id)
        mover = snap.player(snap.view["to_act"][0])
        hand = await service.play.hand(table_id, mover)
        service.tables.forget(table_id)  # as after a restart, or an eviction: the next touch reads it
        reading, release = hold_first_read(service)

        reader = asyncio.create_task(service.table(table_id))  # e.g. showing the table again at start-up
        await reading.wait()
        move = asyncio.create_task(service.play.move(table_id, mover, hand.version, hand.actions[0]))
        await asyncio.wait({move}, timeout=MOVE_BOUND)  # today's code commits here, beside the held read
        release.set()
        await reader
        after = await move

        assert after.version == hand.version + 1
        assert (await service.table(table_id)).row.version == after.version
        waiter = next(p for p in (ANA, BEN) if p.user_id != mover.user_id)
        assert (await service.play.hand(table_id, waiter)).actions, "the player to act must be offered moves"
        await service.wait_idle()
    finally:
        await stop(service)


async def test_a_table_read_by_any_path_lets_its_ai_play(db_url):
    clock = Clock()
    service = await new_service(db_url, clock)
    table_id = await start_table(service, 50)
    seat = (await service.table(table_id)).view["to_act"][0]
    await stop(service)
    # The seat to act was handed to an AI, and the process died before the AI played.
    service = await new_service(db_url, clock)
    await service.storage.run_write(lambda db: db.execute(
        "UPDATE seats SET is_ai = 1, ai_level = 'normal' WHERE table_id = ? AND seat = ?", (table_id, seat)))
    await stop(service)

    fresh = await new_service(db_url, clock)  # no restore(): only a read wakes the table
    try:
        assert (await fresh.table(table_id)).row.version == 1
        await fresh.wait_idle()
        after = await fresh.table(table_id)
        assert after.row.version == 2 and after.view["to_act"] != [seat]
    finally:
        await stop(fresh)


async def test_a_table_read_by_any_path_keeps_its_turn_timer(db_url):
    clock = Clock()
    service = await new_service(db_url, clock)
    table_id = await start_table(service, 50, timer=1)
    deadline = (await service.table(table_id)).row.deadline
    await stop(service)

    fresh = await new_service(db_url, clock)  # no restore(): only a read wakes the table
    try:
        await fresh.table(table_id)
        assert fresh.autoplay.timer_scheduled(table_id)
        clock.now = deadline + 1
        await fresh.autoplay.check_timer(table_id)
        assert (await fresh.table(table_id)).row.version == 2  # the AI played the late turn
    finally:
        await stop(fresh)
