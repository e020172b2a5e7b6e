"""**Watch**: the table as it is now, privately, with its picture (``dh:watch:<table>``).

Anyone may watch, seated or not: the message is built from the public view only (in
Face-up variants that view holds every hand, so the picture shows them). Its **Refresh**
button has the same custom_id, so clicking it (or Watch again) shows the table anew.
"""

from __future__ import annotations

import discord

from bot.errors import UserError

from .common import guarded, service_of, static_view
from .parsing import ParsedControl, control_template, stored_id
from .pictures.attach import answer_privately, draws_table, drawn_in_time, pictures_on, table_picture
from .ui import Rendered, table_embed, ui_for

WATCH = "👁 Watch"
REFRESH = "🔄 Refresh"


class WatchButton(ParsedControl, discord.ui.DynamicItem[discord.ui.Button],
                  template=control_template(r"dh:watch:(?P<table>\d+)")):
    def __init__(self, table_id: int, label: str = WATCH) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"dh:watch:{table_id}"))
        self.table_id = table_id

    @classmethod
    def parse(cls, match, item):
        return cls(stored_id(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: show_watch(interaction, self.table_id))


async def show_watch(interaction: discord.Interaction, table_id: int) -> None:
    """Answer with the watch message: update the clicked private one, or open a new one."""
    service = service_of(interaction)
    table = await service.table(table_id)
    if table.row.guild_id != interaction.guild_id:
        raise UserError("That table doesn't exist any more.")
    if not draws_table(table):
        raise UserError("This table's game hasn't started: there is nothing to watch yet.")
    content, embed = table_embed(table)
    embed.title = f"👁 {embed.title or ui_for(table.row.game_id).title}"
    rendered = Rendered(content=content, embed=embed, view=static_view([WatchButton(table_id, REFRESH)]))
    picture = None
    if draws_table(table) and await pictures_on(service, table.row.guild_id):
        picture = await drawn_in_time(interaction, table_picture(table))
    await answer_privately(interaction, rendered.kwargs(), picture, what=f"table {table_id} (watch)")
