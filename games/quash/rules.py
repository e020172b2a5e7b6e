"""QUASH card rules (RULINGS.md §6): ranks, spots, runs, and how one spot is scored.

Engines work with the shared card ids of :mod:`games.cards` (``DECK[i]``,
``CODE[i]``, ``PRETTY[i]``); QUASH only reads them differently: aces are high,
so :data:`RANK` runs 2..14 (J=11, Q=12, K=13, A=14) and there is no A-2 run.

Spots are indexed 0..8 inside the engine and numbered 1..9 for players and in
actions. Spots 1, 4, 7 are triples (3 cards), 2, 5, 8 doubles (2 cards),
3, 6, 9 singles (1 card); sections are spots 1–3, 4–6 and 7–9.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import CODE, DECK, PRETTY, Card, CardLike, card_id_reader
from ..errors import GameError, MalformedAction
from ..i18n import Text, say
from .options import NAME

SPOTS = 9
SPOT_SIZE: tuple[int, ...] = (3, 2, 1, 3, 2, 1, 3, 2, 1)
"""Cards a spot holds, by spot index (0-based)."""
KIND: tuple[str, ...] = tuple({3: "triple", 2: "double", 1: "single"}[n] for n in SPOT_SIZE)
"""Each spot's kind, as views name it."""
KIND_WORDS: tuple[Text, ...] = tuple({3: say("triple"), 2: say("double"), 1: say("single")}[n] for n in SPOT_SIZE)
"""Each spot's kind, as players read it."""
SECTIONS: tuple[tuple[int, int, int], ...] = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
SIDE_CARDS = sum(SPOT_SIZE)
"""18: the cards a full side holds."""

RANK: tuple[int, ...] = tuple(14 if c.value == 1 else c.value for c in DECK)
"""QUASH rank by card id: 2..10, J=11, Q=12, K=13, A=14 (aces high only)."""
SUIT: tuple[int, ...] = tuple(i // 13 for i in range(len(DECK)))
SORT_KEY: tuple[int, ...] = tuple(RANK[i] * 4 + SUIT[i] for i in range(len(DECK)))
"""Orders cards by QUASH rank, then suit (hands and spots are shown in this order)."""
RANK_WORDS: dict[int, Text] = {
    2: say("2s"), 3: say("3s"), 4: say("4s"), 5: say("5s"), 6: say("6s"), 7: say("7s"), 8: say("8s"), 9: say("9s"),
    10: say("10s"), 11: say("Js"), 12: say("Qs"), 13: say("Ks"), 14: say("As"),
}
"""Cards of each QUASH rank, together (``tie with Qs``)."""


_card_id = card_id_reader(NAME)


def card_arg(arg: object, what: Text | None = None) -> int:
    """The card id named by an action argument (a code, case-insensitive).

    Raises :class:`MalformedAction` for anything that is not one of the 52 cards, saying
    it expected ``what`` (default: a card)."""
    if isinstance(arg, str):
        return _card_id(arg)
    raise MalformedAction(say("{arg} is not a card code (expected {what}, e.g. 9D or 10H)", arg=repr(arg),
                              what=what or say("a card")))


def _ids(cards: Iterable[CardLike | int]) -> list[int]:
    out = []
    for c in cards:
        if isinstance(c, int) and not isinstance(c, bool):
            out.append(c)
        else:
            out.append(card_arg(c.code if isinstance(c, Card) else c))
    return out


def in_order(ids: Iterable[int]) -> tuple[Card, ...]:
    """Cards in rank order, as a value words show: ``9♦ 10♦ J♦``."""
    return tuple(DECK[c] for c in sorted(ids, key=SORT_KEY.__getitem__))


def fits(ids: Sequence[int], size: int) -> bool:
    """Whether cards ``ids`` in a spot of ``size`` can still become a run (the
    advanced-play placement rule): at most ``size`` cards, all of different
    ranks, spanning at most ``size`` consecutive ranks inside 2..A. Every
    single spot fits any one card."""
    n = len(ids)
    if n > size:
        return False
    if n <= 1:
        return True
    if n == 2:
        d = RANK[ids[0]] - RANK[ids[1]]
        return d != 0 and -size < d < size
    ranks = {RANK[c] for c in ids}
    return len(ranks) == n and max(ranks) - min(ranks) < size


def run_ids(ids: Sequence[int]) -> bool:
    """Consecutive distinct ranks (any order, any suits, aces high only); one card is a run."""
    n = len(ids)
    if n < 2:
        return n == 1
    ranks = [RANK[c] for c in ids]
    return max(ranks) - min(ranks) == n - 1 and len(set(ranks)) == n


def suited(ids: Sequence[int]) -> bool:
    """All cards of one suit."""
    first = SUIT[ids[0]]
    return all(SUIT[c] == first for c in ids)


def judge(ours: Sequence[int], theirs: Sequence[int]) -> tuple[int, int, int, str] | None:
    """One spot, ours against theirs: ``(our points, their points, winner, how)``.

    ``winner`` is 0 (ours), 1 (theirs) or -1 (nobody: both sequences failed).
    ``how`` names the deciding rule: ``rank`` (higher single), ``top`` (higher
    top card), ``suit`` (same-suit run over a mixed one), ``failed`` (a run
    against a failed sequence, 1 + 1 bonus), ``both-failed`` (1 each). ``None``
    when a tiebreaker must decide (equal singles; runs with the same ranks,
    both same-suit or both mixed).
    """
    if len(ours) == 1:
        a, b = RANK[ours[0]], RANK[theirs[0]]
        if a == b:
            return None
        return (1, 0, 0, "rank") if a > b else (0, 1, 1, "rank")
    run_a, run_b = run_ids(ours), run_ids(theirs)
    if run_a and run_b:
        top_a, top_b = max(RANK[c] for c in ours), max(RANK[c] for c in theirs)
        if top_a != top_b:
            return (1, 0, 0, "top") if top_a > top_b else (0, 1, 1, "top")
        suit_a, suit_b = suited(ours), suited(theirs)
        if suit_a == suit_b:
            return None
        return (1, 0, 0, "suit") if suit_a else (0, 1, 1, "suit")
    if run_a:
        return (2, 0, 0, "failed")
    if run_b:
        return (0, 2, 1, "failed")
    return (1, 1, -1, "both-failed")


def is_run(cards: Iterable[CardLike | int]) -> bool:
    """Whether ``cards`` (codes or cards, any order) form a run: consecutive ranks
    with aces high only (2..10 J Q K A; no A-2, no K-A-2), any suits, no rank
    twice. Any length counts; a single card is a run; no cards is not."""
    return run_ids(_ids(cards))


def score_spot(ours: Iterable[CardLike | int], theirs: Iterable[CardLike | int]) -> tuple[int, int] | None:
    """Points for each side from one spot, without the QUASH bonus (RULINGS §6).

    Both sides hold the same number of cards: 1 (a single) or 2–3 (a sequence).
    Single: the higher rank scores 1. Sequences: run against run, the higher
    top card scores 1, then a same-suit run beats a mixed one; a run against a
    failed sequence scores 2 (the spot and the bonus); both failed: 1 each.
    ``None`` when a tiebreaker is needed (equal singles, or runs of the same
    ranks that are both same-suit or both mixed). Unequal or empty spots, or
    more than 3 cards, raise :class:`GameError`.
    """
    a, b = _ids(ours), _ids(theirs)
    if len(a) != len(b) or not 1 <= len(a) <= 3:
        raise GameError(say("Both sides of a spot hold the same number of cards (1 to 3); got {ours} and {theirs}",
                            ours=len(a), theirs=len(b)))
    result = judge(a, b)
    return None if result is None else (result[0], result[1])


def can_become_run(cards: Iterable[CardLike | int], size: int) -> bool:
    """Whether ``cards`` in a spot of ``size`` (1–3) could still become a run (advanced play):
    e.g. ``10H JC`` in a triple takes a 9 or a Q but not a 6; a single takes anything."""
    return fits(_ids(cards), size)


__all__ = [
    "CODE", "KIND", "PRETTY", "RANK", "SECTIONS", "SPOTS", "SPOT_SIZE", "SUIT",
    "can_become_run", "card_arg", "fits", "is_run", "judge", "run_ids", "score_spot", "suited",
]
