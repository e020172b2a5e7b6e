"""What every Deckhand control is: its custom_id holds its state, its place is checked, one path answers it.

A control is a button, menu or form whose custom_id holds all its state, valid only in the
place it belongs to, answered on one guarded path.

Anyone can forge a custom_id (a modified client sends any, from any server, channel or
DM), so every control declares its :data:`Place` and :meth:`Control.callback` checks it
(:func:`check_place`) before the control's own :meth:`~Control.run`, inside
:func:`~cogs.common.guarded`: a refusal is a short private answer and nothing changes.

A control class registers itself by being defined with a ``template`` (see
:func:`~cogs.parsing.control_template`): :func:`registered` lists them all, and the bot
answers exactly those (:func:`dynamic_items` for buttons and menus, :func:`find_form`
for forms).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import discord

from bot.errors import NotHere, UserError
from games.i18n import say

from .common import bot_of, guarded, service_of
from .components import button_component
from .parsing import Refused, control_template, stored_id

# -- places ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AtTable:
    """A table's server, and its channel (or the thread it lives in). With
    ``or_server_once_ended``, anywhere in its server once the game is over: ``/history``
    lists a server's ended games in every channel."""

    table_id: int
    or_server_once_ended: bool = False


@dataclass(frozen=True)
class InServer:
    """Any channel of one server: views of that server's own data (leaderboards, history)."""

    guild_id: int


@dataclass(frozen=True)
class ForUser:
    """Only the person a confirmation was shown to, wherever they are."""

    user_id: int


@dataclass(frozen=True)
class AtTournament:
    """A tournament's server and the channel of its message (never a DM)."""

    tournament_id: int


@dataclass(frozen=True)
class Anywhere:
    """Public information that belongs to no server (the rules)."""


Place = AtTable | AtTournament | InServer | ForUser | Anywhere

OTHER_SERVER = say("That control belongs to another server, so nothing was done.")
NOT_THIS_TOURNAMENT = say("That control isn't for a tournament in this channel, so nothing was done.")
NOT_YOURS = say("These buttons answer only the person who was asked, so nothing was done.")


async def check_place(interaction: discord.Interaction, place: Place) -> None:
    """Refuse (:class:`UserError`) an interaction that does not come from ``place``. A
    table's refusal is the same whether the table is elsewhere or does not exist
    (:class:`NotHere`), so nobody learns which table ids exist in other servers."""
    if isinstance(place, AtTable):
        if interaction.guild_id is None:
            raise NotHere()
        found = await service_of(interaction).table_place(place.table_id)
        if found is None or found.guild_id != interaction.guild_id:
            raise NotHere()
        if found.channel_id != interaction.channel_id and not (place.or_server_once_ended and found.ended):
            raise NotHere()
    elif isinstance(place, AtTournament):
        tournament = await bot_of(interaction).tournaments.get(place.tournament_id) if interaction.guild_id else None
        if tournament is None or (tournament.guild_id, tournament.channel_id) != (interaction.guild_id,
                                                                                  interaction.channel_id):
            raise UserError(NOT_THIS_TOURNAMENT)
    elif isinstance(place, InServer):
        if interaction.guild_id != place.guild_id:
            raise UserError(OTHER_SERVER)
    elif isinstance(place, ForUser):
        if interaction.user.id != place.user_id:
            raise UserError(NOT_YOURS)


# -- controls ----------------------------------------------------------------------------------------


_REGISTERED: dict[str, type[Control]] = {}
"""Every control kind the bot answers, by template."""


def registered() -> list[type[Control]]:
    """Every control kind the bot answers (once their modules are imported: the cogs import them)."""
    return list(_REGISTERED.values())


class Control:
    """Base of every control. A button or menu mixes it in before
    ``discord.ui.DynamicItem[...]`` and is defined with ``template=control_template(...)``;
    a form subclasses :class:`Form`. Subclasses implement :meth:`parse` (the custom_id's
    fields, validated), :meth:`place` and :meth:`run`, and never override :meth:`callback`."""

    pattern: ClassVar[re.Pattern[str]]
    """The compiled template: the custom_ids this control answers."""

    def __init_subclass__(cls, *, template: str | None = None, **kwargs: Any) -> None:
        if template is None:
            if issubclass(cls, discord.ui.DynamicItem):
                # A base of controls (TableButton): not answered itself, so not a DynamicItem
                # discord.py knows; each subclass brings its template.
                super(discord.ui.DynamicItem, cls).__init_subclass__(**kwargs)
            else:
                super().__init_subclass__(**kwargs)
            return
        if issubclass(cls, discord.ui.DynamicItem):
            kwargs["template"] = template
        super().__init_subclass__(**kwargs)
        cls.pattern = re.compile(template)
        _REGISTERED[template] = cls

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Any:
        """discord.py's factory: a custom_id whose fields fail validation (a 30-digit table
        id, say) becomes :class:`Refused`, answered with the reason, not an error log. (Typed
        ``Any``: discord.py types the factory's result as the class itself, and a refusal is
        another item; discord.py only calls its callback.)"""
        try:
            return cls.parse(match, item)
        except UserError as exc:
            return Refused(item, exc.text)

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        """The control for the custom_id's ``match`` (``item``: the component as clicked,
        None for a form); :class:`UserError` if a field is out of range."""
        raise NotImplementedError

    def place(self) -> Place:
        """Where this control is valid."""
        raise NotImplementedError

    async def run(self, interaction: discord.Interaction) -> None:
        """What the control does, once :func:`check_place` let it through (inside
        :func:`~cogs.common.guarded`: a :class:`UserError` is answered politely)."""
        raise NotImplementedError

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await self.handle(interaction)

    async def handle(self, interaction: discord.Interaction) -> None:
        """The place check, then :meth:`run`: the one path every control takes."""
        await check_place(interaction, self.place())
        await self.run(interaction)


class Form(Control):
    """A form (modal) whose submission is answered from its custom_id alone, so a form
    opened before a restart still works. Subclasses are defined with a ``template``."""

    @classmethod
    @guarded
    async def submitted(cls, interaction: discord.Interaction, match: re.Match[str]) -> None:
        await cls.parse(match, None).handle(interaction)


def dynamic_items() -> list[type[discord.ui.DynamicItem]]:
    """The registered buttons and menus, for ``bot.add_dynamic_items``."""
    return [c for c in registered() if issubclass(c, discord.ui.DynamicItem)]


def find_form(custom_id: str) -> tuple[type[Form], re.Match[str]] | None:
    """The form kind that answers ``custom_id``, with its match."""
    for control in registered():
        if issubclass(control, Form):
            match = control.pattern.fullmatch(custom_id)
            if match is not None:
                return control, match
    return None


def is_known(custom_id: str) -> bool:
    """Whether some control answers ``custom_id``."""
    return any(control.pattern.fullmatch(custom_id) for control in registered())


# -- controls of a table ---------------------------------------------------------------------------------


class TableControl(Control):
    """A control that names a table (``table_id``): valid only where that table lives."""

    table_id: int

    def place(self) -> Place:
        return AtTable(self.table_id)


def table_template(verb: str) -> str:
    """The ``template`` of a :class:`TableButton` subclass with this ``VERB``."""
    return control_template(rf"dh:{verb}:(?P<table>\d+)")


def table_button_id(verb: str, table_id: int) -> str:
    """The custom_id of the :class:`TableButton` with this ``VERB`` on table ``table_id``."""
    return f"dh:{verb}:{table_id}"


class TableButton(TableControl, discord.ui.DynamicItem[discord.ui.Button]):
    """A button whose custom_id names only its table, ``dh:<verb>:<table>`` (My hand, Watch,
    Play again, Hint): it works on any message of the table, after a restart too. Subclass it
    with ``template=table_template(VERB)``, set :attr:`VERB` and :attr:`LABEL`, and implement
    :meth:`run`."""

    VERB: ClassVar[str]
    LABEL: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, table_id: int) -> None:
        super().__init__(discord.ui.Button(label=self.LABEL, style=self.STYLE,
                                           custom_id=table_button_id(self.VERB, table_id)))
        self.table_id = table_id

    @classmethod
    def component(cls, table_id: int, label: str | None = None) -> dict[str, Any]:
        """The button as Discord receives it, with its own label or ``label``."""
        return button_component(table_button_id(cls.VERB, table_id), label or cls.LABEL, cls.STYLE)

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["table"]))
