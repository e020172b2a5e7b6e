"""**Watch**: the table as it is now, privately, with its picture, in the watcher's language.

Its custom_id is ``dh:watch:<table>``. Anyone may watch, seated or not: the message is built
from the public view only (in Face-up variants that view holds every hand, so the picture
shows them). Its **Refresh** button has the same custom_id, so clicking it (or Watch again)
shows the table anew.
"""

from __future__ import annotations

import discord

from bot.errors import UserError
from games.i18n import say

from .attachments import answer_privately, draws_table, pictures_on, table_picture
from .common import in_time, service_of
from .components import LayoutMessage, action_row
from .control import TableButton, table_template
from .language import reader_language
from .layouts import table_layout
from .ui import Rendered

WATCH = say("👁 Watch")
REFRESH = say("🔄 Refresh")


class WatchButton(TableButton, discord.ui.DynamicItem[discord.ui.Button], template=table_template("watch")):
    VERB = "watch"
    LABEL = str(WATCH)

    async def run(self, interaction: discord.Interaction) -> None:
        await show_watch(interaction, self.table_id)


async def show_watch(interaction: discord.Interaction, table_id: int) -> None:
    """Answer with the watch message: update the clicked private one, or open a new one."""
    service = service_of(interaction)
    table = await service.table(table_id)
    if not draws_table(table):
        raise UserError(say("This table's game hasn't started: there is nothing to watch yet."))
    language = reader_language(interaction)
    refresh = action_row([WatchButton.component(table_id, REFRESH.render(language))])
    rendered = Rendered(LayoutMessage(table_layout(table, [refresh], watching=True, language=language)))
    picture = None
    if draws_table(table) and await pictures_on(service, table.row.guild_id):
        picture = await in_time(interaction, table_picture(table, language))
    await answer_privately(interaction, rendered.kwargs(), picture, what=f"table {table_id} (watch)")
