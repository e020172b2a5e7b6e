"""Queen of Spades' feats (:mod:`games.feats`): going out in one turn, a round of 400 points,
and the dealer's perfect cut. The rounds' records (``history``) say most of it."""

from __future__ import annotations

from ..feats import Feat, Played
from ..i18n import plural, say
from .state import QoSState

BIG_ROUND = 400
"""The round score the "Big round" feat asks for."""


def rounds(played: Played) -> list[dict]:
    final: QoSState = played.final
    return final.history


def out_in_one(played: Played, seat: int) -> bool:
    """``seat`` went out in a turn it began with no set laid this round: the whole hand in one turn."""
    went_out = any(record["out"] == seat and record["end"] == "out" for record in rounds(played))
    return went_out and seat in played.summary(out_in_one_turn)


def out_in_one_turn(played: Played) -> set[int]:
    """The seats that went out in a turn begun with no set laid, in one replay."""
    start: QoSState = played.start
    laid = [len(sets) for sets in start.sets]
    from_nothing = [False] * len(laid)
    found = set()
    for step in played.replay():
        state: QoSState = step.state
        if step.action.kind == "take":
            from_nothing[step.seat] = laid[step.seat] == 0  # the sets laid before this turn's first move
        if from_nothing[step.seat] and any(e.kind == "out" and e.seat == step.seat for e in step.events):
            found.add(step.seat)
        laid = [len(sets) for sets in state.sets]
    return found


def big_round(played: Played, seat: int) -> bool:
    """``seat`` scored at least :data:`BIG_ROUND` in one round."""
    return any(record["rows"][seat]["round"] >= BIG_ROUND for record in rounds(played))


def perfect_cut(played: Played, seat: int) -> bool:
    """``seat``, dealing, cut exactly a perfect cut (the dealer's 100)."""
    return any(record["dealer"] == seat and (record["cut"] or {}).get("bonus") for record in rounds(played))


FEATS = (
    Feat("out-in-one", say("Out in one"), say("Go out in a single turn, laying your whole hand at once."),
         out_in_one),
    Feat("big-round", say("Big round"), plural("Score {count} point or more in one round.",
                                       "Score {count} points or more in one round.", BIG_ROUND),
         big_round),
    Feat("perfect-cut", say("Perfect cut"), say("Cut the deck perfectly as the dealer and score the 100."),
         perfect_cut, secret=True),
)
