"""The error hierarchy every engine raises.

Messages are written for players: they name the input and say what is wrong,
so the Discord layer can show them as they are.
"""


class GameError(ValueError):
    """Base of every rules error. Raising one never changes the state."""


class MalformedAction(GameError):
    """The action (or option, or card code) is not well formed at all."""


class IllegalAction(GameError):
    """A well-formed action the rules do not allow now."""


class NotYourTurn(IllegalAction):
    """The seat is not among those who may act now."""


class GameFinished(IllegalAction):
    """The game is over; nothing more can be played."""
