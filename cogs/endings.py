"""The final standings every finished game's message ends with, the same shape for all games.

🏆 the winner(s), the ranking with each place's result in its unit ("3 cards left",
"42 pts"), then the rounds played (games with rounds) and how long it took."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Literal

from babel.dates import format_timedelta

from bot.service import TableSnapshot
from games.i18n import SOURCE, plural, say

from .ui import ui_for


def duration_text(seconds: float, language: str) -> str:
    """How long a game took, to the minute, in the language's units (Babel): "5 min", "1 hr 5 min"."""
    minutes = round(seconds / 60)
    if minutes < 1:
        return say("under a minute").render(language)
    hours, minutes = divmod(minutes, 60)
    parts: list[tuple[timedelta, Literal["hour", "minute"]]] = [(timedelta(hours=hours), "hour")] if hours else []
    parts += [(timedelta(minutes=minutes), "minute")] if minutes or not hours else []
    return " ".join(format_timedelta(delta, granularity=unit, format="short", locale=language) for delta, unit in parts)


def group_name(group: Sequence[int], names: Sequence[str], language: str) -> str:
    named = [f"**{names[seat]}**" for seat in group]
    while len(named) > 1:
        named[-2:] = [say("{first} & {second}", first=named[-2], second=named[-1]).render(language)]
    return named[0] if named else ""


def final_standings(table: TableSnapshot, language: str = SOURCE) -> str:
    """The ending block of a finished game in ``language`` ('' while it runs or when it was ended early)."""
    row, outcome, table = table.row, table.row.outcome, table.speaking(language)
    if row.status != "finished" or not outcome:
        return ""
    ui, names = ui_for(row.game_id, language), table.names
    winners: list[int] = outcome["winners"]
    if winners:
        # A team's seats win together: name the team's group once, as the ranking does.
        group = next((g for g in outcome["ranking"] if set(winners) <= set(g)), winners)
        who = group_name(group, names, language)
        lines = [ui.words(say("🏆 {who} wins", who=who) if len(group) == 1 else say("🏆 {who} win", who=who))]
    else:
        lines = [ui.words(say("🏆 No winner"))]
    for place, group in enumerate(outcome["ranking"], start=1):
        result = ui.standing(table, group[0]) if group else ""
        who = group_name(group, names, language)
        lines.append(f"{place}. {who} — {result}" if result else f"{place}. {who}")
    facts = []
    rounds = (table.view or {}).get("round")
    if isinstance(rounds, int):
        facts.append(ui.words(plural("{count} round", "{count} rounds", rounds)))
    if row.started_at and row.finished_at:
        facts.append(ui.words(say("Played in {time}", time=duration_text(row.finished_at - row.started_at, language))))
    if facts:
        lines.append("-# " + " · ".join(facts))
    return "\n".join(lines)
