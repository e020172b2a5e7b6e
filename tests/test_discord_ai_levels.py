"""AI levels through Discord: Add AI asks the host for the level (the server's default
first), seats show it, /settings ai-level sets the default, and an AI taking over a
seat plays at the server's level (stored on the seat)."""

from __future__ import annotations

from cogs.lobby_controls import LEVEL_TEXT
from games.ai import LEVELS
from tests.discord_play import add_ai, forge_click, open_table, picture_text, start_bot
from tests.words import event_texts


def stored(s):
    return s.h.bot.service.storage


def chosen_by_default(menu) -> list[str]:
    select = menu.message.component(type=3)
    return [o["value"] for o in select["options"] if o.get("default")]


async def test_add_ai_asks_the_host_for_the_level_and_seats_show_it(server):
    s = server
    ana = s.user("ana")
    await s.h.slash("q2j start", {"timer": 0}, user=ana, channel=s.channel)
    lobby = s.h.latest_public(s.channel)
    menu = await s.h.click(lobby, label="Add AI", user=ana)
    assert menu.ephemeral and "level" in menu.text
    assert [o["value"] for o in menu.message.component(type=3)["options"]] == list(LEVELS) == list(LEVEL_TEXT)
    assert chosen_by_default(menu) == ["normal"]
    assert len((await stored(s).get_table(1)).seats) == 1  # nothing added until a level is chosen
    chosen = await s.h.select(menu.message, ["hard"], user=ana, custom_id_prefix="dh:ailevel:")
    assert "🤖 AI 1 joined" in chosen.text and not chosen.message.components
    await add_ai(s, lobby, ana, "easy")
    text = s.h.message(lobby.id).text
    assert "2. 🤖 AI 1 · hard" in text and "3. 🤖 AI 2 · easy" in text and "(AI)" not in text
    seats = (await stored(s).get_table(1)).seats
    assert [(seat.name, seat.is_ai, seat.ai_level) for seat in seats[1:]] == [
        ("AI 1", True, "hard"), ("AI 2", True, "easy")]
    await s.h.click(lobby, label="Start", user=ana)
    # Once the game is on, an AI player is named once, the same everywhere, without its level.
    shown = picture_text(s.h.message(lobby.id))
    assert "🤖 AI 1" in shown and "🤖 AI 2" in shown and "hard" not in shown and "(AI)" not in shown


async def test_only_the_host_gets_the_menu_and_a_late_choice_is_refused(server):
    s = server
    ana, ben = s.user("ana"), s.user("ben")
    await s.h.slash("war start", {"timer": 0}, user=ana, channel=s.channel)
    lobby = s.h.latest_public(s.channel)
    await s.h.click(lobby, label="Join", user=ben)
    refused = await s.h.click(lobby, label="Add AI", user=ben)
    assert refused.ephemeral and "Only the host" in refused.text and refused.message.components == []
    menu = await s.h.click(lobby, label="Add AI", user=ana)
    await s.h.click(lobby, label="Start", user=ana)
    late = await s.h.select(menu.message, ["hard"], user=ana, custom_id_prefix="dh:ailevel:")
    assert late.ephemeral and "already started" in late.text
    assert [seat.is_ai for seat in (await stored(s).get_table(1)).seats] == [False, False]
    forged = await forge_click(s, lobby, "dh:ailevel:99999", ana)
    assert forged.ephemeral and "isn't for a table in this channel" in forged.text


async def test_server_default_level_is_preselected_and_used_for_takeovers(server):
    s = server
    ana, ben = s.user("ana"), s.user("ben")
    refused = await s.h.slash("settings ai-level", {"level": "hard"}, user=ana, channel=s.channel)
    assert refused.ephemeral and "permission" in refused.text
    shown = await s.h.slash("settings ai-level", {"level": "easy"}, user=s.admin, channel=s.channel)
    assert shown.ephemeral and "AI players are easy" in shown.text
    assert (await stored(s).guild_settings(s.guild.id)).ai_level == "easy"

    await s.h.slash("q2j start", {"timer": 0}, user=ana, channel=s.channel)
    lobby = s.h.latest_public(s.channel)
    assert chosen_by_default(await s.h.click(lobby, label="Add AI", user=ana)) == ["easy"]
    await s.h.click(lobby, label="Join", user=ben)
    await s.h.click(lobby, label="Start", user=ana)
    left = await s.h.slash("table leave", {}, user=ben, channel=s.channel)
    assert left.ephemeral
    await s.h.bot.service.wait_idle()
    row = await stored(s).get_table(1)
    assert (row.seats[1].name, row.seats[1].is_ai, row.seats[1].ai_level) == ("ben", True, "easy")
    assert "ben left the table; an AI (easy) plays their seat now." in event_texts(row)


async def test_old_ai_seats_without_a_level_play_normal_after_a_restart(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", ai=1, start=False)

    await stored(s).run_write(lambda db: db.execute("UPDATE seats SET ai_level = NULL, name = 'AI 1' WHERE is_ai = 1"))
    await s.h.stop()
    await start_bot(s.h, s.db_path)
    await s.h.click(table, label="Start", user=s.user("ana"))
    await s.h.bot.service.wait_idle()
    row = await stored(s).get_table(1)
    assert row.status == "running" and row.seats[1].ai_level is None
    assert (await s.h.bot.service.table(1)).view["to_act"] == [0]  # the AI played if it was first
    assert s.h.bot.service.ai_pool.moves == 0  # played in-process at normal, never in the pool
