"""Where people finished in tournaments: the final places of a finished one, and a person's places for ``/stats``.

Computed from the stored rows every time, as the standings are (:func:`.scoring.scores`): a
place is the entrant's group's in the final placings, those sharing a place counting once (1, 2,
3, 3, 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..storage import Session, Storage
from . import store
from .records import EntrantRow, RoundTableRow, TableResult, TournamentRow
from .scoring import scores


@dataclass(frozen=True)
class Placing:
    """A person's finish in one of a server's finished tournaments: their ``place`` among ``entrants``."""

    tournament_id: int
    game_id: str
    place: int
    entrants: int
    finished_at: float


def final_places(t: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[RoundTableRow],
                 recorded: Sequence[TableResult]) -> dict[int, int]:
    """Each placed entrant's final place in ``t`` (computed as if it were finished)."""
    places, place = {}, 1
    for group in scores(replace(t, status="finished"), entrants, tables, recorded).placings:
        places.update(dict.fromkeys(group, place))
        place += len(group)
    return places


async def placings_of(storage: Storage, guild_id: int, user_id: int) -> list[Placing]:
    """The person's places in the server's finished tournaments, the latest first (a team's place is
    both partners')."""

    async def read(db: Session) -> list[Placing]:
        rows = await db.fetch(
            "SELECT t.id, e.entrant FROM tournaments t JOIN tournament_entrants e ON e.tournament_id = t.id"
            " WHERE t.guild_id = ? AND t.status = 'finished' AND (e.user_id = ? OR e.partner_id = ?)"
            " ORDER BY t.finished_at DESC, t.id DESC", (guild_id, user_id, user_id))
        found = []
        for tournament_id, entrant in rows:
            t = await store.tournament(db, tournament_id)
            assert t is not None
            entrants = await store.entrants(db, t.id)
            places = final_places(t, entrants, await store.round_tables(db, t.id), await store.results(db, t.id))
            if entrant in places:
                found.append(Placing(t.id, t.game_id, places[entrant], len(places), t.finished_at or 0.0))
        return found

    return await storage.run_read(read)
