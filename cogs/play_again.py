"""**Play again** on an ended table: a new lobby in the same place, the same game and AI seats.

The button is ``dh:again:<table>``. The new lobby is in the same channel or thread, with the
same game, options and turn timer, the AI seats kept, the old table's people mentioned so they
can click Join. The clicker hosts it (see :meth:`bot.service.replay.Replays.play_again`)."""

from __future__ import annotations

import discord

from bot.errors import UserError
from games.i18n import say

from .common import IN_DIRECT_MESSAGES, is_admin, player_of, public_language, service_of
from .control import TableButton, table_template
from .language import reader_language
from .messages import PLAY_AGAIN, PLAY_AGAIN_LABEL
from .opening import embed_links_note, post_lobby
from .ui import ui_for


class PlayAgainButton(TableButton, discord.ui.DynamicItem[discord.ui.Button], template=table_template(PLAY_AGAIN)):
    VERB = PLAY_AGAIN
    LABEL = str(PLAY_AGAIN_LABEL)
    STYLE = discord.ButtonStyle.primary

    async def run(self, interaction: discord.Interaction) -> None:
        await play_again(interaction, self.table_id)


def invitation(title: str, host_id: int, invited: list[int], language: str) -> str:
    """Play again's invitation above the new lobby, in the server's ``language``: who opened it and
    whom it invites (what to press, the lobby says under it)."""
    who = ", ".join(f"<@{user}>" for user in invited)
    host = f"<@{host_id}>"
    if not who:
        return say("🔁 {host} opened another round of {game}.", host=host, game=title).render(language)
    return say("🔁 {host} invites {who} to another round of {game}.", game=title, host=host, who=who).render(language)


async def play_again(interaction: discord.Interaction, table_id: int) -> None:
    if interaction.guild_id is None or interaction.channel is None:
        raise UserError(IN_DIRECT_MESSAGES)
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = service_of(interaction)
    rematch = await service.replays.play_again(table_id, player_of(interaction), channel_id=interaction.channel.id,
                                       is_admin=is_admin(interaction))
    game_id = rematch.lobby.row.game_id
    language, reader = await public_language(interaction), reader_language(interaction)
    content = invitation(ui_for(game_id, language).title, interaction.user.id, rematch.invited, language)
    link = await post_lobby(interaction, rematch.lobby, content)
    opened = say("Your new {game} table is open: {link}", game=ui_for(game_id, reader).title, link=link).render(reader)
    await interaction.followup.send(opened + embed_links_note(interaction), ephemeral=True)
