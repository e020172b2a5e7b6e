"""Every button and menu Deckhand sends, as discord.py dynamic items.

State lives in the custom_id (table id, and for moves the state version and
the action), never in a View object, so every control works again after a
restart and a stale or doubled click is recognised and refused politely.

custom_id formats::

    dh:lobby:<table>:<verb>            lobby buttons
    dh:hand:<table>                    "My hand" and "Refresh"
    dh:mv:<table>:<version>:<action>   one move
    dh:ms:<table>:<version>:<n>        a menu of moves; the chosen value is the action code
    dh:st:<table>:<version>:<n>        a first step (e.g. "attack with 9♠"); the value is a
                                       prefix of action codes, and the hand message then
                                       shows only the moves that complete it
    dh:ask:<table>:<version>:<kind>:<low>:<high>
                                       opens a form asking for a number; its answer plays
                                       the move ``<kind>:<number>`` (e.g. a cut of 40 cards)
    dh:num:<table>:<version>:<kind>    that form (a modal); answered by the tables cog's
                                       listener, so a form opened before a restart still works
"""

from __future__ import annotations

import re

import discord

from bot.errors import StaleControl, UserError
from games.base import Action
from games.errors import GameError

from .common import guarded, is_admin, player_of, service_of

MAX_CUSTOM_ID = 100
STALE_NOTICE = "⚠️ Those controls are from an earlier turn; here is your hand as it is now."

LOBBY_VERBS = {
    "join": ("Join", discord.ButtonStyle.success, 0),
    "leave": ("Leave", discord.ButtonStyle.secondary, 0),
    "ai": ("Add AI", discord.ButtonStyle.secondary, 0),
    "unai": ("Remove AI", discord.ButtonStyle.secondary, 0),
    "side": ("Switch side", discord.ButtonStyle.secondary, 1),
    "start": ("Start", discord.ButtonStyle.primary, 1),
    "cancel": ("Cancel", discord.ButtonStyle.danger, 1),
}


def static_view(items: list[discord.ui.Item]) -> discord.ui.View:
    """A view holding ``items``. Every control is a dynamic item dispatched from its
    custom_id, so discord.py keeps nothing per message (each "My hand" click sends one)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def lobby_view(table_id: int, sides: bool = False) -> discord.ui.View:
    """The lobby's buttons; "Switch side" only for games played in two sides."""
    return static_view([LobbyButton(table_id, verb) for verb in LOBBY_VERBS if verb != "side" or sides])


def table_view(table_id: int) -> discord.ui.View:
    return static_view([HandButton.make(table_id, "🂠 My hand", row=0)])


async def _show_hand(interaction: discord.Interaction, table_id: int, notice: str | None = None, hand=None,
                     step: str | None = None) -> None:
    """Answer with the user's hand: update the clicked private message, or open a new one."""
    from .ui import hand_message

    if hand is None:
        hand = await service_of(interaction).hand(table_id, interaction.user.id)
    rendered = hand_message(hand, notice, step)
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(**rendered.kwargs())
    else:
        await interaction.response.send_message(ephemeral=True, **rendered.kwargs())


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dh:lobby:(?P<table>\d+):(?P<verb>[a-z]+)"):
    def __init__(self, table_id: int, verb: str) -> None:
        label, style, row = LOBBY_VERBS.get(verb, ("?", discord.ButtonStyle.secondary, 0))
        super().__init__(discord.ui.Button(label=label, style=style, row=row, custom_id=f"dh:lobby:{table_id}:{verb}"))
        self.table_id = table_id
        self.verb = verb

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            service = service_of(interaction)
            player = player_of(interaction)
            if self.verb == "join":
                await service.join(self.table_id, player)
            elif self.verb == "leave":
                await service.leave_lobby(self.table_id, player)
            elif self.verb == "ai":
                await service.add_ai(self.table_id, player)
            elif self.verb == "unai":
                await service.remove_ai(self.table_id, player)
            elif self.verb == "side":
                await service.switch_side(self.table_id, player)
            elif self.verb == "start":
                await service.start(self.table_id, player)
            elif self.verb == "cancel":
                await service.cancel(self.table_id, player, is_admin=is_admin(interaction))
            else:
                raise UserError("That button isn't one Deckhand knows.")
            # The service edits the lobby message itself; acknowledge without changing it here.
            await interaction.response.defer()

        await guarded(interaction, run)


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dh:hand:(?P<table>\d+)"):
    def __init__(self, table_id: int, button: discord.ui.Button | None = None) -> None:
        super().__init__(button or discord.ui.Button(label="My hand", custom_id=f"dh:hand:{table_id}"))
        self.table_id = table_id

    @classmethod
    def make(cls, table_id: int, label: str, row: int) -> "HandButton":
        button = discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, row=row, custom_id=f"dh:hand:{table_id}"
        )
        return cls(table_id, button)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _show_hand(interaction, self.table_id))


async def _play(interaction: discord.Interaction, table_id: int, version: int, code: str) -> None:
    try:
        action = Action.from_code(code)
    except GameError:
        raise UserError("That control isn't one Deckhand recognises.") from None
    service = service_of(interaction)
    try:
        hand = await service.move(table_id, interaction.user.id, version, action)
    except StaleControl as exc:
        await _show_hand(interaction, table_id, notice=f"⚠️ {exc}")
        return
    await _show_hand(interaction, table_id, hand=hand)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"dh:mv:(?P<table>\d+):(?P<version>\d+):(?P<code>[^\s]+)",
):
    def __init__(self, table_id: int, version: int, code: str, button: discord.ui.Button | None = None) -> None:
        custom_id = f"dh:mv:{table_id}:{version}:{code}"
        if len(custom_id) > MAX_CUSTOM_ID:
            raise ValueError(f"custom_id too long for Discord: {custom_id}")
        super().__init__(button or discord.ui.Button(label=code, custom_id=custom_id))
        self.table_id, self.version, self.code = table_id, version, code

    @classmethod
    def make(cls, table_id: int, version: int, action: Action, label: str, style: discord.ButtonStyle,
             row: int) -> "MoveButton":
        code = action.code()
        button = discord.ui.Button(label=label, style=style, row=row, custom_id=f"dh:mv:{table_id}:{version}:{code}")
        return cls(table_id, version, code, button)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["table"]), int(match["version"]), match["code"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _play(interaction, self.table_id, self.version, self.code))


class MenuSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dh:(?P<mode>ms|st):(?P<table>\d+):(?P<version>\d+):(?P<n>\d+)",
):
    """A menu in a hand message: ``ms`` plays the chosen move (its value is an action
    code); ``st`` takes a first step (its value is a prefix of the moves' step keys)."""

    def __init__(self, mode: str, table_id: int, version: int, n: int, select: discord.ui.Select | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"dh:{mode}:{table_id}:{version}:{n}"))
        self.mode, self.table_id, self.version = mode, table_id, version

    @classmethod
    def make(cls, mode: str, table_id: int, version: int, n: int, options: list[discord.SelectOption], row: int,
             placeholder: str) -> "MenuSelect":
        select = discord.ui.Select(
            custom_id=f"dh:{mode}:{table_id}:{version}:{n}", options=options, placeholder=placeholder, row=row
        )
        return cls(mode, table_id, version, n, select)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["mode"], int(match["table"]), int(match["version"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []

        async def run() -> None:
            if len(values) != 1:
                raise UserError("Choose exactly one option.")
            if self.mode == "ms":
                await _play(interaction, self.table_id, self.version, values[0])
            else:
                await self._step(interaction, values[0])

        await guarded(interaction, run)

    async def _step(self, interaction: discord.Interaction, step: str) -> None:
        from .ui import ui_for

        hand = await service_of(interaction).hand(self.table_id, interaction.user.id)
        if hand.version != self.version:
            await _show_hand(interaction, self.table_id, hand=hand, notice=STALE_NOTICE)
            return
        step_key = ui_for(hand.table.row.game_id).step_key
        if not any(step_key(a).startswith(step) for a in hand.actions):
            raise UserError("That choice isn't available now.")
        await _show_hand(interaction, self.table_id, hand=hand, step=step)


class NumberPrompt(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"dh:ask:(?P<table>\d+):(?P<version>\d+):(?P<kind>[a-z]+):(?P<low>\d+):(?P<high>\d+)",
):
    """A button that asks for a number in a form; the answer is played as ``<kind>:<number>``."""

    def __init__(self, table_id: int, version: int, kind: str, low: int, high: int,
                 button: discord.ui.Button | None = None) -> None:
        super().__init__(button or discord.ui.Button(
            label=kind, custom_id=f"dh:ask:{table_id}:{version}:{kind}:{low}:{high}"))
        self.table_id, self.version, self.kind, self.low, self.high = table_id, version, kind, low, high

    @classmethod
    def make(cls, table_id: int, version: int, kind: str, low: int, high: int, label: str,
             row: int) -> "NumberPrompt":
        """``label`` is the button's text and the form's title."""
        button = discord.ui.Button(label=label, style=discord.ButtonStyle.primary, row=row,
                                   custom_id=f"dh:ask:{table_id}:{version}:{kind}:{low}:{high}")
        return cls(table_id, version, kind, low, high, button)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        # ``item`` is the clicked button as sent, so its label becomes the form's title.
        return cls(int(match["table"]), int(match["version"]), match["kind"], int(match["low"]),
                   int(match["high"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            hand = await service_of(interaction).hand(self.table_id, interaction.user.id)
            if hand.version != self.version:
                await _show_hand(interaction, self.table_id, hand=hand, notice=STALE_NOTICE)
                return
            if not any(a.kind == self.kind for a in hand.actions):
                raise UserError("That isn't one of your moves right now.")
            label = getattr(self.item, "label", None) or "Your number"
            await interaction.response.send_modal(
                NumberForm(self.table_id, self.version, self.kind, self.low, self.high, clip_label(label)))

        await guarded(interaction, run)


def clip_label(text: str) -> str:
    return text if len(text) <= 45 else text[:44] + "…"


class NumberForm(discord.ui.Modal):
    """The form a :class:`NumberPrompt` opens. It only describes the form: every
    submit is answered by :func:`answer_number` (from the tables cog's listener),
    which needs nothing kept in memory, so a form opened before a restart still works."""

    def __init__(self, table_id: int, version: int, kind: str, low: int, high: int, title: str) -> None:
        super().__init__(title=title, custom_id=f"dh:num:{table_id}:{version}:{kind}", timeout=None)
        self.add_item(discord.ui.TextInput(
            label=f"A number from {low} to {high}", custom_id="value", placeholder=f"{low}–{high}",
            min_length=1, max_length=len(str(high)),
        ))


NUMBER_FORM = re.compile(r"dh:num:(?P<table>\d+):(?P<version>\d+):(?P<kind>[a-z]+)")


def _submitted_value(components: list[dict]) -> str:
    for component in components:
        if component.get("custom_id") == "value":
            return str(component.get("value", ""))
        nested = component.get("components") or ([component["component"]] if "component" in component else [])
        found = _submitted_value(nested)
        if found:
            return found
    return ""


async def answer_number(interaction: discord.Interaction) -> None:
    """Play the number a :class:`NumberForm` was answered with."""
    data = interaction.data or {}
    match = NUMBER_FORM.fullmatch(data.get("custom_id", ""))

    async def run() -> None:
        if match is None:
            raise UserError("That form isn't one Deckhand recognises.")
        text = _submitted_value(data.get("components") or []).strip()
        if not text.isdigit():
            raise UserError(f"Please enter a whole number, not {text!r}.")
        await _play(interaction, int(match["table"]), int(match["version"]), f"{match['kind']}:{int(text)}")

    await guarded(interaction, run)


DYNAMIC_ITEMS: list[type[discord.ui.DynamicItem]] = [
    LobbyButton, HandButton, MoveButton, MenuSelect, NumberPrompt,
]
"""Every control class the bot answers; cogs with controls of their own add theirs with
:func:`register_items`, so the catch-all for unknown custom_ids leaves them alone."""


def register_items(bot: discord.Client, *items: type[discord.ui.DynamicItem]) -> None:
    for item in items:
        if item not in DYNAMIC_ITEMS:
            DYNAMIC_ITEMS.append(item)
    bot.add_dynamic_items(*items)
