"""The bot process's garbage collection settings (:mod:`bot.garbage_collection`), in a process of their own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import gc
import bot.client
from bot.garbage_collection import GEN0_THRESHOLD
default = gc.get_threshold()
bot.client.DeckhandBot.run = lambda self, *a, **k: print(
    default[0], gc.get_threshold() == (GEN0_THRESHOLD, *default[1:]), gc.get_freeze_count() > 1000)
from bot.__main__ import main
main([])
"""


def test_python_m_bot_collects_less_often_and_freezes_its_start_up_heap(tmp_path):
    env = {"DISCORD_TOKEN": "x", "DECKHAND_DB": str(tmp_path / "d.sqlite3"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["700", "True", "True"]
