"""Tournaments run end to end: sign-up, check-in, Swiss rounds across many tables, standings.

The layers: ``records`` (the rows), ``store`` (every query, for both backends), ``scoring``
(stored rows as :mod:`games.tournament` sees them: results, standings, pairing), ``rounds`` (the
round machine's steps), ``service`` (:class:`Tournaments`: sign-up, host controls, timed
transitions, locks). The Discord layer shows tournaments through a :class:`TournamentPublisher`
(``publishing``; implemented in ``cogs/tournaments``).
"""

from .publishing import TournamentPublisher, TournamentView
from .records import EntrantRow, RoundTableRow, TableResult, TournamentRow
from .service import NO_SUCH_TOURNAMENT, Tournaments

__all__ = ["NO_SUCH_TOURNAMENT", "EntrantRow", "RoundTableRow", "TableResult", "TournamentPublisher",
           "TournamentRow", "TournamentView", "Tournaments"]
