"""What a seat (or the public) sees of a Queen of Spades table.

Views are built here and nowhere else, so secrets are stripped in one place:
other hands are counts (until the round is over, when every hand is shown for
the scoring), the draw pile is a count. Laid sets and the whole discard pile
are public. Round records hold numbers only, never cards, so an old round's
cards can't leak into a later round's view.
"""

from __future__ import annotations

from typing import Any

from .actions import STALL_LIMIT
from .deal import deck_size, perfect_cuts
from .points import CODE, KINDS, POINTS, RANK_NAME
from .scoring import copy_record
from .table import QoSTable


def shown_phase(state: QoSTable) -> str:
    """``cut``, ``take``, ``lay`` (after taking, when a lay or extend is possible),
    ``discard`` (after taking, when only a discard is), ``round_over`` or ``match_over``."""
    phase = state.phase
    if phase == "play":
        return "lay" if state.has_set_actions(state.turn) else "discard"
    return phase


def laid_sets(state: QoSTable, seat: int) -> list[dict[str, Any]]:
    """Seat ``seat``'s sets in the order laid: ``{rank, cards (naturals), wild (code or null), points}``."""
    out = []
    for rank, naturals, wild in state.sets[seat]:
        points = sum(POINTS[c] for c in naturals) + (POINTS[wild] if wild >= 0 else 0)
        out.append({"rank": RANK_NAME[rank], "cards": [CODE[c] for c in naturals],
                    "wild": CODE[wild] if wild >= 0 else None, "points": points})
    return out


def _ranks(flags: list[bool]) -> list[str]:
    return [RANK_NAME[r] for r, flag in enumerate(flags) if flag]


def build_view(state: QoSTable, seat: int | None) -> dict[str, Any]:
    state.check_viewer(seat)
    players = state.players
    phase = state.phase
    between = phase in ("round_over", "match_over")
    a, b = perfect_cuts(players)
    outcome = state.outcome()
    history = [copy_record(r) for r in state.history]
    cut = None
    if state.cut is not None:
        cut = {"dealer": state.dealer, **state.cut}
    view: dict[str, Any] = {
        "game": state.game_id,
        "players": players,
        "viewer": seat,
        "target": state.target,
        "rounds": state.rounds,
        "round": state.round_no,
        "dealer": state.dealer,
        "phase": shown_phase(state),
        "turn": state.turn if phase in ("cut", "take", "play") else None,
        "to_act": state.to_act(),
        "deck_size": deck_size(players),
        "cut_bonus_at": [a, b],
        "cut": cut,
        "draw_count": len(state.draw),
        "discard_count": len(state.discard),
        "discard_top": CODE[state.discard[-1]] if state.discard else None,
        "discard_pile": [CODE[c] for c in state.discard],
        "laid": [laid_sets(state, s) for s in range(players)],
        "laid_points": [state.laid_points(s) for s in range(players)],
        "hand_counts": list(state.size),
        "hands": [[CODE[c] for c in state.hand_ids(s)] for s in range(players)] if between else None,
        "scores": list(state.scores),
        "known": [[CODE[c] for c in range(KINDS) for _ in range(n[c])] for n in state.known],
        "let_go": [_ranks(flags) for flags in state.let_go],
        "passed": [_ranks(flags) for flags in state.passed],
        "turns_without_draw": state.stall,
        "stall_limit": STALL_LIMIT,
        "ready": list(state.ready) if phase == "round_over" else None,
        "last_round": history[-1] if history else None,
        "history": history,
        "over": state.over,
        "outcome": outcome.to_json() if outcome else None,
    }
    if seat is not None:
        legal = state.legal_actions(seat)
        view["hand"] = [CODE[c] for c in state.hand_ids(seat)]
        view["your_turn"] = bool(legal)
        view["legal"] = [x.code() for x in legal]
    return view
