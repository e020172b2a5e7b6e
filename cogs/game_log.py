"""A game's whole public log, paged and shown privately: what ``/history`` shows for a
game and what the table message's **Log** button shows while the game runs."""

from __future__ import annotations

from typing import Callable

import discord

from bot.errors import UserError

from .common import guarded, service_of, static_view
from .limits import clip
from .parsing import ParsedControl, control_template, edits_in_place, page_number, stored_id
from .ui import EMBED_COLOUR

LOG_PAGE_CHARS = 3500
LOG_LINE_CHARS = 500


def results_of(interaction: discord.Interaction):
    return service_of(interaction).results


def require_guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("Leaderboards and stats belong to a server: use this command in one.")
    return interaction.guild_id



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


async def show_log(interaction: discord.Interaction, table_id: int, page: int, *, edit: bool) -> None:
    lines = await results_of(interaction).move_log(table_id, require_guild(interaction))
    if lines is None:
        raise UserError("There's no game with that number on this server.")
    pages = log_pages(lines)
    page = min(max(page, 0), len(pages) - 1)
    embed = discord.Embed(title=f"Game #{table_id} — every move", description=pages[page], colour=EMBED_COLOUR)
    embed.set_footer(text=f"Page {page + 1}/{len(pages)}")
    view = static_view(page_buttons(lambda to, label, off: LogPage(table_id, to, label, off), page, len(pages)))
    if edit and edits_in_place(interaction, poster_only=False):
        await interaction.response.edit_message(embed=embed, view=view)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


class LogPage(ParsedControl, discord.ui.DynamicItem[discord.ui.Button],
              template=control_template(r"dh:log:(?P<table>\d+):(?P<page>-?\d+)")):
    def __init__(self, table_id: int, page: int, label: str = "…", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled, style=discord.ButtonStyle.secondary,
                                           custom_id=f"dh:log:{table_id}:{page}"))
        self.table_id, self.page = table_id, page

    @classmethod
    def parse(cls, match, item):
        return cls(stored_id(match["table"], "game"), page_number(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: show_log(interaction, self.table_id, self.page, edit=True))
