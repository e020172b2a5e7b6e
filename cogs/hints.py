"""The **Hint** button of a private hand message (``dh:hint:<table>``): privately, the move
Deckhand's normal AI would make and one line why. Taking a hint makes the game unrated.

The button carries only the table id, so it works after a restart; the service refuses
it politely when it isn't the player's turn, the table has hints off, or the game ended.
"""

from __future__ import annotations

import discord

from bot.service import HandSnapshot
from bot.table_options import hints_allowed

from .common import player_of, service_of
from .control import TableButton, table_template
from .ui import ui_for

HINT_LABEL = "💡 Hint"
UNRATED_NOTE = "A game in which someone took a hint is recorded unrated."


def hint_components(hand: HandSnapshot) -> list[dict]:
    """The Hint button when the seat is to move and the table allows hints; else nothing."""
    table = hand.table.row
    if table.status != "running" or not hand.actions or not hints_allowed(table.options):
        return []
    return [HintButton.component(table.id)]


class HintButton(TableButton, discord.ui.DynamicItem[discord.ui.Button], template=table_template("hint")):
    VERB = "hint"
    LABEL = HINT_LABEL

    async def run(self, interaction: discord.Interaction) -> None:
        hand, found = await service_of(interaction).hint(self.table_id, player_of(interaction))
        label = ui_for(hand.table.row.game_id).action_label(found.action, hand)
        await interaction.response.send_message(
            f"💡 **{label[:1].upper() + label[1:]}**: {found.why}.\n-# {UNRATED_NOTE}", ephemeral=True)
