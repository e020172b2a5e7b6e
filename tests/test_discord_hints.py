"""The Hint button through Discord: shown to the player to move when the table allows hints,
the normal AI's move with one line why, still working after a restart, refused politely
otherwise; a hinted game is recorded unrated and /history says why."""

from __future__ import annotations

from cogs.hint_button import HINT, HINT_UNRATES
from tests.discord_play import add_ai, forge_click, open_hand, open_table, play_to_the_end, play_turn, start_bot, to_act
from tests.words import english_left

HINT_ID = "dh:hint:1"
HINT_LABEL = str(HINT)
HINT_COST = str(HINT_UNRATES)
"""The Hint button of a game a hint would make unrated: it says so before the click."""


def stored(s):
    return s.h.bot.service.storage


def labels(message) -> list[str]:
    return [b["label"] for b in message.buttons]


async def mover_and_waiter(s, table):
    mover = to_act(s, table)[0]
    waiter = s.user("ben") if mover is s.user("ana") else s.user("ana")
    return mover, waiter


async def test_hint_shows_the_normal_move_and_why_and_marks_the_table(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    mover, waiter = await mover_and_waiter(s, table)
    assert HINT_COST not in labels((await open_hand(s, waiter, table)).message)
    hand = await open_hand(s, mover, table)
    assert labels(hand.message)[-2:] == ["🔄 Refresh", HINT_COST]  # its cost, before the click
    before = await stored(s).get_table(1)
    assert not before.hinted
    shown = await s.h.click(hand.message, label=HINT_COST, user=mover)
    assert shown.ephemeral and shown.message.id != hand.message.id
    expected = (await s.h.bot.service.play.hint(1, s.player(mover)))[1]
    assert shown.text.startswith("💡 **") and f": {expected.why}." in shown.text and "unrated" in shown.text
    move_labels = [b["label"] for b in hand.message.buttons if b["custom_id"].startswith("dh:mv:")]
    assert any(f"**{label}**" in shown.text for label in move_labels)  # the move, as its button says it
    after = await stored(s).get_table(1)
    assert after.hinted and after.version == before.version  # a hint changes no move

    refused = await forge_click(s, hand.message, HINT_ID, waiter)
    assert refused.ephemeral and "isn't your turn" in refused.text
    await play_turn(s, table)
    # Once the game is unrated, another hint costs nothing more: the button says only what it is.
    assert HINT_LABEL in labels((await open_hand(s, to_act(s, table)[0], table)).message)


async def test_a_game_unrated_anyway_offers_the_hint_without_a_cost(server):
    s = server
    lobby = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"], start=False)
    await add_ai(s, lobby, s.user("ana"))  # a game with an AI seat is never rated
    await s.h.click(lobby, label="Start", user=s.user("ana"))
    await s.h.bot.service.wait_idle()  # the AI's first move, if it starts
    (mover,) = to_act(s, lobby)
    assert labels((await open_hand(s, mover, lobby)).message)[-1] == HINT_LABEL


async def test_hint_works_after_a_restart(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    mover, _ = await mover_and_waiter(s, table)
    hand = await open_hand(s, mover, table)
    await s.h.stop()
    await start_bot(s.h, s.db_path)
    shown = await s.h.click(hand.message, label=HINT_COST, user=mover)
    assert shown.ephemeral and shown.text.startswith("💡 **")
    assert (await stored(s).get_table(1)).hinted


async def test_a_table_can_turn_hints_off(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0, "hints": False}, "ana", joiners=["ben"])
    assert (await stored(s).get_table(1)).options["hints"] is False
    assert "hints off" in s.h.message(table.id).text
    mover, _ = await mover_and_waiter(s, table)
    hand = await open_hand(s, mover, table)
    assert not [label for label in labels(hand.message) if label.startswith(HINT_LABEL)]
    refused = await forge_click(s, hand.message, HINT_ID, mover)
    assert refused.ephemeral and "Hints are off at this table." in refused.text
    assert not (await stored(s).get_table(1)).hinted
    await play_to_the_end(s, table)  # the game's engine never sees the table option
    assert (await stored(s).get_table(1)).status == "finished"


async def test_hinted_game_is_unrated_and_history_says_so(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    mover, _ = await mover_and_waiter(s, table)
    hand = await open_hand(s, mover, table)
    await s.h.click(hand.message, label=HINT_COST, user=mover)
    await play_to_the_end(s, table)
    await s.h.bot.service.wait_idle()
    ended = await forge_click(s, hand.message, HINT_ID, mover)
    assert ended.ephemeral and "ended" in ended.text

    result = await stored(s).run_read(lambda db: db.fetchrow("SELECT rated, hinted FROM results WHERE table_id = 1"))
    assert tuple(result) == (0, 1)
    history = await s.h.slash("history", {}, user=s.user("ana"), channel=s.channel)
    assert "#1 Q Squared Joe" in history.text and "unrated: a hint was taken" in history.text

    # The same game without a hint is rated, and history says nothing of hints.
    await play_to_the_end(s, await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"]))
    history = await s.h.slash("history", {}, user=s.user("ana"), channel=s.channel)
    assert history.text.count("unrated: a hint was taken") == 1


async def test_a_french_player_reads_the_hint_in_french(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    mover, _ = await mover_and_waiter(s, table)
    mover.locale = "fr"
    hand = await open_hand(s, mover, table)
    label = HINT_UNRATES.render("fr")
    assert labels(hand.message)[-1] == label != HINT_COST
    shown = await s.h.click(hand.message, label=label, user=mover)
    assert shown.ephemeral and shown.text.startswith("💡 **"), shown.text
    assert not english_left(shown.text), shown.text
