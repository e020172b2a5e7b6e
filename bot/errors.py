"""Errors whose message is meant for the user who caused them (shown ephemerally)."""


class UserError(Exception):
    """Something the user can fix or should know; nothing was changed."""


class StaleControl(UserError):
    """A button or menu from an earlier state of the game was used."""


class NotHere(UserError):
    """A control or request names a table that does not live where it came from (another
    server, another channel, a DM), or no table at all: the two are answered alike, so the
    answer never tells whether such a table exists elsewhere."""

    def __init__(self) -> None:
        super().__init__("That control isn't for a table in this channel, so nothing was done.")


class StorageUnavailable(Exception):
    """The database could not be written (locked past a short wait, I/O error, disk
    full, failed commit). The transaction was rolled back, so nothing changed; the
    message is what the user is shown."""

    def __init__(self, message: str = "Deckhand can't save moves right now; nothing changed. "
                                      "Please try again in a moment.") -> None:
        super().__init__(message)


class DatabaseUnreachable(Exception):
    """The database could not be opened at start-up; the message says which and why,
    in one line (no password)."""
