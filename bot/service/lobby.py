"""Lobbies: opening a table, who sits where before the game, cancelling, and starting the game."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

import games
from games.ai import LEVELS
from games.base import Game, count_text
from games.errors import GameError
from games.i18n import Seat, Text, plural, say

from ..errors import HostsLobby, StaleControl, UserError
from ..records import EventLine
from ..storage import ChannelBusy, SeatRow, TableRow
from ..table_options import engine_options, split_options
from .autoplay import AutoPlay, server_ai_level
from .live_tables import KeyedLocks, LiveTable, LiveTables, event_lines, update_after
from .part import ServicePart
from .publishing import Publishing
from .snapshots import Player, TableSnapshot

log = logging.getLogger(__name__)

DEFAULT_TIMER_MINUTES = 10
MAX_TIMER_MINUTES = 24 * 60
LOBBY_WAIT_SECONDS = 60 * 60
"""A lobby not started this long after it opened gives way to a new table in its channel, or by its host."""


class Lobbies(ServicePart):
    """Opening, filling, cancelling and starting lobbies."""

    def __init__(self, tables: LiveTables, publishing: Publishing, autoplay: AutoPlay, clock: Callable[[], float],
                 new_seed: Callable[[], int]) -> None:
        super().__init__(tables, publishing, autoplay, clock)
        self.new_seed = new_seed
        """A new table's seed: its game replays from it and its move log."""
        self._hosts = KeyedLocks()
        """Per host: checking that they host no other lobby and opening theirs happen as one."""

    async def timer_for(self, guild_id: int, requested: int | None) -> int:
        if requested is not None:
            return checked_timer(requested)
        default = (await self._storage.guild_settings(guild_id)).timer_minutes
        try:
            return DEFAULT_TIMER_MINUTES if default is None else checked_timer(default)
        except UserError:
            # Written before settings were validated on write: one bad row must not stop every start.
            log.warning("guild %s has an invalid default timer %r; using %s", guild_id, default, DEFAULT_TIMER_MINUTES)
            return DEFAULT_TIMER_MINUTES

    async def set_default_timer(self, guild_id: int, minutes: int) -> None:
        """Store the server's default turn timer, after checking it (every start without a timer uses it)."""
        await self._storage.set_guild_settings(guild_id, timer_minutes=checked_timer(minutes))

    async def open(
        self, *, guild_id: int, channel_id: int, game_id: str, options: dict[str, Any], host: Player,
        timer_minutes: int | None = None,
    ) -> TableSnapshot:
        """Open a lobby with the host seated. Options are validated here, before anyone joins."""
        options = checked_options(game_id, options)
        timer = await self.timer_for(guild_id, timer_minutes)
        create = partial(self._storage.create_table, guild_id=guild_id, channel_id=channel_id, game_id=game_id,
                         options=options, host_id=host.user_id, host_name=host.name, seed=self.new_seed(),
                         timer_minutes=timer)
        async with self._hosts.hold(host.user_id):
            await self.may_host(guild_id, host)
            try:
                try:
                    table_id = await create(now=self._clock())
                except ChannelBusy:
                    held_by = await self._storage.open_table_in(channel_id)
                    if held_by is not None and not await self._close_if_unstarted(held_by):
                        raise
                    table_id = await create(now=self._clock())
            except ChannelBusy:
                raise UserError(await self._busy_text(channel_id)) from None
        return (await self._tables.load(table_id)).snapshot()

    async def may_host(self, guild_id: int, host: Player) -> None:
        """Refuse (:class:`UserError`) a second open lobby by one host in a server, so nobody fills a
        server with lobbies (each in a thread of its own when threads are on). A lobby of theirs
        nobody started within :data:`LOBBY_WAIT_SECONDS` is cancelled instead."""
        table_id = await self._storage.hosted_lobby(guild_id, host.user_id)
        if table_id is not None and not await self._close_if_unstarted(table_id):
            raise HostsLobby(table_id, (await self._tables.load(table_id)).row.channel_id)

    async def _close_if_unstarted(self, table_id: int) -> bool:
        """Cancel ``table_id`` if it is a lobby nobody started within :data:`LOBBY_WAIT_SECONDS` (a
        forgotten lobby must not hold its channel or host for good); True if it is no longer open."""
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            row = live.row
            if row.status != "lobby" or self._clock() - row.created_at < LOBBY_WAIT_SECONDS:
                return row.status not in ("lobby", "running")
            log.info("lobby %s in channel %s was never started; closing it for a new table", table_id,
                     row.channel_id)
            snap = await self._cancel_locked(live)
        self._publishing.show(snap)
        return True

    async def _busy_text(self, channel_id: int) -> Text:
        table_id = await self._storage.open_table_in(channel_id)
        row = (await self._tables.load(table_id)).row if table_id is not None else None
        if row is not None and row.status == "lobby":
            return plural("A lobby is already open in this channel: join it, or ask its host to start or cancel it. "
                          "A lobby nobody starts within {count} minute makes way for the next table.",
                          "A lobby is already open in this channel: join it, or ask its host to start or cancel it. "
                          "A lobby nobody starts within {count} minutes makes way for the next table.",
                          LOBBY_WAIT_SECONDS // 60)
        return say("A table is already open in this channel. Finish it, or ask the host (or someone with "
                   "Manage Server) to end it with `/table end`, before starting another.")

    async def _change(self, table_id: int, by: Player, change: Callable[[LiveTable], list[SeatRow]]) -> TableSnapshot:
        """Replace a lobby's seats with what ``change`` returns, and show the lobby (``by``: who asks)."""
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            by.require_at(live.row)
            _require_lobby(live.row)
            seats = change(live)
            await self._storage.set_seats(table_id, seats)
            live.row.seats = seats
            snap = live.snapshot()
        self._publishing.show(snap)
        return snap

    async def join(self, table_id: int, player: Player) -> TableSnapshot:
        def add(live: LiveTable) -> list[SeatRow]:
            row = live.row
            if row.seat_of(player.user_id):
                raise UserError(say("You're already at this table."))
            _require_free_seat(row)
            return [*row.seats, SeatRow(len(row.seats), player.user_id, player.name, False)]

        return await self._change(table_id, player, add)

    async def leave(self, table_id: int, player: Player) -> TableSnapshot:
        def remove(live: LiveTable) -> list[SeatRow]:
            row = live.row
            if row.seat_of(player.user_id) is None:
                raise UserError(say("You're not at this table."))
            if player.user_id == row.host_id:
                raise UserError(say("You're the host: use Cancel to close the table instead."))
            return _renumber([s for s in row.seats if s.user_id != player.user_id])

        return await self._change(table_id, player, remove)

    async def ai_level_choice(self, table_id: int, by: Player) -> str:
        """The level offered first when ``by`` adds an AI (the server's default); refuses,
        changing nothing, whoever may not add one now (not the host, a full or closed table)."""
        row = (await self._tables.load(table_id)).row
        by.require_at(row)
        _require_lobby(row)
        _check_add_ai(row, by)
        return await server_ai_level(self._storage, row.guild_id)

    async def set_default_ai_level(self, guild_id: int, level: str) -> None:
        await self._storage.set_guild_settings(guild_id, ai_level=checked_level(level))

    async def add_ai(self, table_id: int, by: Player, level: str | None = None) -> TableSnapshot:
        """Seat an AI playing at ``level`` (default: the server's), named "AI <n>" (shown "🤖 AI <n>")."""
        if level is None:
            row = (await self._tables.load(table_id)).row
            by.require_at(row)
            level = await server_ai_level(self._storage, row.guild_id)
        level = checked_level(level)

        def add(live: LiveTable) -> list[SeatRow]:
            row = live.row
            _check_add_ai(row, by)
            number = sum(1 for s in row.seats if s.is_ai) + 1
            return [*row.seats, SeatRow(len(row.seats), None, f"AI {number}", True, ai_level=level)]

        return await self._change(table_id, by, add)

    async def remove_ai(self, table_id: int, by: Player) -> TableSnapshot:
        def remove(live: LiveTable) -> list[SeatRow]:
            row = live.row
            if by.user_id != row.host_id:
                raise UserError(say("Only the host can remove AI players."))
            ai = [s for s in row.seats if s.is_ai]
            if not ai:
                raise UserError(say("There is no AI player to remove."))
            return _renumber([s for s in row.seats if s is not ai[-1]])

        return await self._change(table_id, by, remove)

    async def switch_side(self, table_id: int, player: Player) -> TableSnapshot:
        """Swap seats with the player opposite, for games played in sides (QUASH: RED against BLACK)."""

        def swap(live: LiveTable) -> list[SeatRow]:
            row = live.row
            seat = row.seat_of(player.user_id)
            if seat is None:
                raise UserError(say("You're not at this table."))
            game = games.get_game(row.game_id)
            if not game.sides:
                raise UserError(say("{game} isn't played in sides.", game=game.name))
            other = _seat_opposite(game, seat.seat, len(row.seats))
            if other is None:
                raise UserError(say("Nobody sits opposite you yet: wait for another player or add an AI first."))
            seats = list(row.seats)
            seats[seat.seat], seats[other] = seats[other], seats[seat.seat]
            return _renumber(seats)

        return await self._change(table_id, player, swap)

    async def cancel(self, table_id: int, by: Player, *, is_admin: bool = False) -> TableSnapshot:
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            by.require_at(live.row)
            _require_lobby(live.row)
            if by.user_id != live.row.host_id and not is_admin:
                raise UserError(say("Only the host (or someone with Manage Server) can cancel this table."))
            snap = await self._cancel_locked(live)
        self._publishing.show(snap)
        return snap

    async def _cancel_locked(self, live: LiveTable) -> TableSnapshot:
        await self._storage.update_table(live.row.id, status="cancelled", finished_at=self._clock())
        live.row.status = "cancelled"
        self._tables.forget(live.row.id)
        return live.snapshot()

    async def start(self, table_id: int, by: Player) -> TableSnapshot:
        async with self._tables.lock(table_id):
            live = await self._tables.load(table_id)
            row = live.row
            by.require_at(row)
            _require_lobby(row)
            if by.user_id != row.host_id:
                raise UserError(say("Only the host can start the game."))
            game = games.get_game(row.game_id)
            counts = game.allowed_player_counts()
            if len(row.seats) not in counts:
                raise UserError(say("{game} needs {counts} players; this table has {seated}. Invite more people or "
                                    "add an AI player.",
                                    game=game.name, counts=count_text(counts), seated=len(row.seats)))
            try:
                state = game.new_game(len(row.seats), engine_options(row.options), row.seed)
            except GameError as exc:
                raise UserError(exc.text) from None
            begins = say("The game begins: {players}.", players=[Seat(s.seat) for s in row.seats])
            lines: list[EventLine] = [begins.to_json()]
            lines += event_lines(state.opening_events(), None)[0]
            now = self._clock()
            update = update_after(row, state, lines, now)
            if not await self._storage.start_table(
                table_id, expected_version=row.version, seats=row.seats, update=update, now=now
            ):
                self._tables.forget(table_id)
                raise StaleControl(say("This table changed meanwhile; please try again."))
            self._tables.apply_update(live, state, update, row.version + 1)
            row.started_at = now
            snap = live.snapshot()
        self._autoplay.follow(snap)
        return snap


def checked_timer(minutes: object) -> int:
    """``minutes`` if it is a valid turn timer (0 turns it off); :class:`UserError` otherwise."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= MAX_TIMER_MINUTES:
        raise UserError(plural("The turn timer must be 0 (off) to {count} minute.",
                               "The turn timer must be 0 (off) to {count} minutes.", MAX_TIMER_MINUTES))
    return minutes


def _require_lobby(row: TableRow) -> None:
    if row.status == "running":
        raise UserError(say("This game has already started."))
    if row.status != "lobby":
        raise UserError(say("This table is closed."))


def checked_options(game_id: str, options: dict[str, Any], players: int | None = None) -> dict[str, Any]:
    """``options`` with the game's defaults filled in; :class:`UserError` saying what is wrong
    if the game refuses them (e.g. an option of another variant, or for ``players`` if known)."""
    game_options, table_options = split_options(options)
    try:
        return {**games.get_game(game_id).normalize_options(game_options, players), **table_options}
    except GameError as exc:
        raise UserError(exc.text) from None


def checked_level(level: object) -> str:
    """``level`` if it is an AI level; :class:`UserError` otherwise."""
    if level not in LEVELS:
        raise UserError(say("The AI level must be one of: {levels}.", levels=", ".join(LEVELS)))
    return str(level)


def _check_add_ai(row: TableRow, by: Player) -> None:
    if by.user_id != row.host_id:
        raise UserError(say("Only the host can add AI players."))
    _require_free_seat(row)


def _require_free_seat(row: TableRow) -> None:
    game = games.get_game(row.game_id)
    if len(row.seats) >= game.max_players:
        raise UserError(plural("This table is full ({count} player).", "This table is full ({count} players).",
                               game.max_players))


def _seat_opposite(game: Game, seat: int, players: int) -> int | None:
    """The seat in the same place on the next side (the game's teams), if someone sits there."""
    teams = game.teams(players)
    side = next(i for i, team in enumerate(teams) if seat in team)
    place = teams[side].index(seat)
    across = teams[(side + 1) % len(teams)]
    return across[place] if place < len(across) else None


def _renumber(seats: list[SeatRow]) -> list[SeatRow]:
    return [SeatRow(i, s.user_id, s.name, s.is_ai, s.missed_turns, s.ai_level) for i, s in enumerate(seats)]
