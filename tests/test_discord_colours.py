"""One colour rule for every game's move buttons (green wins, grey neutral, red loses your
own card), War's tapped cards, and NG's targets grouped by owner, your own last and never green."""

from __future__ import annotations

from cogs.ui import ui_for
from discord_play import choose_first_attacker, open_hand, open_table, picture_text, to_act
from games.q2j import compare

GREEN, GREY, RED = 3, 2, 4  # Discord's button styles: success, secondary, danger


async def test_war_attack_buttons_follow_the_colour_rule(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    hand = await open_hand(s, mover, table)
    styles = {}
    for option in hand.message.component(placeholder="Attack with…")["options"]:
        await s.h.select(hand.message, [option["value"]], placeholder="Attack with…", user=mover)
        for button in s.h.message(hand.message.id).buttons:
            if button["custom_id"].startswith("dh:mv:"):
                attacker, target = button["custom_id"].split(":", 4)[4].removeprefix("attack:").split(",")
                verdict = compare(attacker, target)
                styles[verdict] = styles.get(verdict, set()) | {button["style"]}
                assert button["style"] == (GREEN if verdict > 0 else RED), button["label"]
        await s.h.click(hand.message, label="← Back", user=mover)
    assert styles.get(1) == {GREEN}  # this deal offers winning attacks: they are green


async def test_war_tapped_cards_say_tapped_not_struck_through(server):
    s = server
    table = await open_table(s, "war start", {"timer": 0}, "ana", joiners=["ben"])
    mover = to_act(s, table)[0]
    hand = (await open_hand(s, mover, table)).message
    for option in hand.component(placeholder="Attack with…")["options"]:
        await s.h.select(hand, [option["value"]], placeholder="Attack with…", user=mover)
        green = [b for b in s.h.message(hand.id).buttons if b["style"] == GREEN]
        if green:
            await s.h.click(hand, custom_id=green[0]["custom_id"], user=mover)
            break
        await s.h.click(hand, label="← Back", user=mover)
    board = picture_text(s.h.message(table.id))
    assert "↷ " in board and " tapped" in board and "~~" not in board


async def test_ng_targets_are_grouped_by_owner_your_own_last(server):
    s = server
    table, mover, hand = await choose_first_attacker(s, "ng start")
    message = s.h.message(hand.message.id)
    assert "**Attack with " in message.text  # the attacking card is named above its targets
    menus = [c for c in message.selects if c["custom_id"].startswith("dh:ms:")]
    assert [m["placeholder"] for m in menus] == [f"Attack {name}…" for name in ("ana", "ben") if name != mover.name] \
        + ["Attack your own cards…"]
    assert all(o["label"].startswith("Your ") for o in menus[-1]["options"])
    assert not any(o["label"].startswith("Your ") for o in menus[0]["options"])
    assert all(b["style"] in (GREEN, GREY, RED) for b in message.buttons)


async def test_ng_attacks_on_your_own_cards_are_never_green(server):
    s = server
    table, mover, hand = await choose_first_attacker(s, "ng start")
    snap = await s.h.bot.service.hand(1, s.player(mover))
    ui = ui_for("ng")
    own = [a for a in snap.actions if a.kind == "attack" and a.args[2] == snap.seat]
    assert own and all(ui.action_style(a, snap).value == RED for a in own)
    assert all(" · " not in ui.action_label(a, snap) for a in own)  # no "Wins" on your own stack


async def test_ng_fields_are_written_for_players(server):
    s = server
    table = await open_table(s, "ng start", {"timer": 0}, "ana", joiners=["ben"])
    board = picture_text(s.h.message(table.id))
    field = next(line for line in board.split("\n") if line.startswith("`1` "))
    assert " · `2` " in field and "🂠" not in field and " — " not in field
    assert all(part.split(" ", 1)[1].startswith(("face down", "empty")) or part.split(" ", 1)[1][0] in "A23456789JQK1"
               for part in field.split(" · "))
