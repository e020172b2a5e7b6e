"""**Play again** on an ended table (``dh:again:<table>``): a new lobby in the same channel or
thread, same game, options and turn timer, the AI seats kept, the old table's people
mentioned so they can click Join. The clicker hosts it (see :meth:`GameService.play_again`)."""

from __future__ import annotations

import discord

from bot.errors import UserError
from games.i18n import say

from .common import IN_DIRECT_MESSAGES, for_reader, is_admin, player_of, service_of
from .control import TableButton, table_template
from .opening import embed_links_note, post_lobby
from .ui import ui_for

PLAY_AGAIN = "🔁 Play again"


class PlayAgainButton(TableButton, discord.ui.DynamicItem[discord.ui.Button], template=table_template("again")):
    VERB = "again"
    LABEL = PLAY_AGAIN
    STYLE = discord.ButtonStyle.primary

    async def run(self, interaction: discord.Interaction) -> None:
        await play_again(interaction, self.table_id)


def invitation(title: str, host_id: int, invited: list[int]) -> str:
    who = ", ".join(f"<@{user}>" for user in invited)
    if not who:
        return f"🔁 <@{host_id}> opened another round of {title}."
    return f"🔁 Another round of {title}, opened by <@{host_id}>: {who}, click **Join** to take your seat."


async def play_again(interaction: discord.Interaction, table_id: int) -> None:
    if interaction.guild_id is None or interaction.channel is None:
        raise UserError(IN_DIRECT_MESSAGES)
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = service_of(interaction)
    rematch = await service.play_again(table_id, player_of(interaction), channel_id=interaction.channel_id,
                                       is_admin=is_admin(interaction))
    title = ui_for(rematch.lobby.row.game_id).title
    content = invitation(title, interaction.user.id, rematch.invited)
    link = await post_lobby(interaction, rematch.lobby, content)
    opened = for_reader(interaction, say("Your new {game} table is open: {link}", game=title, link=link))
    await interaction.followup.send(opened + embed_links_note(interaction), ephemeral=True)
