"""``/history``'s list of games and a game's whole public log, paged and shown privately.

The log is what ``/history`` shows for a game (with **Back** to the list it came from)
and what the table message's **Log** button shows while the game runs."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Self

import discord
from babel.dates import format_timedelta

import games
from bot.errors import UserError
from bot.results import ResultLine, Results
from games.i18n import SOURCE, say

from .common import require_guild, service_of, static_view
from .components import button_component
from .control import AtTable, Control, InServer, Place, TableControl, check_place
from .language import reader_language
from .limits import SELECT_OPTIONS, clip
from .parsing import chosen_value, control_template, edits_in_place, page_number, stored_id
from .ui import DESCRIPTION, EMBED_COLOUR

LOG_PAGE_CHARS = 1500
"""A log page: about 15 to 25 moves, readable without scrolling."""
LOG_LINE_CHARS = 500
HISTORY_GAMES = 10
BACK = say("↩ Back")
RECENT = say("📜 Recent games")
ALL_GAMES = say("All games")
AI_TOOK_OVER = say("(AI)")
"""After the name of a person whose seat an AI took over."""
IN_A_SERVER_ONLY = say("Leaderboards and stats belong to a server: use this command in one.")


def results_of(interaction: discord.Interaction) -> Results:
    return service_of(interaction).results


def game_name(game_id: str | None, language: str = SOURCE) -> str:
    """A game as its command names it (``/war`` → "Q Squared Joe War"), or "All games" in ``language``."""
    return ALL_GAMES.render(language) if game_id in (None, "all") else games.get_game(game_id).name


def when(timestamp: float | None) -> str:
    return f"<t:{int(timestamp)}:R>" if timestamp else "—"


def duration(seconds: float, language: str) -> str:
    """How long a game took, in whole minutes (at least one): "12 min"."""
    minutes = max(1, round(seconds / 60))
    return format_timedelta(timedelta(minutes=minutes), granularity="minute", threshold=minutes + 1,
                            format="short", locale=language)


def result_line(line: ResultLine, language: str) -> str:
    """A game of ``/history``: its number, game, how it went, its players and how it ended."""
    players = ", ".join(
        # "(AI)" marks a person's seat an AI took over; an AI player's shown name says it ("🤖 AI 1").
        f"{'🏆 ' if won else ''}{name}{' ' + AI_TOOK_OVER.render(language) if ai and user_id is not None else ''}"
        for name, (_, user_id, ai, _, won) in zip(line.names(language), line.players, strict=True)
    )
    notes = []
    if line.status != "finished":
        notes.append(say("ended early"))
    elif not line.rated:
        notes.append(say("unrated: a hint was taken") if line.hinted else say("not rated"))
    facts = [f"**#{line.table_id} {game_name(line.game_id, language)}**", *(n.render(language) for n in notes)]
    if line.started_at:
        facts.append(duration(line.finished_at - line.started_at, language))
    facts.append(when(line.finished_at))
    return f"{' · '.join(facts)}\n{players}\n_{clip(summary(line, language), 200)}_"


def summary(line: ResultLine, language: str) -> str:
    """How the game ended, in ``language`` (whichever it was played in)."""
    return line.summary.render(language, line.names(language))


def page_footer(page: int, pages: int, language: str) -> str:
    """"Page 2/5" (``page`` counts from 0)."""
    return say("Page {page}/{pages}", page=page + 1, pages=pages).render(language)


def page_buttons(make: Callable[[int, str, bool], discord.ui.Item], page: int, pages: int) -> list[discord.ui.Item]:
    """◀ ▶ for a list of ``pages`` pages, made by ``make(page, label, disabled)``; none for one page."""
    if pages <= 1:
        return []
    return [make(page - 1, "◀", page <= 0), make(page + 1, "▶", page >= pages - 1)]


def log_pages(lines: list[str], empty: str) -> list[str]:
    """Whole lines, at most :data:`LOG_PAGE_CHARS` characters a page (``empty``: the page of no lines)."""
    pages, current = [], ""
    for line in lines:
        line = clip(line, LOG_LINE_CHARS)
        if current and len(current) + len(line) + 1 > LOG_PAGE_CHARS:
            pages.append(current)
            current = ""
        current += ("\n" if current else "") + line
    return pages + [current or empty]


async def reply(interaction: discord.Interaction, *, edit: bool, **kwargs: Any) -> None:
    """Edit the private message a control was clicked on, or answer with a new private one
    (no public post shows a game's moves or a list of games)."""
    if edit and edits_in_place(interaction):
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
    def parse(cls, match: re.Match[str]) -> HistoryQuery:
        game = match["game"]
        return cls(None if match["user"] == "0" else stored_id(match["user"], "person"),
                   None if match["channel"] == "0" else stored_id(match["channel"], "channel"),
                   None if game == "all" else game)


async def show_history(interaction: discord.Interaction, query: HistoryQuery, *, edit: bool) -> None:
    guild_id = require_guild(interaction, IN_A_SERVER_ONLY)
    language = reader_language(interaction)
    lines = await results_of(interaction).history(
        guild_id, user_id=query.user_id, channel_id=query.channel_id, game_id=query.game_id, limit=HISTORY_GAMES)
    embed = discord.Embed(title=say("Recent games — {game}", game=game_name(query.game_id, language)).render(language),
                          colour=EMBED_COLOUR)
    embed.description = (clip("\n\n".join(result_line(line, language) for line in lines), DESCRIPTION)
                         or say("No games yet.").render(language))
    view = static_view([LogSelect.make(guild_id, lines, query, language)] if lines else [])
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
    def make(cls, guild_id: int, lines: list[ResultLine], query: HistoryQuery, language: str) -> LogSelect:
        # The list above the menu tells each game; the menu only picks one, by the number it shows.
        options = [discord.SelectOption(label=f"#{line.table_id}", value=str(line.table_id))
                   for line in lines[:SELECT_OPTIONS]]
        return cls(guild_id, query, discord.ui.Select(custom_id=cls.id_for(guild_id, query), options=options,
                                                      placeholder=say("See a game's moves…").render(language)))

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(stored_id(match["guild"], "server"), HistoryQuery.parse(match))

    def place(self) -> Place:
        return InServer(self.guild_id)

    async def run(self, interaction: discord.Interaction) -> None:
        table_id = stored_id(chosen_value(interaction, say("Choose one game.")), "game")
        await check_place(interaction, AtTable(table_id, or_server_once_ended=True))
        await show_log(interaction, table_id, 0, edit=True, back=self.query)


class HistoryButton(Control, discord.ui.DynamicItem[discord.ui.Button],
                    template=control_template(rf"dh:(?P<verb>hist|recent):(?P<guild>\d+):{HistoryQuery.PATTERN}")):
    """``/history``'s list of a server's games, as ``query`` filters them: **Back** to it from a
    game's moves (``hist``, in the same private message), or **Recent games** under ``/stats``
    (``recent``, a new private message)."""

    LABELS = {"hist": BACK, "recent": RECENT}

    def __init__(self, verb: str, guild_id: int, query: HistoryQuery, language: str = SOURCE) -> None:
        super().__init__(discord.ui.Button(label=self.LABELS[verb].render(language),
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=self.id_for(verb, guild_id, query)))
        self.verb, self.guild_id, self.query = verb, guild_id, query

    @staticmethod
    def id_for(verb: str, guild_id: int, query: HistoryQuery) -> str:
        return f"dh:{verb}:{guild_id}:{query.code()}"

    @classmethod
    def component(cls, verb: str, guild_id: int, query: HistoryQuery, language: str) -> dict:
        """The button as Discord receives it (for a Components V2 message), labelled in ``language``."""
        return button_component(cls.id_for(verb, guild_id, query), cls.LABELS[verb].render(language),
                                discord.ButtonStyle.secondary)

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(match["verb"], stored_id(match["guild"], "server"), HistoryQuery.parse(match))

    def place(self) -> Place:
        return InServer(self.guild_id)

    async def run(self, interaction: discord.Interaction) -> None:
        await show_history(interaction, self.query, edit=self.verb == "hist")


# -- a game's moves ----------------------------------------------------------------------------


async def show_log(interaction: discord.Interaction, table_id: int, page: int, *, edit: bool,
                   back: HistoryQuery | None = None) -> None:
    """Page ``page`` of a game's moves; with ``back``, a **Back** button to that list of games."""
    guild_id = require_guild(interaction, IN_A_SERVER_ONLY)
    language = reader_language(interaction)
    logged = await results_of(interaction).game_log(table_id, guild_id)
    if logged is None:
        raise UserError(say("There's no game with that number on this server."))
    pages = log_pages(logged.lines(language), say("No moves were played.").render(language))
    page = min(max(page, 0), len(pages) - 1)
    title = say("#{table} {game} — every move", table=str(table_id), game=game_name(logged.game_id, language))
    embed = discord.Embed(title=title.render(language), description=pages[page], colour=EMBED_COLOUR)
    embed.set_footer(text=page_footer(page, len(pages), language))
    buttons = page_buttons(lambda to, label, off: LogPage(table_id, to, label, off, back), page, len(pages))
    back_button = [HistoryButton("hist", guild_id, back, language)] if back else []
    await reply(interaction, edit=edit, embed=embed, view=static_view([*buttons, *back_button]))


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
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        back = HistoryQuery.parse(match) if match["game"] else None
        return cls(stored_id(match["table"], "game"), page_number(match["page"]), back=back)

    def place(self) -> Place:
        return AtTable(self.table_id, or_server_once_ended=self.back is not None)

    async def run(self, interaction: discord.Interaction) -> None:
        await show_log(interaction, self.table_id, self.page, edit=True, back=self.back)
