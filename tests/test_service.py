"""The game service on both backends (a real SQLite file, a real PostgreSQL database): lobbies,
moves, AI seats, timers, restarts."""

from __future__ import annotations

import asyncio

import pytest

import games
from bot.errors import NotHere, StaleControl, UserError
from bot.service import GameService, Player
from bot.service.lobby import LOBBY_WAIT_SECONDS
from bot.storage import Storage
from games.base import Action
from tests.words import event_texts

ANA, BEN, CAT, DAN = Player(1, "Ana", 1), Player(2, "Ben", 1), Player(3, "Cat", 1), Player(4, "Dan", 1)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    """A publisher that keeps what the service asked to show."""

    def __init__(self) -> None:
        self.tables = []
        self.lobbies = []
        self.reminders = []

    async def show(self, table, *, again=False):
        (self.lobbies if table.row.status in ("lobby", "cancelled") else self.tables).append(table)

    def tables_held(self):
        return 0

    async def close(self):
        pass

    async def remind(self, table, seats, seconds_left):
        self.reminders.append((table.row.id, [s.seat for s in seats], seconds_left))


@pytest.fixture
async def env(db_url):
    clock = Clock()
    storage = await Storage.open(db_url)
    service = GameService(storage, ai_delay=0, clock=clock, new_seed=lambda: 7)
    service.publisher = Recorder()
    yield service, clock, db_url
    await service.close()
    await storage.close()


async def restart(service: GameService, db_url, clock) -> GameService:
    """A new service on the same database, as after a process restart."""
    await service.close()
    await service.storage.close()
    storage = await Storage.open(db_url)
    fresh = GameService(storage, ai_delay=0, clock=clock, new_seed=lambda: 7)
    fresh.publisher = Recorder()
    await fresh.restore()
    return fresh


async def open_q2j(service, *players, options=None, timer=0, ai=0, channel=50):
    snap = await service.lobbies.open(guild_id=1, channel_id=channel, game_id="q2j", options=options or {},
                                    host=players[0], timer_minutes=timer)
    table_id = snap.row.id
    for p in players[1:]:
        await service.lobbies.join(table_id, p)
    for _ in range(ai):
        await service.lobbies.add_ai(table_id, players[0])
    return table_id


async def first_mover(service, table_id, players):
    snap = await service.table(table_id)
    seat = snap.view["to_act"][0]
    return next(p for p in players if snap.row.seat_of(p.user_id).seat == seat)


# -- lobby -----------------------------------------------------------------------------


async def test_lobby_rules(env):
    service, _, _ = env
    table_id = await open_q2j(service, ANA)
    with pytest.raises(UserError, match="already at this table"):
        await service.lobbies.join(table_id, ANA)
    await service.lobbies.join(table_id, BEN)
    with pytest.raises(UserError, match="Only the host can start"):
        await service.lobbies.start(table_id, BEN)
    with pytest.raises(UserError, match="Only the host can add AI"):
        await service.lobbies.add_ai(table_id, BEN)
    await service.lobbies.leave(table_id, BEN)
    with pytest.raises(UserError, match="needs 2–10 players"):
        await service.lobbies.start(table_id, ANA)
    with pytest.raises(UserError, match="host"):
        await service.lobbies.leave(table_id, ANA)
    await service.lobbies.join(table_id, BEN)
    for _ in range(8):
        await service.lobbies.add_ai(table_id, ANA)
    with pytest.raises(UserError, match="full"):
        await service.lobbies.join(table_id, CAT)
    with pytest.raises(UserError, match="full"):
        await service.lobbies.add_ai(table_id, ANA)
    await service.lobbies.remove_ai(table_id, ANA)
    snap = await service.lobbies.join(table_id, CAT)
    assert [s.name for s in snap.row.seats][:3] == ["Ana", "Ben", "AI 1"] and snap.row.seats[-1].name == "Cat"
    assert [s.seat for s in snap.row.seats] == list(range(10))


async def test_one_table_per_channel_and_bad_options(env):
    service, _, _ = env
    await open_q2j(service, ANA)
    with pytest.raises(UserError, match="already open in this channel"):
        await open_q2j(service, BEN)
    with pytest.raises(UserError, match="variant"):
        await service.lobbies.open(guild_id=1, channel_id=51, game_id="q2j", options={"variant": "nope"}, host=ANA)
    with pytest.raises(UserError, match="timer"):
        await service.lobbies.open(guild_id=1, channel_id=51, game_id="q2j", options={}, host=ANA, timer_minutes=-1)


async def test_a_lobby_nobody_started_within_the_hour_makes_way_for_a_new_table(env):
    service, clock, _ = env
    forgotten = await open_q2j(service, ANA)
    clock.now += LOBBY_WAIT_SECONDS - 1
    with pytest.raises(UserError, match="lobby is already open in this channel.*60 minutes"):
        await open_q2j(service, BEN)
    assert (await service.table(forgotten)).row.status == "lobby"

    clock.now += 1
    new = await open_q2j(service, BEN)
    assert new != forgotten and await service.storage.open_table_in(50) == new
    assert (await service.table(forgotten)).row.status == "cancelled"
    await service.wait_idle()
    assert [(t.row.id, t.row.status) for t in service.publisher.lobbies] == [(forgotten, "cancelled")]

    await service.lobbies.join(new, CAT)
    await service.lobbies.start(new, BEN)
    clock.now += 30 * 24 * 3600  # a running game is never pushed aside, however long it waits
    with pytest.raises(UserError, match="A table is already open in this channel.*Manage Server"):
        await open_q2j(service, ANA)
    assert (await service.table(new)).row.status == "running"


async def test_one_open_lobby_per_host_in_a_server(env):
    service, clock, _ = env
    first = await open_q2j(service, ANA)
    with pytest.raises(UserError, match="You already have a lobby open in <#50>"):
        await service.lobbies.open(guild_id=1, channel_id=51, game_id="q2j", options={}, host=ANA)
    other_server = await service.lobbies.open(guild_id=2, channel_id=60, game_id="q2j", options={}, host=ANA)
    assert other_server.row.status == "lobby"
    await service.lobbies.join(first, BEN)
    await service.lobbies.start(first, ANA)  # a running game holds nobody back
    second = await service.lobbies.open(guild_id=1, channel_id=51, game_id="q2j", options={}, host=ANA)

    clock.now += LOBBY_WAIT_SECONDS  # an hour on, an unstarted lobby of theirs makes way
    third = await service.lobbies.open(guild_id=1, channel_id=52, game_id="q2j", options={}, host=ANA)
    assert (await service.table(second.row.id)).row.status == "cancelled"
    assert third.row.status == "lobby" and (await service.table(first)).row.status == "running"


async def test_engine_refusals_at_start_are_user_errors(env):
    service, _, _ = env
    table_id = await open_q2j(service, ANA, BEN, CAT, options={"variant": "challenge"})
    with pytest.raises(UserError, match="2 players"):
        await service.lobbies.start(table_id, ANA)
    assert (await service.table(table_id)).row.status == "lobby"


async def test_cancel_needs_host_or_admin(env):
    service, _, _ = env
    table_id = await open_q2j(service, ANA, BEN)
    with pytest.raises(UserError, match="Only the host"):
        await service.lobbies.cancel(table_id, BEN)
    snap = await service.lobbies.cancel(table_id, BEN, is_admin=True)
    assert snap.row.status == "cancelled"
    with pytest.raises(UserError, match="closed"):
        await service.lobbies.join(table_id, CAT)
    assert await service.storage.open_table_in(50) is None


async def test_nobody_acts_on_a_table_from_another_server(env):
    """Defence in depth: whatever a control forgets to check, the service refuses a request
    from another server (or a DM) before it reads or changes anything."""
    service, _, _ = env
    table_id = await open_q2j(service, ANA, BEN)
    stranger, ana_elsewhere, ana_in_dm = Player(9, "Eve", 2), Player(1, "Ana", 2), Player(1, "Ana", None)
    lobby = (await service.table(table_id)).row
    for who in (stranger, ana_elsewhere, ana_in_dm):
        for attempt in (service.lobbies.join(table_id, who), service.lobbies.leave(table_id, who),
                        service.lobbies.ai_level_choice(table_id, who), service.lobbies.add_ai(table_id, who),
                        service.lobbies.add_ai(table_id, who, "hard"), service.lobbies.remove_ai(table_id, who),
                        service.lobbies.switch_side(table_id, who), service.lobbies.cancel(table_id, who, is_admin=True),
                        service.lobbies.start(table_id, who)):
            with pytest.raises(NotHere):
                await attempt
    assert (await service.table(table_id)).row == lobby
    snap = await service.lobbies.start(table_id, ANA)
    for who in (ana_elsewhere, ana_in_dm):
        for attempt in (service.play.hand(table_id, who), service.play.move(table_id, who, snap.row.version, Action("draw")),
                        service.play.hint(table_id, who), service.play.leave_game(table_id, who),
                        service.play.end(table_id, who, is_admin=True)):
            with pytest.raises(NotHere):
                await attempt
    assert (await service.table(table_id)).row == snap.row
    await service.play.end(table_id, ANA, is_admin=False)
    with pytest.raises(NotHere):
        await service.replays.play_again(table_id, ana_elsewhere, channel_id=50, is_admin=True)
    with pytest.raises(NotHere):
        await service.lobbies.join(10**9, ANA)  # no such table: the same answer as another server's


# -- moves -------------------------------------------------------------------------------


async def test_moves_are_validated_and_versioned(env):
    service, _, _ = env
    table_id = await open_q2j(service, ANA, BEN)
    snap = await service.lobbies.start(table_id, ANA)
    mover = await first_mover(service, table_id, [ANA, BEN])
    waiter = BEN if mover is ANA else ANA
    version = snap.row.version

    with pytest.raises(UserError, match="not your turn"):
        await service.play.move(table_id, waiter, version, Action("draw"))
    with pytest.raises(UserError, match="not playing"):
        await service.play.move(table_id, CAT, version, Action("draw"))
    with pytest.raises(UserError):
        await service.play.move(table_id, mover, version, Action("fly", ("QS",)))
    hand = await service.play.hand(table_id, mover)
    assert hand.actions and hand.version == version
    assert (await service.table(table_id)).row.version == version  # refusals changed nothing

    after = await service.play.move(table_id, mover, version, Action("draw"))
    assert after.version == version + 1 and after.actions == []
    with pytest.raises(StaleControl):  # the same click again
        await service.play.move(table_id, mover, version, Action("draw"))
    log = await service.storage.move_log(table_id)
    assert log == [(hand.seat, {"kind": "draw", "args": []}, False)]


async def test_a_move_at_a_table_of_people_starts_no_ai_turn(env):
    service, _, _ = env
    table_id = await open_q2j(service, ANA, BEN)
    snap = await service.lobbies.start(table_id, ANA)
    mover = await first_mover(service, table_id, [ANA, BEN])
    await service.wait_idle()
    held = service.tables_in_memory()
    await service.play.move(table_id, mover, snap.row.version, Action("draw"))
    assert service.tables_in_memory() == held  # no AI driver (each used to take the table's lock)
    await service.wait_idle()
    assert service.tables_in_memory() == held


async def test_game_against_ai_plays_to_the_end_and_matches_replay(env):
    service, _, _ = env
    table_id = await open_q2j(service, ANA, ai=2)
    await service.lobbies.start(table_id, ANA)
    for _ in range(500):
        await service.wait_idle()
        snap = await service.table(table_id)
        if snap.row.status != "running":
            break
        hand = await service.play.hand(table_id, ANA)
        assert hand.actions, "after the AI seats it is always Ana's turn"
        await service.play.move(table_id, ANA, hand.version, hand.actions[0])
    snap = await service.table(table_id)
    assert snap.row.status == "finished" and snap.row.outcome["winners"]
    # The stored log replays to the stored final state.
    log = await service.storage.move_log(table_id)
    game = games.get_game("q2j")
    replayed = game.replay(3, snap.row.options, snap.row.seed, [(s, game.action_from_json(a)) for s, a, _ in log])
    assert replayed.to_json() == snap.row.state
    with pytest.raises(UserError, match="ended"):
        await service.play.hand(table_id, ANA)


async def test_leaving_hands_the_seat_to_an_ai(env):
    service, _, _ = env
    table_id = await open_q2j(service, ANA, BEN)
    await service.lobbies.start(table_id, ANA)
    await service.play.leave_game(table_id, BEN)
    await service.wait_idle()
    snap = await service.table(table_id)
    assert snap.row.seats[1].is_ai and "Ben left" in " ".join(event_texts(snap.row))
    with pytest.raises(UserError, match="left this game"):
        await service.play.hand(table_id, BEN)
    await service.play.leave_game(table_id, ANA)  # the last human leaving ends the game
    assert (await service.table(table_id)).row.status == "abandoned"


async def test_end_needs_host_or_admin(env):
    service, _, _ = env
    table_id = await open_q2j(service, ANA, BEN)
    await service.lobbies.start(table_id, ANA)
    with pytest.raises(UserError, match="Only the host"):
        await service.play.end(table_id, BEN, is_admin=False)
    assert (await service.play.end(table_id, BEN, is_admin=True)).row.status == "abandoned"
    with pytest.raises(UserError, match="ended"):
        await service.play.end(table_id, ANA, is_admin=False)


# -- timers --------------------------------------------------------------------------------


async def test_turn_timer_reminds_then_lets_the_ai_play(env):
    service, clock, _ = env
    table_id = await open_q2j(service, ANA, BEN, timer=10)
    snap = await service.lobbies.start(table_id, ANA)
    deadline = snap.row.deadline
    assert deadline == clock.now + 600
    seat = snap.view["to_act"][0]

    await service.autoplay.check_timer(table_id, now=clock.now + 100)  # too early for anything
    assert service.publisher.reminders == []
    await service.autoplay.check_timer(table_id, now=clock.now + 300)  # half time
    assert [(t, s) for t, s, _ in service.publisher.reminders] == [(table_id, [seat])]
    await service.autoplay.check_timer(table_id, now=clock.now + 301)  # reminded once only
    assert len(service.publisher.reminders) == 1

    clock.now += 601
    await service.autoplay.check_timer(table_id)
    await service.wait_idle()
    snap = await service.table(table_id)
    assert snap.row.version == 2 and snap.row.seats[seat].missed_turns == 1
    assert "ran out of time" in " ".join(event_texts(snap.row))
    assert (await service.storage.move_log(table_id))[0][2] is True  # by the AI


async def test_three_missed_turns_hand_the_seat_to_the_ai(env):
    service, clock, _ = env
    table_id = await open_q2j(service, ANA, BEN, timer=1)
    await service.lobbies.start(table_id, ANA)
    for _ in range(6):  # both players time out three times
        clock.now += 61
        await service.autoplay.check_timer(table_id)
        await service.wait_idle()
    stored = await service.storage.get_table(table_id)
    assert [s.is_ai for s in stored.seats] == [True, True]
    assert [s.missed_turns for s in stored.seats] == [3, 3]
    # With no human left to wait for, the AI seats finish the game.
    assert stored.status == "finished"


async def test_a_move_resets_missed_turns(env):
    service, clock, _ = env
    table_id = await open_q2j(service, ANA, BEN, timer=1)
    await service.lobbies.start(table_id, ANA)
    clock.now += 61
    await service.autoplay.check_timer(table_id)
    await service.wait_idle()
    snap = await service.table(table_id)
    late = [s for s in snap.row.seats if s.missed_turns][0]
    # Play until the late seat moves by itself.
    for _ in range(4):
        snap = await service.table(table_id)
        mover = next(p for p in (ANA, BEN) if snap.row.seat_of(p.user_id).seat == snap.view["to_act"][0])
        hand = await service.play.hand(table_id, mover)
        await service.play.move(table_id, mover, hand.version, Action("draw"))
    snap = await service.table(table_id)
    assert snap.row.seats[late.seat].missed_turns == 0


async def test_deadlines_survive_a_restart(env):
    service, clock, db_url = env
    table_id = await open_q2j(service, ANA, BEN, timer=5)
    snap = await service.lobbies.start(table_id, ANA)
    deadline = snap.row.deadline
    service = await restart(service, db_url, clock)
    try:
        snap = await service.table(table_id)
        assert snap.row.deadline == deadline and snap.row.status == "running"
        assert service.autoplay.timer_scheduled(table_id)  # rescheduled
        clock.now = deadline + 1
        await service.autoplay.check_timer(table_id)
        await service.wait_idle()
        assert (await service.table(table_id)).row.version == 2
    finally:
        await service.close()
        await service.storage.close()


async def test_restart_resumes_pending_ai_turns(env):
    service, clock, db_url = env
    service.lobbies.new_seed = lambda: 3  # with this deal the AI (seat 1) starts
    table_id = await open_q2j(service, ANA, ai=1)
    snap = await service.lobbies.start(table_id, ANA)
    assert snap.view["to_act"] == [1]
    await service.close()  # the process stops before the AI's move is made
    assert (await service.storage.get_table(table_id)).version == 1
    service = await restart(service, db_url, clock)
    try:
        await service.wait_idle()
        snap = await service.table(table_id)
        assert snap.row.version == 2 and snap.view["to_act"] == [0]
    finally:
        await service.close()
        await service.storage.close()


async def test_switching_side_swaps_with_the_seat_opposite(env):
    service, _, _ = env
    q2j = await open_q2j(service, ANA)
    with pytest.raises(UserError, match="isn't played in sides"):
        await service.lobbies.switch_side(q2j, ANA)
    await service.lobbies.cancel(q2j, ANA)  # one open lobby per host
    snap = await service.lobbies.open(guild_id=1, channel_id=51, game_id="quash", options={}, host=ANA)
    table_id = snap.row.id
    with pytest.raises(UserError, match="Nobody sits opposite"):
        await service.lobbies.switch_side(table_id, ANA)
    await service.lobbies.join(table_id, BEN)
    await service.lobbies.add_ai(table_id, ANA)
    snap = await service.lobbies.switch_side(table_id, ANA)
    assert [s.name for s in snap.row.seats] == ["Ben", "Ana", "AI 1"]
    with pytest.raises(UserError, match="not at this table"):
        await service.lobbies.switch_side(table_id, CAT)
    await service.lobbies.join(table_id, CAT)  # four seats, two teams: seats 2 and 3 face each other too
    snap = await service.lobbies.switch_side(table_id, CAT)
    assert [s.name for s in snap.row.seats] == ["Ben", "Ana", "Cat", "AI 1"]


async def test_on_expiry_the_ai_plays_the_whole_turn_as_one_missed_turn(env):
    service, clock, _ = env
    snap = await service.lobbies.open(guild_id=1, channel_id=52, game_id="queen-of-spades", options={},
                                    host=ANA, timer_minutes=1)
    await service.lobbies.join(snap.row.id, BEN)
    snap = await service.lobbies.start(snap.row.id, ANA)
    assert snap.view["phase"] == "cut"
    dealer = snap.view["to_act"][0]
    clock.now += 61
    await service.autoplay.check_timer(snap.row.id)
    await service.wait_idle()
    snap = await service.table(snap.row.id)
    # No cut in time: the deal goes ahead without a cut (Game.on_timeout), no bonus.
    assert (await service.storage.move_log(snap.row.id))[0][1] == {"kind": "deal", "args": []}
    assert snap.view["phase"] == "take" and snap.view["to_act"] == [1 - dealer]
    taker = snap.view["to_act"][0]
    clock.now += 61
    await service.autoplay.check_timer(snap.row.id)
    await service.wait_idle()
    snap = await service.table(snap.row.id)
    log = await service.storage.move_log(snap.row.id)
    taker_moves = [m for m in log if m[0] == taker]
    assert len(taker_moves) >= 2 and taker_moves[-1][1]["kind"] == "discard"  # took, then discarded
    assert snap.view["to_act"] == [dealer]
    assert snap.row.seats[taker].missed_turns == 1 and snap.row.seats[dealer].missed_turns == 1


async def test_closing_stops_the_timers_even_as_a_nearer_deadline_wakes_them(env, caplog):
    service, clock, _ = env
    later = await open_q2j(service, ANA, BEN, timer=5)
    await service.lobbies.start(later, ANA)
    await asyncio.sleep(0)  # the timers now wait for that deadline
    clock.now -= 60
    sooner = await open_q2j(service, CAT, DAN, timer=5, channel=51)
    await service.lobbies.start(sooner, CAT)  # a nearer deadline wakes them: close() lands on that wake-up
    await service.close()
    assert "still running after close" not in caplog.text


# -- an AI taking over a seat (three timeouts, or leaving) plays at the server's default level,
# stored on the seat so it holds after a restart

async def test_timed_out_seats_are_handed_over_at_the_servers_level(env):
    service, clock, db_url = env
    await service.lobbies.set_default_ai_level(1, "easy")
    table_id = await open_q2j(service, ANA, BEN, timer=1)
    await service.lobbies.start(table_id, ANA)
    await service.lobbies.set_default_ai_level(1, "hard")  # the level when the seat is handed over counts
    for timeout in range(6):  # both players time out three times
        clock.now += 61
        await service.autoplay.check_timer(table_id)
        if timeout < 5:  # the first seat handed over plays its turn; then two hard AIs would play the game out
            await service.wait_idle(60)
    stored = await service.storage.get_table(table_id)
    assert [(s.is_ai, s.ai_level) for s in stored.seats] == [(True, "hard"), (True, "hard")]
    assert service.ai_pool.moves > 0  # the handed seats thought in the pool


async def test_a_seat_left_keeps_its_level_after_a_restart(env):
    service, clock, db_url = env
    await service.lobbies.set_default_ai_level(1, "easy")
    table_id = await open_q2j(service, ANA, BEN)
    await service.lobbies.start(table_id, ANA)
    await service.play.leave_game(table_id, BEN)
    service = await restart(service, db_url, clock)
    try:
        row = (await service.table(table_id)).row
        assert (row.seats[1].is_ai, row.seats[1].ai_level) == (True, "easy")
    finally:
        await service.close()
        await service.storage.close()
