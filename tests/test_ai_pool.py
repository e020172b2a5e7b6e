"""Hard AI players think in worker processes, not on the event loop; a worker that dies
or gets stuck is replaced and that move falls back to normal, so the game goes on.
(Structure only: no test here reads a clock.)"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal

import pytest

import bot.service.autoplay as autoplay
from bot.ai_pool import AiPool, WorkerLost, _serve, pool_size
from bot.records import SeatRow
from bot.service import GameService, Player
from bot.storage import Storage
from games import get_game
from tests.test_service import Recorder

ANA = Player(1, "Ana", 1)


@pytest.fixture
async def pool():
    pool = AiPool(workers=1, timeout=2.0)
    yield pool
    await pool.close()


@pytest.fixture
async def service(tmp_path, pool):
    storage = await Storage.open(tmp_path / "db.sqlite3")
    service = GameService(storage, ai_delay=0, new_seed=lambda: 11, ai_pool=pool)
    service.publisher = Recorder()
    yield service
    await service.close()
    await storage.close()


@pytest.fixture
def in_process_levels(monkeypatch) -> list[str]:
    """The levels the event loop's process computed moves at."""
    levels: list[str] = []
    real = autoplay.choose_action

    def recording(state, seat, rng, level="normal", budget=None):
        levels.append(level)
        return real(state, seat, rng, level, budget)

    monkeypatch.setattr(autoplay, "choose_action", recording)
    return levels


async def hard_table(service) -> int:
    snap = await service.lobbies.open(guild_id=1, channel_id=5, game_id="war", options={}, host=ANA, timer_minutes=0)
    await service.lobbies.add_ai(snap.row.id, ANA, "hard")
    await service.lobbies.start(snap.row.id, ANA)
    await service.wait_idle()
    return snap.row.id


async def ana_moves(service, table_id: int, moves: int) -> None:
    """Ana makes ``moves`` moves; the hard AI answers each (the service waits for it)."""
    for _ in range(moves):
        hand = await service.play.hand(table_id, ANA)
        await service.play.move(table_id, ANA, hand.version, hand.actions[0])
        await service.wait_idle(60)


async def ai_moves(service, table_id: int) -> int:
    return sum(by_ai for _, _, by_ai in await service.storage.move_log(table_id))


def test_the_pool_is_small_and_sized_to_the_machine():
    assert 1 <= pool_size() <= min(2, os.cpu_count() or 1)
    assert autoplay.POOLED_LEVELS == ("hard",)


def test_ai_seats_from_before_levels_play_normal():
    assert autoplay.seat_level(SeatRow(1, None, "AI 1", True)) == "normal"
    assert autoplay.seat_level(SeatRow(1, None, "AI 1 (hard)", True, ai_level="hard")) == "hard"


async def test_a_hard_ai_thinks_in_a_worker_process(service, pool, in_process_levels):
    assert pool.worker_pids() == []  # nothing started before a hard move is needed
    table_id = await hard_table(service)
    await ana_moves(service, table_id, 3)
    assert await ai_moves(service, table_id) >= 3
    assert pool.moves == await ai_moves(service, table_id) and pool.replaced == 0
    assert "hard" not in in_process_levels
    assert pool.worker_pids() and os.getpid() not in pool.worker_pids()


async def test_a_killed_worker_is_replaced_and_the_move_falls_back_to_normal(service, pool, in_process_levels, caplog):
    table_id = await hard_table(service)
    await ana_moves(service, table_id, 1)
    [dead] = pool.worker_pids()
    os.kill(dead, signal.SIGKILL)
    before = await ai_moves(service, table_id)
    with caplog.at_level(logging.WARNING):
        await ana_moves(service, table_id, 1)
    assert await ai_moves(service, table_id) == before + 1  # the game went on
    assert in_process_levels == ["normal"] and pool.replaced == 1
    assert "fell back to normal" in caplog.text and "died" in caplog.text
    [fresh] = pool.worker_pids()
    assert fresh != dead
    await ana_moves(service, table_id, 1)  # the new worker serves the next hard move
    assert in_process_levels == ["normal"] and pool.moves >= 2


async def test_a_stuck_worker_is_replaced_and_the_move_falls_back_to_normal(service, pool, in_process_levels, caplog):
    table_id = await hard_table(service)
    await ana_moves(service, table_id, 1)
    [stuck] = pool.worker_pids()
    os.kill(stuck, signal.SIGSTOP)
    with caplog.at_level(logging.WARNING):
        await ana_moves(service, table_id, 1)
    assert in_process_levels == ["normal"] and pool.replaced == 1
    assert "took longer than" in caplog.text
    assert stuck not in pool.worker_pids()


async def test_a_closed_pool_refuses_and_stops_its_workers():
    pool = AiPool(workers=1)
    state = get_game("war").new_game(2, {}, 3)
    seat = state.to_act()[0]
    assert (await pool.choose(state, seat, 1, "hard")) in state.legal_actions(seat)
    [pid] = pool.worker_pids()
    await pool.close()
    assert pool.worker_pids() == []
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(WorkerLost):
        await pool.choose(state, seat, 1, "hard")


async def test_an_engine_error_in_a_worker_is_reported_and_the_worker_keeps_serving(pool):
    state = get_game("war").new_game(2, {}, 3)
    seat = state.to_act()[0]
    with pytest.raises(RuntimeError, match="Unknown AI level"):
        await pool.choose(state, seat, 1, "bogus")
    [pid] = pool.worker_pids()
    assert (await pool.choose(state, seat, 1, "hard")) in state.legal_actions(seat)
    assert pool.worker_pids() == [pid] and pool.replaced == 0


def test_a_worker_whose_bot_is_gone_ends_quietly(capfd):
    """The bot killed mid-move: the worker finishes its search, finds nobody to answer and
    ends without a traceback (it used to print two into the bot's log)."""
    bot_end, worker_end = multiprocessing.Pipe()
    state = get_game("war").new_game(2, {}, 3)
    bot_end.send((state.game_id, state.to_json(), state.to_act()[0], 1, "hard", None))
    bot_end.close()
    _serve(worker_end)  # returns instead of raising BrokenPipeError
    assert capfd.readouterr().err == ""


async def test_ctrl_c_in_the_terminal_leaves_the_workers_to_the_bot(pool):
    """Ctrl+C signals the whole process group; the bot stops its workers itself as it closes."""
    state = get_game("war").new_game(2, {}, 3)
    seat = state.to_act()[0]
    assert (await pool.choose(state, seat, 1, "hard")) in state.legal_actions(seat)
    [pid] = pool.worker_pids()
    os.kill(pid, signal.SIGINT)
    assert (await pool.choose(state, seat, 2, "hard")) in state.legal_actions(seat)
    assert pool.worker_pids() == [pid] and pool.replaced == 0


def test_serving_leaves_the_callers_signals_alone():
    """Only the worker process ignores Ctrl+C: run in the bot's process (as these tests
    do), the loop must not make the bot, and everything it starts, deaf to it. The test sets
    Python's own handler first: a shell starts a background job with SIGINT ignored."""
    found = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        bot_end, worker_end = multiprocessing.Pipe()
        bot_end.close()
        _serve(worker_end)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, found)
