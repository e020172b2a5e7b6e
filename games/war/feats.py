"""War's feats (:mod:`games.feats`): a win losing few cards, aces taking face cards, and a win
with one card left."""

from __future__ import annotations

from ..cards import parse_card
from ..feats import Feat, Played
from ..i18n import say
from .actions import Kind
from .state import WarState

IRON_WALL = 5
"""The most cards a winner may lose for the "Iron wall" feat."""
ACES_OVER_FACES = 3
"""Face cards a player's aces must take in one game for the "Ace over face" feat."""
FACES = ("J", "Q", "K")


def cards_left(state: WarState, seat: int) -> int:
    return len(state.fields[seat]) + len(state.decks[seat])


def iron_wall(played: Played, seat: int) -> bool:
    """``seat`` won having lost at most :data:`IRON_WALL` of the cards it was dealt."""
    return played.won(seat) and cards_left(played.start, seat) - cards_left(played.final, seat) <= IRON_WALL


def ace_over_face(played: Played, seat: int) -> bool:
    """``seat``'s aces attacked :data:`ACES_OVER_FACES` face cards in one game (an ace beats J, Q, K)."""
    taken = sum(1 for action in played.moves_of(seat) if action.kind == Kind.ATTACK
                and parse_card(str(action.args[0])).rank == "A" and parse_card(str(action.args[1])).rank in FACES)
    return taken >= ACES_OVER_FACES


def last_stand(played: Played, seat: int) -> bool:
    """``seat`` won with a single card left."""
    return played.won(seat) and cards_left(played.final, seat) == 1


FEATS = (
    Feat("iron-wall", say("Iron wall"), say("Win having lost no more than {count} of your cards.", count=IRON_WALL),
         iron_wall),
    Feat("ace-over-face", say("Ace over face"),
         say("Take {count} face cards with your aces in one game.", count=ACES_OVER_FACES), ace_over_face),
    Feat("last-stand", say("Last stand"), say("Win with a single card left."), last_stand, secret=True),
)
