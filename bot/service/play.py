"""A seat's hand, moves and hints, and the ways a running game ends early (leaving, ending, a lost channel)."""

from __future__ import annotations

from collections.abc import Callable, Collection

from games.ai import LEVEL_NAMES
from games.base import Action
from games.hints import Hint, hint
from games.i18n import Seat, Text, say

from ..errors import StaleControl, UserError
from ..markdown import literal
from ..records import EventLine, ender_line
from ..storage import MoveRecord, SeatRow, TableRow
from ..table_options import hints_allowed
from .autoplay import server_ai_level
from .live_tables import LiveTable, event_lines, update_after, with_recent
from .part import ServicePart
from .snapshots import HandSnapshot, Player, TableSnapshot


class Play(ServicePart):

    async def hand(self, table_id: int, player: Player) -> HandSnapshot:
        live = await self._tables.load(table_id)
        seat = _seat_for(live.row, player)
        return _hand(live, seat.seat)

    async def seat_hands(self, table_id: int, user_ids: Collection[int]) -> dict[int, HandSnapshot]:
        """Per person of ``user_ids`` who plays a seat of the running game, their hand as the table
        is now (read under its lock, so never a move half made): the Discord layer keeps the hand
        messages people have open up to date. Empty once the game is over."""
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            if live.row.status != "running":
                return {}
            return {user_id: _hand(live, seat.seat) for seat in live.row.seats
                    if (user_id := seat.user_id) is not None and user_id in user_ids and not seat.is_ai}

    async def hint(self, table_id: int, player: Player) -> tuple[HandSnapshot, Hint]:
        """The move the ``normal`` AI would make for the player's seat, and why. Refused when
        hints are off or it isn't the seat's turn. Taking one marks the game *hinted* (its
        result is recorded unrated), stored so before the hint is returned."""
        async with self._tables.lock(table_id):
            hand = await self.hand(table_id, player)
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

    async def move(self, table_id: int, player: Player, version: int, action: Action) -> HandSnapshot:
        """Play ``action`` for the player's seat, if ``version`` is still current.

        Returns the seat's fresh hand after the commit. Everything the table
        sees (the table message, AI replies) follows in background work.
        """
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            if version > live.row.version:  # another process stored newer moves: this copy is stale
                self._tables.forget(table_id)
                live = await self._tables.load(table_id)
            row = live.row
            seat = _seat_for(row, player)
            if version != row.version:
                raise StaleControl(say("Those controls are from an earlier turn; here is your hand as it is now."))
            now = self._clock()
            events = self._tables.apply(live, seat.seat, action)
            lines, private = event_lines(events, seat.seat)
            missed = {seat.seat: 0} if seat.missed_turns else {}
            update = update_after(row, live.game_state, lines, now, missed_turns=missed)
            record = MoveRecord(seat.seat, action.to_json(), False, now)
            await self._tables.commit(live, [record], update)
            hand = _hand(live, seat.seat, private)
        self._autoplay.follow(hand.table)
        return hand

    async def leave_game(self, table_id: int, player: Player) -> TableSnapshot:
        """Hand the user's seat to an AI; the game goes on. The last human leaving abandons it."""
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            row = live.row
            player.require_at(row)
            if row.status == "lobby":
                raise UserError(say("The game hasn't started: use the lobby's Leave button."))
            seat = _seat_for(row, player)
            humans_left = [s for s in row.seats if not s.is_ai and s.seat != seat.seat]
            now = self._clock()
            if not humans_left:
                return await self._end_locked(
                    live, say("{player} left; no players remain, so the game is over.", player=Seat(seat.seat)), now)
            level = await server_ai_level(self._storage, row.guild_id)
            line = say("{player} left the table; an AI ({level}) plays their seat now.", player=Seat(seat.seat),
                       level=LEVEL_NAMES[level])
            snap = await self._hand_over_locked(live, [seat], [line], level, now)
        self._autoplay.follow(snap)
        return snap

    async def hand_over(self, table_id: int, user_ids: Collection[int], line: Callable[[int], Text], *,
                        hurry: bool = False) -> TableSnapshot | None:
        """Hand the seats of ``user_ids`` at a running game to the AI (at the server's level), each
        with ``line(seat)``, even the last person's: the AI plays them to the end (``hurry``: without
        waiting between moves). None if the game is over or none of them plays a seat there."""
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            row = live.row
            seats = [s for s in row.seats if s.user_id in user_ids and not s.is_ai]
            if row.status != "running" or not seats:
                snap = None
            else:
                level = await server_ai_level(self._storage, row.guild_id)
                snap = await self._hand_over_locked(live, seats, [line(s.seat) for s in seats], level, self._clock())
            if hurry and row.status == "running":
                self._autoplay.hurry(table_id)
        if snap is not None:
            self._autoplay.follow(snap)
        return snap

    async def _hand_over_locked(self, live: LiveTable, seats: list[SeatRow], lines: list[Text], level: str,
                                now: float) -> TableSnapshot:
        """``seats`` become the AI's at ``level``, with ``lines`` (the caller holds the table's lock)."""
        row = live.row
        update = update_after(row, live.game_state, [line.to_json() for line in lines], now,
                              ai_seats=tuple(s.seat for s in seats))
        if not await self._storage.hand_seat_to_ai(
            row.id, [s.seat for s in seats], expected_version=row.version, deadline=update.deadline,
            recent_events=update.recent_events, ai_level=level,
        ):
            self._tables.forget(row.id)
            raise StaleControl(say("Someone moved at the same moment; please try again."))
        for seat in seats:
            seat.is_ai, seat.ai_level = True, level
        row.deadline, row.reminded, row.recent_events = update.deadline, False, update.recent_events
        return live.snapshot()

    async def end(self, table_id: int, by: Player, *, is_admin: bool) -> TableSnapshot:
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            row = live.row
            by.require_at(row)
            if row.status == "lobby":
                raise UserError(say("This table hasn't started: use the lobby's Cancel button."))
            if row.status != "running":
                raise UserError(say("This game has already ended."))
            if by.user_id != row.host_id and not is_admin:
                raise UserError(say("Only the host or someone with Manage Server can end this game."))
            return await self._end_locked(live, ended_by(row, by), self._clock())

    async def abandon(self, table_id: int, reason: Text, *, show: bool = False) -> None:
        """End an open table for ``reason``: one nobody can reach any more (its channel is gone),
        without showing it, as there is nowhere to show it; or (``show``) one whose tournament
        was cancelled."""
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            if live.row.status == "running":
                await self._end_locked(live, reason, self._clock(), show=show)
            elif live.row.status == "lobby":
                await self._storage.update_table(table_id, status="cancelled", finished_at=self._clock())
                self._tables.forget(table_id)

    async def _end_locked(self, live: LiveTable, line: Text, now: float, *, show: bool = True) -> TableSnapshot:
        row = live.row
        recent = with_recent(row, [line.to_json()])
        await self._storage.update_table(
            row.id, status="abandoned", deadline=None, finished_at=now, recent_events=recent,
        )
        row.status, row.deadline, row.finished_at, row.recent_events = "abandoned", None, now, recent
        self._tables.forget(row.id)
        await self._tables.record(row)
        self._autoplay.cancel_timer(row.id)
        snap = live.snapshot()
        if show:
            self._publishing.show(snap)
        return snap


def _hand(live: LiveTable, seat: int, notes: list[EventLine] | None = None) -> HandSnapshot:
    state = live.game_state
    actions = state.legal_actions(seat) if seat in state.to_act() else []
    return HandSnapshot(live.snapshot(), seat, state.view(seat), actions, notes or [])


def ended_by(row: TableRow, by: Player) -> Text:
    """The line saying ``by`` ended the game: their seat, so it is read with the seat's name; or,
    for someone not seated (a moderator), their name (see :mod:`bot.forgetting`)."""
    seat = row.seat_of(by.user_id)
    return ender_line(Seat(seat.seat) if seat is not None else literal(by.name))


def _seat_for(row: TableRow, player: Player) -> SeatRow:
    """The seat ``player`` plays in this running game, or the reason they have none."""
    player.require_at(row)
    user_id = player.user_id
    if row.status == "lobby":
        raise UserError(say("The game hasn't started yet."))
    if row.status != "running":
        raise UserError(say("This game has ended."))
    seat = row.seat_of(user_id)
    if seat is None:
        if any(s.user_id == user_id for s in row.seats):
            raise UserError(say("You left this game; an AI plays your seat now."))
        raise UserError(say("You're not playing at this table."))
    return seat
