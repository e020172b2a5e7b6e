"""Shards: DECKHAND_SHARDS, each process restoring, timing and driving only its own servers'
tables (several services sharing one database, SQLite and PostgreSQL, as processes do), a stale
copy of a table stopped by the version guard, and the fake Discord's sharded gateway."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import aiohttp
import discord
import pytest
import yaml

from bot.client import DeckhandBot
from bot.service import GameService, Player
from bot.settings import Settings, SettingsError
from bot.shards import ALL_SHARDS, Shards, shard_of
from bot.storage import Storage
from tests.fakediscord import LoopbackDiscord, guild_id_on_shard
from tests.test_service import Clock, Recorder
from tests.words import event_texts

ANA, BEN = Player(1, "Ana", None), Player(2, "Ben", None)
"""Each test places them in the server it plays in (``dataclasses.replace(ANA, guild_id=…)``)."""
GUILDS = [(n << 22) + 7 for n in range(10, 16)]
"""Six servers, three on each shard of two (and spread over four shards)."""
AI_STARTS_SEED = 3
"""With this deal the AI (seat 1) is to act first in a two-seat Q2J game."""


# -- DECKHAND_SHARDS ---------------------------------------------------------------------

@pytest.mark.parametrize("text, ids, count", [
    ("all", None, None), ("", None, None), (" ALL ", None, None),
    ("0-3/8", (0, 1, 2, 3), 8), ("1/2", (1,), 2), ("0/1", (0,), 1), ("5-7/8", (5, 6, 7), 8),
])
def test_shards_setting_is_parsed(text, ids, count):
    shards = Settings.from_env({"DISCORD_TOKEN": "t", "DECKHAND_SHARDS": text}).shards
    assert (shards.ids, shards.count) == (ids, count)


def test_all_shards_is_the_default():
    assert Settings.from_env({"DISCORD_TOKEN": "t"}).shards == ALL_SHARDS


@pytest.mark.parametrize("text, says", [
    ("some", "all, or FIRST-LAST/COUNT"), ("0-3", "all, or FIRST-LAST/COUNT"), ("-1/2", "all, or"),
    ("3-1/8", "lowest first"), ("0-8/8", "from 0 to 7"), ("2/2", "from 0 to 1"), ("0/0", "at least one shard"),
    ("0-9999999/10000000", "at most 65,536 shards"),
])
def test_a_malformed_shards_setting_is_refused_in_one_line(text, says):
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"DISCORD_TOKEN": "t", "DECKHAND_SHARDS": text})
    message = str(refused.value)
    assert message.startswith("DECKHAND_SHARDS ") and says in message and "\n" not in message


def test_the_process_exits_with_one_line_on_a_malformed_shards_setting(tmp_path):
    env = {"DISCORD_TOKEN": "t", "DECKHAND_SHARDS": "4/4", "DECKHAND_DB": str(tmp_path / "db.sqlite3"),
           "PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=30)
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "DECKHAND_SHARDS" in lines[0], lines


@pytest.mark.parametrize("text, shard_ids, shard_count", [("all", None, None), ("2-3/8", [2, 3], 8)])
def test_the_bot_runs_as_an_auto_sharded_bot_on_its_shards(text, shard_ids, shard_count, tmp_path):
    settings = Settings.from_env({"DISCORD_TOKEN": "t", "DECKHAND_SHARDS": text,
                                  "DECKHAND_DB": str(tmp_path / "db.sqlite3")})
    bot = DeckhandBot(settings)
    assert isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_ids, bot.shard_count) == (shard_ids, shard_count)


def test_a_server_belongs_to_exactly_one_shard_of_a_split():
    split = [Shards.parse("0-1/4"), Shards.parse("2/4"), Shards.parse("3/4")]
    for guild_id in GUILDS:
        assert [s.owns(guild_id) for s in split].count(True) == 1
        assert ALL_SHARDS.owns(guild_id)
        assert Shards.parse(f"{shard_of(guild_id, 4)}/4").owns(guild_id)


def compose_file(**variables: str) -> dict:
    """docker-compose.yml with ``${NAME}`` / ``${NAME:?message}`` filled in as Compose does."""
    text = (Path(__file__).resolve().parent.parent / "docker-compose.yml").read_text()
    return yaml.safe_load(re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda m: variables[m[1]], text))


def test_the_compose_file_starts_the_bot_on_a_healthy_postgresql_with_its_data_in_a_volume():
    compose = compose_file(POSTGRES_PASSWORD="s3cret")
    services, volumes = compose["services"], compose["volumes"]
    database, bot = services["db"], services["deckhand"]
    assert any(mount.split(":")[0] in volumes and mount.endswith(":/var/lib/postgresql/data")
               for mount in database["volumes"])
    assert "pg_isready" in " ".join(database["healthcheck"]["test"])
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert bot["build"] == "." and (Path(__file__).resolve().parent.parent / "Dockerfile").exists()
    login = database["environment"]
    assert login["POSTGRES_PASSWORD"] == "s3cret"
    url = f"postgresql://{login['POSTGRES_USER']}:s3cret@db:5432/{login['POSTGRES_DB']}"
    assert bot["environment"]["DECKHAND_DB"] == url
    settings = Settings.from_env({"DISCORD_TOKEN": "t", **bot["environment"]})
    assert str(settings.db_path) == url and settings.shards == ALL_SHARDS


# -- services sharing one database, as processes do ---------------------------------------

async def new_service(path, clock, shards=ALL_SHARDS, seed=7) -> GameService:
    service = GameService(await Storage.open(path), ai_delay=0, clock=clock, new_seed=lambda: seed, shards=shards)
    service.publisher = Recorder()
    return service


async def stop(*services: GameService) -> None:
    for service in services:
        await service.close()
        await service.storage.close()


async def start_tables(path, clock, *, timer=0, ai=False, seed=7) -> dict[int, int]:
    """One running two-seat Q2J table per server in GUILDS: guild → table. The process starting
    each one stops at once, before any AI turn: the next process has them to play."""
    tables = {}
    for channel, guild_id in enumerate(GUILDS, start=50):
        service = await new_service(path, clock, seed=seed)
        ana, ben = replace(ANA, guild_id=guild_id), replace(BEN, guild_id=guild_id)
        lobby = await service.lobbies.open(guild_id=guild_id, channel_id=channel, game_id="q2j", options={},
                                         host=ana, timer_minutes=timer)
        await (service.lobbies.add_ai(lobby.row.id, ana) if ai else service.lobbies.join(lobby.row.id, ben))
        tables[guild_id] = (await service.lobbies.start(lobby.row.id, ana)).row.id
        await stop(service)
    return tables


async def test_each_process_restores_and_times_only_its_own_servers_tables(db_url):
    clock = Clock()
    path = db_url
    tables = await start_tables(path, clock, timer=5)
    first = await new_service(path, clock, Shards.parse("0/2"))
    second = await new_service(path, clock, Shards.parse("1/2"))
    try:
        assert await first.restore() + await second.restore() == len(GUILDS)
        for guild_id, table_id in tables.items():
            mine = shard_of(guild_id, 2) == 0
            assert (first.autoplay.timer_scheduled(table_id), second.autoplay.timer_scheduled(table_id)) == (mine, not mine)
    finally:
        await stop(first, second)


async def test_ai_turns_due_at_start_up_are_played_by_their_shards_process_only(db_url):
    clock = Clock()
    path = db_url
    tables = await start_tables(path, clock, ai=True, seed=AI_STARTS_SEED)
    service = await new_service(path, clock, Shards.parse("1/2"))
    try:
        await service.restore()
        await service.wait_idle()
        for guild_id, table_id in tables.items():
            stored = await service.storage.get_table(table_id)
            assert stored.version == (2 if shard_of(guild_id, 2) == 1 else 1), guild_id
    finally:
        await stop(service)


async def test_missing_results_are_recorded_by_their_shards_process(db_url):
    clock = Clock()
    path = db_url
    tables = await start_tables(path, clock)
    service = await new_service(path, clock)
    for guild_id, table_id in tables.items():
        await service.play.end(table_id, replace(ANA, guild_id=guild_id), is_admin=False)
    await service.storage.run_write(lambda db: db.execute("DELETE FROM results"))  # as after a crash
    await stop(service)
    service = await new_service(path, clock, Shards.parse("0/2"))
    try:
        await service.restore()
        left = set(await service.storage.unrecorded_table_ids())
        assert left == {t for g, t in tables.items() if shard_of(g, 2) == 1}
        assert await service.storage.unrecorded_table_ids(Shards.parse("0/2")) == []
    finally:
        await stop(service)


@pytest.fixture
def no_errors_logged(caplog):
    caplog.set_level(logging.WARNING)
    yield
    errors = [r.getMessage() for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, errors


async def test_a_timer_owned_twice_fires_once_and_the_stale_copy_reloads(db_url, no_errors_logged):
    """Two processes both holding a shard (a rolling restart's overlap), each with the table in
    memory, both find its deadline passed: the version guard lets one timed-out turn through;
    the other process's copy is refused, dropped and read again, and its timer follows the table."""
    clock = Clock()
    path = db_url
    table_id = (await start_tables(path, clock, timer=5))[GUILDS[0]]
    services = [await new_service(path, clock), await new_service(path, clock)]
    try:
        for service in services:
            await service.table(table_id)  # each holds the table as it is now
        clock.now += 5 * 60 + 1  # the deadline passed: both processes' timers fire on their copies
        await asyncio.gather(*(service.autoplay._timer_due(table_id) for service in services))
        for service in services:
            await service.wait_idle()
        stored = await services[0].storage.get_table(table_id)
        assert sum(s.missed_turns for s in stored.seats) == 1
        assert " ".join(event_texts(stored)).count("ran out of time") == 1
        log = await services[0].storage.move_log(table_id)
        assert log and all(by_ai for _, _, by_ai in log) and stored.version == 1 + len(log)
        for service in services:
            assert (await service.table(table_id)).row.version == stored.version
            assert service.autoplay.timer_scheduled(table_id)  # the next player's deadline, read again
    finally:
        await stop(*services)


async def test_an_ai_turn_on_a_stale_copy_is_refused_and_the_table_read_again(db_url, no_errors_logged):
    clock = Clock()
    path = db_url
    table_id = (await start_tables(path, clock, ai=True, seed=AI_STARTS_SEED))[GUILDS[0]]
    stale, fresh = await new_service(path, clock), await new_service(path, clock)
    try:
        stale_row = (await stale.table(table_id)).row  # held in memory: the AI is to act
        await fresh.restore()
        await fresh.wait_idle()  # the other process played the AI's turn
        stale.autoplay.kick_ai(stale_row)  # as a driver started on the old copy would
        await stale.wait_idle()
        assert len(await fresh.storage.move_log(table_id)) == 1
        for service in (stale, fresh):
            snap = await service.table(table_id)
            assert snap.row.version == 2 and snap.view["to_act"] == [0]
    finally:
        await stop(stale, fresh)


async def test_a_click_newer_than_a_stale_copy_reads_the_table_again(db_url):
    """Controls made by the process that moved last are newer than another process's copy:
    that process reads the table again instead of refusing them."""
    clock = Clock()
    path = db_url
    table_id = (await start_tables(path, clock))[GUILDS[0]]
    stale, fresh = await new_service(path, clock), await new_service(path, clock)
    try:
        await stale.table(table_id)  # held in memory at version 1
        for service in (fresh, stale):  # a move in the other process, then one here with its newer controls
            snap = await fresh.table(table_id)
            mover = snap.player(snap.view["to_act"][0])
            hand = await fresh.play.hand(table_id, mover)
            after = await service.play.move(table_id, mover, hand.version, hand.actions[0])
            fresh.tables.forget(table_id)
        assert after.version == 3 and len(await fresh.storage.move_log(table_id)) == 2
    finally:
        await stop(stale, fresh)


# -- the fake Discord's sharded gateway --------------------------------------------------

async def identify(fd: LoopbackDiscord, shard) -> tuple[list[dict], int | None]:
    """IDENTIFY with ``shard``; the dispatches received until the gateway goes quiet, and any close code."""
    events = []
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(fd.gateway_url + "?v=10&encoding=json") as ws:
            await ws.receive_json()  # HELLO
            await ws.send_json({"op": 2, "d": {"token": "fake-token", "intents": 1, "shard": shard,
                                               "properties": {}}})
            while True:
                try:
                    msg = await asyncio.wait_for(ws.receive(), 0.5)
                except TimeoutError:
                    return events, None
                if msg.type != aiohttp.WSMsgType.TEXT:
                    return events, ws.close_code
                events.append(json.loads(msg.data))


async def test_the_fake_gateway_sends_each_shard_only_its_guilds():
    async with LoopbackDiscord(recommended_shards=2) as fd:
        guilds = {shard: fd.add_guild(f"on {shard}", id=guild_id_on_shard(fd, shard, 2)) for shard in (0, 1)}
        async with aiohttp.ClientSession() as session:
            async with session.get(fd.base_url + "/gateway/bot", headers={"Authorization": "Bot t"}) as answer:
                assert (await answer.json())["shards"] == 2
        for shard, guild in guilds.items():
            events, closed = await identify(fd, [shard, 2])
            ready, *created = events
            assert closed is None and ready["t"] == "READY" and ready["d"]["shard"] == [shard, 2]
            assert [g["id"] for g in ready["d"]["guilds"]] == [str(guild.id)]
            assert [(e["t"], e["d"]["id"]) for e in created] == [("GUILD_CREATE", str(guild.id))]
        assert await identify(fd, [2, 2]) == ([], 4010)
        assert await identify(fd, [0]) == ([], 4010)
