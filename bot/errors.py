"""Errors whose message is meant for the user who caused them (shown ephemerally)."""


class UserError(Exception):
    """Something the user can fix or should know; nothing was changed."""


class StaleControl(UserError):
    """A button or menu from an earlier state of the game was used."""
