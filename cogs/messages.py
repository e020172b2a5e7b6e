"""The table and hand messages as Discord receives them: their layout and their controls' components.

The controls these messages carry hold all their state in their custom_id (table id, and for
moves the state version and the action), never in a View object, so every control works again
after a restart and a stale or doubled click is recognised and refused politely. What a click
on them does is another module's (:mod:`cogs.moves`, :mod:`cogs.watch`, :mod:`cogs.game_log`,
:mod:`cogs.play_again`, :mod:`cogs.hint_button`); the custom_ids of those whose answer shows
these messages again are made here, so building a message needs no answer.

custom_id formats::

    dh:lobby:<table>:<verb>            lobby buttons (:mod:`cogs.lobby_controls`)
    dh:hand:<table>                    "My hand" and "Refresh"
    dh:mv:<table>:<version>:<action>   one move
    dh:ms:<table>:<version>:<n>        a menu of moves; the chosen value is the action code
    dh:st:<table>:<version>:<n>        a step (e.g. "attack with 9♠"); the value is the choices
                                       so far (:meth:`cogs.ui.GameUI.step_text`), and the hand message
                                       then shows only the moves that continue them
    dh:ask:<table>:<version>:<kind>:<low>:<high>
                                       opens a form asking for a number; its answer plays
                                       the move ``<kind>:<number>`` (e.g. a cut of 40 cards)
    dh:num:<table>:<version>:<kind>    that form (a modal), answered from its custom_id alone
                                       (:class:`cogs.moves.NumberAnswer`), so a form opened before a
                                       restart still works
    dh:again:<table>                   Play again, on an ended table (:mod:`cogs.play_again`)
"""

from __future__ import annotations

from typing import Any

import discord

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.i18n import SOURCE, say

from .components import LayoutMessage, action_row, button_component
from .control import table_button_id
from .game_log import LogPage
from .hint_button import hint_components
from .layouts import hand_layout, table_layout
from .limits import (
    ACTION_ROWS,
    BUTTON_LABEL,
    CUSTOM_ID,
    ROW_BUTTONS,
    SELECT_OPTION_TEXT,
    SELECT_OPTIONS,
    SELECT_PLACEHOLDER,
    clip,
)
from .lobby_controls import lobby_message
from .site_links import open_in_browser
from .ui import MAX_BUTTONS, GameUI, MoveLayout, Rendered, ui_for
from .watch import WatchButton

HAND = "hand"
"""The verb of **My hand** and **Refresh** (``dh:hand:<table>``, :class:`cogs.moves.HandButton`)."""
PLAY_AGAIN = "again"
"""The verb of **Play again** (``dh:again:<table>``, :class:`cogs.play_again.PlayAgainButton`)."""
MY_HAND = say("🂠 My hand")
PLAY_AGAIN_LABEL = say("🔁 Play again")
MAX_MENUS = ACTION_ROWS
"""Menus of moves a hand message offers at most (25 moves each)."""

_TABLE_CONTROLS: dict[tuple[int, bool, str, str | None], dict[str, Any]] = {}
_TABLE_CONTROLS_LIMIT = 10_000


def move_id(table_id: int, version: int, code: str) -> str:
    """The custom_id of the move ``code`` at the table's ``version``; ValueError if too long for Discord."""
    custom_id = f"dh:mv:{table_id}:{version}:{code}"
    if len(custom_id) > CUSTOM_ID:
        raise ValueError(f"custom_id too long for Discord: {custom_id}")
    return custom_id


def menu_id(mode: str, table_id: int, version: int, n: int) -> str:
    """The custom_id of a hand's ``n``-th menu: of moves (``mode`` ``ms``) or of steps (``st``)."""
    return f"dh:{mode}:{table_id}:{version}:{n}"


def number_prompt_id(table_id: int, version: int, kind: str, low: int, high: int) -> str:
    """The custom_id of the button asking for a number from ``low`` to ``high`` (the move ``<kind>:<number>``)."""
    return f"dh:ask:{table_id}:{version}:{kind}:{low}:{high}"


def hand_button(table_id: int, label: str) -> dict[str, Any]:
    """**My hand** (or **Refresh**, or **← Back**) as Discord receives it."""
    return button_component(table_button_id(HAND, table_id), label, discord.ButtonStyle.secondary)


def table_controls(table_id: int, running: bool, language: str, site: str | None = None) -> dict[str, Any]:
    """My hand, the Log (every event so far, privately) and Watch while the game runs; the Log
    and Play again once it ended; and Open in browser to ``site`` (the table's page) when the
    server's site is on. Built once per table, language and link and kept: they never change,
    so one row serves every edit."""
    row = _TABLE_CONTROLS.get((table_id, running, language, site))
    if row is None:
        if len(_TABLE_CONTROLS) >= _TABLE_CONTROLS_LIMIT:
            _TABLE_CONTROLS.clear()
        hand = [hand_button(table_id, MY_HAND.render(language))] if running else []
        log = LogPage(table_id, 0, say("📜 Log").render(language)).to_component_dict()
        after = (WatchButton.component(table_id, say("👁 Watch").render(language)) if running
                 else button_component(table_button_id(PLAY_AGAIN, table_id), PLAY_AGAIN_LABEL.render(language),
                                       discord.ButtonStyle.primary))
        browser = [open_in_browser(site, language)] if site else []
        row = _TABLE_CONTROLS[table_id, running, language, site] = action_row([*hand, log, after, *browser])
    return row


def table_message(table: TableSnapshot, language: str = SOURCE, banner: str | None = None,
                  site: str | None = None) -> Rendered:
    """The public table message in ``language``: the lobby until the game starts, then the table
    with My hand (``banner``: what opened it, a tournament's round; ``site``: its page in the
    server's site, when that is on)."""
    row, table = table.row, table.speaking(language)
    if row.status in ("lobby", "cancelled"):
        return lobby_message(table, language=language)
    controls = [table_controls(row.id, row.status == "running", language, site)]
    return Rendered(LayoutMessage(table_layout(table, controls, language=language, banner=banner)))


def hand_message(hand: HandSnapshot, notice: str | None = None, step: str | None = None,
                 language: str = SOURCE) -> Rendered:
    """A seat's private message in ``language``: its hand, any private news, and its legal
    moves (after the step menu choices ``step``)."""
    row, hand = hand.table.row, hand.speaking(language)
    ui = ui_for(row.game_id, language)
    moves = ui.move_layout(hand, step) if row.status == "running" else None
    rows = move_rows(ui, hand, moves) if moves is not None else []
    refresh = hand_button(row.id, ui.words(say("← Back") if step else say("🔄 Refresh")))
    rows.append(action_row([refresh, *hint_components(hand, language)]))
    return Rendered(LayoutMessage(hand_layout(hand, moves, rows, notice, language)))


def move_rows(ui: GameUI, hand: HandSnapshot, layout: MoveLayout) -> list[dict[str, Any]]:
    """The controls of :meth:`GameUI.move_layout` as action rows: number buttons, the moves,
    then the step menus (a step is the alternative to the moves above it)."""
    table_id, version = hand.table.row.id, hand.version
    rows: list[dict[str, Any]] = []
    if layout.numbers:
        rows.append(action_row([
            dict(discord.ui.Button(label=clip(ask.label, BUTTON_LABEL), style=discord.ButtonStyle.primary,
                                   custom_id=number_prompt_id(table_id, version, ask.kind, ask.low, ask.high)
                                   ).to_component_dict())
            for ask in layout.numbers]))
    rows += action_controls(ui, hand, layout.actions)
    for n, menu in enumerate(layout.menus[:MAX_MENUS]):
        options = [discord.SelectOption(label=clip(label, SELECT_OPTION_TEXT), value=value)
                   for value, label in menu.choices]
        rows.append(menu_row("st", table_id, version, n, options, clip(menu.placeholder, SELECT_PLACEHOLDER)))
    return rows


def action_controls(ui: GameUI, hand: HandSnapshot, actions: list[Action]) -> list[dict[str, Any]]:
    """Buttons for up to :data:`MAX_BUTTONS` moves (a handful: one row on a phone); for more, a
    menu (25 a menu) per group of moves (:meth:`GameUI.move_group`, else per kind) below which
    a move alone of its kind stays a button (Draw beside a menu of cards)."""
    if len(actions) <= MAX_BUTTONS:
        return move_buttons(ui, hand, actions)
    groups: dict[str, list[Action]] = {}
    for action in actions:
        groups.setdefault(ui.move_group(action, hand) or action.kind, []).append(action)
    alone = [moves[0] for moves in groups.values() if len(moves) == 1]
    if len(alone) > MAX_BUTTONS:
        alone = []
    chunks = [(group, moves[start:start + SELECT_OPTIONS]) for group, moves in groups.items()
              if moves[0] not in alone for start in range(0, len(moves), SELECT_OPTIONS)]
    rows: list[dict[str, Any]] = []
    for n, (group, chunk) in enumerate(chunks[:MAX_MENUS]):
        options = [discord.SelectOption(label=clip(ui.action_label(a, hand), SELECT_OPTION_TEXT), value=a.code())
                   for a in chunk]
        placeholder = group if group != chunk[0].kind else ui.menu_placeholder(chunk, hand)
        rows.append(menu_row("ms", hand.table.row.id, hand.version, n, options, clip(placeholder, SELECT_PLACEHOLDER)))
    return rows + move_buttons(ui, hand, alone)


def move_buttons(ui: GameUI, hand: HandSnapshot, actions: list[Action]) -> list[dict[str, Any]]:
    """A button per move, rows of five."""
    buttons = [button_component(move_id(hand.table.row.id, hand.version, action.code()),
                                clip(ui.action_label(action, hand), BUTTON_LABEL), ui.action_style(action, hand))
               for action in actions]
    return [action_row(buttons[start:start + ROW_BUTTONS]) for start in range(0, len(buttons), ROW_BUTTONS)]


def menu_row(mode: str, table_id: int, version: int, n: int, options: list[discord.SelectOption],
             placeholder: str) -> dict[str, Any]:
    """A hand's ``n``-th menu, in an action row of its own, as Discord receives it."""
    select: discord.ui.Select[Any] = discord.ui.Select(custom_id=menu_id(mode, table_id, version, n), options=options,
                                                       placeholder=placeholder)
    return action_row([dict(select.to_component_dict())])
