"""Benchmark: the real ``python -m bot`` against the fake Discord with Discord's rate limits on.

``--tables`` T channels each hold a Q2J table (classic, no turn timer) of two people, or of
one person and an AI (``--ai``). People play from their private hand messages: when it is
their turn they think (exponential, ``--think`` mean seconds; none with ``--flat-out``), then
click Refresh on their hand message (or My hand on the table message), then a legal move
chosen at random. A table that ends is opened again (``/q2j start``, Join or Add AI, Start).
After ``--seconds`` of play nobody clicks for up to ``--drain`` seconds (until the bot has
been quiet for 3 s), then the figures:

* moves/s: moves committed during the play (AI moves included);
* acknowledgements p50/p99 during the play: from the fake sending INTERACTION_CREATE to the
  bot's callback;
* requests a move, budgeted (counting towards the global 50/s; requests answered 429 count
  too, as Discord counts them) and exempt (interaction callbacks and webhooks), by route,
  during the play and the drain; 429s, global and by route; invalid requests (401, 403, 429)
  per 10 minutes;
* staleness: from a move's commit to the table message showing that state or a later one,
  p50/p99/max, and moves never shown; how the version a table message shows is read:
  :mod:`bench.discord_shown`;
* pings: people's turns that got a message mentioning them (delivered), none (lost; a turn over
  before its ping could go is counted apart), more
  than one (how a ping is matched to its turn: :mod:`bench.discord_shown`);
* tables behind at the end: whose message shows an older state than the database holds;
* CPU during the play: the bot's (user + system, its process and any worker processes, read
  from ``/proc``), per move and as a share of a core, and the load generator's own (this
  process: the fake Discord and the people), so a reader sees whether the bench kept up.

``--pin`` runs the bot (and PostgreSQL, when the bench starts it) on one core and the load on
another (``os.sched_setaffinity``; on a bigger machine the load takes the last core, the bots
the others). ``--processes N`` runs N bot processes, shards ``0/N`` … ``N-1/N``, on one
PostgreSQL database (a throw-away server with fsync on, or ``--db postgresql://…``), the tables
spread over one server per shard; they share the token's budget as production does (each
spends its share, :func:`bot.budget.process_rate`), and the figures are the processes' together.

People know it is their turn from the database (the bench reads it every 50 ms), as if
Discord's notifications were perfect: the load offered does not depend on what the bot
manages to show, which is what is measured. The fake does not validate request bodies here
(the tests do): the bench measures, and must not be what is slow.

``--kill-every SECONDS`` kills the bot (SIGKILL) that often during the play and starts it again
on the same database (issue 33); the figures then add the kills, answers showing a player an
older state of a table than one already shown to them (read from the version in the hand
message's move controls), turns where the database said it was a person's turn but their hand
offered no move for 15 s, AI turns left unplayed for 15 s, starts never answered (``/q2j
start`` acknowledged but never answered, or answered with no lobby posted; refused because of
an open lobby nobody sees, after which the host ends it with ``/table end``), and turns pinged
more than once. A click made as the bot dies goes unacknowledged, as Discord's "This
interaction failed"; the person clicks again (an opening starts over). The restarted bot
looks in the channel for a ping the killed one may have sent, by the time its id holds: the
fake's ids hold the time they were made, as Discord's do (until 2026-11-28 they held the
fake's start, so that look found nothing and such a turn was counted pinged twice).

``--requests FILE`` writes every request the fake answered, one JSON object a line (when its
limits counted it, on the monotonic clock the bot's pacer also runs on; route; status; what
refused it): which requests fell in the second of a 429.

    python -m bench.discord_load --tables 10 --seconds 90 [--think 3.0 | --flat-out] [--ai] [--kill-every 15]
                                 [--pin] [--processes 2 [--db postgresql://…]]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import games
from bot.storage import Storage
from bot.storage.session import Session
from tests.discord_play import move_choices
from tests.fakediscord import (
    FakeChannel,
    FakeMessage,
    FakeUser,
    InteractionResult,
    LoopbackDiscord,
    guild_id_on_shard,
)
from tests.fakediscord.ratelimits import route_limit, route_name

from .discord_shown import Revision, Revisions, next_games, pings, read_histories, staleness, timeline
from .two_processes import database

REPO = Path(__file__).resolve().parent.parent
POLL_SECONDS = 0.05
STALL_SECONDS = 15.0
ANSWER_SECONDS = 10.0
OPENING_AT_ONCE = 8
START = ("q2j start", {"variant": "classic", "timer": 0})
_VERSIONED = re.compile(r"dh:(?:mv|ms|st|ask):(\d+):(\d+):")


def progress(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def spawn(coroutine: Awaitable[object]) -> asyncio.Task:
    """A task whose failure is printed at once (a bench error must not pass for a quiet table)."""
    task = asyncio.ensure_future(coroutine)

    def done(task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            progress(f"a task failed: {task.exception()!r}")
            traceback.print_exception(task.exception(), file=sys.stderr)

    task.add_done_callback(done)
    return task


# ------------------------------------------------------------------------------ the bot process


class Bot:
    """``python -m bot`` through the test launcher, on one database; started again after a kill.

    ``shard`` of ``shards`` (None: every shard); ``cpus``: the cores it may run on (None: any)."""

    def __init__(self, fd: LoopbackDiscord, folder: Path, db: str, shard: int | None = None, shards: int = 1,
                 cpus: set[int] | None = None) -> None:
        self.fd, self.folder, self.db = fd, folder, db
        self.shard, self.shards, self.cpus = shard, shards, cpus
        self.proc: asyncio.subprocess.Process | None = None
        self.lives = 0
        self.spent = 0.0
        """CPU seconds of the lives already killed or stopped."""

    @property
    def name(self) -> str:
        return "bot" if self.shard is None else f"bot-shard{self.shard}-"

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DECKHAND_", "DISCORD_"))}
        env.update(DISCORD_TOKEN="bench-token", DECKHAND_DB=self.db, DEV_GUILD_ID="", LOG_LEVEL="INFO",
                   PYTHONUNBUFFERED="1")
        if self.shard is not None:
            env["DECKHAND_SHARDS"] = f"{self.shard}/{self.shards}"
        self.lives += 1
        cpus = self.cpus
        with open(self.folder / f"{self.name}{self.lives}.log", "wb") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, str(REPO / "tests" / "launch_bot.py"), self.fd.base_url, self.fd.gateway_url,
                cwd=REPO, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log,
                preexec_fn=None if cpus is None else lambda: os.sched_setaffinity(0, cpus))

    def cpu(self) -> float:
        """CPU seconds (user + system) of every life so far, its worker processes included."""
        alive = self.proc is not None and self.proc.returncode is None
        return self.spent + (process_tree_cpu(self.proc.pid) if alive else 0.0)

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.spent = self.cpu()
            self.proc.kill()
            await self.proc.wait()

    async def stop(self) -> None:
        """Ctrl+C, then SIGKILL if it is still running 10 s later."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.spent = self.cpu()
        self.proc.send_signal(signal.SIGINT)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.proc.wait(), 10)
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()

    def tracebacks(self) -> int:
        return sum(log.read_text(errors="replace").count("Traceback") for log in self.folder.glob(f"{self.name}*.log"))


TICKS = os.sysconf("SC_CLK_TCK")


def process_tree_cpu(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` and of its living descendants, read from
    ``/proc`` (with those of its children that ended and were waited for)."""
    parents: dict[int, int] = {}
    spent: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        # after the name: state, ppid, … utime (11), stime, cutime, cstime (14), in clock ticks
        parents[int(entry.name)] = int(fields[1])
        spent[int(entry.name)] = sum(int(f) for f in fields[11:15]) / TICKS
    tree = {pid}
    while joining := {child for child, parent in parents.items() if parent in tree} - tree:
        tree |= joining
    return sum(spent.get(member, 0.0) for member in tree)


# ---------------------------------------------------------------------------- the database


AI = -1
"""Stands for an AI seat among the players to act."""


@dataclass
class StoredTable:
    version: int
    status: str
    message_id: int | None
    to_act: frozenset[int]
    """User ids of the people to act; :data:`AI` for an AI seat."""


class Database:
    """The bot's database (a SQLite file or PostgreSQL), read every :data:`POLL_SECONDS`: the
    turns people know of. The schema is made before the bot starts (:meth:`open`)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.tables: dict[int, StoredTable] = {}
        self._changed: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        """Set when a table changes (then replaced): each wait wakes for its own table alone."""
        self._storage: Storage | None = None

    async def open(self) -> None:
        self._storage = await Storage.open(self.url)

    async def close(self) -> None:
        if self._storage is not None:
            await self._storage.close()

    async def watch(self) -> None:
        while True:
            await self._poll()
            await asyncio.sleep(POLL_SECONDS)

    async def _poll(self) -> None:
        assert self._storage is not None
        rows = await self._storage.run_read(lambda db: db.fetch(
            "SELECT id, version, status, table_message_id, game_id FROM tables"))
        changed = {}
        for table_id, version, status, message_id, game_id in rows:
            known = self.tables.get(table_id)
            if known is None or (known.version, known.status, known.message_id) != (version, status, message_id):
                changed[table_id] = (version, status, message_id, game_id)
        if not changed:
            return
        marks = ", ".join("?" * len(changed))

        async def read(db: Session) -> tuple[list, list]:
            return (await db.fetch(f"SELECT id, state FROM tables WHERE id IN ({marks})", list(changed)),
                    await db.fetch(f"SELECT table_id, seat, is_ai, user_id FROM seats WHERE table_id IN ({marks})",
                                   list(changed)))

        states, seats = await self._storage.run_read(read)
        players: dict[int, dict[int, int]] = {}
        for table_id, seat, is_ai, user_id in seats:
            players.setdefault(table_id, {})[seat] = AI if is_ai else user_id
        for table_id, state in states:
            version, status, message_id, game_id = changed[table_id]
            to_act = frozenset() if state is None else frozenset(
                players[table_id][s] for s in games.get_game(game_id).from_json(
                    json.loads(state) if isinstance(state, str) else state).to_act())
            self.tables[table_id] = StoredTable(version, status, message_id, to_act)
            self._changed.pop(table_id, asyncio.Event()).set()

    async def wait(self, table_id: int, check: Callable[[], object], timeout: float | None = None) -> bool:
        """Wait until ``check()``, which reads table ``table_id``, holds; False after ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not check():
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):  # not wait_for, which may swallow a cancellation
                async with asyncio.timeout(remaining):
                    await self._changed[table_id].wait()
        return True


# ------------------------------------------------------------------------------------ people


@dataclass
class Tally:
    acks: list[float] = field(default_factory=list)
    move_acks: list[float] = field(default_factory=list)
    unacknowledged: int = 0
    unanswered: int = 0
    older_answers: int = 0
    no_move_turns: int = 0
    ai_stalls: int = 0
    starts: int = 0
    starts_unanswered: int = 0
    """``/q2j start`` acknowledged but never answered, or answered with no lobby posted."""
    starts_refused: int = 0
    """``/q2j start`` refused because the host's lobby (never shown) is still open."""
    openings_failed: int = 0
    """Openings given up at a step whose click was never acknowledged (the bot was down)."""


class Clicks:
    """Interactions as people make them, timed; while the bot is down, people wait for it."""

    def __init__(self, fd: LoopbackDiscord, tally: Tally) -> None:
        self.fd, self.tally = fd, tally

    async def send(self, interaction: Callable[[], Awaitable[InteractionResult]], *, move: bool = False
                   ) -> FakeMessage | None:
        """The visible answer to an interaction; None if it was never acknowledged or answered."""
        return (await self.answer(interaction, move=move))[1]

    async def answer(self, interaction: Callable[[], Awaitable[InteractionResult]], *, move: bool = False
                     ) -> tuple[bool, FakeMessage | None]:
        """Whether the bot acknowledged the interaction, and the answer people see (None: none)."""
        await self.fd.wait_until(lambda: self.fd.connected_shards(), 120, "the bot to connect")
        started = time.monotonic()
        try:
            result = await interaction()
        except (TimeoutError, AssertionError, ConnectionError):  # not acknowledged, or the bot went away
            self.tally.unacknowledged += 1
            return False, None
        waited = time.monotonic() - started
        self.tally.acks.append(waited)
        if move:
            self.tally.move_acks.append(waited)
        try:
            return True, await self.fd.wait_for_reply(result, ANSWER_SECONDS)
        except TimeoutError:
            self.tally.unanswered += 1
            return True, None


def hand_version(hand: FakeMessage) -> tuple[int, int] | None:
    """(table, version) of the move controls on a hand message, if it offers any."""
    for component in hand.walk():
        m = _VERSIONED.match(str(component.get("custom_id", "")))
        if m:
            return int(m[1]), int(m[2])
    return None


class Person:
    """Plays one seat: waits for the turn, thinks, refreshes the hand, clicks a legal move."""

    def __init__(self, user: FakeUser, clicks: Clicks, db: Database, rng: random.Random, think: float) -> None:
        self.user, self.clicks, self.db, self.rng, self.think = user, clicks, db, rng, think
        self.hand: FakeMessage | None = None
        self.seen: dict[int, int] = {}
        """The newest version of each table the person's answers showed."""

    async def play(self, table_id: int) -> None:
        self.hand = None
        while True:
            await self.db.wait(table_id, lambda: self._over(table_id)
                               or self.user.id in self.db.tables[table_id].to_act)
            if self._over(table_id):
                return
            if self.think:
                await asyncio.sleep(self.rng.expovariate(1 / self.think))
            await self._turn(table_id)

    def _over(self, table_id: int) -> bool:
        return self.db.tables[table_id].status != "running"

    async def _turn(self, table_id: int) -> None:
        """Move once; a hand offering no move is asked again until the turn is over, and a turn
        the hand never offers a move for counts once when it has lasted :data:`STALL_SECONDS`."""
        began, counted = time.monotonic(), False
        version = self.db.tables[table_id].version
        while self.db.tables[table_id].version == version and not self._over(table_id):
            hand = await self._current_hand(table_id, version)
            choices = move_choices(hand) if hand is not None else []
            if choices and await self._move(hand, choices):
                # the move is committed (acknowledged): wait for the database to say so
                await self.db.wait(table_id, lambda: self.db.tables[table_id].version != version
                                   or self._over(table_id), ANSWER_SECONDS)
                return
            if not choices and not counted and time.monotonic() - began > STALL_SECONDS:
                self.clicks.tally.no_move_turns += 1
                counted = True
            await asyncio.sleep(0.5)

    async def _current_hand(self, table_id: int, version: int) -> FakeMessage | None:
        if self.hand is not None and hand_version(self.hand) == (table_id, version):
            return self.hand
        if self.hand is not None and f"dh:hand:{table_id}" in {c.get("custom_id") for c in self.hand.walk()}:
            hand, custom_id = self.hand, f"dh:hand:{table_id}"
        else:
            message_id = self.db.tables[table_id].message_id
            if message_id is None:
                return None
            hand, custom_id = self.clicks.fd.message(message_id), f"dh:hand:{table_id}"
            if custom_id not in {c.get("custom_id") for c in hand.walk()}:
                return None  # the table message does not show the game (yet)
        return self._answered(await self.clicks.send(lambda: self.clicks.fd.click(hand, custom_id=custom_id,
                                                                                  user=self.user)))

    async def _move(self, hand: FakeMessage, choices: list[tuple[str, str, str]]) -> bool:
        """Click a legal move (through any step menus); False if an interaction went unanswered."""
        for _ in range(6):  # a step menu narrows the moves; choose again from what it shows
            kind, custom_id, value = self.rng.choice(choices)
            fd = self.clicks.fd
            if kind == "button":
                reply = await self.clicks.send(lambda: fd.click(hand, custom_id=custom_id, user=self.user), move=True)
            else:
                reply = await self.clicks.send(lambda: fd.select(hand, [value], custom_id=custom_id, user=self.user),
                                               move=not custom_id.startswith("dh:st:"))
            hand = self._answered(reply)
            if hand is None:
                return False
            choices = move_choices(hand)
            if not custom_id.startswith("dh:st:") or not choices:
                return True
        return True

    def _answered(self, reply: FakeMessage | None) -> FakeMessage | None:
        """Keep an answer showing the hand; count one showing an older state than already seen."""
        if reply is None or not reply.ephemeral:
            return None
        self.hand = reply
        seen = hand_version(reply)
        if seen is not None:
            table_id, version = seen
            if version < self.seen.get(table_id, -1):
                self.clicks.tally.older_answers += 1
            self.seen[table_id] = max(version, self.seen.get(table_id, -1))
        return reply


class Channel:
    """One channel: opens a table, has its people play it to the end, opens the next."""

    def __init__(self, channel: FakeChannel, host: Person, guest: Person | None, clicks: Clicks, db: Database,
                 revisions: Revisions) -> None:
        self.channel, self.host, self.guest, self.clicks, self.db = channel, host, guest, clicks, db
        self.revisions = revisions

    async def run(self, opened: asyncio.Event | None = None) -> None:
        while True:
            table_id = await self.open()
            if opened is not None:
                opened.set()
                opened = None
            if table_id is None:
                await asyncio.sleep(2.0)
                continue
            people = [self.host] + ([self.guest] if self.guest else [])
            await asyncio.gather(*(person.play(table_id) for person in people), self._watch_ai(table_id))

    async def open(self) -> int | None:
        """``/q2j start``, Join or Add AI, Start; the table's id once it runs, None if a step failed."""
        tally, fd = self.clicks.tally, self.clicks.fd
        before = self._newest()
        acknowledged, reply = await self.clicks.answer(
            lambda: fd.slash(START[0], START[1], user=self.host.user, channel=self.channel))
        if not acknowledged:
            tally.openings_failed += 1
            return None
        tally.starts += 1
        if reply is not None and "already have a lobby" in reply.text:
            tally.starts_refused += 1  # the way out a person would find: end it, start again
            await self.clicks.send(lambda: fd.slash("table end", {}, user=self.host.user, channel=self.channel))
            return None
        lobby = None
        linked = re.search(r"/(\d+)(?:\s|$)", reply.text) if reply is not None else None
        if linked is not None and int(linked[1]) <= before:  # the host's lobby, open here already: shown again
            lobby = fd.message(int(linked[1]))
        elif reply is not None:
            with contextlib.suppress(TimeoutError):
                lobby = await fd.wait_until(lambda: self._lobby_after(before), ANSWER_SECONDS, "the lobby")
        if lobby is None:
            tally.starts_unanswered += 1
            return None
        table_id = int(lobby.button("Join")["custom_id"].split(":")[2])
        if self.guest is not None:
            joined = await self.clicks.send(lambda: fd.click(lobby, label="Join", user=self.guest.user))
        else:
            menu = await self.clicks.send(lambda: fd.click(lobby, label="Add AI", user=self.host.user))
            joined = menu and await self.clicks.send(lambda: fd.select(
                menu, ["normal"], custom_id_prefix="dh:ailevel:", user=self.host.user))
        started = joined and await self.clicks.send(lambda: fd.click(lobby, label="Start", user=self.host.user))
        if not started or not await self.db.wait(table_id, lambda: table_id in self.db.tables
                                                  and self.db.tables[table_id].status == "running", ANSWER_SECONDS):
            tally.openings_failed += 1
            return None
        return table_id

    def _created(self) -> list[Revision]:
        """The public messages created in the channel, oldest first (the fake's own list of
        every message is sorted anew each time it is asked for: too slow for hundreds of tables)."""
        return self.revisions.created_in.get(self.channel.id, [])

    def _newest(self) -> int:
        """The id of the newest public message created in the channel (0: none)."""
        created = self._created()
        return created[-1].message_id if created else 0

    def _lobby_after(self, before: int) -> FakeMessage | None:
        """The newest public message created in the channel after message ``before`` that offers Join."""
        for revision in reversed(self._created()):
            if revision.message_id <= before:
                return None
            message = self.clicks.fd.message(revision.message_id)
            if any(str(b.get("custom_id", "")).endswith(":join") for b in message.buttons):
                return message
        return None

    async def _watch_ai(self, table_id: int) -> None:
        """Count an AI turn the bot leaves unplayed for :data:`STALL_SECONDS`, once per version."""
        while self.db.tables[table_id].status == "running":
            table = self.db.tables[table_id]
            if AI in table.to_act and not await self.db.wait(
                    table_id, lambda: self.db.tables[table_id].version != table.version, STALL_SECONDS):
                self.clicks.tally.ai_stalls += 1
            await self.db.wait(table_id, lambda: self.db.tables[table_id].version != table.version
                               or self.db.tables[table_id].status != "running")


# ------------------------------------------------------------------------------------ the run


@dataclass
class Run:
    args: argparse.Namespace
    tally: Tally
    fd: LoopbackDiscord
    revisions: Revisions
    db: str
    began: float = 0.0
    ended: float = 0.0
    requests: tuple[int, int] = (0, 0)
    kills: int = 0
    tracebacks: int = 0
    cpu: tuple[float, float] = (0.0, 0.0)
    """CPU seconds of the bench (the fake and the people) and of the bots' processes, the whole run."""
    play_cpu: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """The same during the play alone, and PostgreSQL's (when the bench started it)."""
    cores: tuple[str, str] = ("any", "any")
    """The cores the bench and the bots ran on."""


async def kill_now_and_then(bots: list[Bot], every: float, run: Run) -> None:
    """Kill a bot every ``every`` seconds (each in turn) and start it again."""
    for bot in itertools.cycle(bots):
        await asyncio.sleep(every)
        await bot.kill()
        run.kills += 1
        await bot.start()


async def drop_uploads(fd: LoopbackDiscord) -> None:
    """Forget the bytes of uploaded pictures once answered: the bench never reads them, and a
    hundred tables upload a gigabyte in minutes."""
    done = 0
    while True:
        await asyncio.sleep(1.0)
        for request in fd.requests[done:-50]:
            request.files = []
        done = max(done, len(fd.requests) - 50)


def pinning(pin: bool) -> tuple[set[int] | None, set[int] | None]:
    """(the bench's cores, the bots' cores): with ``pin``, the last core this process may use
    for the bench (the fake Discord and the people), the others for the bots; else any."""
    if not pin:
        return None, None
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise SystemExit("discord_load: --pin needs two cores (one for the bots, one for the load)")
    return {cores[-1]}, set(cores[:-1])


def server_cpu(pid: int | None) -> float:
    """CPU seconds of the database server the bench started (0 for none)."""
    return 0.0 if pid is None else process_tree_cpu(pid)


def cores_text(cores: set[int] | None) -> str:
    return "any" if cores is None else ",".join(map(str, sorted(cores)))


async def run(args: argparse.Namespace, folder: Path, db: str, server: int | None,
              cores: tuple[set[int] | None, set[int] | None]) -> Run:
    """The bots against the fake Discord on ``db`` (PostgreSQL's server process ``server``, if
    started here); ``cores``: those of the load and of the bots (:func:`pinning`)."""
    rng = random.Random(args.seed)
    think = 0.0 if args.flat_out else args.think
    bot_cores = cores[1]
    shards = args.processes
    async with LoopbackDiscord(rate_limits=True, validate=False, recommended_shards=shards) as fd:
        tally, revisions = Tally(), Revisions()
        fd.message_listeners.append(revisions)
        database, clicks = Database(db), Clicks(fd, tally)
        await database.open()  # the schema, before the bots open the database together
        guilds = [fd.add_guild(f"Busy Card Club {n}", id=guild_id_on_shard(fd, n, shards)) for n in range(shards)]
        channels = []
        for n in range(args.tables):
            guild = guilds[n % shards]
            people = [fd.add_user(f"p{n}-{k}") for k in range(1 if args.ai else 2)]
            for user in people:
                guild.add_member(user)
            persons = [Person(u, clicks, database, random.Random(rng.random()), think) for u in people]
            guest = persons[1] if len(persons) > 1 else None
            channels.append(Channel(guild.add_channel(f"table-{n}"), persons[0], guest, clicks, database, revisions))
        result = Run(args, tally, fd, revisions, db, cores=(cores_text(cores[0]), cores_text(bot_cores)))
        bots = [Bot(fd, folder, db, None if shards == 1 else n, shards, bot_cores) for n in range(shards)]
        background = [spawn(database.watch()), spawn(drop_uploads(fd))]
        tasks: list[asyncio.Task] = []
        try:
            for bot in bots:
                await bot.start()
            await fd.wait_for_request("PUT", r"/commands$", 60)
            await fd.wait_until(lambda: len(fd.connected_shards()) == shards, 60, "every bot to connect")
            gate = asyncio.Semaphore(OPENING_AT_ONCE)
            openings = []
            for channel in channels:
                opened = asyncio.Event()
                openings.append(opened)
                tasks.append(spawn(_opened_under(gate, channel, opened)))
            progress(f"opening {len(channels)} tables")
            await asyncio.gather(*(o.wait() for o in openings))
            result.began, first = time.time(), len(fd.requests)
            cpu_before = (time.process_time(), sum(bot.cpu() for bot in bots), server_cpu(server))
            tally.acks.clear()
            tally.move_acks.clear()
            progress(f"{len(database.tables)} tables opened; playing for {args.seconds:g} s")
            killer = spawn(kill_now_and_then(bots, args.kill_every, result)) if args.kill_every else None
            await asyncio.sleep(args.seconds)
            await cancel([killer] if killer is not None else [])
            result.play_cpu = (time.process_time() - cpu_before[0], sum(bot.cpu() for bot in bots) - cpu_before[1],
                               server_cpu(server) - cpu_before[2])
            await cancel(tasks)
            for bot in bots:
                if bot.proc is None or bot.proc.returncode is not None:
                    await bot.start()  # a kill just before the end: the drain shows what the bot catches up
            result.ended = time.time()
            progress("play over; waiting for the bots to go quiet")
            with contextlib.suppress(TimeoutError):
                await fd.wait_idle(quiet=3.0, timeout=args.drain)
            result.requests = (first, len(fd.requests))
        finally:
            await cancel([*tasks, *background])
            for bot in bots:
                await bot.stop()
            await database.close()
        result.tracebacks = sum(bot.tracebacks() for bot in bots)
        result.cpu = (time.process_time(), sum(bot.cpu() for bot in bots))
        return result


async def cancel(tasks: list[asyncio.Task]) -> None:
    """Cancel ``tasks`` and wait for them to end."""
    for task in tasks:
        task.cancel()
    _, pending = await asyncio.wait(tasks, timeout=ANSWER_SECONDS) if tasks else (set(), set())
    if pending:
        raise RuntimeError(f"{len(pending)} tasks went on after being cancelled: {pending}")


async def _opened_under(gate: asyncio.Semaphore, channel: Channel, opened: asyncio.Event) -> None:
    async with gate:
        playing = spawn(channel.run(opened))
        await opened.wait()
    await playing


# ---------------------------------------------------------------------------------- the report


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def report(result: Run) -> None:
    args, tally, fd = result.args, result.tally, result.fd
    progress("replaying the stored games")
    histories = await read_histories(result.db)
    seconds = result.ended - result.began
    moves = sum(1 for h in histories for v in h.versions[1:] if result.began <= v.committed <= result.ended)
    first, last = result.requests
    requests = fd.requests[first:last]
    by_route: dict[str, Counter[str]] = {"budgeted": Counter(), "exempt": Counter()}
    limited, refused = Counter(), Counter()
    for r in requests:
        kind = "exempt" if route_limit(fd.rate_limits.table, r.method, r.path, fd.application_id).exempt else "budgeted"
        by_route[kind][route_name(r.method, r.path)] += 1
        if r.rate_limited:
            limited[r.rate_limited] += 1
            refused[kind] += 1
    invalid = sum(1 for r in requests if r.status in (401, 403, 429))
    stale, never, behind, unmatched = [], 0, [], 0
    turns = Counter()
    next_game = next_games(histories)
    for h in histories:
        shown, unmatched_here = timeline(h, result.revisions.of_message.get(h.row.table_message_id or 0, []))
        late = staleness(h, shown, result.began, result.ended)
        stale += late.seconds
        never += late.never_shown
        unmatched += unmatched_here
        final = shown[-1][1] if shown else h.versions[0].number - 1
        if final < h.latest.number:
            behind.append(h.latest.number - final)
        p = pings(h, shown, result.revisions.created_in.get(h.row.channel_id, []), result.began, result.ended,
                  next_game[h.row.id])
        turns.update(turns=p.turns, delivered=p.delivered, lost=p.lost, repeated=p.repeated,
                     over_too_soon=p.over_too_soon)
    mode = "1 person and an AI" if args.ai else "2 people"
    where = "" if args.processes == 1 else f" across {args.processes} shard processes on one PostgreSQL"
    pace = "flat out" if args.flat_out else f"think {args.think:g} s"
    kills = f", killed every {args.kill_every:g} s" if args.kill_every else ""
    print(f"Deckhand, Discord's rate limits on: {args.tables} tables of {mode}{where}, {pace}, {seconds:.0f} s of "
          f"play (then up to {args.drain:g} s of drain){kills}")
    print(f"moves: {moves} = {moves / seconds:.1f} moves/s")
    print(f"acks: p50 {percentile(tally.acks, .5) * 1000:.0f} ms, p99 {percentile(tally.acks, .99) * 1000:.0f} ms "
          f"({len(tally.acks)} interactions; moves alone p50 {percentile(tally.move_acks, .5) * 1000:.0f} ms, "
          f"p99 {percentile(tally.move_acks, .99) * 1000:.0f} ms); never acknowledged {tally.unacknowledged}, "
          f"acknowledged but never answered {tally.unanswered}")
    for kind, counts in by_route.items():
        total = sum(counts.values())
        print(f"{kind} requests a move: {total / max(moves, 1):.2f} ({total} in all, {refused[kind]} of them "
              f"answered 429; {total / seconds:.1f}/s)")
        for route, n in counts.most_common():
            print(f"    {n / max(moves, 1):6.2f}  {route}")
    print(f"429s: {sum(limited.values())}, global {limited['global']}" + "".join(
        f"; {what} {n}" for what, n in limited.most_common() if what != "global"))
    print(f"invalid requests: {invalid} = {invalid / seconds * 600:,.0f} per 10 min (Discord bans at 10,000)")
    print(f"staleness: p50 {percentile(stale, .5):.2f} s, p99 {percentile(stale, .99):.2f} s, "
          f"max {max(stale, default=float('nan')):.2f} s over {len(stale)} moves shown; {never} never shown"
          + (f"; {unmatched} table-message revisions matched no state" if unmatched else ""))
    print(f"pings: {turns['turns']} turns of people, {turns['delivered']} delivered, {turns['lost']} lost, "
          f"{turns['repeated']} pinged more than once, {turns['over_too_soon']} over before a ping could go")
    median_behind = statistics.median(behind) if behind else 0
    print(f"tables behind at the end: {len(behind)} of {len(histories)}"
          + (f", a median {median_behind:g} versions behind" if behind else ""))
    if args.kill_every:
        print(f"kills: {result.kills}; answers older than one already shown: {tally.older_answers}; turns with no "
              f"move offered for {STALL_SECONDS:g} s: {tally.no_move_turns}; AI turns unplayed for "
              f"{STALL_SECONDS:g} s: {tally.ai_stalls}; starts never answered: {tally.starts_unanswered} of "
              f"{tally.starts}, refused for a lobby nobody sees: {tally.starts_refused}; openings begun again after "
              f"an unacknowledged click: {tally.openings_failed}; turns pinged more than once: {turns['repeated']}")
    load_cpu, bot_cpu, db_cpu = result.play_cpu
    bots = "bot" if args.processes == 1 else f"{args.processes} bots together"
    print(f"CPU during the play: {bots} {bot_cpu:.1f} s = {bot_cpu / max(moves, 1) * 1000:.1f} ms a move, "
          f"{bot_cpu / seconds:.0%} of a core (cores {result.cores[1]})"
          + (f"; PostgreSQL {db_cpu:.1f} s = {db_cpu / max(moves, 1) * 1000:.1f} ms a move" if db_cpu else "")
          + f"; load (the fake Discord and the people) {load_cpu:.1f} s = {load_cpu / seconds:.0%} of a core "
          f"(cores {result.cores[0]})")
    print(f"bot log: {result.tracebacks} tracebacks; fake: {len(fd.failures)} failures; CPU seconds of the whole run "
          f"(openings and drain included): bench {result.cpu[0]:.0f}, {bots} {result.cpu[1]:.0f}"
          + failure_kinds(fd.failures))


def failure_kinds(failures: list[str]) -> str:
    """The fake's failures, counted by their first words, labels and numbers left out (none: "")."""
    kinds = Counter(" ".join(re.sub(r"'[^']*'|\d+", "…", failure).split()[:12]) for failure in failures)
    return "".join(f"\n    {n} × {kind}…" for kind, n in kinds.most_common(5))


def write_requests(fd: LoopbackDiscord, path: Path) -> None:
    """Every request the fake answered, in order, one JSON object a line."""
    with path.open("w") as out:
        for r in fd.requests:
            out.write(json.dumps({"at": round(r.at, 4), "route": route_name(r.method, r.path), "path": r.path,
                                  "status": r.status, "limited": r.rate_limited}) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=90.0, help="seconds of play")
    parser.add_argument("--think", type=float, default=3.0, help="mean think time (exponential), seconds")
    parser.add_argument("--flat-out", action="store_true", help="no think time")
    parser.add_argument("--ai", action="store_true", help="one person and an AI a table")
    parser.add_argument("--kill-every", type=float, default=0.0, help="SIGKILL the bot every N seconds and restart it")
    parser.add_argument("--drain", type=float, default=30.0, help="longest wait for the bot to go quiet after play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--requests", type=Path, help="write every request to this file (JSON lines: when the "
                        "fake's limits counted it, route, status, what refused it)")
    parser.add_argument("--pin", action="store_true", help="the bots (and PostgreSQL) on one core, the load "
                        "(the fake Discord and the people) on another")
    parser.add_argument("--processes", type=int, default=1, help="shard processes of the bot, on one PostgreSQL "
                        "(more than one: each runs its shard of as many, the tables spread over one server a shard)")
    parser.add_argument("--db", help="with --processes: a postgresql:// URL (default: a throw-away server)")
    args = parser.parse_args()
    load_cores, bot_cores = pinning(args.pin)
    if bot_cores is not None:
        os.sched_setaffinity(0, bot_cores)  # what starts here (PostgreSQL) runs beside the bots
    with tempfile.TemporaryDirectory(prefix="discord-load-") as folder, contextlib.ExitStack() as stack:
        db, server = str(Path(folder) / "deckhand.sqlite3"), None
        if args.processes > 1 or args.db:
            db, server = stack.enter_context(database(args.db))
        if load_cores is not None:
            os.sched_setaffinity(0, load_cores)
        result = asyncio.run(run(args, Path(folder), db, server, (load_cores, bot_cores)))
        asyncio.run(report(result))
        if args.requests is not None:
            write_requests(result.fd, args.requests)


if __name__ == "__main__":
    main()
