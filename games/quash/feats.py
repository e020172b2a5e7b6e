"""QUASH's feats (:mod:`games.feats`): a round the opponents win no spot of, a comeback, and a
match won on a tiebreaker."""

from __future__ import annotations

from dataclasses import dataclass

from ..feats import Feat, Played
from ..i18n import plural, say
from .rules import SPOTS
from .scoring import SIDES
from .state import QuashState

COMEBACK = 5
"""How far behind on the track a side must have been for the "Comeback" feat."""


@dataclass(frozen=True)
class Course:
    """What one replay of a QUASH match tells its feats."""

    rounds: list[list[int]]
    """Each round scored to its end: the side (0 RED, 1 BLACK, -1 nobody) that won each spot."""
    most_behind: list[int]
    """How far each side trailed at worst."""


def course(played: Played) -> Course:
    shown, rounds, behind = None, [], [0, 0]
    for state in played.states():
        track = state.track
        behind = [max(behind[side], track[1 - side] - track[side]) for side in (0, 1)]
        last = state.last_round
        if last is not None and last is not shown:
            shown = last
            rounds.append([SIDES.index(spot["winner"]) if spot["winner"] else -1 for spot in last["spots"]])
    final: QuashState = played.final
    if len(final.results) == SPOTS:  # the match ended on the round's last spot
        rounds.append([result["winner"] for result in final.results])
    return Course(rounds, behind)


def shutout(played: Played, seat: int) -> bool:
    """The other side won no spot of a round scored to its end."""
    other = 1 - seat % 2
    return any(other not in winners for winners in played.summary(course).rounds)


def comeback(played: Played, seat: int) -> bool:
    """``seat``'s side won after trailing by :data:`COMEBACK` points or more."""
    return played.won(seat) and played.summary(course).most_behind[seat % 2] >= COMEBACK


def sudden_death(played: Played, seat: int) -> bool:
    """``seat``'s side reached the finish on a spot it won by a tiebreaker."""
    final: QuashState = played.final
    return played.won(seat) and bool(final.results) and final.results[-1]["how"] == "tiebreak"


FEATS = (
    Feat("shutout", say("Shutout"), say("Score a whole round in which your opponents win no spot."), shutout),
    Feat("comeback", say("Comeback"), plural("Win a match after trailing by {count} point or more.",
                                         "Win a match after trailing by {count} points or more.", COMEBACK),
         comeback),
    Feat("sudden-death", say("Sudden death"), say("Win the match on a spot won by a tiebreaker."), sudden_death,
         secret=True),
)
