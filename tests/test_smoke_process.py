"""Smoke test: the real ``python -m bot`` process against a fake Discord on 127.0.0.1.

The bot runs as a subprocess through ``tests/launch_bot.py``, which only points
discord.py's URLs at :class:`LoopbackDiscord` (and blocks any other network access) and then
runs the ``bot`` package as ``python -m bot`` does; the product code has no test switches.

Helpers for further process-level tests:

* ``one_guild(name, channel)``: async context manager yielding a :class:`LoopbackDiscord` with
  one guild, one channel and the four ``HUMANS`` as members (alice its owner).
* ``running_bot(fd, tmp_path, **env)``: async context manager starting the process and
  always stopping it (SIGINT, then kill) — yields a :class:`BotProcess`.
* ``wait_booted(fd, proc, dev_guild=False)``: READY + command sync; returns the sync request.
* ``run_slash(fd, proc, "q2j start", {...}, user="alice")``: invoke a command through the
  gateway, return ``(interaction result, visible reply message)``.
* ``click_button(fd, proc, message, label=... | custom_id=..., user="bob")``: click, return
  ``(interaction result, visible reply message)``.
* ``required_defaults(fd, "q2j start")``: first choice for every required option with choices.
* ``assert_fake_happy(fd)`` / ``assert_clean_log(proc)``: no request Discord would refuse;
  no traceback, ERROR line or blocked network access in the bot's output.

Every wait is bounded and fails early (with the bot's output) if the process exits. The
last test sends pictures over real multipart HTTP, a failed upload among them.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import re
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.storage.postgres import redacted
from tests.discord_play import status_line
from tests.fakediscord import FakeGuild, FakeMessage, InteractionResult, LoopbackDiscord, RecordedRequest
from tests.launch_bot import BLOCKED_MARKER
from tests.pgserver import free_port

REPO_ROOT = Path(__file__).resolve().parent.parent
LAUNCHER = REPO_ROOT / "tests" / "launch_bot.py"
TIMEOUT = 30.0  # upper bound for any single wait; normally a boot takes ~3 s
STOP_TIMEOUT = 10.0  # a clean shutdown takes well under a second
T = TypeVar("T")
LIBC = ctypes.CDLL(None, use_errno=True)
"""For ``tgkill``: a signal sent to one thread of the bot."""

# Settings the bot reads; always set explicitly so a developer's .env (python-dotenv
# never overrides variables already in the environment) can't leak into the test.
_BOT_VARS = ("DISCORD_TOKEN", "DECKHAND_DB", "DEV_GUILD_ID", "LOG_LEVEL", "DECKHAND_AI_DELAY",
             "DECKHAND_DB_SYNCHRONOUS", "DECKHAND_WEB", "DECKHAND_PUBLIC_URL")


def bot_env(tmp_path: Path, **overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in _BOT_VARS and not k.startswith("DECKHAND_FAKE_")}
    env.update(
        DISCORD_TOKEN="fake-token",
        DECKHAND_DB=str(tmp_path / "deckhand.sqlite3"),
        DEV_GUILD_ID="",
        LOG_LEVEL="INFO",
        DECKHAND_AI_DELAY="0",
        DECKHAND_DB_SYNCHRONOUS="FULL",
        DECKHAND_WEB="off",  # the tests run side by side: no two may serve on 8080
        PYTHONUNBUFFERED="1",
    )
    env.update(overrides)
    return env


class BotProcess:
    """The bot subprocess; stdout/stderr go to files so a full pipe can never block it."""

    def __init__(self, proc: asyncio.subprocess.Process, out: Path, err: Path) -> None:
        self.proc, self._out, self._err = proc, out, err

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def stdout(self) -> str:
        return self._out.read_text(errors="replace") if self._out.exists() else ""

    def stderr(self) -> str:
        return self._err.read_text(errors="replace") if self._err.exists() else ""

    def output(self) -> str:
        return f"--- bot stdout ---\n{self.stdout()}--- bot stderr ---\n{self.stderr()}"

    async def wait(self, timeout: float = TIMEOUT) -> int:
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            pytest.fail(f"bot process still running after {timeout:g}s\n{self.output()}")

    async def stop(self, timeout: float = STOP_TIMEOUT) -> int:
        """Ctrl+C: one SIGINT, as a person would press it; SIGKILL (after a dump of its
        stacks) if the process is still running after ``timeout``."""
        self.signal(signal.SIGINT)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.proc.wait(), timeout)
        if self.proc.returncode is None:
            self.signal(signal.SIGUSR1)  # its stacks, into its stderr (launch_bot)
            await asyncio.sleep(0.5)
            self.signal(signal.SIGKILL)
            await self.proc.wait()
            self.killed = True
        return self.proc.returncode  # type: ignore[return-value]

    def signal(self, sig: int, thread: int | None = None) -> None:
        """Send ``sig`` to the process (the kernel picks the thread that takes it), or to one
        of its threads; nothing if it has already exited."""
        with contextlib.suppress(ProcessLookupError):
            if thread is None:
                self.proc.send_signal(sig)
            elif LIBC.tgkill(self.proc.pid, thread, sig) != 0:
                raise ProcessLookupError(ctypes.get_errno())

    async def logged(self, text: str, timeout: float = TIMEOUT) -> None:
        """Wait until the process's log holds ``text``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while text not in self.stderr():
            if self.proc.returncode is not None or loop.time() > deadline:
                pytest.fail(f"the bot never logged {text!r}\n{self.output()}")
            await asyncio.sleep(0.05)

    def threads(self) -> list[int]:
        """The ids of the process's threads, its main thread (the process id) first."""
        return sorted(int(t) for t in os.listdir(f"/proc/{self.proc.pid}/task"))

    killed = False


@contextlib.asynccontextmanager
async def running_bot(fd: LoopbackDiscord, tmp_path: Path, **env: str) -> AsyncIterator[BotProcess]:
    """Start ``tests/launch_bot.py`` against ``fd``; always stop it on the way out."""
    out, err = tmp_path / "bot.stdout", tmp_path / "bot.stderr"
    with open(out, "wb") as out_f, open(err, "wb") as err_f:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(LAUNCHER), fd.base_url, fd.gateway_url,
            cwd=REPO_ROOT, env=bot_env(tmp_path, **env),
            stdin=subprocess.DEVNULL, stdout=out_f, stderr=err_f,
        )
    bot = BotProcess(proc, out, err)
    try:
        yield bot
    finally:
        await bot.stop()


async def expect(proc: BotProcess, awaitable: Awaitable[T], what: str) -> T:
    """Await ``awaitable`` (itself bounded) unless the bot process exits first."""
    task = asyncio.ensure_future(awaitable)
    exited = asyncio.ensure_future(proc.proc.wait())
    try:
        await asyncio.wait({task, exited}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            try:
                return task.result()
            except (TimeoutError, LookupError, AssertionError) as exc:
                pytest.fail(f"{what}: {exc}\n{proc.output()}")
        pytest.fail(f"bot process exited with code {proc.returncode} while waiting for "
                    f"{what}\n{proc.output()}")
    finally:
        for t in (task, exited):
            if not t.done():
                t.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await t


HUMANS = ("alice", "bob", "carol", "dave")  # alice owns the guild


def the_guild(fd: LoopbackDiscord) -> FakeGuild:
    return next(iter(fd.guilds.values()))


@contextlib.asynccontextmanager
async def one_guild(name: str, channel: str) -> AsyncIterator[LoopbackDiscord]:
    """A loopback fake Discord with one guild ``name`` holding ``channel``, the HUMANS its members."""
    async with LoopbackDiscord() as fd:
        users = [fd.add_user(human, global_name=human.capitalize()) for human in HUMANS]
        guild = fd.add_guild(name, owner=users[0])
        guild.add_channel(channel)
        for user in users:
            guild.add_member(user)
        yield fd


def sync_path(fd: LoopbackDiscord, dev_guild: bool) -> str:
    guild = f"/guilds/{the_guild(fd).id}" if dev_guild else ""
    return rf"^/applications/{fd.application_id}{guild}/commands$"


async def wait_booted(fd: LoopbackDiscord, proc: BotProcess, *, dev_guild: bool = False
                      ) -> RecordedRequest:
    """Wait for IDENTIFY/READY and the command-tree sync; return the sync PUT."""
    await expect(proc, fd.wait_ready(TIMEOUT), "the bot to identify on the gateway")
    return await expect(proc, fd.wait_for_request("PUT", sync_path(fd, dev_guild), TIMEOUT),
                        "the command-tree sync")


def required_defaults(fd: LoopbackDiscord, command: str) -> dict[str, Any]:
    """First declared choice for each required option that has choices."""
    parts = command.split()
    node = next(c for c in fd.commands(the_guild(fd)) + fd.commands() if c["name"] == parts[0])
    for part in parts[1:]:
        node = next(o for o in node.get("options") or [] if o["name"] == part)
    return {o["name"]: o["choices"][0]["value"] for o in node.get("options") or []
            if o.get("required") and o.get("choices")}


async def run_slash(fd: LoopbackDiscord, proc: BotProcess, command: str,
                    options: Mapping[str, Any] | None = None, *, user: int | str = "alice",
                    timeout: float = 10.0) -> tuple[InteractionResult, FakeMessage]:
    """Invoke ``/command`` as ``user`` in #card-table; return the interaction and the reply users see."""
    inter = await expect(proc, fd.slash(command, options, user=fd.user(user),
                                        channel=the_guild(fd).channel("card-table"), timeout=timeout),
                         f"the bot to acknowledge /{command}")
    reply = await expect(proc, fd.wait_for_reply(inter, timeout), f"a reply to /{command}")
    return inter, reply


async def click_button(fd: LoopbackDiscord, proc: BotProcess, message: FakeMessage | int,
                       *, label: str | None = None, custom_id: str | None = None,
                       user: int | str = "alice", timeout: float = 10.0
                       ) -> tuple[InteractionResult, FakeMessage]:
    """Click a button on ``message`` as ``user``; return the interaction and the outcome."""
    inter = await expect(proc, fd.click(message, label=label, custom_id=custom_id, user=fd.user(user),
                                        timeout=timeout), f"the bot to acknowledge a click on {label or custom_id!r}")
    reply = await expect(proc, fd.wait_for_reply(inter, timeout),
                         f"a reply to clicking {label or custom_id!r}")
    return inter, reply


def assert_clean_log(proc: BotProcess) -> None:
    text = proc.stdout() + proc.stderr()
    assert BLOCKED_MARKER not in text, f"the bot tried to reach the network\n{proc.output()}"
    assert "Traceback" not in text, f"the bot printed a traceback\n{proc.output()}"
    errors = [line for line in text.splitlines() if re.search(r"\s(ERROR|CRITICAL)\s", line)]
    assert not errors, f"the bot logged errors: {errors}\n{proc.output()}"


def assert_fake_happy(fd: LoopbackDiscord) -> None:
    refused = [f"{r} {r.error}" for r in fd.requests if r.error]
    assert not fd.failures and not refused, (
        f"Discord would have refused requests: {fd.failures or refused}\n{fd.describe()}")


def _one_line(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


@pytest.fixture
async def fake() -> AsyncIterator[LoopbackDiscord]:
    """A fake Discord with one guild: #card-table and four members."""
    async with one_guild("Fake Card Club", "card-table") as fd:
        yield fd


# --------------------------------------------------------------------------- tests


@pytest.mark.parametrize("dev_guild", [False, True], ids=["global-sync", "dev-guild-sync"])
async def test_process_boots_and_syncs_commands(fake: LoopbackDiscord, tmp_path: Path,
                                                dev_guild: bool) -> None:
    env = {"DEV_GUILD_ID": str(the_guild(fake).id)} if dev_guild else {}
    async with running_bot(fake, tmp_path, **env) as proc:
        sync = await wait_booted(fake, proc, dev_guild=dev_guild)

        identify = fake.identify_payload or {}
        assert identify.get("token") == "fake-token"
        commands = sync.body
        assert isinstance(commands, list) and commands, f"empty command sync: {sync}"
        for cmd in commands:
            assert cmd.get("name") and (cmd.get("type", 1) != 1 or cmd.get("description")), cmd
        assert sync.status == 200, sync
        assert proc.returncode is None, f"bot exited early\n{proc.output()}"
        assert_fake_happy(fake)

        rc = await proc.stop()
        assert not proc.killed, f"bot ignored SIGINT for {STOP_TIMEOUT:g}s\n{proc.output()}"
        assert rc == 0, f"exit code {rc} after SIGINT\n{proc.output()}"
        assert_clean_log(proc)
        assert (tmp_path / "deckhand.sqlite3").exists(), "DECKHAND_DB was not created"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
async def test_a_stop_signal_on_any_thread_closes_the_bot_cleanly(fake: LoopbackDiscord, tmp_path: Path,
                                                                  sig: int) -> None:
    """Ctrl+C, ``docker stop`` and systemd stop the bot with one signal, whichever of its
    threads the kernel hands it to: a signal taken by a worker thread while the event loop
    sat idle used to wait, unnoticed, until something woke the loop."""
    async with running_bot(fake, tmp_path) as proc:
        await wait_booted(fake, proc)
        await proc.logged("connected as")
        await asyncio.sleep(0.5)  # nothing left to do: the event loop waits on its sockets
        others = proc.threads()[1:]
        assert others, "the bot runs worker threads (database, gateway heartbeat)"
        proc.signal(sig, thread=others[-1])
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(proc.proc.wait(), STOP_TIMEOUT)
        assert proc.returncode == 0, f"one {signal.Signals(sig).name} did not stop the bot\n{proc.output()}"
        assert f"{signal.Signals(sig).name} received: closing" in proc.stderr()
        assert_clean_log(proc)


async def test_q2j_game_played_through_the_gateway(fake: LoopbackDiscord, tmp_path: Path) -> None:
    """The real process: /q2j start, Join, Start, then a few moves through My hand."""
    async with running_bot(fake, tmp_path) as proc:
        await wait_booted(fake, proc)
        # acknowledged within Discord's 3 s, or the model records a failure (assert_fake_happy)
        await run_slash(fake, proc, "q2j start", {"variant": "classic", "timer": 0}, user="alice")

        def has_button(label: str):
            return lambda msg: any(b.get("label") == label for b in msg.buttons)

        lobby = await expect(proc, fake.wait_for_message(has_button("Join"), 10.0, "a lobby"), "the lobby")
        assert not lobby.ephemeral, "the lobby must be public, not ephemeral"
        await click_button(fake, proc, lobby, label="Join", user="bob")
        await expect(proc, fake.wait_until(lambda: "bob" in fake.message(lobby.id).text.lower(), 10.0, "bob seated"),
                     "the lobby update")
        await click_button(fake, proc, lobby, label="Start", user="alice")
        table = await expect(proc, fake.wait_for_message(has_button("🂠 My hand"), 10.0, "the table"), "the table")
        assert table.id == lobby.id, "the lobby message becomes the table message"

        names = {fake.user(n).id: n for n in ("alice", "bob")}
        shown = None  # the table's edit before the last move: the table answers it with a newer one
        for move in range(4):
            await expect(proc, fake.wait_until(lambda: fake.message(lobby.id).edited_at != shown, 10.0, "the edit"),
                         "the table update")
            table = fake.message(lobby.id)
            mover = names[int(re.search(r"<@(\d+)>", status_line(table)).group(1))]
            _, hand = await click_button(fake, proc, table, label="🂠 My hand", user=mover)
            assert hand.ephemeral, "a hand is private"
            shown = fake.message(lobby.id).edited_at
            _, after = await click_button(fake, proc, hand, label="Draw a card", user=mover)
            assert "Waiting for" in after.text, after
        await expect(proc, fake.wait_until(lambda: fake.message(lobby.id).text.count("drew a card") == 2, 10.0,
                                           "the last move shown"), "the last table update")
        latest = fake.message(lobby.id).text
        assert latest.count("drew a card") == 2, latest  # the newest two events
        assert proc.returncode is None, proc.output()
        assert_fake_happy(fake)
        assert await proc.stop() == 0, proc.output()
        assert_clean_log(proc)


def test_ctrl_c_while_the_modules_load_ends_quietly(tmp_path: Path) -> None:
    """Python reports each import as it completes (``-X importtime``); Ctrl+C right after
    ``bot.settings`` lands while discord.py and the bot's modules load, which takes a few
    tenths of a second."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-X", "importtime", str(LAUNCHER), f"http://127.0.0.1:{port}/api/v10",
         f"ws://127.0.0.1:{port}/gateway"], cwd=tmp_path, env=bot_env(tmp_path), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # a shell's background jobs ignore it
    try:
        for line in proc.stderr:
            if line.rstrip().endswith("| bot.settings"):
                proc.send_signal(signal.SIGINT)
                break
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        proc.kill()
    output = out + "".join(line for line in err.splitlines(keepends=True) if not line.startswith("import time:"))
    assert proc.returncode in (130, 0) and "Traceback" not in output, (proc.returncode, output)


def test_missing_token_exits_with_one_clear_line(tmp_path: Path) -> None:
    env = bot_env(tmp_path, PYTHONPATH=str(REPO_ROOT))
    del env["DISCORD_TOKEN"]
    # python-dotenv looks for .env upwards from bot/settings.py, not only in the cwd; if a
    # developer has one with a real token, keep it out (an empty value counts as unset).
    bot_dir = REPO_ROOT / "bot"
    if any((d / ".env").is_file() for d in (bot_dir, *bot_dir.parents)):
        env["DISCORD_TOKEN"] = ""
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=TIMEOUT)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "Traceback" not in output, output
    lines = _one_line(output)
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0], output


def start_and_fail(tmp_path: Path, **env: str) -> str:
    """Run the bot through the launcher against a loopback port nothing listens on; it must
    exit with status 1 and one line, no traceback. Returns that line."""
    port = free_port()
    done = subprocess.run([sys.executable, str(LAUNCHER), f"http://127.0.0.1:{port}/api/v10",
                           f"ws://127.0.0.1:{port}/gateway"], cwd=tmp_path, env=bot_env(tmp_path, **env),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "Traceback" not in output and "Exception in thread" not in output, output
    [line] = _one_line(output)
    return line


def other_schema(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE guild_settings (x)")
        db.commit()


@pytest.mark.parametrize("make, reason", [
    (lambda path: path.mkdir(), "unable to open database file"),
    (lambda path: path.write_text("notes, not a database " * 20), "file is not a database"),
    (other_schema, "table guild_settings already exists"),
], ids=["a-folder", "a-text-file", "another-apps-database"])
def test_an_unusable_sqlite_file_exits_with_one_clear_line(tmp_path: Path, make, reason: str) -> None:
    path = tmp_path / "deckhand.sqlite3"
    make(path)
    line = start_and_fail(tmp_path, DECKHAND_DB=str(path), LOG_LEVEL="WARNING")
    assert line.startswith("deckhand: cannot ") and str(path) in line and reason in line, line
    assert line.endswith("check DECKHAND_DB: a file the bot can create, read and write."), line


def test_an_unreadable_postgresql_url_is_named_without_its_password(tmp_path: Path) -> None:
    line = start_and_fail(tmp_path, DECKHAND_DB="postgresql://deckhand:s3cret@[not-a-host/deckhand")
    assert line == ("deckhand: cannot reach the PostgreSQL database <not a valid URL> (Invalid IPv6 URL); "
                    "check DECKHAND_DB and that the database server is running."), line


def test_discord_out_of_reach_at_start_up_is_one_clear_line(tmp_path: Path) -> None:
    line = start_and_fail(tmp_path, LOG_LEVEL="WARNING")
    assert line.startswith("deckhand: cannot reach Discord (Cannot connect to host 127.0.0.1:"), line
    assert line.endswith("check this machine's network connection."), line


async def test_bad_token_exits_with_one_clear_line(fake: LoopbackDiscord, tmp_path: Path) -> None:
    # LOG_LEVEL=WARNING: at INFO discord.py also logs "logging in using static token".
    async with running_bot(fake, tmp_path, DISCORD_TOKEN="bad-token", LOG_LEVEL="WARNING") as proc:
        rc = await proc.wait(TIMEOUT)
    output = proc.stdout() + proc.stderr()
    assert rc != 0, proc.output()
    assert "Traceback" not in output, proc.output()
    lines = _one_line(output)
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0], (
        f"expected one line about DISCORD_TOKEN, got {len(lines)} (discord.py's voice "
        f"warnings are silenced with discord.VoiceClient.warn_nacl = warn_dave = False)\n"
        f"{proc.output()}")
    login = fake.requests_to("GET", r"^/users/@me$")
    assert login and login[0].status == 401, fake.describe()
    assert fake.identify_payload is None, "the bot identified despite the rejected token"


async def test_a_second_process_on_the_same_shards_stands_by_until_the_first_stops(
        fake: LoopbackDiscord, tmp_path: Path, db_url: str) -> None:
    """Started twice by mistake, Deckhand would answer every click twice: the second process
    says why it waits, does not connect, and takes over the moment the first stops (as the new
    process of a rolling restart does)."""
    async with running_bot(fake, tmp_path, DECKHAND_DB=db_url) as first:
        await wait_booted(fake, first)
        (tmp_path / "second").mkdir()
        async with running_bot(fake, tmp_path / "second", DECKHAND_DB=db_url) as second:
            await second.logged("this one waits and takes over when it stops")
            assert f"on {redacted(db_url)};" in second.stderr()  # a password is never printed
            await run_slash(fake, first, "rules", {"game": "quash"})  # the first answers, alone
            assert len(fake.requests_to("POST", r"/interactions/\d+/[^/]+/callback")) == 1
            fake.identify_payload = None
            assert await first.stop() == 0
            await expect(second, fake.wait_ready(TIMEOUT), "the second process to take over")
            await second.logged("the other process stopped; taking over all shards")
            await run_slash(fake, second, "rules", {"game": "quash"})
            assert await second.stop() == 0
        assert_clean_log(second)


@pytest.mark.parametrize("code, reason, says", [
    (4004, "Authentication failed.", "Discord no longer accepts DISCORD_TOKEN (was it reset?)"),
    (4011, "Sharding required.", "Discord needs more shards for this bot's servers"),
], ids=["token-reset", "sharding-required"])
async def test_a_connection_discord_closes_for_good_ends_with_one_clear_line(fake: LoopbackDiscord, tmp_path: Path,
                                                                            code: int, reason: str, says: str) -> None:
    """Discord ends the session of a bot whose token was reset in the Developer Portal (or
    that needs more shards): discord.py does not retry, and the bot says what to change."""
    async with running_bot(fake, tmp_path, LOG_LEVEL="WARNING") as proc:
        await wait_booted(fake, proc)
        await fake.close_sessions(code, reason, revoke="fake-token" if code == 4004 else None)
        rc = await proc.wait(TIMEOUT)
    lines = _one_line(proc.stdout() + proc.stderr())
    assert rc == 1 and len(lines) == 1, proc.output()
    assert lines[0].startswith(f"deckhand: {says}") and lines[0].endswith("The bot has stopped."), lines


# -- pictures from the real process: real multipart HTTP (payload_json + files[0]), a failed upload
# answered as text with one log line and no traceback, and the next picture attached again

def picture_name(message) -> str:
    (url,) = message.gallery_images()
    name = url.removeprefix("attachment://")
    assert [filename for filename, _ in message.files] == [name] and message.file(name).startswith(b"\x89PNG")
    return name


async def test_pictures_over_real_http_and_a_failed_upload(fake: LoopbackDiscord, tmp_path: Path) -> None:
    async with running_bot(fake, tmp_path) as proc:
        await wait_booted(fake, proc)
        await run_slash(fake, proc, "q2j start", {"variant": "classic", "timer": 0}, user="alice")
        lobby = await expect(proc, fake.wait_for_message(lambda m: any(b.get("label") == "Join" for b in m.buttons),
                                                         10.0, "a lobby"), "the lobby")
        await click_button(fake, proc, lobby, label="Join", user="bob")
        await expect(proc, fake.wait_idle(), "the lobby update")
        fake.fail_uploads(1)
        await click_button(fake, proc, lobby, label="Start", user="alice")
        await expect(proc, fake.wait_idle(), "the table")
        table = fake.message(lobby.id)
        assert status_line(table).startswith("▶ ") and table.attachments == [] and table.gallery_images() == []
        refused = [r for r in fake.requests if r.files and r.status == 413]
        assert len(refused) == 1 and refused[0].multipart and refused[0].file_fields == ["files[0]"]

        mover = "alice" if str(fake.user("alice").id) in status_line(table).split("·")[0] else "bob"
        _, hand = await click_button(fake, proc, table, label="🂠 My hand", user=mover)
        assert hand.ephemeral and picture_name(hand).startswith("hand-1-")
        await expect(proc, fake.wait_idle(), "the hand")
        uploads = [r for r in fake.requests if r.files and r.status == 200]
        assert uploads and all(r.file_fields == ["files[0]"] for r in uploads)
        assert not fake.failures, fake.describe()

        # The next table update has its picture again.
        await click_button(fake, proc, fake.message(hand.id), label="Draw a card", user=mover)
        await expect(proc, fake.wait_idle(), "the table update")
        assert picture_name(fake.message(lobby.id)).startswith("table-1-")

        assert await proc.stop() == 0, proc.output()
        assert_clean_log(proc)
        assert "could not upload the picture of table 1" in proc.output()
