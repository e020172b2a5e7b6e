"""Phrases every game says the same way, as words not yet in any language
(:class:`~games.i18n.Text`): players named one after another, a list, choices, sentences in
a row, and cards by their ids.

Each keeps the English the engines have always written (``ana and ben and cy``, ``a, b``,
one sentence after another with a space) and leaves each language its own way (French
says ``ana, ben et cy``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .cards import DECK, Card
from .i18n import Text, plural, say


def together(items: Sequence[Any], *, commas: bool = False) -> Any:
    """``items`` (players, usually :class:`~games.i18n.Seat`\\ s) named one after another:
    "and" between each two (``ana and ben and cy``), or with ``commas`` a comma between
    each two but the last (``ana, ben and cy``), as each game has always said it in English;
    a single item is itself. Not empty."""
    if commas and len(items) > 1:
        return say("{names} and {last}", names=listed(items[:-1]), last=items[-1])
    *rest, said = items
    for i, item in enumerate(reversed(rest)):
        said = say("{name} and {last}", name=item, last=said) if i == 0 else say(
            "{name} and {others}", name=item, others=said)
    return said


def listed(items: Sequence[Any]) -> Any:
    """``items`` one after another, a comma between each two; a single item is itself. Not empty."""
    *rest, said = items
    for item in reversed(rest):
        said = say("{item}, {rest}", item=item, rest=said)
    return said


def either(items: Sequence[Any]) -> Any:
    """``items`` as choices: a comma between each two, "or" before the last; a single item is itself."""
    if len(items) == 1:
        return items[0]
    return say("{choices} or {last}", choices=listed(items[:-1]), last=items[-1])


def sentences(parts: Sequence[Text]) -> Text:
    """Sentences one after another, a space between each two. Not empty."""
    *rest, said = parts
    for part in reversed(rest):
        said = say("{sentence} {rest}", sentence=part, rest=said)
    return said


def card_count(count: int) -> Text:
    """``count`` cards, number and noun as the language agrees them: "1 card", "13 cards"."""
    return plural("{count} card", "{count} cards", count)


def cards_of(ids: Iterable[int]) -> tuple[Card, ...]:
    """The cards of :data:`~games.cards.DECK` ids, as a value words show (``Q♥ 9♠``)."""
    return tuple(DECK[i] for i in ids)
