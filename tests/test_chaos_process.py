"""Four people click at random on the real ``python -m bot``, which is killed and started again.

As a server full of people would: they open tables of every game, join, add AI seats,
play, change the server's settings (threads, pictures, AI level; reset the leaderboard, ask
to be forgotten), and click whatever they can see (old hand messages, other people's buttons,
menus, forms; double clicks, several people at the same moment) while the process is killed
(SIGKILL) or told to stop (SIGTERM, as ``docker stop`` does) a moment after someone
clicked, between bursts, and started again on the same database. The bot runs as one
process on SQLite, and as two processes sharing the database (SQLite, then PostgreSQL), one
per shard, each with a server of its own (then the process stopped is one of the two).
Seeded, so a failure repeats.

What must hold throughout: every interaction is acknowledged within Discord's 3 seconds,
Discord would refuse no request (but deleting a message the killed process had already
deleted), no process logs a traceback or an ERROR line, and no reply is the apology for
an unexpected fault. Afterwards, from the database: every table's move log replays from
its seed to the stored snapshot, with one version per move.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import signal
from pathlib import Path

import pytest

import games
from bot.storage import Storage
from bot.storage.session import Session
from cogs.common import APOLOGY
from tests.discord_play import HAND_BUTTON, move_choices, status_line
from tests.fakediscord import (
    FakeChannel,
    FakeMessage,
    InteractionResult,
    LoopbackDiscord,
    guild_id_on_shard,
    walk_components,
)
from tests.fakediscord.entities import CB_DEFERRED_UPDATE
from tests.test_multiprocess import assert_fake_happy_but_for_the_crash
from tests.test_smoke_process import HUMANS, BotProcess, assert_clean_log, expect, running_bot

LIVES = 3
"""Process lives: the first ends in SIGKILL, the second in SIGTERM, the last in Ctrl+C."""
STEPS_PER_LIFE = 100
GAME_COMMANDS = ("q2j start", "war start", "ng start", "qos start", "quash start")
OTHER_COMMANDS = (("rules", {"game": "quash"}), ("rules", {"game": "qos", "section": "scoring"}),
                  ("leaderboard", {}), ("history", {}), ("stats", {}), ("table status", {}),
                  ("table hand", {}), ("table leave", {}), ("table end", {}),
                  ("settings show", {}), ("settings threads", {"enabled": True}),
                  ("settings threads", {"enabled": False}), ("settings pictures", {"enabled": False}),
                  ("settings pictures", {"enabled": True}), ("settings ai-level", {"level": "hard"}),
                  ("settings timer", {"minutes": 0}), ("settings reset-leaderboard", {}), ("privacy forget", {}))
FORM_ANSWERS = ("1", "12", "abc", "-5", "99999", "🃏")


@pytest.fixture
async def fake(request: pytest.FixtureRequest) -> LoopbackDiscord:
    """Four members and, on each of Discord's ``request.param`` shards, a server with one
    channel per game."""
    shards = request.param
    async with LoopbackDiscord(recommended_shards=shards) as fd:
        users = [fd.add_user(name, global_name=name.capitalize()) for name in HUMANS]
        for shard in range(shards):
            guild = fd.add_guild(f"Busy Card Club {shard}", id=guild_id_on_shard(fd, shard, shards), owner=users[0])
            for command in GAME_COMMANDS:
                guild.add_channel(command.split()[0])
            for user in users:
                guild.add_member(user)
        yield fd


class Processes:
    """The bot: one process running every shard, or one process per shard, on one database;
    a process that was stopped is started again."""

    def __init__(self, fd: LoopbackDiscord, tmp_path: Path, db: str) -> None:
        self.fd, self.tmp_path, self.db = fd, tmp_path, db
        self.count = fd.recommended_shards
        self.running: dict[int, BotProcess] = {}
        self.every: list[BotProcess] = []
        """Every process started, stopped ones too (their logs are checked at the end)."""
        self._contexts: dict[int, contextlib.AbstractAsyncContextManager[BotProcess]] = {}

    async def start(self, shard: int) -> None:
        env = {"DECKHAND_DB": self.db}
        if self.count > 1:
            env["DECKHAND_SHARDS"] = f"{shard}/{self.count}"
        folder = self.tmp_path / f"process{len(self.every)}"
        folder.mkdir()
        context = running_bot(self.fd, folder, **env)
        proc = await context.__aenter__()
        self._contexts[shard], self.running[shard] = context, proc
        self.every.append(proc)
        await expect(proc, self.fd.wait_shards((shard, self.count)), f"the process of shard {shard} to connect")

    async def stopped(self, shard: int) -> None:
        """After the process of ``shard`` was killed or told to stop."""
        await self.fd.wait_until(lambda: (shard, self.count) not in self.fd.connected_shards(), 10,
                                 f"the stopped process of shard {shard} gone")
        await self.close(shard)

    async def close(self, shard: int) -> None:
        self.running.pop(shard, None)
        context = self._contexts.pop(shard, None)
        if context is not None:
            await context.__aexit__(None, None, None)

    async def stop_all(self) -> None:
        """Once the fake is quiet, stop every running process; each must exit cleanly (0)."""
        await self.fd.wait_idle()
        for proc in self.running.values():
            assert await proc.stop() == 0, proc.output()

    async def close_all(self) -> None:
        """Close whatever still runs (a test's ``finally``)."""
        for shard in list(self.running):
            await self.close(shard)

    def assert_clean(self) -> None:
        """The fake saw nothing wrong but the crashes, and no process logged an error."""
        assert_fake_happy_but_for_the_crash(self.fd)
        for proc in self.every:
            assert_clean_log(proc)


class Crowd:
    """The people at the server and their seeded whims."""

    def __init__(self, fd: LoopbackDiscord, seed: int) -> None:
        self.fd, self.rng = fd, random.Random(seed)

    def channels(self) -> list[FakeChannel]:
        return [channel for guild in self.fd.guilds.values() for channel in guild.channels.values()]

    def clickable(self, user: str) -> list[tuple[FakeMessage, dict]]:
        """Every enabled button or menu ``user`` can see, old messages included."""
        uid = self.fd.user(user).id
        found = []
        for msg in self.fd.messages():
            if msg.kind == "dm" or msg.loading or (msg.ephemeral and msg.visible_to != uid):
                continue
            for comp in msg.walk():
                if comp.get("type") in (2, 3) and "custom_id" in comp and not comp.get("disabled"):
                    found.append((msg, comp))
        return found

    async def step(self, proc: BotProcess) -> None:
        """One thing someone does: mostly a move when it is their turn, else anything."""
        roll = self.rng.random()
        if roll < 0.10:
            await self.start_table(proc)
        elif roll < 0.16:
            await self.slash(proc, *self.rng.choice(OTHER_COMMANDS))
        elif roll < 0.30:
            await self.fill_lobby(proc) or await self.click_anything(proc)
        elif roll < 0.70:
            await self.play_turn(proc) or await self.click_anything(proc)
        elif roll < 0.80:
            await self.at_once(proc)
        else:
            await self.click_anything(proc)

    async def at_once(self, proc: BotProcess) -> None:
        """Two to four clicks at the same moment: a double click, or several people."""
        user = self.rng.choice(HUMANS)
        options = self.clickable(user)
        if not options:
            return
        msg, comp = self.rng.choice(options)
        clicks = [(msg, comp, user)]
        for _ in range(self.rng.randint(1, 3)):
            other = self.rng.choice(HUMANS)
            seen = self.clickable(other)
            clicks.append((msg, comp, user) if self.rng.random() < 0.5 or not seen
                          else (*self.rng.choice(seen), other))

        async def click(msg: FakeMessage, comp: dict, user: str) -> None:
            await self.answered(proc, await self.press(proc, msg, comp, user))

        await asyncio.gather(*(click(*c) for c in clicks))

    async def slash(self, proc: BotProcess, command: str, options: dict, channel: FakeChannel | None = None
                    ) -> None:
        user = self.fd.user(self.rng.choice(HUMANS))
        inter = await expect(proc, self.fd.slash(command, options, user=user,
                                                 channel=channel or self.rng.choice(self.channels())),
                             f"the bot to acknowledge /{command}")
        await self.answered(proc, inter)

    async def start_table(self, proc: BotProcess) -> None:
        command = self.rng.choice(GAME_COMMANDS)
        channel = self.rng.choice([c for c in self.channels() if c.name == command.split()[0]])
        await self.slash(proc, command, {"timer": 0}, channel)

    async def stop_mid_click(self, proc: BotProcess, sig: int) -> None:
        """SIGKILL or SIGTERM a few milliseconds after someone clicks: killed, the process may
        leave the click half handled; told to stop, it answers the click and closes cleanly."""
        options = self.clickable(self.rng.choice(HUMANS))
        click = None
        if options:
            msg, comp = self.rng.choice(options)
            user = msg.visible_to or self.fd.user(self.rng.choice(HUMANS)).id
            if comp["type"] == 2:
                click = asyncio.ensure_future(self.fd.click(msg, custom_id=comp["custom_id"], user=user))
            else:
                click = asyncio.ensure_future(self.fd.select(
                    msg, [comp["options"][0]["value"]], custom_id=comp["custom_id"], user=user))
        await asyncio.sleep(self.rng.uniform(0, 0.05))
        proc.signal(sig)
        await proc.wait()
        if sig == signal.SIGTERM:
            assert proc.returncode == 0, f"exit code {proc.returncode} after SIGTERM\n{proc.output()}"
        if click is not None:
            click.cancel()
            with contextlib.suppress(BaseException):
                await click

    async def fill_lobby(self, proc: BotProcess) -> bool:
        """Someone joins a lobby, or its host starts it (a guest may try to, and is told no)."""
        lobbies = [m for m in self.fd.messages(ephemeral=False)
                   if any(b.get("label") == "Start" and not b.get("disabled") for b in m.buttons)]
        if not lobbies:
            return False
        lobby = self.rng.choice(lobbies)
        host = next((n for n in HUMANS if f"{n.capitalize()} — host" in lobby.text), None)
        if host is not None and self.rng.random() < 0.6:
            user, label = host, "Start"
        else:
            user, label = self.rng.choice(HUMANS), self.rng.choice(("Join", "Join", "Start"))
        await self.answered(proc, await self.press(proc, lobby, lobby.component(type=2, label=label), user))
        return True

    async def play_turn(self, proc: BotProcess) -> bool:
        """Someone whose turn it is opens their hand and makes a random offered move."""
        for table in self.rng.sample(self.tables(), len(self.tables())):
            head = status_line(table).split("·")[0]
            mentioned = {int(i) for i in re.findall(r"<@(\d+)>", head)}
            movers = [n for n in HUMANS if self.fd.user(n).id in mentioned]
            if not movers:
                continue
            user = self.rng.choice(movers)
            inter = await self.press(proc, table, table.component(type=2, label=HAND_BUTTON), user)
            hand = await self.answered(proc, inter)
            for _ in range(4):  # a chain of steps or a two-part move narrows the choices
                choices = move_choices(hand) if hand is not None and not hand.deleted else []
                if not choices:
                    break
                kind, custom_id, value = self.rng.choice(choices)
                comp = hand.component(custom_id=custom_id)
                values = [value] if kind == "select" else None
                presses = [self.press(proc, hand, comp, user, values)]
                if self.rng.random() < 0.1:  # an impatient double click: one of the two is refused
                    presses.append(self.press(proc, hand, comp, user, values))
                for inter in await asyncio.gather(*presses):
                    hand = await self.answered(proc, inter)
                if not custom_id.startswith("dh:st:"):
                    break
            return True
        return False

    def tables(self) -> list[FakeMessage]:
        return [m for m in self.fd.messages(ephemeral=False) if m.kind != "dm"
                and any(b.get("label") == HAND_BUTTON and not b.get("disabled") for b in m.buttons)]

    async def click_anything(self, proc: BotProcess) -> None:
        user = self.rng.choice(HUMANS)
        options = self.clickable(user)
        if options:
            msg, comp = self.rng.choice(options)
            await self.answered(proc, await self.press(proc, msg, comp, user))

    async def press(self, proc: BotProcess, msg: FakeMessage, comp: dict, user: str,
                    values: list[str] | None = None) -> InteractionResult | None:
        """``user`` clicks ``comp`` (or chooses ``values`` in it, else any offered); None when
        it went away under their finger (an AI's move or someone else's click came first)."""
        who = self.fd.user(user)
        if comp["type"] == 2:
            click = self.fd.click(msg, custom_id=comp["custom_id"], user=who)
            what = f"the bot to acknowledge a click on {comp.get('label')!r}"
        else:
            if values is None:
                offered = [o["value"] for o in comp.get("options", [])]
                low, high = comp.get("min_values", 1), min(comp.get("max_values", 1), len(offered))
                values = self.rng.sample(offered, self.rng.randint(low, max(low, high)))
            click = self.fd.select(msg, values, custom_id=comp["custom_id"], user=who)
            what = f"the bot to acknowledge a choice in {comp.get('placeholder')!r}"
        try:
            return await expect(proc, click, what)
        except pytest.fail.Exception:
            if self.can_click(msg, comp):
                raise
            return None

    def can_click(self, msg: FakeMessage, comp: dict) -> bool:
        live = self.fd.message(msg.id)
        return not live.deleted and any(c.get("custom_id") == comp["custom_id"] and not c.get("disabled")
                                        for c in live.walk())

    async def answered(self, proc: BotProcess, inter: InteractionResult | None) -> FakeMessage | None:
        """The reply people see (a form is filled in at random and sent); never the apology.
        None for a click that never happened (see :meth:`press`)."""
        if inter is None:
            return None
        if inter.modal is not None:
            fields = [c["custom_id"] for c in walk_components(inter.modal["components"]) if c.get("type") == 4]
            inter = await expect(proc, self.fd.submit_modal(
                inter, {f: self.rng.choice(FORM_ANSWERS) for f in fields}), "the bot to take a form")
        try:
            reply = await expect(proc, self.fd.wait_for_reply(inter), f"a reply to {inter.record.label}")
        except pytest.fail.Exception:
            reply = self.edited_before_the_deferral(inter)
            if reply is None:
                raise
        assert str(APOLOGY) not in reply.text, f"{inter.record.label} met an unexpected fault:\n{proc.output()}"
        return reply

    def edited_before_the_deferral(self, inter: InteractionResult) -> FakeMessage | None:
        """The message of a deferred click that the bot edited from another task (a lobby's
        change, shown by the service) just before the deferral itself reached the fake: the
        person saw that edit, though the fake looks only for edits after the deferral."""
        rec = inter.record
        if inter.response_type != CB_DEFERRED_UPDATE:
            return None
        edited = any(r.message_id == rec.original_id and r.seq >= rec.requests_before and r.status < 300
                     and r.interaction_id != rec.id for r in self.fd.requests)
        return inter.message if edited else None


async def assert_logs_replay(db: str) -> tuple[int, int]:
    """Every table's move log replays from its seed to its stored state; the number of
    tables that started, and of moves."""
    storage = await Storage.open(db)
    try:
        async def every_id(db: Session) -> list[int]:
            return [row[0] for row in await db.fetch("SELECT id FROM tables")]

        ids = await storage.run_read(every_id)
        started = moves = 0
        for row in await storage.get_tables(list(ids)):
            log = await storage.move_log(row.id)
            if row.state is None:
                assert not log, f"table {row.id} has moves but no game"
                continue
            started, moves = started + 1, moves + len(log)
            assert row.version == 1 + len(log), f"table {row.id}: one version per move"
            game = games.get_game(row.game_id)
            replayed = game.replay(len(row.seats), row.options, row.seed,
                                   [(seat, game.action_from_json(action)) for seat, action, _ in log])
            assert replayed.to_json() == row.state, f"table {row.id} does not replay from its seed and log"
        return started, moves
    finally:
        await storage.close()


@pytest.mark.parametrize(("fake", "db_url"), [(1, "sqlite"), (2, "sqlite"), (2, "postgresql")], indirect=True,
                         ids=["one-process-sqlite", "two-shard-processes-sqlite", "two-shard-processes-postgresql"])
async def test_random_crowd_through_kills_and_restarts(fake: LoopbackDiscord, tmp_path: Path, db_url: str) -> None:
    """As a server runs it by default (one process, SQLite), and as a sharded bot's processes
    share one database, on each backend (each of those processes is a one-process bot for its
    shard, so one process on PostgreSQL adds nothing they do not do)."""
    crowd, processes = Crowd(fake, seed=20261126), Processes(fake, tmp_path, db_url)
    try:
        for shard in range(processes.count):
            await processes.start(shard)
        for life in range(LIVES):
            for _ in range(STEPS_PER_LIFE):
                # Any process will do to wait with: the fake routes each click to its shard's.
                await crowd.step(crowd.rng.choice(list(processes.running.values())))
            if life < LIVES - 1:
                shard = crowd.rng.randrange(processes.count)
                await crowd.stop_mid_click(processes.running[shard],
                                           signal.SIGKILL if life % 2 == 0 else signal.SIGTERM)
                await processes.stopped(shard)
                await processes.start(shard)
        await processes.stop_all()
    finally:
        await processes.close_all()
    processes.assert_clean()
    started, moves = await assert_logs_replay(db_url)
    assert started >= 2 and moves >= 50, f"the crowd played too little to tell: {started} tables, {moves} moves"
