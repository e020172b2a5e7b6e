"""The block every finished game ends with, the same for all games: 🏆 the winner(s),
the ranking with scores, the rounds played (games with rounds) and how long it took."""

from __future__ import annotations

from typing import Any, Sequence

from bot.service import TableSnapshot


def duration_text(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes < 1:
        return "under a minute"
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


def group_name(group: Sequence[int], names: Sequence[str]) -> str:
    return " & ".join(f"**{names[seat]}**" for seat in group)


def final_standings(table: TableSnapshot) -> str:
    """The ending block of a finished game ('' while it runs or when it was ended early)."""
    row, outcome = table.row, table.row.outcome
    if row.status != "finished" or not outcome:
        return ""
    names = table.names
    winners: list[int] = outcome["winners"]
    scores: list[Any] = outcome["scores"]
    if winners:
        # A team's seats win together: name the team's group once, as the ranking does.
        group = next((g for g in outcome["ranking"] if set(winners) <= set(g)), winners)
        verb = "wins" if len(group) == 1 else "win"
        lines = [f"🏆 {group_name(group, names)} {verb}"]
    else:
        lines = ["🏆 No winner"]
    for place, group in enumerate(outcome["ranking"], start=1):
        score = f" — {scores[group[0]]}" if group and group[0] < len(scores) else ""
        lines.append(f"{place}. {group_name(group, names)}{score}")
    facts = []
    rounds = (table.view or {}).get("round")
    if isinstance(rounds, int):
        facts.append(f"{rounds} round{'s' if rounds != 1 else ''}")
    if row.started_at and row.finished_at:
        facts.append(duration_text(row.finished_at - row.started_at))
    if facts:
        lines.append(" · ".join(facts))
    return "\n".join(lines)
