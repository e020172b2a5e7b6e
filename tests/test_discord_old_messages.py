"""Messages posted before tables became Components V2 keep working: a table message and a
private hand posted as an embed with buttons below it are turned into V2 by their next edit
(which clears their content and embeds, as Discord requires to set the flag), and their
buttons, whose custom_ids never changed, still play."""

from __future__ import annotations

import pytest

from tests.discord_play import HAND_BUTTON, open_hand, open_table, play, play_to_the_end, start_bot, status_line, to_act
from tests.fakediscord import IS_COMPONENTS_V2


def as_before(message, content: str, description: str) -> None:
    """``message`` as Deckhand posted it before V2: content, an embed, its buttons in action rows."""
    buttons = [b for b in message.buttons if b["custom_id"].startswith(("dh:hand:", "dh:log:", "dh:watch:",
                                                                      "dh:hint:", "dh:mv:"))]
    message.content, message.flags = content, message.flags & ~IS_COMPONENTS_V2
    message.embeds = [{"type": "rich", "title": "Q Squared Joe — table #1", "description": description}]
    message.components = [{"type": 1, "components": buttons[i:i + 5]} for i in range(0, len(buttons), 5)]
    message.attachments = []


def is_v2(message) -> bool:
    return bool(message.flags & IS_COMPONENTS_V2) and not message.content and not message.embeds


@pytest.mark.parametrize("restart", [False, True])
async def test_an_embed_table_and_hand_become_v2_at_their_next_edit_and_their_buttons_still_play(server, restart):
    s = server
    table = await open_table(s, "q2j start", {"variant": "classic", "timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    hand = (await open_hand(s, mover, table)).message
    as_before(s.h.message(table.id), f"▶ {mover.mention} to play", "**Top card:** 7♠")
    as_before(hand, "", "**Your cards (7):** …")
    assert not is_v2(s.h.message(table.id)) and not is_v2(hand)
    if restart:  # the old messages are still there after an update's restart, untouched until their next edit
        await s.h.stop()
        await start_bot(s.h, s.db_path, seed=None)

    # The old hand's move buttons still play; its answer and the table's edit are V2.
    await play(s, mover, s.h.message(hand.id))
    assert is_v2(s.h.message(hand.id)) and is_v2(s.h.message(table.id))
    assert status_line(s.h.message(table.id)).startswith("▶ ") and s.h.message(table.id).gallery_images()

    # An old table message's My hand answers with a V2 hand.
    other = to_act(s, table)[0]
    as_before(s.h.message(table.id), f"▶ {other.mention} to play", "…")
    answer = await s.h.click(s.h.message(table.id), label=HAND_BUTTON, user=other)
    assert answer.ephemeral and is_v2(answer.message) and "Your hand" in answer.text
    await play(s, other, answer.message)
    assert is_v2(s.h.message(table.id))
    await play_to_the_end(s, table)
    assert is_v2(s.h.message(table.id)) and status_line(s.h.message(table.id)).startswith("🏁")
    assert s.h.failures == []
