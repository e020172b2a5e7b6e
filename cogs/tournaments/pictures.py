"""The picture on a tournament message, chosen for its stage and drawn off the event loop.

The standings during the Swiss rounds, the bracket during a knockout, the crown over the final
standings at the end (:mod:`bot.pictures.tournament`), each drawn once for what it shows. The
message's text board says the same (:func:`.message.picture_board`), for screen readers and
for servers with pictures off."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import partial

from bot.pictures.tournament import (
    bracket_canvas,
    crown_canvas,
    placing_lines,
    standing_lines,
    standings_canvas,
)
from bot.tournaments import TournamentView
from games.i18n import say
from games.pictures.canvas import Canvas

from ..attachments import Picture, cached
from .message import STAGE_WORDS, round_title, title


def draws(view: TournamentView) -> bool:
    """Whether the message has a picture now: once there are standings, a bracket or placings,
    until the tournament is cancelled."""
    row = view.row
    if row.status == "finished":
        return bool(view.placings or view.standings)
    return row.status == "running" and (view.rounds_left is not None or bool(view.standings))


def tournament_canvas(view: TournamentView, language: str) -> partial[Canvas]:
    """How to draw the picture (for a view that :func:`draws`), as a call whose arguments are
    all it shows: the key it is kept under, since a result can change the standings without
    a new version of the tournament."""
    row = view.row

    def name_of(entrant: int) -> str:
        return view.entrant(entrant).label

    heading = title(row, language)
    if row.status == "finished":
        lines = placing_lines(view.placings, name_of) if view.bracket is not None or not view.standings else \
            standing_lines(view.standings, name_of, language)
        winner = name_of(view.placings[0][0]) if view.placings else lines[0].name
        return partial(crown_canvas, heading, winner, say("Final standings").render(language), tuple(lines), language)
    if view.rounds_left is not None:
        assert view.bracket is not None  # a knockout round is counted from its bracket
        detail = f"{STAGE_WORDS['knockout'].render(language)} · {round_title(view).render(language)}"
        names = {e.entrant: e.label for e in view.entrants}
        return partial(bracket_canvas, heading, detail, view.bracket_tables, view.bracket.advance,
                       Names(tuple(names.items())), language)
    return partial(standings_canvas, heading, round_title(view).render(language),
                   tuple(standing_lines(view.standings, name_of, language)), language)


@dataclass(frozen=True)
class Names:
    """Entrants' names as a hashable call (the bracket's ``name_of``)."""

    pairs: tuple[tuple[int, str], ...]

    def __call__(self, entrant: int) -> str:
        return dict(self.pairs)[entrant]


async def tournament_picture(view: TournamentView, language: str) -> Picture | None:
    """The message's picture in ``language`` (None when it has none now), drawn in a worker thread."""
    if not draws(view):
        return None
    row = view.row
    draw = tournament_canvas(view, language)
    png = await asyncio.to_thread(cached, ("tournament", row.id, draw.func, draw.args), lambda: draw().png())
    return Picture(f"tournament-{row.id}-{row.version}.png", png)
