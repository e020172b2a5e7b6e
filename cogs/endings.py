"""The block every finished game ends with, the same shape for all games: 🏆 the winner(s),
the ranking with each place's result in its unit ("3 cards left", "42 pts"), then the rounds
played (games with rounds) and how long it took."""

from __future__ import annotations

from typing import Sequence

from bot.service import TableSnapshot

from .ui import ui_for
from .words import Word, Words

WORDS: dict[str, Word] = {
    "wins": "🏆 {who} wins",
    "win": "🏆 {who} win",
    "no_winner": "🏆 No winner",
    "place": "{place}. {who}",
    "place_result": "{place}. {who} — {result}",
    "together": "{first} & {second}",
    "rounds": ("{n} round", "{n} rounds"),
    "played_in": "Played in {time}",
    "under_a_minute": "under a minute",
    "minutes": "{minutes} min",
    "hours": "{hours} h {minutes:02d} min",
}
WORD = Words(WORDS)


def duration_text(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes < 1:
        return WORD("under_a_minute")
    if minutes < 60:
        return WORD("minutes", minutes=minutes)
    return WORD("hours", hours=minutes // 60, minutes=minutes % 60)


def group_name(group: Sequence[int], names: Sequence[str]) -> str:
    named = [f"**{names[seat]}**" for seat in group]
    while len(named) > 1:
        named[-2:] = [WORD("together", first=named[-2], second=named[-1])]
    return named[0] if named else ""


def final_standings(table: TableSnapshot) -> str:
    """The ending block of a finished game ('' while it runs or when it was ended early)."""
    row, outcome = table.row, table.row.outcome
    if row.status != "finished" or not outcome:
        return ""
    ui, names = ui_for(row.game_id), table.names
    winners: list[int] = outcome["winners"]
    if winners:
        # A team's seats win together: name the team's group once, as the ranking does.
        group = next((g for g in outcome["ranking"] if set(winners) <= set(g)), winners)
        lines = [WORD("wins" if len(group) == 1 else "win", who=group_name(group, names))]
    else:
        lines = [WORD("no_winner")]
    for place, group in enumerate(outcome["ranking"], start=1):
        result = ui.standing(table, group[0]) if group else ""
        who = group_name(group, names)
        lines.append(WORD("place_result", place=place, who=who, result=result) if result
                     else WORD("place", place=place, who=who))
    facts = []
    rounds = (table.view or {}).get("round")
    if isinstance(rounds, int):
        facts.append(WORD.count("rounds", rounds))
    if row.started_at and row.finished_at:
        facts.append(WORD("played_in", time=duration_text(row.finished_at - row.started_at)))
    if facts:
        lines.append("-# " + " · ".join(facts))
    return "\n".join(lines)
