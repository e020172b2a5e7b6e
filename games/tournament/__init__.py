"""Tournaments' pure core: pairing, standings with tiebreaks, knockout brackets.

No Discord, asyncio, database or clock: values in, values out, the same every time for the
same input (the tournament's seed only draws lots). It is not a game: it has no ``GAME``,
so the registry passes it by. The layers above store registrations and results, call
these functions, and refuse bad input politely before calling them: a ``ValueError`` here
means the data handed in was inconsistent (a bug), and its message says how.

**Formats.**

- *Swiss, two seats* (and QUASH teams of two, each team one entrant):
  :func:`swiss_pairing`, a maximum weight matching: no rematch while a pairing without one
  exists, at most one bye each while anyone has none (the lowest ranked such entrant gets
  it, and it scores a win), people within their score group, top half against bottom half.
- *Swiss, tables of three or more*: :func:`group_pairing`, by standing top down, then swaps
  that lower repeat opponents; AI seats fill the tables people can't.
- *Knockout*: :class:`Bracket`, standard seeding (1 v 16, 8 v 9, …) with byes to the top
  seeds; at bigger tables the best ``advance`` of each go on. Seeds come from ratings
  (:func:`seed_by_rating`), the lot (:func:`seed_at_random`), or Swiss standings
  (:func:`top_cut`, for Swiss then a knockout of the best four or eight).
- :func:`default_rounds`: Swiss rounds enough to find a winner.

**Points.** At a table of ``n`` seats (AI seats counted), place ``p`` earns
``(n - p) / (n - 1)`` match points, seats tied at a place sharing the mean of the places
they cover: two seats give win 1, draw ½, loss 0; four seats 1, ⅔, ⅓, 0, and places 1, 2,
2, 4 give 1, ½, ½, 0. A bye earns 1. A late joiner has 0 for each round they missed. An AI
seat takes its place but is nobody's opponent: with an AI second at a table of four, the
people placed 1, 3 and 4 earn 1, ⅓ and 0.

**Tiebreaks**, in this order (:mod:`.standings`): Buchholz cut 1 (the mean points of the
people met at each table, a round; the lowest round cut), Sonneborn–Berger, the game's
margin, rating, the drawn lot. A dropped entrant keeps their results, which count in their
opponents' tiebreaks, and is not paired again.

**A worked example.** Five play three rounds at two seats:

- round 1: Ana beats Dee, Ben and Eve draw, Cy has the bye;
- round 2: Ana beats Cy, Dee beats Ben, Eve has the bye;
- round 3: Ana and Eve draw, Cy beats Dee, Ben has the bye.

Points: Ana 2½, Cy 2, Eve 2, Ben 1½, Dee 1. Buchholz takes each round's opponent's points
(a bye 0) and cuts the lowest: Ana met Dee 1, Cy 2, Eve 2, so 5 − 1 = 4; Cy had the bye,
then Ana 2½ and Dee 1: 3½ − 0 = 3½; Eve met Ben 1½, had the bye, met Ana 2½: 4 − 0 = 4.
So Eve is second and Cy third on Buchholz. Sonneborn–Berger adds a beaten opponent's
points and half a drawn one's: Ana 1 + 2 + ½ × 2 = 4, Eve ½ × 1½ + ½ × 2½ = 2, Dee 1½
(she beat Ben), Ben ½ × 2 = 1, Cy 1. Standings: Ana, Eve, Cy, Ben, Dee
(``tests/test_tournament_standings.py`` checks these figures).
"""

from .bracket import Bracket, BracketTable, seed_at_random, seed_by_rating, top_cut
from .groups import group_pairing
from .pairing import Pairing, Table, default_rounds
from .results import Entrant, Finish, Result
from .standings import Standing, lot, standings
from .swiss import swiss_pairing

__all__ = [
    "Bracket", "BracketTable", "Entrant", "Finish", "Pairing", "Result", "Standing", "Table",
    "default_rounds", "group_pairing", "lot", "seed_at_random", "seed_by_rating", "standings",
    "swiss_pairing", "top_cut",
]
