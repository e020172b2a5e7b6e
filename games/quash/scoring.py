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

from ..base import Event
from ..cards import PRETTY
from .rules import KIND, RANK, SECTIONS, SPOTS, judge, pretty, run_ids, suited
from .table import QuashTable

SIDE_NAMES = ("RED", "BLACK")
QUASH_BONUS = 2

WAIT, DONE, OVER = 0, 1, 2
"""What :func:`open_tiebreak` left behind: waiting for cards, spot settled, match over."""

_SECTION_OF_LAST = {sec[-1]: sec for sec in SECTIONS}
_WHY = {
    "rank": "higher card",
    "top": "higher top card",
    "suit": "a same-suit run beats a mixed one",
    "failed": "a run against a failed sequence, the spot plus 1 bonus",
}


def side_seats(players: int, side: int) -> list[int]:
    """Seats on ``side`` (0 RED, 1 BLACK): every seat ``s`` with ``s % 2 == side``."""
    return list(range(side, players, 2))


def names(players: int, side: int) -> str:
    """``{p0}`` or ``{p0} and {p2}``: the side's seats as event placeholders."""
    return " and ".join(f"{{p{s}}}" for s in side_seats(players, side))


def track_text(track: list[int]) -> str:
    return f"RED {track[0]} · BLACK {track[1]}"


def describe(cards: list[int]) -> str:
    """A spot's cards in rank order, marked ``(failed)`` or ``(same suit)`` for sequences."""
    if len(cards) == 1:
        return PRETTY[cards[0]]
    text = pretty(cards)
    if not run_ids(cards):
        return f"{text} (failed)"
    if suited(cards):
        return f"{text} (same suit)"
    return text


def _points_text(points: tuple[int, int]) -> str:
    parts = [f"+{p} {SIDE_NAMES[side]}" for side, p in enumerate(points) if p]
    return ", ".join(parts) if parts else "no points"


def _award(state: QuashTable, points: tuple[int, int], text: str, kind: str, events: list[Event]) -> bool:
    """Move the markers, announce ``text`` with the points and the new track, and end
    the match when a side reaches the finish. Returns True when the match is over."""
    track = state.track
    track[0] += points[0]
    track[1] += points[1]
    state.round_points[0] += points[0]
    state.round_points[1] += points[1]
    events.append(Event(kind, f"{text}: {_points_text(points)} ({track_text(track)})."))
    finish = state.finish
    reached = [side for side in (0, 1) if points[side] and track[side] >= finish]
    if not reached:
        return False
    s = state.spot
    rest = f" The rest of round {state.round_no} is not scored." if s < SPOTS - 1 else ""
    if len(reached) == 2:
        state.finish_match(-1)
        events.append(Event(
            "finish", f"Both sides reach the finish ({finish}) on spot {s + 1}: the match is a draw.{rest}",
        ))
    else:
        side = reached[0]
        state.finish_match(side)
        events.append(Event(
            "finish",
            f"{SIDE_NAMES[side]} reaches the finish ({track[side]} of {finish}) on spot {s + 1}: "
            f"{SIDE_NAMES[side]} ({names(state.players, side)}) wins the match!{rest}",
        ))
    return True


def resolve_spot(state: QuashTable, winner: int, points: tuple[int, int], how: str, text: str,
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
    spots = f"{section[0] + 1}, {section[1] + 1} and {section[2] + 1}"
    bonus = (QUASH_BONUS, 0) if winner == 0 else (0, QUASH_BONUS)
    return _award(state, bonus, f"QUASH! {SIDE_NAMES[winner]} won spots {spots}", "quash", events)


def run_scoring(state: QuashTable, events: list[Event]) -> bool:
    """Score from ``state.spot`` on until a tiebreak waits or the match ends (``False``),
    or the round is scored to its end (``True``: the next round is to be dealt)."""
    board = state.board
    state.phase = "scoring"
    while state.spot < SPOTS:
        s = state.spot
        red, black = board[0][s], board[1][s]
        result = judge(red, black)
        if result is None:
            events.append(Event(
                "tie", f"Spot {s + 1} — {KIND[s]}: RED {describe(red)} ties BLACK {describe(black)}: tiebreaker!",
            ))
            if open_tiebreak(state, events) != DONE:
                return False
        else:
            pa, pb, winner, how = result
            head = f"Spot {s + 1} — {KIND[s]}: "
            if how == "both-failed":
                text = f"{head}RED {describe(red)} and BLACK {describe(black)} both failed, nobody wins the spot"
            elif winner == 0:
                text = f"{head}RED {describe(red)} beats BLACK {describe(black)} — {_WHY[how]}"
            else:
                text = f"{head}BLACK {describe(black)} beats RED {describe(red)} — {_WHY[how]}"
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
        choosers = " and ".join(f"{{p{state.chooser[side]}}}" for side in (0, 1))
        events.append(Event(
            "tiebreak", f"Tiebreaker for spot {s + 1}: {choosers} each choose a leftover card in secret.",
        ))
        return WAIT
    state.phase = "scoring"
    if have[0] or have[1]:
        side = 0 if have[0] else 1
        text = (f"Spot {s + 1}: {SIDE_NAMES[1 - side]} has no leftover card left, "
                f"so {SIDE_NAMES[side]} wins the tiebreaker")
        points = (1, 0) if side == 0 else (0, 1)
        ended = resolve_spot(state, side, points, "no-cards", text, events)
    else:
        text = f"Spot {s + 1}: neither side has a leftover card left, so nobody wins the spot"
        ended = resolve_spot(state, -1, (0, 0), "no-cards", text, events)
    return OVER if ended else DONE


def play_tiebreak(state: QuashTable, seat: int, card: int, events: list[Event]) -> bool:
    """``seat`` (its side's chooser) lays ``card`` face down; once both sides have, reveal
    and settle the spot (or tie again), then go on scoring (:func:`run_scoring`'s answer:
    ``True`` when the round is scored to its end)."""
    side = seat % 2
    state.leftovers[side].remove(card)
    state.pending[side] = card
    events.append(Event("tiebreak_choice", f"{{p{seat}}} chose {SIDE_NAMES[side]}'s tiebreak card, face down.", seat))
    events.append(Event("tiebreak_choice", f"You chose {PRETTY[card]} for the tiebreaker.", seat, private_to=seat))
    if state.pending[1 - side] < 0:
        return False
    red, black = state.pending
    state.pending = [-1, -1]
    state.used += [red, black]
    state.reveals.append([red, black])
    s = state.spot
    head = f"Tiebreaker for spot {s + 1}: RED {PRETTY[red]} against BLACK {PRETTY[black]}"
    if RANK[red] == RANK[black]:
        events.append(Event("reveal", f"{head}: equal ranks, so the tiebreaker is played again."))
        if open_tiebreak(state, events) != DONE:
            return False
    else:
        winner = 0 if RANK[red] > RANK[black] else 1
        points = (1, 0) if winner == 0 else (0, 1)
        if resolve_spot(state, winner, points, "tiebreak", f"{head}: {SIDE_NAMES[winner]} wins the spot", events):
            return False
    state.spot += 1
    return run_scoring(state, events)
