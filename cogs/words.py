"""The words players read, kept apart from the code that places them, so that another language
is another table.

Every module that writes words for players (the message builders: :mod:`cogs.ui`,
:mod:`cogs.moves`, :mod:`cogs.lobby`, :mod:`cogs.endings`, each game's look in ``cogs/games``,
and each picture drawer in ``cogs/pictures``) keeps them in one mapping, ``WORDS``: a key to a
template (``"to_play": "to play: {names}"``), or to a pair of templates for a count, one and
many (``"cards": ("{n} card", "{n} cards")``). Code reads them through a :class:`Words`; a
translation passes its own table over the same keys.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

Word = str | tuple[str, str]
"""A template, or the (one, many) templates of a count."""


def english_one(n: int) -> bool:
    """Whether ``n`` takes the singular in English ("1 card", "0 cards")."""
    return n == 1


class Words:
    """A word table to draw with: ``words("to_play", names="ana")``, ``words.count("cards", 3)``."""

    def __init__(self, table: Mapping[str, Word], one: Callable[[int], bool] = english_one) -> None:
        self.table = dict(table)
        self.one = one

    def __call__(self, key: str, /, **values: object) -> str:
        template = self.table[key]
        if not isinstance(template, str):
            raise TypeError(f"{key!r} is a count: use Words.count")
        return template.format(**values)

    def count(self, key: str, n: int, /, **values: object) -> str:
        """The count ``n`` with its unit in the right number: ``count("cards", 1)`` → "1 card"."""
        template = self.table[key]
        if isinstance(template, str):
            raise TypeError(f"{key!r} is not a count")
        return template[0 if self.one(n) else 1].format(n=n, **values)

    def get(self, key: str, default: str) -> str:
        """A word that may be missing from the table (a game's title), ``default`` then."""
        found = self.table.get(key)
        return found if isinstance(found, str) else default
