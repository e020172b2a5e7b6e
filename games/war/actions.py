"""War moves: ``attack`` a card with one of yours, ``recover`` a tapped card, ``draw``.

Encoding (``Action.code()``, also the JSON args): cards are named by their codes,
never by field slots, so an action means the same thing whatever the slot
order is and a stale button can never hit a different card:

- ``attack:9S,JH``: your untapped 9♠ attacks J♥ (the card says whose field it is in);
- ``recover:9S``: untap your 9♠;
- ``draw``: your deck's top card into your field.

The longest code is ``attack:10S,10H`` (14 characters). Every legal action is a
prebuilt constant, so listing moves allocates nothing but the list itself.
"""

from __future__ import annotations

from ..base import Action
from ..cards import CODE, card_id_reader, shown_arg
from ..errors import MalformedAction
from .options import NAME

card_id = card_id_reader(NAME)
"""The id of a card or code; a joker is refused with a War message ("{NAME} is played without jokers")."""

KINDS = ("attack", "recover", "draw")


class WarAction(Action):
    """An :class:`Action` whose ``str()`` reads well: ``attack J♥ with 9♠``, ``recover 9♠``, ``draw``."""

    __slots__ = ()

    def __str__(self) -> str:
        if self.kind == "attack" and len(self.args) == 2:
            return f"attack {shown_arg(self.args[1])} with {shown_arg(self.args[0])}"
        if self.kind == "recover" and len(self.args) == 1:
            return "recover " + shown_arg(self.args[0])
        return super().__str__()


DRAW = WarAction("draw")
RECOVER: tuple[WarAction, ...] = tuple(WarAction("recover", (code,)) for code in CODE)
"""``RECOVER[c]`` untaps card id ``c``."""
ATTACK: tuple[tuple[WarAction, ...], ...] = tuple(
    tuple(WarAction("attack", (a, t)) for t in CODE) for a in CODE
)
"""``ATTACK[a][t]``: card id ``a`` attacks card id ``t``."""

PARSED: dict[Action, tuple[int, int, int]] = {DRAW: (2, -1, -1)}
"""Every prebuilt action (and any action equal to one) → (kind: 0 attack, 1 recover,
2 draw; first card id; target card id), so ``apply`` parses a move with one lookup."""
PARSED.update({ATTACK[a][t]: (0, a, t) for a in range(len(CODE)) for t in range(len(CODE))})
PARSED.update({RECOVER[c]: (1, c, -1) for c in range(len(CODE))})

_ATTACK_IDS: dict[tuple, tuple[int, int]] = {
    ATTACK[a][t].args: (a, t) for a in range(len(CODE)) for t in range(len(CODE))
}
_RECOVER_IDS: dict[tuple, int] = {RECOVER[c].args: c for c in range(len(CODE))}


def _hashable(args: tuple) -> bool:
    try:
        hash(args)
    except TypeError:
        return False
    return True


def _card(arg: object, what: str) -> int:
    if not isinstance(arg, str):
        raise MalformedAction(f"{arg!r} is not a card code (expected {what}, e.g. 9S or 10H)")
    return card_id(arg)


def attack_args(args: tuple) -> tuple[int, int]:
    """(attacker id, target id) of an ``attack``; codes are case-insensitive."""
    found = _ATTACK_IDS.get(args) if _hashable(args) else None
    if found is not None:
        return found
    if len(args) != 2:
        raise MalformedAction(
            f"attack takes your card and the target card, e.g. attack:9S,JH (got {len(args)} arguments)"
        )
    return _card(args[0], "your attacking card"), _card(args[1], "the card to attack")


def recover_arg(args: tuple) -> int:
    """The card id of a ``recover``."""
    found = _RECOVER_IDS.get(args) if _hashable(args) else None
    if found is not None:
        return found
    if len(args) != 1:
        raise MalformedAction(f"recover takes exactly one card, e.g. recover:9S (got {len(args)} arguments)")
    return _card(args[0], "your tapped card")
