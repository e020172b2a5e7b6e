"""Round scoring, the match end and the outcome of a Queen of Spades match (RULINGS §5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import Outcome

OUT_BONUS = 100
CUT_BONUS = 100


def copy_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """A fresh copy of one round's record (``round``, ``dealer``, ``end``, ``out``, ``cut``, ``rows``)."""
    return {
        "round": record["round"], "dealer": record["dealer"], "end": record["end"], "out": record["out"],
        "cut": dict(record["cut"]) if record["cut"] is not None else None,
        "rows": [dict(row) for row in record["rows"]],
    }


def breakdown_row(laid: int, hand: int, out_bonus: int, cut_bonus: int, total_before: int) -> dict[str, int]:
    """One seat's line of a round: ``laid`` and ``hand`` are card values (``hand``
    positive, subtracted), ``round = laid - hand + out_bonus + cut_bonus``, and
    ``total`` the match total after the round."""
    round_total = laid - hand + out_bonus + cut_bonus
    return {"laid": laid, "hand": hand, "out_bonus": out_bonus, "cut_bonus": cut_bonus,
            "round": round_total, "total": total_before + round_total}


def match_end(scores: Sequence[int], rounds_played: int, target: int, rounds: int) -> str | None:
    """``"target"`` when someone has reached a positive ``target``, else ``"rounds"``
    when ``rounds`` (if positive) have been played, else ``None`` (the match goes on)."""
    if target > 0 and max(scores) >= target:
        return "target"
    if rounds > 0 and rounds_played >= rounds:
        return "rounds"
    return None


def _names(seats: Sequence[int]) -> str:
    names = [f"{{p{s}}}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def match_outcome(scores: Sequence[int], end: str, target: int, rounds_played: int) -> Outcome:
    """The highest total wins (ties at the target are broken by the higher total, then
    shared); ``ranking`` groups seats by total, best first; ``scores`` are the totals."""
    order = sorted(set(scores), reverse=True)
    ranking = tuple(tuple(s for s in range(len(scores)) if scores[s] == v) for v in order)
    winners = ranking[0]
    best = order[0]
    points = f"{best} point{'' if abs(best) == 1 else 's'}"
    if end == "target":
        if len(winners) > 1:
            reason = f"{_names(winners)} reached the target of {target} together with {points} each and share the win."
        else:
            reached = sum(1 for v in scores if v >= target)
            extra = " and the highest total" if reached > 1 else ""
            reason = f"{_names(winners)} reached the target of {target}{extra} with {points}."
    else:
        after = f"After {rounds_played} round{'' if rounds_played == 1 else 's'}"
        if len(winners) > 1:
            reason = f"{after}, {_names(winners)} share the most points ({best}) and share the win."
        else:
            reason = f"{after}, {_names(winners)} has the most points ({best})."
    return Outcome(winners, ranking, tuple(scores), reason)


def summary_text(record: dict[str, Any]) -> str:
    """``Round 3 scores: {p0} +70 (laid 190, 120 left in hand), …; totals: {p0} 540, …`` for a round
    record; an empty hand costs nothing and is not mentioned."""
    parts = []
    for s, row in enumerate(record["rows"]):
        extras = f", {row['hand']} left in hand" if row["hand"] else ""
        if row["out_bonus"]:
            extras += f", went out +{row['out_bonus']}"
        if row["cut_bonus"]:
            extras += f", cut +{row['cut_bonus']}"
        parts.append(f"{{p{s}}} {row['round']:+d} (laid {row['laid']}{extras})")
    totals = ", ".join(f"{{p{s}}} {row['total']}" for s, row in enumerate(record["rows"]))
    return f"Round {record['round']} scores: " + ", ".join(parts) + f". Match totals: {totals}."
