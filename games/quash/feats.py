"""QUASH's feats (:mod:`games.feats`): a round the opponents win no spot of, a comeback, and a
match won on a tiebreaker."""

from __future__ import annotations

from collections.abc import Iterator

from ..feats import Feat, Played
from ..i18n import say
from .rules import SPOTS
from .scoring import SIDES
from .state import QuashState

COMEBACK = 5
"""How far behind on the track a side must have been for the "Comeback" feat."""


def rounds_scored(played: Played) -> Iterator[list[int]]:
    """Each round scored to its end: the side (0 RED, 1 BLACK, -1 nobody) that won each spot."""
    shown = None
    for step in played.replay():
        last = step.state.last_round
        if last is not None and last is not shown:
            shown = last
            yield [SIDES.index(spot["winner"]) if spot["winner"] else -1 for spot in last["spots"]]
    final: QuashState = played.final
    if len(final.results) == SPOTS:  # the match ended on the round's last spot
        yield [result["winner"] for result in final.results]


def shutout(played: Played, seat: int) -> bool:
    """The other side won no spot of a round scored to its end."""
    other = 1 - seat % 2
    return any(other not in winners for winners in rounds_scored(played))


def comeback(played: Played, seat: int) -> bool:
    """``seat``'s side won after trailing by :data:`COMEBACK` points or more."""
    if not played.won(seat):
        return False
    side = seat % 2
    return any(state.track[1 - side] - state.track[side] >= COMEBACK for state in played.states())


def sudden_death(played: Played, seat: int) -> bool:
    """``seat``'s side reached the finish on a spot it won by a tiebreaker."""
    final: QuashState = played.final
    return played.won(seat) and bool(final.results) and final.results[-1]["how"] == "tiebreak"


FEATS = (
    Feat("shutout", say("Shutout"), say("Score a whole round in which your opponents win no spot."), shutout),
    Feat("comeback", say("Comeback"), say("Win a match after trailing by {points} points or more.", points=COMEBACK),
         comeback),
    Feat("sudden-death", say("Sudden death"), say("Win the match on a spot won by a tiebreaker."), sudden_death,
         secret=True),
)
