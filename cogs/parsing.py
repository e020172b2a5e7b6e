"""The one validated path from what a client sends to the values the bot acts on.

Anything in an interaction can be forged: a custom_id, a select value, a form
answer, a slash option outside its declared choices or range (discord.py does not
recheck raw payloads). Every number goes through :func:`whole_number`, every id
through :func:`stored_id`, every custom_id template through :func:`control_template`,
and every slash command's options through :func:`check_raw_options` (before discord.py
converts them) and :func:`check_declared_options` (after); what fails
becomes a polite refusal (:class:`~bot.errors.UserError`, or :class:`InvalidOption`
for the command tree), never an exception from SQLite or discord.py.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from bot.errors import UserError
from games.i18n import SlashOption, Text, say

from .language import reader_language
from .limits import CUSTOM_ID, clip

SQL_INTEGER_MAX = 2**63 - 1
"""The largest SQLite INTEGER: Discord snowflakes, table ids and versions all fit."""
MAX_PAGE = 10_000
"""More pages than any rules, leaderboard or move log has; page numbers are clamped anyway."""
QUOTE = 60
"""Characters of a user's input quoted back in a refusal."""
WHAT = {
    "number": say("number"), "lowest number": say("lowest number"), "highest number": say("highest number"),
    "table": say("table"), "game": say("game"), "server": say("server"), "person": say("person"),
    "channel": say("channel"), "choice": say("choice"), "value": say("value"), "level": say("level"),
    "version": say("version"), "page": say("page"), "menu": say("menu"), "tournament": say("tournament"),
    "season": say("season"),
}
"""The things a refusal names (``what``), as words for the reader."""
UNKNOWN_CONTROL = say("That control isn't one Deckhand recognises.")
"""The refusal of a control no message Deckhand sent could carry there (a forged one)."""


def quoted(text: Any) -> str:
    """``text`` as a refusal may quote it: clipped, so a refusal stays within Discord's limits."""
    return f"“{clip(str(text), QUOTE)}”"


def whole_number(value: Any, low: int, high: int, what: str = "number") -> int:
    """``value`` as an int in ``low``–``high``: whatever :func:`int` accepts from a
    string (``" 7"``, ``"+7"``, ``"٧"``) or an int itself; anything else (``"²"``,
    ``"①"``, ``"7.0"``, a bool) is refused with a :class:`UserError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise UserError(say("The {what} must be a whole number.", what=WHAT[what]))
    try:
        number = int(value)
    except ValueError:
        raise UserError(say("The {what} must be a whole number, not “{input}”.", what=WHAT[what],
                            input=clip(str(value), QUOTE))) from None
    if not low <= number <= high:
        raise UserError(say("The {what} must be a whole number from {low} to {high}.", what=WHAT[what],
                            low=low, high=high))
    return number


def stored_id(value: Any, what: str = "table") -> int:
    """A table id or Discord snowflake from a client: positive and within SQLite's INTEGER."""
    try:
        return whole_number(value, 1, SQL_INTEGER_MAX, what)
    except UserError:
        raise UserError(say("That {what} isn't one Deckhand knows.", what=WHAT[what])) from None


def version_number(value: Any) -> int:
    """A table's state version from a control; out of range means a forged control."""
    try:
        return whole_number(value, 0, SQL_INTEGER_MAX, "version")
    except UserError:
        raise UserError(UNKNOWN_CONTROL) from None


def page_number(value: Any) -> int:
    """A page index from a control (clamped later to the pages there are)."""
    return whole_number(value, -1, MAX_PAGE, "page")


def end_time(text: str) -> float:
    """When ``/season start``'s ``ends`` says a season ends: a day, ``2025-06-30`` (as that day
    ends, in UTC), or a day and a time, ``2025-06-30 18:00`` (UTC); anything else is refused."""
    said = " ".join(str(text).split())
    for pattern, whole_day in (("%Y-%m-%d", True), ("%Y-%m-%d %H:%M", False)):
        try:
            when = datetime.strptime(said, pattern).replace(tzinfo=UTC)
            return (when + timedelta(days=1) if whole_day else when).timestamp()
        except (ValueError, OverflowError):  # not that pattern, or past the calendar's end (9999-12-31)
            continue
    raise UserError(say("Write when the season ends as a day, 2025-06-30, or a day and a time in UTC, 2025-06-30 "
                        "18:00 (not “{input}”).", input=clip(said, QUOTE)))


def one_of(value: Any, allowed: Any, what: str) -> Any:
    """``value`` if it is among ``allowed``; otherwise a refusal listing nothing unbounded."""
    if value not in allowed:
        raise UserError(say("That {what} isn't one of the choices offered.", what=WHAT[what]))
    return value


def chosen_value(interaction: discord.Interaction, refusal: Text) -> str:
    """The one option chosen in the menu ``interaction`` comes from; :class:`UserError` with
    ``refusal`` when the payload holds none or several."""
    data: Mapping[str, object] = interaction.data or {}
    values = data.get("values")
    if not isinstance(values, list) or len(values) != 1 or not isinstance(values[0], str):
        raise UserError(refusal)
    return values[0]


def custom_id_of(interaction: discord.Interaction) -> str:
    """The custom_id of the control clicked or the form submitted ("" for a command)."""
    data: Mapping[str, object] = interaction.data or {}
    custom_id = data.get("custom_id")
    return custom_id if isinstance(custom_id, str) else ""


def carried_custom_ids(components: list[Any]) -> list[str]:
    """The custom_ids of the controls among ``components`` (a message's, as discord.py reads
    them), in rows, containers and sections."""
    found: list[str] = []
    for component in components:
        if isinstance(component, (discord.ActionRow, discord.Container)):
            found += carried_custom_ids(component.children)
        elif isinstance(component, discord.SectionComponent):
            found += carried_custom_ids([*component.children, component.accessory])
        elif isinstance(component, (discord.Button, discord.SelectMenu)) and component.custom_id:
            found.append(component.custom_id)
    return found


def edits_in_place(interaction: discord.Interaction, shows: str | None = None, *, poster_only: bool = False) -> bool:
    """Whether a control may edit the message it was clicked on, rather than answer with a new
    private message. A private message, always (only its reader clicks it). A public one only
    when it is a command's answer (with ``poster_only``, clicked by its poster) that shows what
    the control shows: besides the control clicked, it carries one whose custom_id starts with
    ``shows`` (one leaderboard's server, game and sort; one game's rules), so ◀ ▶ turn its own
    pages. Nothing else edits a public post: a control forged onto someone's post answers
    privately, and a post never becomes another kind of message. ``shows`` None: no public post
    shows what the control does."""
    message = interaction.message
    if message is None:
        return False
    if message.flags.ephemeral:
        return True
    metadata = message.interaction_metadata
    if shows is None or metadata is None or (poster_only and metadata.user.id != interaction.user.id):
        return False
    others = carried_custom_ids(message.components)
    clicked = custom_id_of(interaction)
    if clicked in others:
        others.remove(clicked)
    return any(custom_id.startswith(shows) for custom_id in others)


def require_private_message(interaction: discord.Interaction) -> None:
    """Refuse (:class:`UserError`) a control that answers a private question (its buttons are
    only ever on the private message that asked it) when it was clicked on any other message."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        raise UserError(UNKNOWN_CONTROL)


def control_template(pattern: str) -> str:
    """A dynamic item's template: ``pattern``, only for custom_ids Discord could have sent
    (at most 100 characters), so a longer one is answered as an unknown control."""
    return rf"(?=.{{1,{CUSTOM_ID}}}\Z){pattern}"


# -- controls whose custom_id does not parse ----------------------------------------------------


class Refused(discord.ui.DynamicItem[discord.ui.Item], template=r"(?s).*"):
    """What a control whose custom_id fails validation becomes (:meth:`cogs.control.Control.from_custom_id`):
    its click gets ``reason``. (Never registered with the bot: it only stands in for the item that failed.)"""

    def __init__(self, item: discord.ui.Item, reason: Text) -> None:
        super().__init__(item)
        self.reason = reason

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message(self.reason.render(reader_language(interaction)),
                                                    ephemeral=True)
        except discord.HTTPException:
            pass


# -- slash command options ------------------------------------------------------------------------


class InvalidOption(app_commands.CheckFailure):
    """A slash option outside what the command declares; :attr:`text` is the user's answer."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text


async def check_declared_options(interaction: discord.Interaction) -> bool:
    """A check for every slash command: each option given must be one of its declared
    choices and within its declared range or length (raw payloads are not rechecked by
    discord.py), and a whole number must fit an SQLite INTEGER."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True
    for parameter in command.parameters:
        value = getattr(interaction.namespace, parameter.display_name, None)
        if value is None:
            continue
        try:
            _check_option(parameter, value)
        except UserError as exc:
            raise InvalidOption(say("`{option}`: {refusal}", option=SlashOption(parameter.display_name),
                                    refusal=exc.text)) from None
    return True


SNOWFLAKE_OPTIONS = (discord.AppCommandOptionType.user, discord.AppCommandOptionType.channel,
                     discord.AppCommandOptionType.role, discord.AppCommandOptionType.mentionable)
PICK_FROM_THE_LIST = say("Pick it from the list Discord offers.")
NOT_A_NUMBER = say("It must be a number.")


def _check_option(parameter: app_commands.Parameter, value: Any) -> None:
    kind = parameter.type
    if parameter.choices:
        one_of(value, [choice.value for choice in parameter.choices], "value")
    if kind is discord.AppCommandOptionType.integer:
        low = parameter.min_value if parameter.min_value is not None else -SQL_INTEGER_MAX
        high = parameter.max_value if parameter.max_value is not None else SQL_INTEGER_MAX
        if not isinstance(value, int):
            raise UserError(say("It must be a whole number."))
        whole_number(value, int(low), int(high))
    elif kind is discord.AppCommandOptionType.number:
        if not is_float(value):
            raise UserError(NOT_A_NUMBER)
        if ((parameter.min_value is not None and value < parameter.min_value)
                or (parameter.max_value is not None and value > parameter.max_value)):
            raise UserError(say("It must be from {low} to {high}.", low=parameter.min_value,
                                high=parameter.max_value))
    elif kind is discord.AppCommandOptionType.string:
        if not isinstance(value, str):
            raise UserError(say("It must be text."))
        if ((parameter.min_value is not None and len(value) < parameter.min_value)
                or (parameter.max_value is not None and len(value) > parameter.max_value)):
            raise UserError(say("It must be {low} to {high} characters.", low=parameter.min_value or 0,
                                high=parameter.max_value))
    elif kind is discord.AppCommandOptionType.boolean and not isinstance(value, bool):
        raise UserError(say("It must be true or false."))
    elif kind in SNOWFLAKE_OPTIONS:
        # Discord resolves every user, channel or role it sends; a bare id is a forged one.
        if isinstance(value, discord.Object):
            raise UserError(PICK_FROM_THE_LIST)
        stored_id(value.id, "choice")


OPTION_TYPE = discord.AppCommandOptionType
IDS = frozenset(kind.value for kind in (*SNOWFLAKE_OPTIONS, OPTION_TYPE.attachment))
"""The option types whose raw value discord.py reads as an id (``int(value)``)."""
NESTING = frozenset({OPTION_TYPE.subcommand.value, OPTION_TYPE.subcommand_group.value})


async def check_raw_options(interaction: discord.Interaction) -> bool:
    """The command tree's check, before discord.py converts a command's options: every
    option sent, declared or not, must be what discord.py can convert (an id for a user,
    channel, role or attachment, a number for a number), for on anything else it raises
    where nothing answers the person. A command is refused with :class:`InvalidOption`;
    an autocomplete gets no suggestions."""
    data: Mapping[str, Any] = interaction.data or {}
    for option in _sent_options(data.get("options")):
        refusal = _raw_refusal(option)
        if refusal is None:
            continue
        if interaction.type is discord.InteractionType.autocomplete:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.autocomplete([])
            return False
        name = clip(str(option.get("name")), QUOTE)
        raise InvalidOption(say("`{option}`: {refusal}", option=SlashOption(name), refusal=refusal))
    return True


def _sent_options(options: object) -> list[Mapping[str, Any]]:
    """The options of a command's payload, those of its subcommand or group included."""
    found: list[Mapping[str, Any]] = []
    for option in options if isinstance(options, list) else []:
        if isinstance(option, dict):
            found += _sent_options(option.get("options")) if option.get("type") in NESTING else [option]
    return found


def is_float(value: Any) -> bool:
    """Whether ``value`` is a number a float holds (no bool, string, infinity or NaN)."""
    return (not isinstance(value, bool) and isinstance(value, (int, float))
            and abs(value) <= sys.float_info.max)


def _raw_refusal(option: Mapping[str, Any]) -> Text | None:
    """Why discord.py could not convert ``option`` as sent, or None."""
    kind, value = option.get("type"), option.get("value")
    if option.get("focused"):
        return None  # what is being typed: discord.py keeps it as sent
    if kind in IDS:
        try:
            stored_id(value, "choice")
        except UserError:
            return PICK_FROM_THE_LIST
    elif kind == OPTION_TYPE.number.value and not is_float(value):
        return NOT_A_NUMBER
    return None


def install_option_checks(tree: app_commands.CommandTree) -> None:
    """Make :func:`check_raw_options` the tree's check (as ``tree.error`` installs its error
    handler), and add :func:`check_declared_options` to every slash command in ``tree``."""
    tree.interaction_check = check_raw_options  # type: ignore[method-assign]
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command) and check_declared_options not in command.checks:
            command.add_check(check_declared_options)
