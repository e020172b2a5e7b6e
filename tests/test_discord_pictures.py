"""Table and hand pictures through Discord: attached the way Discord expects (multipart with
``payload_json`` and ``files[n]``, the media gallery showing an ``attachment://`` of that
message), replaced on each edit, kept after a restart, off by ``/settings pictures`` (the text
board in the picture's place), and a failed upload answered with the same message as text.
A hand picture is as tall as what it draws, and there is none when the seat has nothing to
draw; a QUASH hand says its side and draws that side's board."""

from __future__ import annotations

import io
import re
import time

import discord
from PIL import Image

from cogs.attachments import seat_names
from cogs.components import GALLERY, TEXT, Layout, LayoutMessage, text_display
from cogs.messages import table_message
from games.pictures import hand_png, pictures_for, table_png
from games.pictures.canvas import GAP, MARGIN, MIN_HEIGHT, WIDTH
from tests.discord_play import board, open_hand, open_table, play_turn, start_bot, status_line, texts, to_act
from tests.fakediscord import IS_COMPONENTS_V2, RecordedRequest, walk_components
from tests.fakediscord.model import upload_problems


def picture_of(message) -> tuple[str, bytes]:
    """The message's one picture: its media gallery's attachment:// name and that file's bytes."""
    (url,) = message.gallery_images()
    assert url.startswith("attachment://")
    name = url[len("attachment://"):]
    assert [filename for filename, _ in message.files] == [name]
    return name, message.file(name)


def uploads(s, message_id: int):
    return [r for r in s.h.requests if r.message_id == message_id and r.files]


def text_as_rendered(snap) -> list[str]:
    """The text displays of the table message the renderer builds for ``snap``, without a picture."""
    return [c["content"] for c in walk_components(table_message(snap).view.to_components()) if c["type"] == TEXT]


async def table_png_now(s, table_id: int = 1) -> bytes:
    """The table's picture as the renderer draws it now: its public view, its seats' names."""
    snap = await s.h.bot.service.table(table_id)
    return table_png(snap.view, names=seat_names(snap.row.seats))


async def test_the_table_picture_is_attached_at_start_and_replaced_on_each_edit(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    name, png = picture_of(s.h.message(table.id))
    assert re.fullmatch(r"table-1-\d+\.png", name) and png.startswith(b"\x89PNG")
    assert png == await table_png_now(s)  # the public view, drawn as the renderer draws it
    first = uploads(s, table.id)[-1]
    assert first.multipart and first.file_fields == ["files[0]"]
    assert first.body["attachments"] == [{"id": 0, "filename": name}]
    gallery = next(c for c in walk_components(first.body["components"]) if c["type"] == GALLERY)
    assert gallery["items"][0]["media"]["url"] == f"attachment://{name}"
    assert first.body["flags"] & IS_COMPONENTS_V2 and not first.body.get("embeds") and not first.body.get("content")

    await play_turn(s, table, prefer=("play", "draw"))
    message = s.h.message(table.id)
    new_name, new_png = picture_of(message)
    assert new_name != name and new_png == await table_png_now(s)
    assert len(message.attachments) == 1  # the old picture was dropped, not kept beside the new one
    assert uploads(s, table.id)[-1].body["attachments"] == [{"id": 0, "filename": new_name}]


async def test_the_hand_picture_is_in_the_private_hand_message(server):
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    hand = await open_hand(s, s.user("ana"), table)
    name, png = picture_of(hand.message)
    snap = await s.h.bot.service.play.hand(1, s.player(s.user("ana")))
    assert name == f"hand-1-{snap.version}-1.png"
    assert png == hand_png(snap.view, [a.code() for a in snap.actions], names=seat_names(snap.table.row.seats))
    assert hand.message.ephemeral
    callback = next(r for r in hand.requests if r.files)
    assert callback.multipart and callback.file_fields == ["files[0]"]

    refreshed = await s.h.click(hand.message, label="🔄 Refresh", user=s.user("ana"))
    assert picture_of(s.h.message(hand.message.id))[1] == png
    assert len(s.h.message(hand.message.id).attachments) == 1
    assert refreshed.message.id == hand.message.id


async def test_pictures_stay_and_buttons_work_after_a_restart(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    await play_turn(s, table, prefer=("play", "draw"))
    await s.h.stop()
    await start_bot(s.h, s.db_path, seed=None)
    name, _ = picture_of(s.h.message(table.id))
    mover = await play_turn(s, table, prefer=("play", "draw"))
    new_name, png = picture_of(s.h.message(table.id))
    assert new_name != name and png == await table_png_now(s)
    hand = s.h.latest_ephemeral(mover)
    assert picture_of(hand)[0].startswith("hand-1-")


async def test_pictures_off_by_the_setting_send_no_files_and_the_same_text(server):
    s = server
    shown = await s.h.slash("settings pictures", {"enabled": False}, user=s.admin, channel=s.channel)
    assert "Pictures of tables and hands: off" in shown.text
    mark = len(s.h.requests)
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    hand = await open_hand(s, s.user("ana"), table)
    message = s.h.message(table.id)
    assert not any(r.files for r in s.h.requests[mark:])
    assert message.attachments == [] and message.gallery_images() == []
    assert hand.message.attachments == [] and hand.message.gallery_images() == []
    assert "— deck" in board(message) and "Your field" in texts(hand.message)[1]  # text in the pictures' place

    assert texts(message) == text_as_rendered(await s.h.bot.service.table(1))

    await s.h.slash("settings pictures", {"enabled": True}, user=s.admin, channel=s.channel)
    await play_turn(s, table, prefer=("play", "draw"))
    pictured = s.h.message(table.id)
    assert picture_of(pictured)
    rendered = text_as_rendered(await s.h.bot.service.table(1))
    assert texts(pictured) == [rendered[0], *rendered[2:]]  # the same text, the picture in the board's place


async def test_a_failed_upload_falls_back_to_the_same_message_as_text(server):
    s = server
    await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"], start=False)
    lobby = s.h.latest_public(s.channel)
    s.h.fail_uploads(1)
    await s.h.click(lobby, label="Start", user=s.user("ana"))
    table = s.h.message(lobby.id)
    assert table.attachments == [] and table.gallery_images() == []
    assert status_line(table).startswith("▶ ") and table.buttons  # the game is on, as text
    refused = [r for r in s.h.requests if r.files and r.status == 413]
    assert len(refused) == 1 and refused[0].path.endswith(f"/messages/{table.id}")

    s.h.fail_uploads(1)
    hand = await open_hand(s, s.user("ana"), table)
    assert hand.message.ephemeral and hand.message.attachments == [] and "Your hand" in hand.text
    assert [r.status for r in hand.requests if r.files] == [413]
    assert s.h.failures == []


async def test_the_fake_refuses_pictures_discord_would_not_show(server):
    s = server
    channel = s.h.bot.get_partial_messageable(s.channel.id, guild_id=s.guild.id)
    embed = discord.Embed(title="x").set_image(url="attachment://missing.png")
    await channel.send(embed=embed, file=discord.File(io.BytesIO(b"png"), filename="other.png"))
    (failure,) = s.h.take_failures()
    assert "attachment://missing.png" in failure and "other.png" in failure

    layout = LayoutMessage(Layout(None, [text_display("x")], [], []))
    await channel.send(view=layout.pictured("attachment://missing.png"),
                       file=discord.File(io.BytesIO(b"png"), filename="other.png"))
    missing, unshown = s.h.take_failures()
    assert "attachment://missing.png" in missing and "other.png" in unshown and "no component shows" in unshown

    wrong_field = RecordedRequest(0, "http", "POST", "/channels/1/messages", {}, {
        "attachments": [{"id": 0, "filename": "a.png"}, {"id": 1, "filename": "b.png"}]},
        multipart=True, files=[("a.png", b"1")], file_fields=["file"])
    assert upload_problems(wrong_field) == [
        "a file is uploaded as form field 'file'; Discord reads files[n] fields",
        "attachment 0 names files[0], which was not uploaded",
        "attachment 1 names files[1], which was not uploaded",
    ]


async def test_only_moderators_turn_pictures_off(server):
    s = server
    refused = await s.h.slash("settings pictures", {"enabled": False}, user=s.user("ana"), channel=s.channel)
    assert refused.ephemeral and "permission" in refused.text
    assert (await s.h.bot.service.storage.guild_settings(s.guild.id)).pictures
    shown = await s.h.slash("settings show", {}, user=s.admin, channel=s.channel)
    assert "Pictures of tables and hands: on" in shown.text


async def test_a_channel_without_attach_files_shows_its_tables_as_text_with_one_warning(server, caplog,
                                                                                        monkeypatch):
    """Without Attach Files Discord refuses every table picture (403): the channel's tables go
    as text for an hour after the first refusal, with one warning saying what to do, instead
    of two requests and a warning at every move."""
    s = server
    lobby = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"], start=False)
    s.h.fail_uploads(1000, status=403, code=50013, message="Missing Permissions")
    await s.h.click(lobby, label="Start", user=s.user("ana"))
    for _ in range(3):
        await play_turn(s, lobby, prefer=("attack", "draw"))
    table_uploads = [r for r in s.h.requests if r.files and r.path.endswith(f"/messages/{lobby.id}")]
    assert [r.status for r in table_uploads] == [403]
    assert status_line(s.h.message(lobby.id)).startswith("▶ ") and s.h.message(lobby.id).gallery_images() == []
    said = [r.getMessage() for r in caplog.records]
    table_lines = [line for line in said if "may not attach" in line or re.search(r"picture of table \d+ \(", line)]
    assert len(table_lines) == 1 and "Give Deckhand Attach Files there" in table_lines[0], said

    later = time.monotonic() + 3601  # an hour on, the channel is tried again
    monkeypatch.setattr(s.h.bot.publisher.access, "clock", lambda: later)  # not time.monotonic: asyncio's clock
    s.h.fail_uploads(0)
    await play_turn(s, lobby, prefer=("attack", "draw"))
    assert picture_of(s.h.message(lobby.id))


async def test_a_quash_hand_says_your_side_and_draws_the_board_you_place_on(server):
    """Above the picture, the hand says the side you play for; the picture draws that side's
    nine spots (each numbered as its "Spot n" button), under a bar naming the side, over the hand."""
    s = server
    table = await open_table(s, "quash start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    hand = await open_hand(s, mover, table)
    snap = await s.h.bot.service.play.hand(1, s.player(mover))
    side = snap.view["side"]
    assert f"You play for **{side}**." in texts(hand.message)[0]
    _, png = picture_of(hand.message)
    legal, names = [a.code() for a in snap.actions], seat_names(snap.table.row.seats)
    drawn = pictures_for("quash").hand(snap.view, legal, names)
    assert drawn is not None and drawn.png() == png
    assert drawn.texts[:2] == [side, "· You"]
    assert [text for text in drawn.texts if text.isdigit()] == [str(n) for n in range(1, 10)]
    assert drawn.texts[-1] == f"Hand: {len(snap.view['hand'])} cards"


async def test_a_hand_with_nothing_to_draw_has_no_picture(server):
    """Before Queen of Spades' deal the dealer holds no card: the hand message shows its words
    (the text board in the picture's place), no blank picture."""
    s = server
    table = await open_table(s, "qos start", {"timer": 0}, "ana", joiners=["ben"])
    dealer = to_act(s, table)[0]
    hand = await open_hand(s, dealer, table)
    snap = await s.h.bot.service.play.hand(1, s.player(dealer))
    assert snap.view["phase"] == "cut" and snap.view["hand"] == []
    assert not hand.message.gallery_images() and not hand.message.files
    assert hand_png(snap.view, [a.code() for a in snap.actions]) is None
    assert len(texts(hand.message)) >= 2  # what the seat may do, and the board in words


async def test_a_hand_picture_is_as_tall_as_what_it_draws(server):
    """A War hand picture draws the seat's field, one line of cards: the picture ends under it,
    landscape however wide, instead of a 560 × 356 box of felt."""
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    hand = await open_hand(s, mover, table)
    snap = await s.h.bot.service.play.hand(1, s.player(mover))
    drawn = pictures_for("war").hand(snap.view, [a.code() for a in snap.actions], seat_names(snap.table.row.seats))
    assert drawn is not None
    width, height = Image.open(io.BytesIO(picture_of(hand.message)[1])).size
    assert (width, height) == (WIDTH, drawn.height) and height < MIN_HEIGHT
    bottom = max(box[3] for box in drawn.cards)
    assert height - bottom <= MARGIN + GAP
