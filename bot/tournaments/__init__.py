"""Tournaments run end to end: sign-up, check-in, Swiss rounds across many tables, standings.

The layers: ``records`` (the rows), ``store`` (every query, for both backends), ``scoring``
(stored rows as :mod:`games.tournament` sees them: results, standings, pairing) and ``service``
(:class:`Tournaments`: the transitions, the round machine and timed transitions). The Discord
layer shows tournaments through a :class:`TournamentPublisher` (``cogs/tournaments``).
"""

from .records import EntrantRow, RoundTableRow, TableResult, TournamentRow
from .service import NO_SUCH_TOURNAMENT, TournamentPublisher, Tournaments, TournamentView

__all__ = ["NO_SUCH_TOURNAMENT", "EntrantRow", "RoundTableRow", "TableResult", "TournamentPublisher",
           "TournamentRow", "TournamentView", "Tournaments"]
