"""A finished tournament's podium: the "Tournament podium" achievement of the people placed in its top three.

Stored in the transaction that finishes the tournament (:meth:`.rounds.Rounds.advance`), quietly:
the tournament message crowns them. Both people of a team hold it. The recomputation
(``python -m bot achievements --recompute``) reads every finished tournament again
(:func:`podiums`), so it keeps them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..achievements import Unlock, placing_unlocks
from ..storage import Session, Storage
from ..unlocks import unlock_podium
from . import store
from .placings import final_places
from .records import EntrantRow, RoundTableRow, TableResult, TournamentRow


def podium(t: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[RoundTableRow],
           recorded: Sequence[TableResult], at: float) -> list[Unlock]:
    """What finishing ``t`` at ``at`` unlocks: each person's place in the final placings, if on the podium."""
    places = final_places(t, entrants, tables, recorded)
    return [u for e in entrants if e.entrant in places for user in e.people
            for u in placing_unlocks(t.guild_id, user, [(places[e.entrant], at)])]


async def finish(db: Session, t: TournamentRow, at: float, won: list[Unlock]) -> None:
    """The transition that finishes ``t`` at ``at``, storing its podium's unlocks ``won``."""
    await store.bump(db, t, status="finished", deadline=None, finished_at=at)
    await unlock_podium(db, won)


async def podiums(storage: Storage) -> list[Unlock]:
    """Every finished tournament's podium, as stored, the earliest first (for the recomputation)."""

    async def read(db: Session) -> list[Unlock]:
        ids = [r[0] for r in await db.fetch(
            "SELECT id FROM tournaments WHERE status = 'finished' ORDER BY finished_at, id")]
        found = []
        for tournament_id in ids:
            t = await store.tournament(db, tournament_id)
            assert t is not None
            found += podium(t, await store.entrants(db, t.id), await store.round_tables(db, t.id),
                            await store.results(db, t.id), t.finished_at or 0.0)
        return found

    return await storage.run_read(read)
