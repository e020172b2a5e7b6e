"""``/history``'s list of games and a game's whole public log, paged and shown privately.

The log is what ``/history`` shows for a game (with **Back** to the list it came from)
and what the table message's **Log** button shows while the game runs."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import discord

import games
from bot.errors import UserError
from bot.markdown import literal, plain
from bot.records import shown_name
from bot.results import ResultLine

from .common import service_of, static_view
from .components import button_component
from .control import AtTable, Control, InServer, Place, TableControl, check_place
from .limits import SELECT_OPTION_TEXT, SELECT_OPTIONS, clip
from .parsing import control_template, edits_in_place, page_number, stored_id
from .ui import DESCRIPTION, EMBED_COLOUR

LOG_PAGE_CHARS = 1500
"""A log page: about 15 to 25 moves, readable without scrolling."""
LOG_LINE_CHARS = 500
HISTORY_GAMES = 10
BACK = "↩ Back"
RECENT = "📜 Recent games"


def results_of(interaction: discord.Interaction):
    return service_of(interaction).results


def require_guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("Leaderboards and stats belong to a server: use this command in one.")
    return interaction.guild_id


def game_name(game_id: str | None) -> str:
    """A game as its command names it (``/war`` → "Q Squared Joe War"), or "All games"."""
    return "All games" if game_id in (None, "all") else games.get_game(game_id).name


def when(timestamp: float | None) -> str:
    return f"<t:{int(timestamp)}:R>" if timestamp else "—"


def result_line(line: ResultLine) -> str:
    players = ", ".join(
        # "(AI)" marks a person's seat an AI took over; an AI player's shown name says it ("🤖 AI 1").
        f"{'🏆 ' if won else ''}{literal(shown_name(name, ai and user_id is None))}"
        f"{' (AI)' if ai and user_id is not None else ''}"
        for name, user_id, ai, _, won in line.players
    )
    minutes = f" · {max(1, round((line.finished_at - line.started_at) / 60))} min" if line.started_at else ""
    status = "" if line.status == "finished" else " · ended early"
    rated = "" if line.rated or line.status != "finished" else (
        " · unrated: a hint was taken" if line.hinted else " · not rated")
    return (f"**#{line.table_id} {game_name(line.game_id)}**{status}{rated}{minutes} · {when(line.finished_at)}\n"
            f"{players}\n_{clip(line.summary, 200)}_")


def page_buttons(make: Callable[[int, str, bool], discord.ui.Item], page: int, pages: int) -> list[discord.ui.Item]:
    """◀ ▶ for a list of ``pages`` pages, made by ``make(page, label, disabled)``; none for one page."""
    if pages <= 1:
        return []
    return [make(page - 1, "◀", page <= 0), make(page + 1, "▶", page >= pages - 1)]


def log_pages(lines: list[str]) -> list[str]:
    """Whole lines, at most :data:`LOG_PAGE_CHARS` characters a page."""
    pages, current = [], ""
    for line in lines:
        line = clip(line, LOG_LINE_CHARS)
        if current and len(current) + len(line) + 1 > LOG_PAGE_CHARS:
            pages.append(current)
            current = ""
        current += ("\n" if current else "") + line
    return pages + [current or "No moves were played."]


async def reply(interaction: discord.Interaction, *, edit: bool, **kwargs) -> None:
    """Edit the private message a control was clicked on, or answer with a new private one."""
    if edit and edits_in_place(interaction, poster_only=False):
        await interaction.response.edit_message(**kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)


# -- the list of games ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryQuery:
    """Which of a server's games ``/history`` lists; carried in its controls so **Back** finds
    the same list."""

    user_id: int | None = None
    channel_id: int | None = None
    game_id: str | None = None

    PATTERN = rf"(?P<user>\d+):(?P<channel>\d+):(?P<game>all|{'|'.join(map(re.escape, games.GAME_IDS))})"

    def code(self) -> str:
        return f"{self.user_id or 0}:{self.channel_id or 0}:{self.game_id or 'all'}"

    @classmethod
    def parse(cls, match: re.Match[str]) -> "HistoryQuery":
        game = match["game"]
        return cls(None if match["user"] == "0" else stored_id(match["user"], "person"),
                   None if match["channel"] == "0" else stored_id(match["channel"], "channel"),
                   None if game == "all" else game)


async def show_history(interaction: discord.Interaction, query: HistoryQuery, *, edit: bool) -> None:
    guild_id = require_guild(interaction)
    lines = await results_of(interaction).history(
        guild_id, user_id=query.user_id, channel_id=query.channel_id, game_id=query.game_id, limit=HISTORY_GAMES)
    embed = discord.Embed(title=f"Recent games — {game_name(query.game_id)}", colour=EMBED_COLOUR)
    embed.description = clip("\n\n".join(result_line(line) for line in lines), DESCRIPTION) or "No games yet."
    view = static_view([LogSelect.make(guild_id, lines, query)] if lines else [])
    await reply(interaction, edit=edit, embed=embed, view=view)


class LogSelect(Control, discord.ui.DynamicItem[discord.ui.Select],
                template=control_template(rf"dh:logsel:(?P<guild>\d+):{HistoryQuery.PATTERN}")):
    """``/history``'s menu of games: choosing one shows its moves."""

    def __init__(self, guild_id: int, query: HistoryQuery, select: discord.ui.Select | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=self.id_for(guild_id, query)))
        self.guild_id, self.query = guild_id, query

    @staticmethod
    def id_for(guild_id: int, query: HistoryQuery) -> str:
        return f"dh:logsel:{guild_id}:{query.code()}"

    @classmethod
    def make(cls, guild_id: int, lines: list[ResultLine], query: HistoryQuery) -> "LogSelect":
        options = [discord.SelectOption(label=clip(f"#{line.table_id} {game_name(line.game_id)}", SELECT_OPTION_TEXT),
                                        description=clip(plain(line.summary), SELECT_OPTION_TEXT) or None, value=str(line.table_id))
                   for line in lines[:SELECT_OPTIONS]]
        return cls(guild_id, query, discord.ui.Select(custom_id=cls.id_for(guild_id, query), options=options,
                                                      placeholder="See a game's moves…"))

    @classmethod
    def parse(cls, match, item):
        return cls(stored_id(match["guild"], "server"), HistoryQuery.parse(match))

    def place(self) -> Place:
        return InServer(self.guild_id)

    async def run(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if len(values) != 1:
            raise UserError("Choose one game.")
        table_id = stored_id(values[0], "game")
        await check_place(interaction, AtTable(table_id, or_server_once_ended=True))
        await show_log(interaction, table_id, 0, edit=True, back=self.query)


class HistoryButton(Control, discord.ui.DynamicItem[discord.ui.Button],
                    template=control_template(rf"dh:(?P<verb>hist|recent):(?P<guild>\d+):{HistoryQuery.PATTERN}")):
    """``/history``'s list of a server's games, as ``query`` filters them: **Back** to it from a
    game's moves (``hist``, in the same private message), or **Recent games** under ``/stats``
    (``recent``, a new private message)."""

    LABELS = {"hist": BACK, "recent": RECENT}

    def __init__(self, verb: str, guild_id: int, query: HistoryQuery) -> None:
        super().__init__(discord.ui.Button(label=self.LABELS[verb], style=discord.ButtonStyle.secondary,
                                           custom_id=self.id_for(verb, guild_id, query)))
        self.verb, self.guild_id, self.query = verb, guild_id, query

    @staticmethod
    def id_for(verb: str, guild_id: int, query: HistoryQuery) -> str:
        return f"dh:{verb}:{guild_id}:{query.code()}"

    @classmethod
    def component(cls, verb: str, guild_id: int, query: HistoryQuery) -> dict:
        """The button as Discord receives it (for a Components V2 message)."""
        return button_component(cls.id_for(verb, guild_id, query), cls.LABELS[verb], discord.ButtonStyle.secondary)

    @classmethod
    def parse(cls, match, item):
        return cls(match["verb"], stored_id(match["guild"], "server"), HistoryQuery.parse(match))

    def place(self) -> Place:
        return InServer(self.guild_id)

    async def run(self, interaction: discord.Interaction) -> None:
        await show_history(interaction, self.query, edit=self.verb == "hist")


# -- a game's moves ----------------------------------------------------------------------------


async def show_log(interaction: discord.Interaction, table_id: int, page: int, *, edit: bool,
                   back: HistoryQuery | None = None) -> None:
    """Page ``page`` of a game's moves; with ``back``, a **Back** button to that list of games."""
    guild_id = require_guild(interaction)
    logged = await results_of(interaction).game_log(table_id, guild_id)
    if logged is None:
        raise UserError("There's no game with that number on this server.")
    game_id, lines = logged
    pages = log_pages(lines)
    page = min(max(page, 0), len(pages) - 1)
    embed = discord.Embed(title=f"#{table_id} {game_name(game_id)} — every move", description=pages[page],
                          colour=EMBED_COLOUR)
    embed.set_footer(text=f"Page {page + 1}/{len(pages)}")
    buttons = page_buttons(lambda to, label, off: LogPage(table_id, to, label, off, back), page, len(pages))
    back_button = [HistoryButton("hist", guild_id, back)] if back else []
    await reply(interaction, edit=edit, embed=embed, view=static_view(buttons + back_button))


class LogPage(TableControl, discord.ui.DynamicItem[discord.ui.Button],
              template=control_template(rf"dh:log:(?P<table>\d+):(?P<page>-?\d+)(?::{HistoryQuery.PATTERN})?")):
    """A page of a game's moves: the table message's **Log**, or a game chosen in ``/history``
    (``back``: the list it was chosen from)."""

    def __init__(self, table_id: int, page: int, label: str = "…", disabled: bool = False,
                 back: HistoryQuery | None = None) -> None:
        suffix = f":{back.code()}" if back else ""
        super().__init__(discord.ui.Button(label=label, disabled=disabled, style=discord.ButtonStyle.secondary,
                                           custom_id=f"dh:log:{table_id}:{page}{suffix}"))
        self.table_id, self.page, self.back = table_id, page, back

    @classmethod
    def parse(cls, match, item):
        back = HistoryQuery.parse(match) if match["game"] else None
        return cls(stored_id(match["table"], "game"), page_number(match["page"]), back=back)

    def place(self) -> Place:
        return AtTable(self.table_id, or_server_once_ended=self.back is not None)

    async def run(self, interaction: discord.Interaction) -> None:
        await show_log(interaction, self.table_id, self.page, edit=True, back=self.back)
