"""Q2J's feats (:mod:`games.feats`): going out with a Q², a Challenge won from the five-card
hand, and a win after holding many cards."""

from __future__ import annotations

from dataclasses import dataclass

from ..feats import Feat, Played
from ..i18n import plural, say
from .actions import Kind
from .state import Q2JState

WENT_OUT = ("win", "safe")
"""Events of a seat emptying its hand for good (winning, or safe in an elimination match)."""
COMEBACK = 7
"""The hand a winner must once have held for the "Comeback" feat."""


@dataclass(frozen=True)
class Course:
    """What one replay of a Q2J game tells its feats."""

    most_held: list[int]
    """The most cards each seat held at once."""
    out_with_qq: set[int]
    """The seats that emptied their hand for good with a Q² play."""


def course(played: Played) -> Course:
    start: Q2JState = played.start
    most = [len(hand) for hand in start.hands]
    out: set[int] = set()
    for step in played.replay():
        for seat, hand in enumerate(step.state.hands):
            most[seat] = max(most[seat], len(hand))
        if step.action.kind == Kind.QQ and any(e.kind in WENT_OUT and e.seat == step.seat for e in step.events):
            out.add(step.seat)
    return Course(most, out)


def queens_exit(played: Played, seat: int) -> bool:
    """``seat`` emptied its hand for good with a Q² play."""
    return Kind.QQ in (action.kind for action in played.moves_of(seat)) and seat in played.summary(course).out_with_qq


def underdog(played: Played, seat: int) -> bool:
    """``seat`` won a Challenge game as the player dealt five cards against one."""
    start: Q2JState = played.start
    return (played.won(seat) and start.variant == "challenge"
            and len(start.hands[seat]) > max(len(hand) for other, hand in enumerate(start.hands) if other != seat))


def comeback(played: Played, seat: int) -> bool:
    """``seat`` won after holding :data:`COMEBACK` cards or more."""
    return played.won(seat) and played.summary(course).most_held[seat] >= COMEBACK


FEATS = (
    Feat("queens-exit", say("Queen's exit"), say("Go out with a Q² play."), queens_exit),
    Feat("underdog", say("Underdog"), say("Win a Challenge game as the player dealt five cards."), underdog),
    Feat("comeback", say("Back from the brink"), plural("Win after holding {count} card or more.",
                                                       "Win after holding {count} cards or more.", COMEBACK),
         comeback, secret=True),
)
