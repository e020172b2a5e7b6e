"""What a seat (or the public) sees of an NG table.

Views are built from the state here and nowhere else, so secrets are
stripped in one place: face-down field cards are ``None`` (unless the game is
face up), other seats' hands and the deck are counts only.
"""

from __future__ import annotations

from typing import Any

# States are typed as the base GameState (a NGState at run time): state.py imports this module.
from ..base import GameState
from ..cards import CODE
from .actions import STALL_LIMIT


def statuses(state: GameState) -> list[str]:
    """Per seat: ``playing`` or ``out`` during the game; ``won``, ``lost`` or ``out`` at the end."""
    out = []
    for s in range(state.players):
        if not state.alive[s]:
            out.append("out")
        elif state.over:
            out.append("won" if s in state.winners else "lost")
        else:
            out.append("playing")
    return out


def build_view(state: GameState, seat: int | None) -> dict[str, Any]:
    state.check_viewer(seat)
    faceup = state.faceup
    fields: list[list[list[str | None]]] = []
    face_down: list[list[bool]] = []
    for s in range(state.players):
        stacks: list[list[str | None]] = []
        flags: list[bool] = []
        for i, stack in enumerate(state.fields[s]):
            shown: list[str | None] = [CODE[c] for c in stack]
            down = bool(stack) and state.down[s][i]
            if down and not faceup:
                shown[0] = None
            stacks.append(shown)
            flags.append(down)
        fields.append(stacks)
        face_down.append(flags)
    outcome = state.outcome()
    view: dict[str, Any] = {
        "game": state.game_id,
        "players": state.players,
        "viewer": seat,
        "faceup": faceup,
        "turn": None if state.over else state.turn,
        "to_act": state.to_act(),
        "status": statuses(state),
        "fields": fields,
        "face_down": face_down,
        "field_counts": state.field_counts(),
        "resources": [[CODE[c] for c in pile] for pile in state.resources],
        "hand_counts": [len(h) for h in state.hands],
        "hands": [[CODE[c] for c in h] for h in state.hands] if faceup else None,
        "deck_count": len(state.deck),
        "deck": [CODE[c] for c in state.deck] if faceup else None,
        "discard_count": len(state.discard),
        "discard_top": CODE[state.discard[-1]] if state.discard else None,
        "turns_since_discard": state.stall,
        "stall_limit": STALL_LIMIT,
        "eliminated": list(state.eliminated),
        "over": state.over,
        "outcome": outcome.to_json() if outcome else None,
    }
    if seat is not None:
        legal = state.legal_actions(seat)
        hand = state.hands[seat]
        view["hand"] = [CODE[c] for c in (hand if faceup else sorted(hand))]
        view["your_turn"] = bool(legal)
        view["legal"] = [a.code() for a in legal]
    return view
