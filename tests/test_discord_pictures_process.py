"""Pictures from the real ``python -m bot`` process over the loopback fake Discord: real
multipart HTTP (``payload_json`` + ``files[0]``), a failed upload answered as text with one
log line and no traceback, and the next picture attached again."""

from __future__ import annotations

from pathlib import Path

from discord_play import status_line
from fakediscord import LoopbackDiscord
from test_smoke_process import (  # noqa: F401 (fake is a fixture)
    assert_clean_log, click_button, expect, fake, run_slash, running_bot, wait_booted,
)


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
