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
from .words import Word, Words

WORDS: dict[str, Word] = {
    "hint": "💡 Hint",
    "hint_unrates": "💡 Hint (game won't be rated)",
    "unrated_note": "A game in which someone took a hint is recorded unrated.",
    "answer": "💡 **{move}**: {why}.\n-# {note}",
}
WORD = Words(WORDS)
HINT_LABEL = WORD("hint")


def hint_components(hand: HandSnapshot) -> list[dict]:
    """The Hint button when the seat is to move and the table allows hints; else nothing. Its
    label says what a hint costs while the game would be rated: nobody took one yet and every
    seat is a person's (a game with an AI seat is unrated anyway)."""
    table = hand.table.row
    if table.status != "running" or not hand.actions or not hints_allowed(table.options):
        return []
    rated = not table.hinted and not any(seat.is_ai for seat in table.seats)
    return [HintButton.component(table.id, WORD("hint_unrates") if rated else None)]


class HintButton(TableButton, discord.ui.DynamicItem[discord.ui.Button], template=table_template("hint")):
    VERB = "hint"
    LABEL = HINT_LABEL

    async def run(self, interaction: discord.Interaction) -> None:
        hand, found = await service_of(interaction).hint(self.table_id, player_of(interaction))
        label = ui_for(hand.table.row.game_id).move_text(found.action, hand)
        await interaction.response.send_message(
            WORD("answer", move=label[:1].upper() + label[1:], why=found.why, note=WORD("unrated_note")),
            ephemeral=True)
