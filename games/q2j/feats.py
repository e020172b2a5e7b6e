"""Q2J's feats (:mod:`games.feats`): going out with a Q², a Challenge won from the five-card
hand, and a win after holding many cards."""

from __future__ import annotations

from ..feats import Feat, Played
from ..i18n import say
from .actions import Kind
from .state import Q2JState

WENT_OUT = ("win", "safe")
"""Events of a seat emptying its hand for good (winning, or safe in an elimination match)."""
COMEBACK = 7
"""The hand a winner must once have held for the "Comeback" feat."""


def queens_exit(played: Played, seat: int) -> bool:
    """``seat`` emptied its hand for good with a Q² play."""
    if Kind.QQ not in (action.kind for action in played.moves_of(seat)):
        return False
    return any(step.seat == seat and step.action.kind == Kind.QQ
               and any(e.kind in WENT_OUT and e.seat == seat for e in step.events) for step in played.replay())


def underdog(played: Played, seat: int) -> bool:
    """``seat`` won a Challenge game as the player dealt five cards against one."""
    start: Q2JState = played.start
    return (played.won(seat) and start.variant == "challenge"
            and len(start.hands[seat]) > max(len(hand) for other, hand in enumerate(start.hands) if other != seat))


def comeback(played: Played, seat: int) -> bool:
    """``seat`` won after holding :data:`COMEBACK` cards or more."""
    return played.won(seat) and any(len(state.hands[seat]) >= COMEBACK for state in played.states())


FEATS = (
    Feat("queens-exit", say("Queen's exit"), say("Go out with a Q² play."), queens_exit),
    Feat("underdog", say("Underdog"), say("Win a Challenge game as the player dealt five cards."), underdog),
    Feat("comeback", say("Back from the brink"), say("Win after holding {count} cards or more.", count=COMEBACK),
         comeback, secret=True),
)
