"""The lobby message and its controls: Join, Leave, Add AI and its level menu, Remove AI, Switch side, Start, Cancel.

The lobby's buttons are ``dh:lobby:<table>:<verb>``, the level menu **Add AI** shows the host
``dh:ailevel:<table>``.

The service edits the lobby message itself after every change, so a button only
asks the service and acknowledges the click.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.errors import UserError
from bot.markdown import literal
from bot.service import TableSnapshot
from bot.storage import TableRow
from games.ai import LEVEL_NAMES
from games.base import Game
from games.i18n import SOURCE, say

from .common import CLOSED_HERE, GIVE_BACK, is_admin, may_post_here, player_of, service_of, static_view
from .components import LayoutMessage, action_row, button_component
from .control import TableControl
from .language import reader_language
from .layouts import lobby_layout
from .parsing import chosen_value, control_template, one_of, require_private_message, stored_id
from .ui import Rendered, ui_for

LOBBY_VERBS = {
    "join": (say("Join"), discord.ButtonStyle.success, 0),
    "leave": (say("Leave"), discord.ButtonStyle.secondary, 0),
    "ai": (say("Add AI"), discord.ButtonStyle.secondary, 0),
    "unai": (say("Remove AI"), discord.ButtonStyle.secondary, 0),
    "side": (say("Switch side"), discord.ButtonStyle.secondary, 1),
    "start": (say("Start"), discord.ButtonStyle.primary, 1),
    "cancel": (say("Cancel"), discord.ButtonStyle.danger, 1),
}


LEVEL_TEXT = {
    "easy": say("A beginner: now and then a random move"),
    "normal": say("Deckhand's usual player: a good heuristic"),
    "hard": say("Thinks ahead over the cards it can't see"),
}
"""The AI levels (games.ai.LEVELS) as the Add AI menu offers them."""

DONE = {"join": say("You took a seat."), "leave": say("You left the table."),
        "unai": say("An AI player left the table."), "side": say("You switched sides."),
        "cancel": say("The table was cancelled.")}
"""What a lobby button did, told privately when the lobby message can't show it."""


def lobby_unchanged_note(interaction: discord.Interaction) -> str:
    """A line saying the lobby message can't show a change, when Deckhand may no longer
    post in the interaction's channel (the service's edit of the lobby is refused)."""
    if may_post_here(interaction):
        return ""
    note = say("⚠️ {closed}, so the lobby message here doesn't change. {give_back}.", closed=CLOSED_HERE,
               give_back=GIVE_BACK)
    return "\n" + note.render(reader_language(interaction))


def offered_verbs(game: Game) -> list[str]:
    """The lobby buttons ``game`` shows: "Switch side" only for games played in sides."""
    return [verb for verb in LOBBY_VERBS if verb != "side" or game.sides]


class LobbyButton(TableControl, discord.ui.DynamicItem[discord.ui.Button],
                  template=control_template(rf"dh:lobby:(?P<table>\d+):(?P<verb>{'|'.join(LOBBY_VERBS)})")):
    def __init__(self, table_id: int, verb: str) -> None:
        label, style, row = LOBBY_VERBS.get(verb, (say("?"), discord.ButtonStyle.secondary, 0))
        super().__init__(discord.ui.Button(label=str(label), style=style, row=row,
                                           custom_id=f"dh:lobby:{table_id}:{verb}"))
        self.table_id = table_id
        self.verb = verb

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["table"]), match["verb"])

    async def run(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        player = player_of(interaction)
        game = ui_for((await service.table(self.table_id)).row.game_id).game
        if self.verb not in offered_verbs(game):
            raise UserError(say("{game} isn't played in sides, so there is no side to switch.", game=game.name))
        if self.verb == "join":
            await service.lobbies.join(self.table_id, player)
        elif self.verb == "leave":
            await service.lobbies.leave(self.table_id, player)
        elif self.verb == "ai":
            # Ask the host for the level first; the select adds the AI (AiLevelSelect).
            level = await service.lobbies.ai_level_choice(self.table_id, player)
            language = reader_language(interaction)
            await interaction.response.send_message(
                say("Which level for the new AI player?").render(language), ephemeral=True,
                view=static_view([AiLevelSelect.make(self.table_id, level, language)]))
            return
        elif self.verb == "unai":
            await service.lobbies.remove_ai(self.table_id, player)
        elif self.verb == "side":
            await service.lobbies.switch_side(self.table_id, player)
        elif self.verb == "start":
            if not may_post_here(interaction):  # the game's table message could not be shown
                raise UserError(say("{closed}, so the game couldn't be shown here. {give_back}; then press **Start** "
                                    "again.", closed=CLOSED_HERE, give_back=GIVE_BACK))
            await service.lobbies.start(self.table_id, player)
        else:  # "cancel": the template admits only the verbs in LOBBY_VERBS
            await service.lobbies.cancel(self.table_id, player, is_admin=is_admin(interaction))
        unchanged = lobby_unchanged_note(interaction)
        if unchanged:  # the service's edit of the lobby is refused: say privately what the click did
            await interaction.response.send_message(DONE[self.verb].render(reader_language(interaction)) + unchanged,
                                                    ephemeral=True)
        else:  # the service edits the lobby message itself; acknowledge without changing it here
            await interaction.response.defer()


class AiLevelSelect(TableControl, discord.ui.DynamicItem[discord.ui.Select],
                    template=control_template(r"dh:ailevel:(?P<table>\d+)")):
    """The level menu **Add AI** shows the host (privately); choosing adds the AI player."""

    def __init__(self, table_id: int, select: discord.ui.Select | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"dh:ailevel:{table_id}"))
        self.table_id = table_id

    @classmethod
    def make(cls, table_id: int, default: str, language: str) -> AiLevelSelect:
        options = [discord.SelectOption(label=LEVEL_NAMES[level].render(language), value=level,
                                        description=text.render(language), default=level == default)
                   for level, text in LEVEL_TEXT.items()]
        return cls(table_id, discord.ui.Select(custom_id=f"dh:ailevel:{table_id}", options=options,
                                               placeholder=say("AI level").render(language)))

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["table"]))

    async def run(self, interaction: discord.Interaction) -> None:
        require_private_message(interaction)  # it answers by editing the menu's own private message
        level = one_of(chosen_value(interaction, say("Choose exactly one level.")), LEVEL_TEXT, "level")
        snap = await service_of(interaction).lobbies.add_ai(self.table_id, player_of(interaction), level)
        language = reader_language(interaction)
        added = literal([s for s in snap.row.seats if s.is_ai][-1].name_in(language))
        joined = say("{added} joined the table.", added=added).render(language)
        await interaction.response.edit_message(content=joined + lobby_unchanged_note(interaction), view=None)


def lobby_controls(table: TableRow, game: Game, language: str) -> list[dict]:
    """The lobby's buttons, as :func:`offered_verbs` has them for ``game``, in their rows, offering
    only what can be done now: **Remove AI** only while an AI player sits at the table, **Join**
    and **Add AI** greyed out while it is full. (What depends on who clicks, as **Leave** for
    the host, is refused privately: everyone sees the same lobby.)"""
    full = len(table.seats) >= game.max_players
    with_ai = any(seat.is_ai for seat in table.seats)
    rows: dict[int, list[dict]] = {}
    for verb in offered_verbs(game):
        if verb == "unai" and not with_ai:
            continue
        label, style, row = LOBBY_VERBS[verb]
        rows.setdefault(row, []).append(button_component(f"dh:lobby:{table.id}:{verb}", label.render(language),
                                                         style, disabled=full and verb in ("join", "ai")))
    return [action_row(buttons) for _, buttons in sorted(rows.items())]


def lobby_message(table: TableSnapshot, invitation: str | None = None, language: str = SOURCE) -> Rendered:
    """The lobby in ``language``: seats and options, with its buttons while the table is open
    (``invitation``: Play again's, above it)."""
    row = table.row
    controls = lobby_controls(row, ui_for(row.game_id).game, language) if row.status == "lobby" else []
    shown = invitation if row.status == "lobby" else None
    return Rendered(LayoutMessage(lobby_layout(table, controls, shown, language)))
