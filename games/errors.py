"""The error hierarchy every engine raises.

Messages are written for players: they name the input and say what is wrong, as words
not yet in any language (a :class:`~games.i18n.Text`), so the Discord layer shows them in
the reader's language; ``str(error)`` is the English sentence.
"""

from __future__ import annotations

from .i18n import Text


class GameError(ValueError):
    """Base of every rules error. Raising one never changes the state."""

    def __init__(self, text: Text) -> None:
        super().__init__(text)
        self.text = text
        """What is wrong, in words for the player (``text.render(language)``)."""

    def __str__(self) -> str:
        return str(self.text)


class MalformedAction(GameError):
    """The action (or option, or card code) is not well formed at all."""


class IllegalAction(GameError):
    """A well-formed action the rules do not allow now."""


class NotYourTurn(IllegalAction):
    """The seat is not among those who may act now."""


class GameFinished(IllegalAction):
    """The game is over; nothing more can be played."""
