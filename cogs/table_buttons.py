"""Buttons whose custom_id names only their table, ``dh:<verb>:<table>``: My hand, Watch,
Play again and Hint. They carry no version, so they work on any message of the table, after
a restart too; what they do is checked when clicked."""

from __future__ import annotations

import re
from typing import ClassVar

import discord

from .common import guarded
from .components import button_component
from .parsing import ParsedControl, control_template, stored_id


def table_template(verb: str) -> re.Pattern[str]:
    """The ``template`` of a :class:`TableButton` subclass with this ``VERB``."""
    return control_template(rf"dh:{verb}:(?P<table>\d+)")


class TableButton(ParsedControl):
    """Mix in before ``discord.ui.DynamicItem[discord.ui.Button]`` (with
    ``template=table_template(VERB)``), set :attr:`VERB` and :attr:`LABEL`, and implement
    :meth:`run`. Messages carry it as JSON (:meth:`component`); discord.py builds the item
    from a click's custom_id."""

    VERB: ClassVar[str]
    LABEL: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, table_id: int) -> None:
        super().__init__(discord.ui.Button(label=self.LABEL, style=self.STYLE, custom_id=self.id_for(table_id)))
        self.table_id = table_id

    @classmethod
    def id_for(cls, table_id: int) -> str:
        return f"dh:{cls.VERB}:{table_id}"

    @classmethod
    def component(cls, table_id: int, label: str | None = None) -> dict:
        """The button as Discord receives it, with its own label or ``label``."""
        return button_component(cls.id_for(table_id), label or cls.LABEL, cls.STYLE)

    @classmethod
    def parse(cls, match, item):
        return cls(stored_id(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.run(interaction))

    async def run(self, interaction: discord.Interaction) -> None:
        """What a click does (inside :func:`~cogs.common.guarded`: refusals are answered politely)."""
        raise NotImplementedError
