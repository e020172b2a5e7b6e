"""The order in which lobby and table changes reach Discord.

The service shows each change from a background task. Two edits of one message sent at
once may reach Discord in either order, so the message must end on the newest state,
even when an earlier edit is slow (a busy Discord, a rate limit).
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bot.service.publishing import Publishing
from bot.service.tasks import BackgroundTasks


def snapshot(status: str, seats: int, version: int = 0) -> SimpleNamespace:
    """What publishing reads of a table snapshot (and what the recording below keeps)."""
    return SimpleNamespace(row=SimpleNamespace(id=1, version=version, status=status, seats=seats))


class SlowFirstEdit:
    """A publisher whose first edit waits until released, as a slow request does."""

    def __init__(self) -> None:
        self.shown: list[tuple[str, int]] = []
        self.statuses: list[str] = []
        self.release = asyncio.Event()
        self._first = True

    async def _edit(self, kind: str, table: SimpleNamespace) -> None:
        if self._first:
            self._first = False
            await self.release.wait()
        self.shown.append((kind, table.row.seats))
        self.statuses.append(table.row.status)

    async def lobby_changed(self, table: SimpleNamespace) -> None:
        await self._edit("lobby", table)

    async def table_changed(self, table: SimpleNamespace) -> None:
        await self._edit("table", table)

    async def remind(self, table: SimpleNamespace, seats: list, seconds_left: float) -> None:
        self.shown.append(("reminder", table.row.version))


async def publishing_with_slow_first_edit() -> tuple[Publishing, SlowFirstEdit, BackgroundTasks]:
    tasks = BackgroundTasks()
    publishing = Publishing(tasks)
    publishing.publisher = publisher = SlowFirstEdit()
    return publishing, publisher, tasks


async def settle(tasks: BackgroundTasks, publisher: SlowFirstEdit) -> None:
    await asyncio.sleep(0.01)  # every task has started: the first edit is still on its way
    publisher.release.set()
    await tasks.wait_idle(5, lambda: ())


async def test_a_slow_lobby_edit_never_ends_on_an_older_seat_list():
    publishing, publisher, tasks = await publishing_with_slow_first_edit()
    publishing.show_lobby(snapshot("lobby", 1))
    await asyncio.sleep(0.01)  # its edit is on its way, slowly
    for seats in (2, 3):  # two more joins meanwhile
        publishing.show_lobby(snapshot("lobby", seats))
    await settle(tasks, publisher)
    assert publisher.shown == [("lobby", 1), ("lobby", 3)]  # 2 is skipped: 3 already followed it
    assert publishing.tables_held() == 0


async def test_a_slow_lobby_edit_never_covers_the_game_that_started():
    publishing, publisher, tasks = await publishing_with_slow_first_edit()
    publishing.show_lobby(snapshot("lobby", 2))
    await asyncio.sleep(0.01)
    publishing.show_table_later(snapshot("running", 2, version=1))
    await settle(tasks, publisher)
    assert publisher.shown == [("lobby", 2), ("table", 2)]


async def test_a_cancelled_lobby_is_the_last_thing_shown():
    publishing, publisher, tasks = await publishing_with_slow_first_edit()
    publishing.show_lobby(snapshot("lobby", 1))
    await asyncio.sleep(0.01)
    publishing.show_lobby(snapshot("lobby", 2))
    publishing.show_lobby(snapshot("cancelled", 2))
    await settle(tasks, publisher)
    assert publisher.statuses == ["lobby", "cancelled"]
    assert publishing.tables_held() == 0


async def test_a_reminder_waits_for_the_turn_being_shown_and_is_dropped_once_the_turn_was_played():
    publishing, publisher, tasks = await publishing_with_slow_first_edit()
    publishing.show_table_later(snapshot("running", 2, version=3))
    await asyncio.sleep(0.01)  # the turn's edit (and ping) is on its way
    reminder = asyncio.ensure_future(publishing.remind(snapshot("running", 2, version=3), [], 60.0))
    await settle(tasks, publisher)
    await reminder
    assert publisher.shown == [("table", 2), ("reminder", 3)]
    publishing.show_table_later(snapshot("running", 2, version=4))  # the player moved
    await tasks.wait_idle(5, lambda: ())
    await publishing.remind(snapshot("running", 2, version=3), [], 30.0)  # a reminder from before the move
    assert publisher.shown[-1] == ("table", 2)
