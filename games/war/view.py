"""What a War table shows: every field card face up, decks as counts only.

Keys are listed in the package docs (``games/war/__init__.py``).
"""

from __future__ import annotations

from typing import Any

# States are typed as the base GameState (a WarState at run time): state.py imports this module.
from ..base import GameState
from ..cards import CODE

DISCARD_SHOWN = 5
"""How many of the latest discarded cards a view lists (newest first)."""

_DISCARDED = {1: ["target"], -1: ["attacker"], 0: ["attacker", "target"]}


def statuses(state: GameState) -> list[str]:
    """Per seat: ``playing`` or ``out``; once over, ``won`` for the winner, or
    ``tied`` for the seats that share a tie."""
    out = ["playing" if alive else "out" for alive in state.alive]
    if state.over:
        outcome = state.outcome()
        assert outcome is not None
        if outcome.winners:
            for s in outcome.winners:
                out[s] = "won"
        else:
            for s in outcome.ranking[0]:
                out[s] = "tied"
    return out


def build_view(state: GameState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` sees it (``None``: the public). The same for every viewer,
    except that a seat's view adds ``hand`` (always ``[]``), ``your_turn`` and ``legal``."""
    state.check_viewer(seat)
    tapped = state.tapped
    outcome = state.outcome()
    last = state.last_attack
    view: dict[str, Any] = {
        "game": state.game_id,
        "players": state.players,
        "viewer": seat,
        "loss": state.loss,
        "turn": None if state.over else state.turn,
        "to_act": state.to_act(),
        "moves": state.moves,
        "fields": [[{"card": CODE[c], "tapped": tapped[c]} for c in field] for field in state.fields],
        "deck_counts": [len(d) for d in state.decks],
        "card_counts": [len(f) + len(d) for f, d in zip(state.fields, state.decks)],
        "discard_count": len(state.discard),
        "discard_top": [CODE[c] for c in reversed(state.discard[-DISCARD_SHOWN:])],
        "status": statuses(state),
        "out_order": [list(g) for g in state.out_order],
        "last_attack": None if last is None else {
            "seat": last[0],
            "attacker": CODE[last[1]],
            "target_seat": last[2],
            "target": CODE[last[3]],
            "compare": last[4],
            "discarded": list(_DISCARDED[last[4]]),
            "move": last[5],
        },
        "over": state.over,
        "outcome": outcome.to_json() if outcome else None,
    }
    if seat is not None:
        legal = state.legal_actions(seat)
        view["hand"] = []
        view["your_turn"] = bool(legal)
        view["legal"] = [a.code() for a in legal]
    return view
