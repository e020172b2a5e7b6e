"""Two real ``python -m bot`` processes, shards 0/2 and 1/2, on one database, against the
loopback fake Discord with servers on both shards (on PostgreSQL, and on one SQLite file):
tables are played in each, one process is killed (SIGKILL) mid-game and started again, and every game is finished.

Then, from the database: every move acknowledged to a player is in the log, at the version
its controls carried, by that player's seat; each table's log replays from its seed to the
stored snapshot; and no turn was played twice (versions follow one another, one move each).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import games
from bot.storage import Storage
from tests.discord_play import HAND_BUTTON, move_choices, status_line
from tests.fakediscord import FakeChannel, LoopbackDiscord, guild_id_on_shard
from tests.test_smoke_process import (
    BotProcess,
    assert_clean_log,
    click_button,
    expect,
    running_bot,
)

SHARDS = 2
CHANNELS_PER_GUILD = 2
MOVES_BEFORE_THE_CRASH = 2
MOVE_LIMIT = 60  # a bound only: these games end in a few dozen moves
PREFER = ("play", "qq", "attack", "recover")
ENDED = ("🏁", "🛑")


@dataclass
class Table:
    """A table being played in one channel, and the moves its player was told were made."""

    shard: int
    channel: FakeChannel
    message_id: int = 0
    table_id: int = 0
    acknowledged: list[tuple[int, int]] = field(default_factory=list)
    """``(version, seat)``: the controls' version and the player's seat, per acknowledged move."""
    shown_before_move: object = None
    """The table message's ``edited_at`` when the last move was sent: the table has answered
    that move once an edit comes after it."""


@pytest.fixture
async def fake() -> LoopbackDiscord:
    """Alice, and one server per shard with CHANNELS_PER_GUILD channels."""
    async with LoopbackDiscord(recommended_shards=SHARDS) as fd:
        alice = fd.add_user("alice", global_name="Alice")
        for shard in range(SHARDS):
            guild = fd.add_guild(f"Club on shard {shard}", id=guild_id_on_shard(fd, shard, SHARDS), owner=alice)
            guild.add_member(alice)
            for n in range(CHANNELS_PER_GUILD):
                guild.add_channel(f"table-{n}")
        yield fd


def process_env(db: str, shard: int) -> dict[str, str]:
    return {"DECKHAND_DB": db, "DECKHAND_SHARDS": f"{shard}/{SHARDS}"}


async def boot(fd: LoopbackDiscord, proc: BotProcess, shard: int) -> None:
    await expect(proc, fd.wait_shards((shard, SHARDS)), f"the bot to identify on shard {shard}")


async def open_table(fd: LoopbackDiscord, proc: BotProcess, table: Table) -> None:
    """/q2j start against one AI, started at once."""
    alice = fd.user("alice")
    start = await expect(proc, fd.slash("q2j start", {"variant": "classic", "timer": 0}, user=alice,
                                        channel=table.channel), "the bot to acknowledge /q2j start")
    await expect(proc, fd.wait_for_reply(start), "a reply to /q2j start")
    lobby = await expect(proc, fd.wait_for_message(
        lambda m: m.channel.id == table.channel.id and any(b.get("label") == "Start" for b in m.buttons)),
        "the lobby")
    table.message_id = lobby.id
    _, menu = await click_button(fd, proc, lobby, label="Add AI")
    chosen = await expect(proc, fd.select(menu, ["normal"], user=alice, custom_id_prefix="dh:ailevel:"),
                          "the bot to acknowledge the AI level")
    await expect(proc, fd.wait_for_reply(chosen), "a reply to choosing the AI level")
    await click_button(fd, proc, fd.message(lobby.id), label="Start")
    await expect(proc, fd.wait_until(lambda: any(b.get("label") == HAND_BUTTON for b in fd.message(lobby.id).buttons),
                                     20, "the table"), "the table to be shown")
    hand_button = next(b["custom_id"] for b in fd.message(lobby.id).buttons if b.get("label") == HAND_BUTTON)
    table.table_id = int(hand_button.split(":")[2])


def ended(fd: LoopbackDiscord, table: Table) -> bool:
    return status_line(fd.message(table.message_id)).startswith(ENDED)


async def play_move(fd: LoopbackDiscord, proc: BotProcess, table: Table) -> None:
    """Alice opens her hand once the AI has answered, and makes a move."""
    alice = fd.user("alice")

    def alices_turn_shown() -> bool:
        message = fd.message(table.message_id)
        if table.acknowledged and message.edited_at == table.shown_before_move:
            return False
        return ended(fd, table) or f"<@{alice.id}>" in status_line(message).split("·")[0]

    await expect(proc, fd.wait_until(alices_turn_shown, 20, "Alice's turn"), "Alice's turn")
    if ended(fd, table):
        return
    _, hand = await click_button(fd, proc, fd.message(table.message_id), label=HAND_BUTTON)
    while True:
        kind, custom_id, value = sorted(move_choices(hand), key=lambda c: next(
            (i for i, k in enumerate(PREFER) if c[2].startswith(k)), 99))[0]
        version = int(custom_id.split(":")[3])
        shown = fd.message(table.message_id).edited_at
        if kind == "button":
            inter = await expect(proc, fd.click(hand, custom_id=custom_id, user=alice), "a move")
        else:
            inter = await expect(proc, fd.select(hand, [value], custom_id=custom_id, user=alice), "a move")
        reply = await expect(proc, fd.wait_for_reply(inter), "the hand after a move")
        assert "can't save" not in reply.text, reply.text
        if re.search(r"earlier turn|same moment", reply.text):  # refused (not acknowledged): the hand as it is now
            hand = reply
            continue
        if not custom_id.startswith("dh:st:"):  # a step only narrows the choices; the move follows
            table.acknowledged.append((version, 0))
            table.shown_before_move = shown
            return
        hand = fd.message(hand.id)


def assert_fake_happy_but_for_the_crash(fd: LoopbackDiscord) -> None:
    """As ``assert_fake_happy``, except that deleting a message may find it gone: the killed
    process may have deleted a turn ping without living to store that it did."""
    refused = [f"{r} {r.error}" for r in fd.requests
               if r.error and not (r.method == "DELETE" and r.status == 404 and "Unknown Message" in r.error)]
    assert not fd.failures and not refused, f"Discord would have refused requests: {fd.failures or refused}"


async def assert_every_game_recorded(db: str, tables: list[Table]) -> None:
    storage = await Storage.open(db)
    try:
        for table in tables:
            row = await storage.get_table(table.table_id)
            log = await storage.move_log(row.id)
            assert row.status == "finished", (row.id, row.status, row.recent_events)
            assert row.version == 1 + len(log), "one version per move: no turn played twice"
            human = [(version, seat) for version, (seat, _, by_ai) in enumerate(log, start=1) if not by_ai]
            assert human == table.acknowledged, "every acknowledged move, and only those, by Alice"
            game = games.get_game(row.game_id)
            replayed = game.replay(len(row.seats), row.options, row.seed,
                                   [(seat, game.action_from_json(action)) for seat, action, _ in log])
            assert replayed.to_json() == row.state, f"table {row.id} does not replay from its seed and log"
    finally:
        await storage.close()


async def test_two_processes_survive_a_kill_and_lose_no_move(fake: LoopbackDiscord, tmp_path: Path, db_url: str):
    """On PostgreSQL, as the processes of a sharded bot run; on SQLite, which one file allows too."""
    fd, shared_db = fake, db_url
    tables = [Table(shard, channel) for shard in range(SHARDS)
              for guild in [next(g for g in fd.guilds.values() if g.name.endswith(str(shard)))]
              for channel in guild.channels.values()]
    for n in range(3):
        (tmp_path / f"p{n}").mkdir()
    async with running_bot(fd, tmp_path / "p0", **process_env(shared_db, 0)) as first:
        await boot(fd, first, 0)
        await expect(first, fd.wait_for_request("PUT", r"^/applications/\d+/commands$"), "the command sync")
        async with running_bot(fd, tmp_path / "p1", **process_env(shared_db, 1)) as second:
            await boot(fd, second, 1)
            procs = {0: first, 1: second}
            for table in tables:
                await open_table(fd, procs[table.shard], table)
            for _ in range(MOVES_BEFORE_THE_CRASH):
                for table in tables:
                    await play_move(fd, procs[table.shard], table)

            await play_move(fd, first, tables[0])
            first.proc.kill()  # SIGKILL right after acknowledging a move: the AI's answer is under way
            await first.proc.wait()
            await expect(second, fd.wait_until(lambda: (0, SHARDS) not in fd.connected_shards()), "shard 0 gone")
            for table in tables:
                if table.shard == 1:  # the other process serves its servers all along
                    await play_move(fd, second, table)

            async with running_bot(fd, tmp_path / "p2", **process_env(shared_db, 0)) as restarted:
                await boot(fd, restarted, 0)
                procs[0] = restarted
                for table in tables:
                    for _ in range(MOVE_LIMIT):
                        if ended(fd, table):
                            break
                        await play_move(fd, procs[table.shard], table)
                    assert ended(fd, table), f"table {table.table_id} unfinished after {MOVE_LIMIT} moves"
                await fd.wait_idle()
                assert_fake_happy_but_for_the_crash(fd)
                for proc in (restarted, second):
                    assert await proc.stop() == 0, proc.output()
                    assert_clean_log(proc)
    await assert_every_game_recorded(shared_db, tables)


async def test_all_shards_runs_discords_recommended_count_in_one_process(fake: LoopbackDiscord, tmp_path: Path):
    """DECKHAND_SHARDS=all (the default): the count comes from GET /gateway/bot, and the one
    process identifies on every shard and answers the servers of each."""
    fd = fake
    async with running_bot(fd, tmp_path, DECKHAND_SHARDS="all") as proc:
        await expect(proc, fd.wait_shards(*((shard, SHARDS) for shard in range(SHARDS))), "every shard")
        await expect(proc, fd.wait_for_request("PUT", r"^/applications/\d+/commands$"), "the command sync")
        assert fd.requests_to("GET", r"^/gateway/bot$")
        for guild in fd.guilds.values():
            channel = next(iter(guild.channels.values()))
            start = await expect(proc, fd.slash("q2j start", {"variant": "classic", "timer": 0},
                                                user=fd.user("alice"), channel=channel), f"/q2j start in {guild.name}")
            await expect(proc, fd.wait_for_reply(start), f"a reply in {guild.name}")
        assert await proc.stop() == 0, proc.output()
        assert_clean_log(proc)
