"""Scoring a QUASH round, spot 1 to 9, inside the engine (RULINGS §6).

After the last placement the state scores spot after spot with
:func:`run_scoring`, one event per spot. A tie that needs a tiebreaker pauses
scoring (phase ``tiebreak``) until both choosing seats have laid a
``tiebreak`` card; :func:`play_tiebreak` reveals them, and scoring goes on by
itself. The first side to reach the finish wins at once, between two spots
or inside one (a QUASH bonus is credited right after its section's third
spot); the rest of the round is not scored. When spot 9 is scored without a
winner, both say so, and the state deals the next round (``QuashState.end_round``).
"""

from __future__ import annotations

from typing import Any

from ..base import Event
from ..cards import DECK
from ..i18n import Seat, Text, say
from ..phrases import listed, sentences, together
from .rules import KIND_WORDS, RANK, SECTIONS, SPOTS, in_order, judge, run_ids, suited
from .table import QuashTable

SIDES = ("RED", "BLACK")
"""The sides as views name them."""
SIDE_NAMES: tuple[Text, ...] = (say("RED"), say("BLACK"))
"""The sides as players read them."""
QUASH_BONUS = 2

WAIT, DONE, OVER = 0, 1, 2
"""What :func:`open_tiebreak` left behind: waiting for cards, spot settled, match over."""

_SECTION_OF_LAST = {sec[-1]: sec for sec in SECTIONS}
_WHY = {
    "rank": say("higher card"),
    "top": say("higher top card"),
    "suit": say("a same-suit run beats a mixed one"),
    "failed": say("a run against a failed sequence, the spot plus 1 bonus"),
}


def side_name(side: str) -> Text:
    """A side as views name it (``"RED"``, ``"BLACK"``), as players read it."""
    return SIDE_NAMES[SIDES.index(side)]


def side_seats(players: int, side: int) -> list[int]:
    """Seats on ``side`` (0 RED, 1 BLACK): every seat ``s`` with ``s % 2 == side``."""
    return list(range(side, players, 2))


def names(players: int, side: int) -> Any:
    """The side's players (``ana`` or ``ana and cy``), as a value words show."""
    return together([Seat(s) for s in side_seats(players, side)])


def track_text(track: list[int]) -> Text:
    """``RED 12 · BLACK 9``."""
    return say("RED {red} · BLACK {black}", red=track[0], black=track[1])


def describe(cards: list[int]) -> Any:
    """A spot's cards in rank order, marked ``(failed)`` or ``(same suit)`` for sequences."""
    if len(cards) == 1:
        return DECK[cards[0]]
    shown = in_order(cards)
    if not run_ids(cards):
        return say("{cards} (failed)", cards=shown)
    if suited(cards):
        return say("{cards} (same suit)", cards=shown)
    return shown


def _points_text(points: tuple[int, int]) -> Any:
    parts = [say("+{points} {side}", points=p, side=SIDE_NAMES[side]) for side, p in enumerate(points) if p]
    return listed(parts) if parts else say("no points")


def _award(state: QuashTable, points: tuple[int, int], text: Text, kind: str, events: list[Event]) -> bool:
    """Move the markers, announce ``text`` with the points and the new track, and end
    the match when a side reaches the finish. Returns True when the match is over."""
    track = state.track
    track[0] += points[0]
    track[1] += points[1]
    state.round_points[0] += points[0]
    state.round_points[1] += points[1]
    events.append(Event(kind, say("{what}: {points} ({track}).", what=text, points=_points_text(points),
                                  track=track_text(track))))
    finish = state.finish
    reached = [side for side in (0, 1) if points[side] and track[side] >= finish]
    if not reached:
        return False
    s = state.spot
    if len(reached) == 2:
        state.finish_match(-1)
        said = say("Both sides reach the finish ({finish}) on spot {number}: the match is a draw.", finish=finish,
                   number=s + 1)
    else:
        side = reached[0]
        state.finish_match(side)
        said = say("{side} reaches the finish ({points} of {finish}) on spot {number}: {side} ({players}) wins the "
                   "match!", side=SIDE_NAMES[side], points=track[side], finish=finish, number=s + 1,
                   players=names(state.players, side))
    if s < SPOTS - 1:
        said = sentences([said, say("The rest of round {number} is not scored.", number=state.round_no)])
    events.append(Event("finish", said))
    return True


def resolve_spot(state: QuashTable, winner: int, points: tuple[int, int], how: str, text: Text,
                 events: list[Event]) -> bool:
    """Record the current spot's result and award it, then the QUASH bonus if the spot
    ends a section its winner swept. Returns True when the match ended."""
    s = state.spot
    result = {"winner": winner, "points": list(points), "how": how, "reveals": state.reveals, "quash": False}
    state.results.append(result)
    state.reveals = []
    if _award(state, points, text, "spot", events):
        return True
    section = _SECTION_OF_LAST.get(s)
    if section is None or winner < 0 or not all(state.results[i]["winner"] == winner for i in section):
        return False
    result["quash"] = True
    spots = together([s + 1 for s in section], commas=True)
    bonus = (QUASH_BONUS, 0) if winner == 0 else (0, QUASH_BONUS)
    return _award(state, bonus, say("QUASH! {side} won spots {spots}", side=SIDE_NAMES[winner], spots=spots), "quash",
                  events)


def run_scoring(state: QuashTable, events: list[Event]) -> bool:
    """Score from ``state.spot`` on until a tiebreak waits or the match ends (``False``),
    or the round is scored to its end (``True``: the next round is to be dealt)."""
    board = state.board
    state.phase = "scoring"
    while state.spot < SPOTS:
        s = state.spot
        red, black = board[0][s], board[1][s]
        result = judge(red, black)
        spot = dict(number=s + 1, kind=KIND_WORDS[s], red=describe(red), black=describe(black))
        if result is None:
            events.append(Event(
                "tie", say("Spot {number} — {kind}: RED {red} ties BLACK {black}: tiebreaker!", **spot),
            ))
            if open_tiebreak(state, events) != DONE:
                return False
        else:
            pa, pb, winner, how = result
            if how == "both-failed":
                text = say("Spot {number} — {kind}: RED {red} and BLACK {black} both failed, nobody wins the spot",
                           **spot)
            elif winner == 0:
                text = say("Spot {number} — {kind}: RED {red} beats BLACK {black} — {why}", why=_WHY[how], **spot)
            else:
                text = say("Spot {number} — {kind}: BLACK {black} beats RED {red} — {why}", why=_WHY[how], **spot)
            if resolve_spot(state, winner, (pa, pb), how, text, events):
                return False
        state.spot += 1
    return True


def open_tiebreak(state: QuashTable, events: list[Event]) -> int:
    """Start (or restart) the current spot's tiebreaker. When both sides hold
    leftover cards it waits for the choosing seats (``WAIT``); otherwise a side
    with cards wins the spot, or nobody does when neither has one (``DONE``, or
    ``OVER`` when that ended the match)."""
    have = [bool(state.leftovers[0]), bool(state.leftovers[1])]
    s = state.spot
    if have[0] and have[1]:
        state.phase = "tiebreak"
        state.pending = [-1, -1]
        choosers = together([Seat(state.chooser[side]) for side in (0, 1)])
        events.append(Event(
            "tiebreak", say("Tiebreaker for spot {number}: {players} each choose a leftover card in secret.",
                            number=s + 1, players=choosers),
        ))
        return WAIT
    state.phase = "scoring"
    if have[0] or have[1]:
        side = 0 if have[0] else 1
        text = say("Spot {number}: {side} has no leftover card left, so {other} wins the tiebreaker", number=s + 1,
                   side=SIDE_NAMES[1 - side], other=SIDE_NAMES[side])
        points = (1, 0) if side == 0 else (0, 1)
        ended = resolve_spot(state, side, points, "no-cards", text, events)
    else:
        text = say("Spot {number}: neither side has a leftover card left, so nobody wins the spot", number=s + 1)
        ended = resolve_spot(state, -1, (0, 0), "no-cards", text, events)
    return OVER if ended else DONE


def play_tiebreak(state: QuashTable, seat: int, card: int, events: list[Event]) -> bool:
    """``seat`` (its side's chooser) lays ``card`` face down; once both sides have, reveal
    and settle the spot (or tie again), then go on scoring (:func:`run_scoring`'s answer:
    ``True`` when the round is scored to its end)."""
    side = seat % 2
    state.leftovers[side].remove(card)
    state.pending[side] = card
    events.append(Event("tiebreak_choice", say("{player} chose {side}'s tiebreak card, face down.", player=Seat(seat),
                                               side=SIDE_NAMES[side]), seat))
    events.append(Event("tiebreak_choice", say("You chose {card} for the tiebreaker.", card=DECK[card]), seat,
                        private_to=seat))
    if state.pending[1 - side] < 0:
        return False
    red, black = state.pending
    state.pending = [-1, -1]
    state.used += [red, black]
    state.reveals.append([red, black])
    s = state.spot
    shown = dict(number=s + 1, red=DECK[red], black=DECK[black])
    if RANK[red] == RANK[black]:
        events.append(Event("reveal", say("Tiebreaker for spot {number}: RED {red} against BLACK {black}: equal "
                                          "ranks, so the tiebreaker is played again.", **shown)))
        if open_tiebreak(state, events) != DONE:
            return False
    else:
        winner = 0 if RANK[red] > RANK[black] else 1
        points = (1, 0) if winner == 0 else (0, 1)
        text = say("Tiebreaker for spot {number}: RED {red} against BLACK {black}: {side} wins the spot",
                   side=SIDE_NAMES[winner], **shown)
        if resolve_spot(state, winner, points, "tiebreak", text, events):
            return False
    state.spot += 1
    return run_scoring(state, events)
