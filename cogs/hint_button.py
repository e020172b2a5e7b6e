"""The **Hint** button of a hand message: privately, the move the normal AI would make, and why.

Its custom_id is ``dh:hint:<table>``. Taking a hint makes the game unrated.

The button carries only the table id, so it works after a restart; the service refuses
it politely when it isn't the player's turn, the table has hints off, or the game ended.
"""

from __future__ import annotations

import discord

from bot.service import HandSnapshot
from bot.table_options import hints_allowed
from games.i18n import SOURCE, say

from .common import player_of, service_of
from .control import TableButton, table_template
from .language import reader_language
from .ui import ui_for

HINT = say("💡 Hint")
HINT_UNRATES = say("💡 Hint (game won't be rated)")


def hint_components(hand: HandSnapshot, language: str = SOURCE) -> list[dict]:
    """The Hint button (labelled in ``language``) when the seat has a choice to make (two moves or
    more: a lone move, such as a round's Continue, decides nothing) and the table allows hints;
    else nothing. Its label says what a hint costs while the game would be rated: nobody took
    one yet and every seat is a person's (a game with an AI seat is unrated anyway)."""
    table = hand.table.row
    if table.status != "running" or len(hand.actions) < 2 or not hints_allowed(table.options):
        return []
    rated = not table.hinted and not any(seat.is_ai for seat in table.seats)
    return [HintButton.component(table.id, (HINT_UNRATES if rated else HINT).render(language))]


class HintButton(TableButton, discord.ui.DynamicItem[discord.ui.Button], template=table_template("hint")):
    VERB = "hint"
    LABEL = str(HINT)

    async def run(self, interaction: discord.Interaction) -> None:
        hand, found = await service_of(interaction).play.hint(self.table_id, player_of(interaction))
        language = reader_language(interaction)
        hand = hand.speaking(language)
        label = ui_for(hand.table.row.game_id, language).move_text(found.action, hand)
        answer = say("💡 **{move}**: {why}.\n-# {note}", move=label[:1].upper() + label[1:], why=found.why,
                     note=say("A game in which someone took a hint is recorded unrated."))
        await interaction.response.send_message(answer.render(language, hand.table.names), ephemeral=True)
