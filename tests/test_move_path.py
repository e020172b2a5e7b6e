"""The README's life of a move is the path a click takes: each module it names is visited once,
in one stretch, and a real move clicked through the bot calls every function it names."""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from tests.discord_play import make_server, move_choices, open_hand, open_table, start_bot, to_act
from tests.fakediscord import DiscordHarness
from tests.test_docs import ROOT, STOP, readme

ONLY_ON_POSTGRESQL = ("bot/storage/postgres.py",)
"""Stops of the other backend: the click below is played on SQLite."""


def life_of_a_move() -> list[tuple[str, str]]:
    """``(file, name)`` of each stop the README's life of a move names, in its order."""
    text = readme()
    section = text[text.index("### The life of a move"):text.index("## Tests")]
    return STOP.findall(section)


def runs(modules: list[str]) -> Iterator[str]:
    """The modules of a sequence, one per stretch of the same module."""
    for n, module in enumerate(modules):
        if n == 0 or modules[n - 1] != module:
            yield module


def test_the_life_of_a_move_visits_each_module_in_one_stretch() -> None:
    stops = life_of_a_move()
    assert len(stops) >= 12
    stretches = list(runs([path for path, _ in stops]))
    again = sorted({module for module in stretches if stretches.count(module) > 1})
    assert not again, f"the life of a move comes back to {again}: {stretches}"


class Calls:
    """Every function of the project called while :attr:`recording`, on any thread started
    after it was made (Python 3.11 cannot profile a thread already running) and on this one."""

    def __init__(self) -> None:
        self.recording = False
        self.seen: set[tuple[str, str]] = set()
        threading.setprofile(self.profile)

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if self.recording and event == "call":
            path = frame.f_code.co_filename
            if path.startswith(str(ROOT)):
                self.seen.add((Path(path).relative_to(ROOT).as_posix(), frame.f_code.co_qualname))

    def __enter__(self) -> Calls:
        self.recording = True
        sys.setprofile(self.profile)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(None)
        self.recording = False

    def close(self) -> None:
        threading.setprofile(None)  # type: ignore[arg-type]


async def test_a_move_clicked_takes_every_step_the_readme_names(tmp_path: Path) -> None:
    calls = Calls()  # before the bot starts: its database thread and drawing threads are followed too
    try:
        async with DiscordHarness() as h:
            s = make_server(h, tmp_path)
            await start_bot(h, s.db_path)
            table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
            mover = to_act(s, table)[0]
            hand = await open_hand(s, mover, table)
            await h.bot.service.wait_idle()
            custom_id = next(c for kind, c, _ in move_choices(hand.message) if kind == "button")
            assert re.fullmatch(r"dh:mv:\d+:\d+:\S+", custom_id)
            with calls:
                await h.click(hand.message, custom_id=custom_id, user=mover)
                await h.bot.service.wait_idle()
    finally:
        calls.close()
    missed = [f"{path}:{name}" for path, name in life_of_a_move()
              if path not in ONLY_ON_POSTGRESQL and (path, name) not in calls.seen]
    assert not missed, f"the README's life of a move names steps a move doesn't take: {missed}"
