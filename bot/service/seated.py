"""Tables opened already started, with their seats given (a tournament's rounds).

No lobby: the seats are given, and such a table may be cancelled again before anyone moved
(a round paired again)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from typing import Any

import games
from games.errors import GameError
from games.i18n import Seat, say

from ..records import EventLine
from ..storage import SeatRow, Session, TableRow
from ..table_options import engine_options
from .live_tables import event_lines, update_after
from .part import ServicePart
from .snapshots import TableSnapshot


class Seated(ServicePart):

    async def open(self, *, guild_id: int, channel_id: int, game_id: str, options: dict[str, Any], host_id: int,
                   seats: list[SeatRow], timer_minutes: int, seed: int,
                   link: Callable[[Session, int], Awaitable[bool]]) -> TableSnapshot | None:
        """Open a table in ``channel_id`` with ``seats`` and start its game at once, in one
        transaction with ``link(db, table_id)`` (None, nothing written, if ``link`` says its place
        has a table already). ``options`` are checked already (:func:`~bot.service.checked_options`).
        Every person seated counts as pinged for the first turn: what opened the table tells
        them (a tournament's table message names them all)."""
        game = games.get_game(game_id)
        try:
            state = game.new_game(len(seats), engine_options(options), seed)
        except GameError as exc:  # options were checked when the tournament was made: a bug
            raise ValueError(f"table of {game_id} with {options}: {exc}") from exc
        now = self._clock()
        draft = TableRow(
            id=0, guild_id=guild_id, channel_id=channel_id, game_id=game_id, options=options, host_id=host_id,
            status="running", seed=seed, version=1, state=None, timer_minutes=timer_minutes, deadline=None,
            reminded=False, recent_events=[], outcome=None, lobby_message_id=None, table_message_id=None,
            ping_message_id=None, created_at=now, started_at=now, finished_at=None, seats=seats,
            pinged={s.seat: 1 for s in seats if s.user_id is not None and not s.is_ai},
        )
        lines: list[EventLine] = [say("The game begins: {players}.", players=[Seat(s.seat) for s in seats]).to_json()]
        lines += event_lines(state.opening_events(), None)[0]
        update = update_after(draft, state, lines, now)
        table_id = await self._storage.create_started_table(draft, update, link)
        if table_id is None:
            return None
        snap = (await self._tables.load(table_id)).snapshot()  # its first read wakes its timer and AI seats
        self._autoplay.follow(snap)
        return snap

    async def cancel_unplayed(self, table_ids: Collection[int], then: Callable[[Session], Awaitable[None]]) -> bool:
        """Cancel running tables nobody moved at yet, in one transaction with ``then(db)``; False,
        nothing changed, if one of them moved meanwhile. Each is shown as cancelled."""
        for table_id in table_ids:
            self._tables.forget(table_id)  # a copy in memory could hold a move being committed: read again
        if not await self._storage.cancel_unplayed(table_ids, self._clock(), then):
            return False
        for table_id in table_ids:
            self._autoplay.cancel_timer(table_id)
            row = await self._storage.get_table(table_id)
            if row is not None:
                self._publishing.show(TableSnapshot(row, None))
        return True
