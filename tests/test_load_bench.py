"""What the Discord load bench (``bench/discord_load.py``) measures with: the CPU of a process
tree read from ``/proc``, and the fake Discord's own reading of uploads (multipart bodies)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time

import aiohttp

from bench.discord_load import process_tree_cpu
from tests.fakediscord.forms import form_parts

SPIN = "import time\nwhile time.process_time() < {cpu}: pass\nprint('spun', flush=True)\ntime.sleep(60)"


def test_the_cpu_of_a_process_tree_counts_its_children() -> None:
    """A shell whose child has spent 0.3 s of CPU: the tree from the shell counts them (``/proc``
    counts in clock ticks of 10 ms, sampled: a few may be missing)."""
    shell = subprocess.Popen(["sh", "-c", f'{sys.executable} -c "$0"; true', SPIN.format(cpu=0.3)],
                             stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert shell.stdout is not None and shell.stdout.readline() == "spun\n"
        assert process_tree_cpu(shell.pid) >= 0.25
        assert process_tree_cpu(os.getpid()) >= time.process_time() - 0.05
    finally:
        os.killpg(shell.pid, signal.SIGKILL)  # the shell and its child
        shell.wait()


async def test_the_fake_reads_an_upload_as_discord_py_writes_it() -> None:
    form = aiohttp.FormData(quote_fields=False)  # as discord.py builds an upload
    form.add_field("payload_json", json.dumps({"content": "é \"quoted\""}), content_type="application/json")
    picture = b"\x89PNG\r\n\r\n--not-a-boundary\r\n"
    form.add_field("files[0]", io.BytesIO(picture), filename="table.png", content_type="application/octet-stream")
    form.add_field("files[1]", io.BytesIO(b"abc"), filename='a "hand".png', content_type="application/octet-stream")
    body = form()
    written = io.BytesIO()

    class Writer:
        async def write(self, data: bytes) -> None:
            written.write(data)

    await body.write(Writer())
    parts = form_parts(written.getvalue(), body.headers["Content-Type"])
    assert [(params, data) for params, data in parts[1:]] == [
        ({"name": "files[0]", "filename": "table.png"}, picture),
        ({"name": "files[1]", "filename": 'a "hand".png'}, b"abc")]
    assert parts[0][0] == {"name": "payload_json"} and json.loads(parts[0][1]) == {"content": "é \"quoted\""}
