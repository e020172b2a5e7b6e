"""The **Hint** button of a private hand message (``dh:hint:<table>``): privately, the move
Deckhand's normal AI would make and one line why. Taking a hint makes the game unrated.

The button carries only the table id, so it works after a restart; the service refuses
it politely when it isn't the player's turn, the table has hints off, or the game ended.
"""

from __future__ import annotations

import discord

from bot.service import HandSnapshot
from bot.table_options import hints_allowed

from .common import guarded, service_of
from .parsing import ParsedControl, button_component, control_template, stored_id
from .ui import ui_for

HINT_LABEL = "💡 Hint"
UNRATED_NOTE = "A game in which someone took a hint is recorded unrated."


def hint_components(hand: HandSnapshot) -> list[dict]:
    """The Hint button when the seat is to move and the table allows hints; else nothing."""
    table = hand.table.row
    if table.status != "running" or not hand.actions or not hints_allowed(table.options):
        return []
    return [button_component(f"dh:hint:{table.id}", HINT_LABEL, discord.ButtonStyle.secondary)]


class HintButton(ParsedControl, discord.ui.DynamicItem[discord.ui.Button],
                 template=control_template(r"dh:hint:(?P<table>\d+)")):
    def __init__(self, table_id: int, button: discord.ui.Button | None = None) -> None:
        super().__init__(button or discord.ui.Button(label=HINT_LABEL, custom_id=f"dh:hint:{table_id}"))
        self.table_id = table_id

    @classmethod
    def parse(cls, match, item):
        return cls(stored_id(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            hand, found = await service_of(interaction).hint(self.table_id, interaction.user.id)
            label = ui_for(hand.table.row.game_id).action_label(found.action, hand)
            await interaction.response.send_message(
                f"💡 **{label[:1].upper() + label[1:]}**: {found.why}.\n-# {UNRATED_NOTE}", ephemeral=True)

        await guarded(interaction, run)
