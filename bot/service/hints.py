"""Hints: the move the ``normal`` AI would make for a player, and why. Taking one marks
the game *hinted*, so its result is recorded unrated."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from games.hints import Hint, hint
from games.i18n import say

from ..errors import UserError
from ..table_options import hints_allowed
from .part import ServicePart
from .snapshots import HandSnapshot


class Hints(ServicePart):

    async def hint(self, table_id: int, hand_now: Callable[[], Awaitable[HandSnapshot]]) -> tuple[HandSnapshot, Hint]:
        """The hint for the seat whose hand ``hand_now`` gives (it refuses outsiders and ended
        games). Refused when hints are off or it isn't the seat's turn. The table is marked
        hinted, and stored so, before the hint is returned."""
        async with self._tables.lock(table_id):
            hand = await hand_now()
            row = hand.table.row
            if not hints_allowed(row.options):
                raise UserError(say("Hints are off at this table."))
            if not hand.actions:
                raise UserError(say("It isn't your turn: a hint is for your own move."))
            live = await self._tables.load(table_id)
            found = hint(live.game_state, hand.seat)
            if not live.row.hinted:
                await self._storage.update_table(table_id, hinted=True)
                live.row.hinted = hand.table.row.hinted = True
        return hand, found
