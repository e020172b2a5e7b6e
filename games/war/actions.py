"""War moves: ``attack`` a card with one of yours, ``recover`` a tapped card, ``draw``.

Encoding (``Action.code()``, also the JSON args): cards are named by their codes,
never by field slots, so an action means the same thing whatever the slot
order is and a stale button can never hit a different card:

- ``attack:9S,JH``: your untapped 9♠ attacks J♥ (the card says whose field it is in);
- ``recover:9S``: untap your 9♠;
- ``draw``: your deck's top card into your field.

The longest code is ``attack:10S,10H`` (14 characters). Every legal action is a
prebuilt constant, so listing moves allocates nothing but the list itself, and
:func:`parse` reads one with a single lookup.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from ..base import Action, action_parts, prebuilt
from ..cards import CODE, card_id_reader, shown_card
from ..errors import MalformedAction
from ..i18n import Text, say
from .options import NAME

card_id = card_id_reader(NAME)
"""The id of a card or code; a joker is refused with a War message ("{NAME} is played without jokers")."""


class Kind(StrEnum):
    """War's moves, named as in action codes."""

    ATTACK = "attack"
    RECOVER = "recover"
    DRAW = "draw"


class Move(NamedTuple):
    """A parsed move: its kind, the card it moves (``-1`` for a draw) and the attacked card (``-1``)."""

    kind: Kind
    card: int = -1
    target: int = -1


class WarAction(Action):
    """An :class:`Action` worded for players: ``attack J♥ with 9♠``, ``recover 9♠``, ``draw``."""

    __slots__ = ()

    def words(self) -> Text:
        if self.kind == "attack" and len(self.args) == 2:
            return say("attack {target} with {card}", target=shown_card(self.args[1]), card=shown_card(self.args[0]))
        if self.kind == "recover" and len(self.args) == 1:
            return say("recover {card}", card=shown_card(self.args[0]))
        if self.kind == "draw" and not self.args:
            return say("draw")
        return super().words()


DRAW = WarAction("draw")
RECOVER: tuple[WarAction, ...] = tuple(WarAction("recover", (code,)) for code in CODE)
"""``RECOVER[c]`` untaps card id ``c``."""
ATTACK: tuple[tuple[WarAction, ...], ...] = tuple(
    tuple(WarAction("attack", (a, t)) for t in CODE) for a in CODE
)
"""``ATTACK[a][t]``: card id ``a`` attacks card id ``t``."""

PARSED: dict[Action, Move] = {DRAW: Move(Kind.DRAW)}
"""Every prebuilt action (and any action equal to one) → its :class:`Move`."""
PARSED.update({ATTACK[a][t]: Move(Kind.ATTACK, a, t) for a in range(len(CODE)) for t in range(len(CODE))})
PARSED.update({RECOVER[c]: Move(Kind.RECOVER, c) for c in range(len(CODE))})


def _card(arg: object, what: Text) -> int:
    if not isinstance(arg, str):
        raise MalformedAction(say("{arg} is not a card code (expected {what}, e.g. 9S or 10H)", arg=repr(arg),
                                  what=what))
    return card_id(arg)


def parse(action: Any) -> Move:
    """The move ``action`` names (codes are case-insensitive); only its form is checked,
    legality is the state's. Anything else raises :class:`MalformedAction`."""
    found = prebuilt(PARSED, action)
    if found is not None:
        return found
    kind, args = action_parts(action, say("a War move"))
    if kind == Kind.ATTACK:
        if len(args) != 2:
            raise MalformedAction(say("attack takes your card and the target card, e.g. attack:9S,JH "
                                      "(got {count} arguments)", count=len(args)))
        return Move(Kind.ATTACK, _card(args[0], say("your attacking card")), _card(args[1], say("the card to attack")))
    if kind == Kind.RECOVER:
        if len(args) != 1:
            raise MalformedAction(say("recover takes exactly one card, e.g. recover:9S (got {count} arguments)",
                                      count=len(args)))
        return Move(Kind.RECOVER, _card(args[0], say("your tapped card")))
    if kind == Kind.DRAW:
        raise MalformedAction(say("draw takes no arguments"))
    raise MalformedAction(say("Unknown move {kind}; War moves are attack, recover and draw", kind=repr(kind)))
