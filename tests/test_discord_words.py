"""What players read (issue 38), through Discord: the Log tells a penalty once, prompts offer only
the moves there are, Hint only where something is decided, Play again's invitation says its
instruction once, /history lists each game once, and the round's scores are words too."""

from __future__ import annotations

from discord_play import open_hand, open_table, play, to_act


async def log_text(s, table) -> str:
    """Every page of the table's Log, as its reader sees it."""
    shown = await s.h.click(s.h.message(table.id), label="📜 Log", user=s.user("ana"))
    pages = [shown.message.embeds[0]["description"]]
    while shown.message.buttons and not s.h.message(shown.message.id).button("▶").get("disabled"):
        await s.h.click(shown.message, label="▶", user=s.user("ana"))
        pages.append(s.h.message(shown.message.id).embeds[0]["description"])
    return "\n".join(pages)


async def test_the_log_tells_a_penalty_once(server):
    s = server
    table = await open_table(s, "q2j start", {"timer": 0}, "ana", joiners=["ben"])
    for _ in range(200):
        mover = to_act(s, table)[0]
        hand = (await open_hand(s, mover, table)).message
        costly = [b for b in hand.buttons if "(+1 draw)" in b["label"]]
        if costly:
            await s.h.click(hand, custom_id=costly[0]["custom_id"], user=mover)
            break
        await play(s, mover, hand)
    else:
        raise AssertionError("nobody had a card costing a penalty draw")
    log = await log_text(s, table)
    assert log.count("draws a penalty card") == 1, log
    assert "as a penalty" not in log, log  # never a second line for the same draw
