"""One colour rule for every game's move buttons (green wins, grey neutral, red loses your
own card), War's tapped cards, NG's targets grouped by owner, your own last and never green,
and every accent and marker readable on Discord's dark and light themes."""

from __future__ import annotations

from cogs.looks import load_game_uis
from cogs.looks.quash import SIDE_COLOURS, SIDE_MARKS
from cogs.ui import EMBED_COLOUR, SEAT_COLOURS, ui_for
from games.q2j import compare
from tests.contrast import DARK_THEME, GRAPHICS_CONTRAST, LIGHT_THEME, contrast, rgb
from tests.discord_play import choose_first_attacker, open_hand, open_table, picture_text, to_act

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
    snap = await s.h.bot.service.play.hand(1, s.player(mover))
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


TWEMOJI = {"🟥": (0xDD2E44,), "⚫": (0x31373D,), "🎯": (0xDD2E44, 0xE6E7E8), "🎱": (0x31373D, 0xE1E8ED)}
"""The fills Discord draws these emoji with (Twemoji): a marker reads on a theme when one of its colours does."""


def test_every_accent_and_marker_reads_on_the_dark_and_the_light_theme():
    """WCAG's 3:1 for graphics against Discord's dark theme and its light one: every accent a
    message may wear (a seat's turn, a game's lobby, QUASH's sides, the embeds) and QUASH's
    side markers (a plain ⚫ vanishes on the dark theme, a 🟥 nearly)."""
    accents = {f"seat {n + 1}": colour for n, colour in enumerate(SEAT_COLOURS)}
    accents |= {ui.game.id: ui.colour for ui in load_game_uis()}
    accents |= {f"QUASH's {side}": colour for side, colour in SIDE_COLOURS.items()} | {"embeds": EMBED_COLOUR.value}
    faint = [(name, f"#{colour:06X}", theme) for name, colour in accents.items()
             for theme in (DARK_THEME, LIGHT_THEME) if contrast(rgb(colour), theme) < GRAPHICS_CONTRAST]
    assert not faint
    for side, mark in SIDE_MARKS.items():
        for theme in (DARK_THEME, LIGHT_THEME):
            assert max(contrast(rgb(colour), theme) for colour in TWEMOJI[mark]) >= GRAPHICS_CONTRAST, (side, theme)
