"""What a seat (or the public) sees of a Q Squared Joe table.

Views are built here and nowhere else, so secrets are stripped in one place:
other hands are counts (every hand is shown in the face-up variant), the stock
is a count. Keys are listed in the package docs (``games/q2j/__init__.py``).
"""

from __future__ import annotations

from typing import Any

# States are typed as the base GameState (a Q2JState at run time): state.py imports this module.
from ..base import GameState
from ..cards import CODE
from ..concept import CMP
from .history import move_text


def statuses(state: GameState) -> list[str]:
    """Per seat: ``playing``, ``safe`` (finished this game of a match) or ``out``; once over,
    ``won`` for the winner and ``out`` or ``lost`` for the others."""
    out = []
    for s in range(state.players):
        if state.over:
            out.append("won" if s == state.winner else ("out" if s in state.eliminated else "lost"))
        elif s in state.eliminated:
            out.append("out")
        else:
            out.append("playing" if state.playing[s] else "safe")
    return out


def history_words(state: GameState) -> list[str]:
    """The public history as the views show it (a fresh list). The history only grows, or
    is replaced by a new list at a deal, so the words already made for this list are kept."""
    history = state.history
    kept = state.history_words
    if kept is None or kept[0] is not history or len(kept[1]) > len(history):
        kept = state.history_words = (history, [])
    words = kept[1]
    if len(words) < len(history):
        words.extend(map(move_text, history[len(words):]))
    return list(words)


def build_view(state: GameState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` sees it (``None``: the public); a seat's view adds its ``hand``,
    ``your_turn``, ``legal`` and ``penalty_cards`` (cards it would play with a penalty)."""
    state.check_viewer(seat)
    outcome = state.outcome()
    top = state.discard[-2:] if state.duty is not None else state.discard[-1:]
    view: dict[str, Any] = {
        "game": state.game_id,
        "variant": state.variant,
        "match": state.match,
        "players": state.players,
        "viewer": seat,
        "turn": None if state.over else state.turn,
        "to_act": state.to_act(),
        "top": [CODE[c] for c in top],
        "top_is_qq": state.duty is not None,
        "stock_count": len(state.stock),
        "discard_count": len(state.discard),
        "hand_counts": [len(h) for h in state.hands],
        "hands": [[CODE[c] for c in h] for h in state.hands] if state.faceup else None,
        "duty": None if state.duty is None else {"qq_seat": state.duty, "owed_by": state.turn, "free_play": state.free},
        "status": statuses(state),
        "eliminated": list(state.eliminated),
        "game_number": state.game_number,
        "countdown": list(state.levels) if state.countdown else None,
        "short_hand": state.short_hand,
        "history": history_words(state),
        "known": [[CODE[c] for c in cards] for cards in state.known],
        "over": state.over,
        "outcome": outcome.to_json() if outcome else None,
    }
    if seat is not None:
        legal = state.legal_actions(seat)
        view["hand"] = [CODE[c] for c in state.hands[seat]]
        view["your_turn"] = bool(legal)
        view["legal"] = [a.code() for a in legal]
        penalty: list[str] = []
        if legal and state.duty is None:
            top_card = state.discard[-1]
            penalty = [CODE[c] for c in state.hands[seat] if CMP[c][top_card] == 0]
        view["penalty_cards"] = penalty
    return view
