"""The table and hand messages, and the controls on them (see :mod:`cogs.control`).

State lives in the custom_id (table id, and for moves the state version and
the action), never in a View object, so every control works again after a
restart and a stale or doubled click is recognised and refused politely.

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
                                       (:class:`NumberAnswer`), so a form opened before a restart
                                       still works
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Self

import discord

from bot.errors import StaleControl, UserError
from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.errors import GameError
from games.i18n import SOURCE, Text, render_value, say

from .attachments import answer_privately, drawn_in_time, hand_picture, pictures_on
from .common import acknowledged, channel_closed_note, player_of, publisher_of, service_of
from .components import LayoutMessage, action_row, button_component
from .control import Form, TableButton, TableControl, table_template
from .game_log import LogPage
from .hint_button import hint_components
from .language import reader_language
from .layouts import hand_layout, table_layout
from .limits import (
    ACTION_ROWS,
    BUTTON_LABEL,
    CUSTOM_ID,
    MODAL_TITLE,
    ROW_BUTTONS,
    SELECT_OPTION_TEXT,
    SELECT_OPTIONS,
    SELECT_PLACEHOLDER,
    clip,
)
from .lobby_controls import lobby_message
from .parsing import QUOTE, chosen_value, control_template, stored_id, version_number, whole_number
from .play_again import PLAY_AGAIN, PlayAgainButton
from .ui import MAX_BUTTONS, GameUI, MoveLayout, Rendered, ui_for
from .watch import WatchButton

STALE_NOTICE = say("⚠️ Those controls are from an earlier turn; here is your hand as it is now.")
UNKNOWN_MOVE = say("That control isn't one Deckhand recognises.")
MAX_MENUS = ACTION_ROWS
"""Menus of moves a hand message offers at most (25 moves each)."""
MAX_FORM_NUMBER = 10**6
"""More than any number a form asks for (a cut of a deck); larger answers are refused."""

_TABLE_CONTROLS: dict[tuple[int, bool, str], dict] = {}
_TABLE_CONTROLS_LIMIT = 10_000


def table_controls(table_id: int, running: bool, language: str) -> dict:
    """My hand, the Log (every event so far, privately) and Watch while the game runs; the Log
    and Play again once it ended. Built once per table and language and kept: they never
    change, so one row serves every edit."""
    row = _TABLE_CONTROLS.get((table_id, running, language))
    if row is None:
        if len(_TABLE_CONTROLS) >= _TABLE_CONTROLS_LIMIT:
            _TABLE_CONTROLS.clear()
        hand = [HandButton.component(table_id, say("🂠 My hand").render(language))] if running else []
        log = LogPage(table_id, 0, say("📜 Log").render(language)).to_component_dict()
        after = (WatchButton.component(table_id, say("👁 Watch").render(language)) if running
                 else PlayAgainButton.component(table_id, PLAY_AGAIN.render(language)))
        row = _TABLE_CONTROLS[table_id, running, language] = action_row([*hand, log, after])
    return row


def table_message(table: TableSnapshot, language: str = SOURCE) -> Rendered:
    """The public table message in ``language``: the lobby until the game starts, then the table with My hand."""
    row, table = table.row, table.speaking(language)
    if row.status in ("lobby", "cancelled"):
        return lobby_message(table, language=language)
    controls = [table_controls(row.id, row.status == "running", language)]
    return Rendered(LayoutMessage(table_layout(table, controls, language=language)))


def hand_message(hand: HandSnapshot, notice: str | None = None, step: str | None = None,
                 language: str = SOURCE) -> Rendered:
    """A seat's private message in ``language``: its hand, any private news, and its legal
    moves (after the step menu choices ``step``)."""
    row, hand = hand.table.row, hand.speaking(language)
    ui = ui_for(row.game_id, language)
    moves = ui.move_layout(hand, step) if row.status == "running" else None
    rows = move_rows(ui, hand, moves) if moves is not None else []
    refresh = HandButton.component(row.id, ui.words(say("← Back") if step else say("🔄 Refresh")))
    rows.append(action_row([refresh, *hint_components(hand, language)]))
    return Rendered(LayoutMessage(hand_layout(hand, moves, rows, notice, language)))


def move_rows(ui: GameUI, hand: HandSnapshot, layout: MoveLayout) -> list[dict]:
    """The controls of :meth:`GameUI.move_layout` as action rows: number buttons, the moves,
    then the step menus (a step is the alternative to the moves above it)."""
    table_id, version = hand.table.row.id, hand.version
    rows = []
    if layout.numbers:
        rows.append(action_row([
            NumberPrompt.make(table_id, version, ask.kind, ask.low, ask.high, clip(ask.label, BUTTON_LABEL)
                              ).to_component_dict()
            for ask in layout.numbers]))
    rows += action_controls(ui, hand, layout.actions)
    for n, menu in enumerate(layout.menus[:MAX_MENUS]):
        options = [discord.SelectOption(label=clip(label, SELECT_OPTION_TEXT), value=value)
                   for value, label in menu.choices]
        select = MenuSelect.make("st", table_id, version, n, options, placeholder=clip(menu.placeholder,
                                                                                       SELECT_PLACEHOLDER))
        rows.append(action_row([select.to_component_dict()]))
    return rows


def action_controls(ui: GameUI, hand: HandSnapshot, actions: list[Action]) -> list[dict]:
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
    rows = []
    for n, (group, chunk) in enumerate(chunks[:MAX_MENUS]):
        options = [discord.SelectOption(label=clip(ui.action_label(a, hand), SELECT_OPTION_TEXT), value=a.code())
                   for a in chunk]
        placeholder = group if group != chunk[0].kind else ui.menu_placeholder(chunk, hand)
        select = MenuSelect.make("ms", hand.table.row.id, hand.version, n, options,
                                 placeholder=clip(placeholder, SELECT_PLACEHOLDER))
        rows.append(action_row([select.to_component_dict()]))
    return rows + move_buttons(ui, hand, alone)


def move_buttons(ui: GameUI, hand: HandSnapshot, actions: list[Action]) -> list[dict]:
    """A button per move, rows of five."""
    buttons = [MoveButton.component(hand.table.row.id, hand.version, action,
                                    clip(ui.action_label(action, hand), BUTTON_LABEL), ui.action_style(action, hand))
               for action in actions]
    return [action_row(buttons[start:start + ROW_BUTTONS]) for start in range(0, len(buttons), ROW_BUTTONS)]


async def show_hand(interaction: discord.Interaction, table_id: int, notice: Text | str | None = None,
                    hand: HandSnapshot | None = None,
                    step: str | None = None) -> None:
    """Answer with the user's hand, in their language: update the clicked private message, or open
    a new one. That message then follows the game for them (:mod:`cogs.open_hands`)."""
    with publisher_of(interaction).hands.answering(table_id, interaction.user.id):
        await _answer_with_hand(interaction, table_id, notice, hand, step)


async def _answer_with_hand(interaction: discord.Interaction, table_id: int, notice: Text | str | None,
                            hand: HandSnapshot | None,
                            step: str | None) -> None:
    if hand is None:
        hand = await service_of(interaction).hand(table_id, player_of(interaction))
    language = reader_language(interaction)
    said = render_value(notice, language) if notice is not None else None
    rendered = hand_message(hand, "\n".join(filter(None, [said, channel_closed_note(interaction)])) or None, step,
                            language)
    picture = None
    if await pictures_on(service_of(interaction), hand.table.row.guild_id):
        picture = await drawn_in_time(interaction, hand_picture(hand, language))
    await answer_privately(interaction, rendered.kwargs(), picture, what=f"table {table_id}'s hand")
    publisher_of(interaction).hands.opened(interaction, hand)


class HandButton(TableButton, discord.ui.DynamicItem[discord.ui.Button], template=table_template("hand")):
    VERB = "hand"
    LABEL = str(say("🂠 My hand"))

    async def run(self, interaction: discord.Interaction) -> None:
        await show_hand(interaction, self.table_id)


async def _play(interaction: discord.Interaction, table_id: int, version: int, code: str) -> None:
    try:
        action = Action.from_code(code)
    except GameError:
        raise UserError(UNKNOWN_MOVE) from None
    service = service_of(interaction)
    with publisher_of(interaction).hands.answering(table_id, interaction.user.id):  # the answer shows the move
        try:
            hand = await acknowledged(interaction, service.move(table_id, player_of(interaction), version, action))
        except StaleControl as exc:
            await show_hand(interaction, table_id, notice=say("⚠️ {why}", why=exc.args[0] if exc.args else ""))
            return
        await show_hand(interaction, table_id, hand=hand)


class MoveButton(
    TableControl, discord.ui.DynamicItem[discord.ui.Button],
    template=control_template(r"dh:mv:(?P<table>\d+):(?P<version>\d+):(?P<code>[^\s]+)"),
):
    def __init__(self, table_id: int, version: int, code: str, button: discord.ui.Button | None = None) -> None:
        custom_id = f"dh:mv:{table_id}:{version}:{code}"
        if len(custom_id) > CUSTOM_ID:
            raise ValueError(f"custom_id too long for Discord: {custom_id}")
        super().__init__(button or discord.ui.Button(label=code, custom_id=custom_id))
        self.table_id, self.version, self.code = table_id, version, code

    @staticmethod
    def component(table_id: int, version: int, action: Action, label: str, style: discord.ButtonStyle) -> dict:
        return button_component(f"dh:mv:{table_id}:{version}:{action.code()}", label, style)

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["table"]), version_number(match["version"]), match["code"])

    async def run(self, interaction: discord.Interaction) -> None:
        await _play(interaction, self.table_id, self.version, self.code)


class MenuSelect(
    TableControl, discord.ui.DynamicItem[discord.ui.Select],
    template=control_template(r"dh:(?P<mode>ms|st):(?P<table>\d+):(?P<version>\d+):(?P<n>\d+)"),
):
    """A menu in a hand message: ``ms`` plays the chosen move (its value is an action
    code); ``st`` takes a first step (its value is a prefix of the moves' step keys)."""

    def __init__(self, mode: str, table_id: int, version: int, n: int, select: discord.ui.Select | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"dh:{mode}:{table_id}:{version}:{n}"))
        self.mode, self.table_id, self.version = mode, table_id, version

    @classmethod
    def make(cls, mode: str, table_id: int, version: int, n: int, options: list[discord.SelectOption],
             placeholder: str) -> MenuSelect:
        select: discord.ui.Select = discord.ui.Select(custom_id=f"dh:{mode}:{table_id}:{version}:{n}",
                                                      options=options, placeholder=placeholder)
        return cls(mode, table_id, version, n, select)

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(match["mode"], stored_id(match["table"]), version_number(match["version"]),
                   whole_number(match["n"], 0, ACTION_ROWS, "menu"))

    async def run(self, interaction: discord.Interaction) -> None:
        value = chosen_value(interaction, say("Choose exactly one option."))
        if self.mode == "ms":
            await _play(interaction, self.table_id, self.version, value)
        else:
            await self._step(interaction, value)

    async def _step(self, interaction: discord.Interaction, step: str) -> None:
        hand = await service_of(interaction).hand(self.table_id, player_of(interaction))
        if hand.version != self.version:
            await show_hand(interaction, self.table_id, hand=hand, notice=STALE_NOTICE)
            return
        await show_hand(interaction, self.table_id, hand=hand, step=step)


class NumberPrompt(
    TableControl, discord.ui.DynamicItem[discord.ui.Button],
    template=control_template(r"dh:ask:(?P<table>\d+):(?P<version>\d+):(?P<kind>[a-z]+):(?P<low>\d+):(?P<high>\d+)"),
):
    """A button that asks for a number in a form; the answer is played as ``<kind>:<number>``."""

    def __init__(self, table_id: int, version: int, kind: str, low: int, high: int,
                 button: discord.ui.Button | None = None) -> None:
        super().__init__(button or discord.ui.Button(
            label=kind, custom_id=f"dh:ask:{table_id}:{version}:{kind}:{low}:{high}"))
        self.table_id, self.version, self.kind, self.low, self.high = table_id, version, kind, low, high

    @classmethod
    def make(cls, table_id: int, version: int, kind: str, low: int, high: int, label: str) -> NumberPrompt:
        """``label`` is the button's text and the form's title."""
        button: discord.ui.Button = discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                                      custom_id=f"dh:ask:{table_id}:{version}:{kind}:{low}:{high}")
        return cls(table_id, version, kind, low, high, button)

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        # ``item`` is the clicked button as sent, so its label becomes the form's title.
        low = whole_number(match["low"], 0, MAX_FORM_NUMBER, "lowest number")
        high = whole_number(match["high"], low, MAX_FORM_NUMBER, "highest number")
        return cls(stored_id(match["table"]), version_number(match["version"]), match["kind"], low, high,
                   item if isinstance(item, discord.ui.Button) else None)

    async def run(self, interaction: discord.Interaction) -> None:
        hand = await service_of(interaction).hand(self.table_id, player_of(interaction))
        if hand.version != self.version:
            await show_hand(interaction, self.table_id, hand=hand, notice=STALE_NOTICE)
            return
        if not any(a.kind == self.kind for a in hand.actions):
            raise UserError(say("That isn't one of your moves right now."))
        label = getattr(self.item, "label", None) or say("Your number").render(reader_language(interaction))
        await interaction.response.send_modal(NumberForm(self.table_id, self.version, self.kind, self.low, self.high,
                                                         clip(label, MODAL_TITLE), reader_language(interaction)))


class NumberForm(discord.ui.Modal):
    """The form a :class:`NumberPrompt` opens, in the reader's ``language``. It only describes
    the form: every submit is answered by :class:`NumberAnswer`, which needs nothing kept in memory."""

    def __init__(self, table_id: int, version: int, kind: str, low: int, high: int, title: str, language: str) -> None:
        super().__init__(title=title, custom_id=f"dh:num:{table_id}:{version}:{kind}", timeout=None)
        self.add_item(discord.ui.TextInput(
            label=say("A number from {low} to {high}", low=low, high=high).render(language), custom_id="value",
            placeholder=f"{low}–{high}",
            min_length=1, max_length=len(str(high)),
        ))


def _submitted_value(components: list[dict]) -> str:
    for component in components:
        if component.get("custom_id") == "value":
            return str(component.get("value", ""))
        nested = component.get("components") or ([component["component"]] if "component" in component else [])
        found = _submitted_value(nested)
        if found:
            return found
    return ""


class NumberAnswer(TableControl, Form,
                   template=control_template(r"dh:num:(?P<table>\d+):(?P<version>\d+):(?P<kind>[a-z]+)")):
    """A :class:`NumberForm`'s answer: plays the move ``<kind>:<number>``."""

    def __init__(self, table_id: int, version: int, kind: str) -> None:
        self.table_id, self.version, self.kind = table_id, version, kind

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["table"]), version_number(match["version"]), match["kind"])

    async def run(self, interaction: discord.Interaction) -> None:
        data: Mapping[str, object] = interaction.data or {}
        components = data.get("components")
        answer = _submitted_value(components) if isinstance(components, list) else ""
        try:
            number = whole_number(answer, 0, MAX_FORM_NUMBER, "number")
        except UserError:  # the form's own words ("the number must be a whole number" says nothing)
            raise UserError(say("Type a whole number in digits, not “{input}”.", input=clip(answer, QUOTE))) from None
        await _play(interaction, self.table_id, self.version, f"{self.kind}:{number}")
