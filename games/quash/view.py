"""What a seat (or the public) sees of a QUASH table.

Views are built here and nowhere else, so secrets are stripped in one place:
other hands, the pile, set-aside cards, the other side's leftovers and any
face-down tiebreak card show as counts or flags only. Keys are listed in the
package docs (``games/quash/__init__.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import CODE
from .rules import KIND, SECTIONS, SORT_KEY, SPOT_SIZE, SPOTS, run_ids
from .scoring import SIDES, side_seats
from .table import QuashTable

_KEY = SORT_KEY.__getitem__


def _side_name(side: int | None) -> str | None:
    return SIDES[side] if side is not None and side >= 0 else None


def _result_view(spot: int, r: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "spot": spot + 1,
        "winner": _side_name(r["winner"]),
        "points": list(r["points"]),
        "how": r["how"],
        "reveals": [[CODE[a], CODE[b]] for a, b in r["reveals"]],
        "quash": r["quash"],
    }


def board_view(state: QuashTable) -> list[list[dict[str, Any]]]:
    """Both sides' nine spots, spot 1 first; a scored spot adds its winner and points."""
    results = state.results
    out = []
    for side in (0, 1):
        spots = []
        for s in range(SPOTS):
            cards = state.board[side][s]
            size = SPOT_SIZE[s]
            full = len(cards) == size
            scored = s < len(results)
            spots.append({
                "spot": s + 1,
                "kind": KIND[s],
                "cards": [CODE[c] for c in cards],
                "open": size - len(cards),
                "failed": (size > 1 and not run_ids(cards)) if full else None,
                "scored": scored,
                "winner": _side_name(results[s]["winner"]) if scored else None,
                "points": results[s]["points"][side] if scored else None,
            })
        out.append(spots)
    return out


def chain_view(state: QuashTable) -> dict[str, Any] | None:
    """The open swap chain, for everyone (every card in it was on the board): each step's
    card and the spot it went to, in order; each step displaced the next step's card, and
    the last one ``flying``, the card in the air."""
    chain = state.chain
    if not chain:
        return None
    return {
        "seat": state.turn,
        "side": SIDES[state.turn % 2],
        "steps": [{"card": CODE[c], "spot": s + 1} for c, s, _ in chain],
        "flying": CODE[chain[-1][2]],
    }


def build_view(state: QuashTable, seat: int | None) -> dict[str, Any]:
    state.check_viewer(seat)
    phase = state.phase
    players = state.players
    outcome = state.outcome()
    scoring = None
    if phase != "play":
        scoring = {
            "spot": state.spot + 1 if state.spot < SPOTS and len(state.results) <= state.spot else None,
            "results": [_result_view(i, r) for i, r in enumerate(state.results)],
        }
    tiebreak = None
    if phase == "tiebreak":
        tiebreak = {
            "spot": state.spot + 1,
            "choosers": list(state.chooser),
            "waiting": state.to_act(),
            "chosen": [state.pending[side] >= 0 for side in (0, 1)],
            "reveals": [[CODE[a], CODE[b]] for a, b in state.reveals],
        }
    winner = None
    if phase == "over":
        winner = "draw" if state.winner is None or state.winner < 0 else SIDES[state.winner]
    view: dict[str, Any] = {
        "game": state.game_id,
        "players": players,
        "viewer": seat,
        "advanced": state.advanced,
        "finish": state.finish,
        "sides": list(SIDES),
        "teams": [side_seats(players, 0), side_seats(players, 1)],
        "seat_sides": [SIDES[s % 2] for s in range(players)],
        "sections": [[s + 1 for s in sec] for sec in SECTIONS],
        "phase": phase,
        "round": state.round_no,
        "dealer": state.dealer,
        "turn": state.turn if phase == "play" else None,
        "chain": chain_view(state),
        "to_act": state.to_act(),
        "moves": state.moves,
        "track": list(state.track),
        "round_points": list(state.round_points),
        "board": board_view(state),
        "pile_count": len(state.pile),
        "aside_count": len(state.aside),
        "hand_counts": [len(h) for h in state.hands],
        "leftover_counts": [len(lst) for lst in state.leftovers],
        "used": [CODE[c] for c in state.used],
        "chooser": list(state.chooser),
        "scoring": scoring,
        "tiebreak": tiebreak,
        "last_round": state.last_round,
        "over": phase == "over",
        "winner": winner,
        "outcome": outcome.to_json() if outcome else None,
    }
    if seat is not None:
        side = seat % 2
        legal = state.legal_actions(seat)
        if phase == "play":
            hand = state.hands[seat]
        else:
            hand = state.leftovers[side]
        pending = state.pending[side]
        view["side"] = SIDES[side]
        view["hand"] = [CODE[c] for c in sorted(hand, key=_KEY)]
        view["your_tiebreak_card"] = CODE[pending] if pending >= 0 else None
        view["free_placement"] = phase == "play" and seat == state.turn and state.advanced and state.places_freely(seat)
        view["your_turn"] = bool(legal)
        view["legal"] = [a.code() for a in legal]
        view["swap_count"] = sum(a.kind == "swap" for a in legal)
    return view
