"""Play again: a new lobby where an ended table was, with the same game, options and AI seats."""

from __future__ import annotations

from dataclasses import dataclass

import games
from games.i18n import SlashCommand, say

from ..errors import NotHere, UserError
from ..storage import SeatRow
from .live_tables import LiveTables
from .lobby import Lobbies
from .snapshots import Player, TableSnapshot

ENDED = ("finished", "abandoned")


@dataclass
class Rematch:
    """The new lobby, and the people of the old table to invite to it (not its host)."""

    lobby: TableSnapshot
    invited: list[int]


class Replays:
    def __init__(self, tables: LiveTables, lobbies: Lobbies) -> None:
        self._tables = tables
        self._storage = tables.storage
        self._lobbies = lobbies

    async def play_again(self, table_id: int, by: Player, *, channel_id: int, is_admin: bool = False) -> Rematch:
        """Open a lobby in the ended table's channel (``channel_id``, where the click came from),
        hosted by ``by``: same game, options and turn timer, its AI seats kept (with their
        levels) after the host. Its people are only invited: each takes a seat by joining.
        Allowed to the table's people and to admins."""
        old = await self._storage.get_table(table_id)
        if old is None or old.channel_id != channel_id:
            raise NotHere()
        by.require_at(old)
        if old.status not in ENDED:
            raise UserError(say("This game isn't over yet: Play again opens once it ends."))
        people = list(dict.fromkeys(s.user_id for s in old.seats if s.user_id is not None))
        if by.user_id not in people and not is_admin:
            game = games.get_game(old.game_id)
            raise UserError(say("Only the players of this game can start another round here; open your own "
                                "table with `{command}`.", command=SlashCommand(game.start_command)))
        lobby = await self._lobbies.open(
            guild_id=old.guild_id, channel_id=old.channel_id, game_id=old.game_id, options=old.options,
            host=by, timer_minutes=old.timer_minutes,
        )
        ai_seats = [s for s in old.seats if s.is_ai and s.user_id is None]
        if ai_seats:
            lobby = await self._seat_ai(lobby.row.id, ai_seats)
        return Rematch(lobby, [user for user in people if user != by.user_id])

    async def _seat_ai(self, table_id: int, ai_seats: list[SeatRow]) -> TableSnapshot:
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            seats = list(live.row.seats)
            room = games.get_game(live.row.game_id).max_players - len(seats)
            for old in ai_seats[:room]:
                seats.append(SeatRow(len(seats), None, old.name, True, 0, old.ai_level))
            await self._storage.set_seats(table_id, seats)
            live.row.seats = seats
            return live.snapshot()
