"""Round scoring, the match end and the outcome of a Queen of Spades match (RULINGS §5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import Outcome
from ..i18n import Seat, Text, plural, say
from ..phrases import listed, together

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


def match_outcome(scores: Sequence[int], end: str, target: int, rounds_played: int) -> Outcome:
    """The highest total wins (ties at the target are broken by the higher total, then
    shared); ``ranking`` groups seats by total, best first; ``scores`` are the totals."""
    order = sorted(set(scores), reverse=True)
    ranking = tuple(tuple(s for s in range(len(scores)) if scores[s] == v) for v in order)
    winners = ranking[0]
    best = order[0]
    names = together([Seat(s) for s in winners], commas=True)
    # The number of points decides the form by its size: -1 point, 1 point, 0 points.
    counted = dict(count=abs(best), players=names, target=target, points=best)
    reason: Text
    if end == "target":
        if len(winners) > 1:
            reason = plural("{players} reached the target of {target} together with {points} point each and share "
                            "the win.",
                            "{players} reached the target of {target} together with {points} points each and share "
                            "the win.", **counted)
        elif sum(1 for v in scores if v >= target) > 1:
            reason = plural("{players} reached the target of {target} and the highest total with {points} point.",
                            "{players} reached the target of {target} and the highest total with {points} points.",
                            **counted)
        else:
            reason = plural("{players} reached the target of {target} with {points} point.",
                            "{players} reached the target of {target} with {points} points.", **counted)
    else:
        after = plural("After {count} round", "After {count} rounds", rounds_played)
        if len(winners) > 1:
            reason = say("{after}, {players} share the most points ({points}) and share the win.", after=after,
                         players=names, points=best)
        else:
            reason = say("{after}, {players} has the most points ({points}).", after=after, players=names,
                         points=best)
    return Outcome(winners, ranking, tuple(scores), reason)


def summary_text(record: dict[str, Any]) -> Text:
    """``Round 3 scores: ana +70 (laid 190, 120 left in hand), …; totals: ana 540, …`` for a round
    record; an empty hand costs nothing and is not mentioned."""
    parts = []
    for s, row in enumerate(record["rows"]):
        details = [say("laid {points}", points=row["laid"])]
        if row["hand"]:
            details.append(say("{points} left in hand", points=row["hand"]))
        if row["out_bonus"]:
            details.append(say("went out +{points}", points=row["out_bonus"]))
        if row["cut_bonus"]:
            details.append(say("cut +{points}", points=row["cut_bonus"]))
        signed = f"{row['round']:+d}"
        parts.append(say("{player} {points} ({details})", player=Seat(s), points=signed, details=listed(details)))
    totals = listed([say("{player} {points}", player=Seat(s), points=row["total"])
                     for s, row in enumerate(record["rows"])])
    return say("Round {number} scores: {scores}. Match totals: {totals}.", number=record["round"],
               scores=listed(parts), totals=totals)
