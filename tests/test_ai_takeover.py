"""An AI taking over a seat (three timeouts, or leaving) plays at the server's default
level, stored on the seat so it holds after a restart."""

from __future__ import annotations

from tests.test_service import ANA, BEN, env, open_q2j, restart  # noqa: F401  (env is a fixture)


async def test_timed_out_seats_are_handed_over_at_the_servers_level(env):
    service, clock, tmp_path = env
    await service.set_default_ai_level(1, "easy")
    table_id = await open_q2j(service, ANA, BEN, timer=1)
    await service.start(table_id, ANA)
    await service.set_default_ai_level(1, "hard")  # the level when the seat is handed over counts
    for timeout in range(6):  # both players time out three times
        clock.now += 61
        await service.check_timer(table_id)
        if timeout < 5:  # the first seat handed over plays its turn; then two hard AIs would play the game out
            await service.wait_idle(60)
    stored = await service.storage.get_table(table_id)
    assert [(s.is_ai, s.ai_level) for s in stored.seats] == [(True, "hard"), (True, "hard")]
    assert service.ai_pool.moves > 0  # the handed seats thought in the pool


async def test_a_seat_left_keeps_its_level_after_a_restart(env):
    service, clock, tmp_path = env
    await service.set_default_ai_level(1, "easy")
    table_id = await open_q2j(service, ANA, BEN)
    await service.start(table_id, ANA)
    await service.leave_game(table_id, BEN)
    service = await restart(service, tmp_path, clock)
    try:
        row = (await service.table(table_id)).row
        assert (row.seats[1].is_ai, row.seats[1].ai_level) == (True, "easy")
    finally:
        await service.close()
        await service.storage.close()
