"""Errors whose message is meant for the user who caused them (shown ephemerally).

Like an engine's :class:`~games.errors.GameError`, each carries its message as words not
yet in any language (:attr:`UserError.text`, a :class:`~games.i18n.Text` naming the input):
the Discord layer renders it in the reader's language; ``str(error)`` is the English."""

from __future__ import annotations

from games.i18n import Text, say


class UserError(Exception):
    """Something the user can fix or should know; nothing was changed."""

    def __init__(self, text: Text) -> None:
        super().__init__(text)
        self.text = text
        """What to tell the user (``text.render(language)``)."""

    def __str__(self) -> str:
        return str(self.text)


class StaleControl(UserError):
    """A button or menu from an earlier state of the game was used."""


class NotHere(UserError):
    """A control or request names a table that does not live where it came from (another
    server, another channel, a DM), or no table at all: the two are answered alike, so the
    answer never tells whether such a table exists elsewhere."""

    def __init__(self) -> None:
        super().__init__(say("That control isn't for a table in this channel, so nothing was done."))


class HostsLobby(UserError):
    """The host already hosts an open lobby in this server (``table_id``)."""

    def __init__(self, table_id: int, channel_id: int) -> None:
        super().__init__(say("You already have a lobby open in <#{channel}>. Start it or cancel it before opening "
                             "another.", channel=str(channel_id)))
        self.table_id = table_id


NOTHING_SAVED = say("Deckhand can't save moves right now; nothing changed. Please try again in a moment.")


class StorageUnavailable(Exception):
    """The database could not be written (locked past a short wait, I/O error, disk
    full, failed commit). The transaction was rolled back, so nothing changed; :attr:`text`
    is what the user is shown."""

    def __init__(self, text: Text = NOTHING_SAVED) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return str(self.text)


class DatabaseUnreachable(Exception):
    """The database could not be opened at start-up; the message says which and why,
    in one line (no password)."""
