"""Watch: anyone, seated or not, sees the table privately with its picture and the latest
events, refreshed on click; Face-up variants show every hand; the text board with pictures off."""

from __future__ import annotations

from cogs.attachments import seat_names
from cogs.ui import short_event
from games.pictures import table_png
from tests.discord_play import board, forge_click, open_table, play_turn, texts
from tests.test_discord_pictures import picture_of, table_png_now
from tests.words import english_left, event_texts

WATCH, REFRESH = "👁 Watch", "🔄 Refresh"


async def test_anyone_watches_the_table_privately_and_refreshes_it(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    watched = await s.h.click(s.h.message(table.id), label=WATCH, user=s.user("cat"))  # not seated
    assert watched.ephemeral and watched.message.visible_to == s.user("cat").id
    assert picture_of(watched.message)[1] == await table_png_now(s)
    latest = event_texts((await s.h.bot.service.table(1)).row)[-1]
    assert short_event(latest) in watched.text and "👁" in texts(watched.message)[0]
    assert [b["label"] for b in watched.message.buttons] == [REFRESH]

    for _ in range(2):
        await play_turn(s, table, prefer=("play", "draw"))
    refreshed = await s.h.click(watched.message, label=REFRESH, user=s.user("cat"))
    again = s.h.message(watched.message.id)
    assert refreshed.message.id == watched.message.id  # updated in place
    assert picture_of(again)[1] == await table_png_now(s)
    assert len(again.attachments) == 1

    seated = await s.h.click(s.h.message(table.id), label=WATCH, user=s.user("ana"))
    assert seated.ephemeral and picture_of(seated.message)[1] == picture_of(again)[1]


async def test_a_french_watcher_reads_the_table_in_french(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    watcher = s.user("cat")
    watcher.locale = "fr"
    watched = await s.h.click(s.h.message(table.id), label=WATCH, user=watcher)  # the server's words
    snap = await s.h.bot.service.table(1)
    assert picture_of(watched.message)[1] == table_png(snap.view, names=seat_names(snap.row.seats), language="fr")
    assert [b["label"] for b in watched.message.buttons] == ["🔄 Actualiser"]
    assert "👁" in texts(watched.message)[0] and not english_left(watched.text), watched.text


async def test_face_up_watch_shows_every_hand(server):
    s = server
    table = await open_table(s, "q2j start", {"variant": "faceup", "timer": 0}, "ana", joiners=["ben"])
    watched = await s.h.click(s.h.message(table.id), label=WATCH, user=s.user("cat"))
    snap = await s.h.bot.service.table(1)
    view, names = snap.view, seat_names(snap.row.seats)
    assert all(view["hands"]) and len(view["hands"]) == 2  # the public view holds both hands
    png = picture_of(watched.message)[1]
    assert png == table_png(view, names=names)
    assert png != table_png({**view, "hands": None}, names=names)  # and the picture draws them, not backs


async def test_watch_is_text_only_with_pictures_off(server):
    s = server
    await s.h.slash("settings pictures", {"enabled": False}, user=s.admin, channel=s.channel)
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    watched = await s.h.click(s.h.message(table.id), label=WATCH, user=s.user("dan"))
    assert watched.ephemeral and watched.message.attachments == [] and watched.message.gallery_images() == []
    assert "— deck" in board(watched.message)
    assert not any(r.files for r in watched.requests)


async def test_the_ended_table_offers_no_watch(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    await s.h.slash("table end", {}, user=s.user("ana"), channel=s.channel)
    labels = [b["label"] for b in s.h.message(table.id).buttons]
    assert WATCH not in labels and "🔁 Play again" in labels


async def test_watch_refuses_a_lobby_and_another_servers_table(server):
    s = server
    await open_table(s, "war start", {"timer": 0}, "ana", start=False)
    lobby = s.h.latest_public(s.channel)
    early = await forge_click(s, lobby, "dh:watch:1", s.user("cat"))
    assert early.ephemeral and "nothing to watch yet" in early.text
    other = s.h.add_guild("Elsewhere")
    room = other.add_channel("room")
    other.add_member(s.user("cat"))
    await s.h.join_guild(other)
    message = await s.h.bot.get_partial_messageable(room.id, guild_id=other.id).send("hello")
    elsewhere = await forge_click(s, s.h.message(message.id), "dh:watch:1", s.user("cat"))
    assert elsewhere.ephemeral and "isn't for a table in this channel" in elsewhere.text
