"""What a click on a hand's controls does: show the hand, play a move, take a step, ask for a number.

Each control parses the custom_id :mod:`cogs.messages` made (its formats are listed there),
validates its fields, and answers privately with the seat's hand as it is now (:func:`show_hand`),
which then follows the game for its person (:mod:`cogs.open_hands`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Self

import discord

from bot.errors import StaleControl, UserError
from bot.service import HandSnapshot
from games.base import Action
from games.errors import GameError
from games.i18n import Text, render_value, say

from .attachments import answer_privately, hand_picture, pictures_on
from .common import channel_closed_note, in_time, player_of, service_of
from .control import Form, TableButton, TableControl, table_template
from .installed import table_publisher_of
from .language import reader_language
from .limits import ACTION_ROWS, MODAL_TITLE, clip
from .messages import HAND, MY_HAND, hand_message, menu_id, move_id, number_prompt_id
from .parsing import QUOTE, chosen_value, control_template, stored_id, version_number, whole_number

STALE_NOTICE = say("⚠️ Those controls are from an earlier turn; here is your hand as it is now.")
UNKNOWN_MOVE = say("That control isn't one Deckhand recognises.")
MAX_FORM_NUMBER = 10**6
"""More than any number a form asks for (a cut of a deck); larger answers are refused."""


async def show_hand(interaction: discord.Interaction, table_id: int, notice: Text | str | None = None,
                    hand: HandSnapshot | None = None,
                    step: str | None = None) -> None:
    """Answer with the user's hand, in their language: update the clicked private message, or open
    a new one. That message then follows the game for them (:mod:`cogs.open_hands`)."""
    with table_publisher_of(interaction).hands.answering(table_id, interaction.user.id):
        await _answer_with_hand(interaction, table_id, notice, hand, step)


async def _answer_with_hand(interaction: discord.Interaction, table_id: int, notice: Text | str | None,
                            hand: HandSnapshot | None,
                            step: str | None) -> None:
    if hand is None:
        hand = await service_of(interaction).play.hand(table_id, player_of(interaction))
    language = reader_language(interaction)
    said = render_value(notice, language) if notice is not None else None
    rendered = hand_message(hand, "\n".join(filter(None, [said, channel_closed_note(interaction)])) or None, step,
                            language)
    picture = None
    if await pictures_on(service_of(interaction), hand.table.row.guild_id):
        picture = await in_time(interaction, hand_picture(hand, language))
    await answer_privately(interaction, rendered.kwargs(), picture, what=f"table {table_id}'s hand")
    table_publisher_of(interaction).hands.opened(interaction, hand)


class HandButton(TableButton, discord.ui.DynamicItem[discord.ui.Button], template=table_template(HAND)):
    VERB = HAND
    LABEL = str(MY_HAND)

    async def run(self, interaction: discord.Interaction) -> None:
        await show_hand(interaction, self.table_id)


async def _play(interaction: discord.Interaction, table_id: int, version: int, code: str) -> None:
    try:
        action = Action.from_code(code)
    except GameError:
        raise UserError(UNKNOWN_MOVE) from None
    service = service_of(interaction)
    with table_publisher_of(interaction).hands.answering(table_id, interaction.user.id):  # the answer shows the move
        try:
            hand = await in_time(interaction, service.play.move(table_id, player_of(interaction), version, action))
        except StaleControl as exc:
            await show_hand(interaction, table_id, notice=say("⚠️ {why}", why=exc.args[0] if exc.args else ""))
            return
        await show_hand(interaction, table_id, hand=hand)


class MoveButton(
    TableControl, discord.ui.DynamicItem[discord.ui.Button],
    template=control_template(r"dh:mv:(?P<table>\d+):(?P<version>\d+):(?P<code>[^\s]+)"),
):
    def __init__(self, table_id: int, version: int, code: str) -> None:
        super().__init__(discord.ui.Button(label=code, custom_id=move_id(table_id, version, code)))
        self.table_id, self.version, self.code = table_id, version, code

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

    def __init__(self, mode: str, table_id: int, version: int, n: int) -> None:
        super().__init__(discord.ui.Select(custom_id=menu_id(mode, table_id, version, n)))
        self.mode, self.table_id, self.version = mode, table_id, version

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
        hand = await service_of(interaction).play.hand(self.table_id, player_of(interaction))
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
            label=kind, custom_id=number_prompt_id(table_id, version, kind, low, high)))
        self.table_id, self.version, self.kind, self.low, self.high = table_id, version, kind, low, high

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        # ``item`` is the clicked button as sent, so its label becomes the form's title.
        low = whole_number(match["low"], 0, MAX_FORM_NUMBER, "lowest number")
        high = whole_number(match["high"], low, MAX_FORM_NUMBER, "highest number")
        return cls(stored_id(match["table"]), version_number(match["version"]), match["kind"], low, high,
                   item if isinstance(item, discord.ui.Button) else None)

    async def run(self, interaction: discord.Interaction) -> None:
        hand = await service_of(interaction).play.hand(self.table_id, player_of(interaction))
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
