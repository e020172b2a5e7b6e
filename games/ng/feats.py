"""NG's feats (:mod:`games.feats`): a win with most stacks standing, a card taken from a hand
attacked blind, and a win with a big resource pile."""

from __future__ import annotations

from ..cards import CODE, parse_card
from ..feats import Feat, Played
from ..i18n import plural, say
from .actions import Kind
from .state import NGState

FORTRESS = 3
"""Field stacks a winner must still have for the "Fortress" feat."""
HOARD = 6
"""Cards in a winner's resource pile for the "Hoarder" feat."""


def fortress(played: Played, seat: int) -> bool:
    """``seat`` won with :data:`FORTRESS` field stacks or more still standing."""
    final: NGState = played.final
    return played.won(seat) and sum(1 for stack in final.fields[seat] if stack) >= FORTRESS


def hoarder(played: Played, seat: int) -> bool:
    """``seat`` won with :data:`HOARD` cards or more in its resource pile."""
    final: NGState = played.final
    return played.won(seat) and len(final.resources[seat]) >= HOARD


def blind_strike(played: Played, seat: int) -> bool:
    """An attack of ``seat``'s on a card in an opponent's hand won: the attacker went to its resource pile."""
    tried = any(action.kind == Kind.ATTACK and action.args[1] == "hand" for action in played.moves_of(seat))
    return tried and seat in played.summary(blind_strikers)


def blind_strikers(played: Played) -> set[int]:
    """The seats whose attack on a hand won, in one replay."""
    found = set()
    for step in played.replay():
        action = step.action
        if action.kind == Kind.ATTACK and action.args[1] == "hand":
            state: NGState = step.state
            pile = state.resources[step.seat]
            if pile and CODE[pile[-1]] == parse_card(str(action.args[0])).code:
                found.add(step.seat)
    return found


FEATS = (
    Feat("fortress", say("Fortress"), say("Win with {count} field stacks or more still standing.", count=FORTRESS),
         fortress),
    Feat("blind-strike", say("Blind strike"), say("Take a card from an opponent's hand with a blind attack."),
         blind_strike),
    Feat("hoarder", say("Hoarder"), plural("Win with {count} card or more in your resource pile.",
                               "Win with {count} cards or more in your resource pile.", HOARD), hoarder,
         secret=True),
)
