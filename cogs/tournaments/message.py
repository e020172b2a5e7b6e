"""The tournament message (Components V2, in the server's language): what it is, when it starts,
who is in, then the round with its tables (each a link to its thread) and the standings, and
the buttons that can be used now.

The standings are a text board here (readable by screen readers); a picture of them, and of a
knockout's bracket, takes the board's place through :attr:`Layout.picture` like a table's
picture does (:class:`~cogs.components.Layout`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from babel.numbers import format_decimal

from bot.markdown import literal
from bot.tournaments import TournamentRow, TournamentView
from games.i18n import SOURCE, Text, plural, say, say_as

from ..components import Layout, LayoutMessage, action_row, button_component, separator, text_display
from ..ui import Rendered, message_link, options_line, ui_for, whole_lines
from .controls import VERBS

NAMES_SHOWN = 40
"""Entrants listed by name; more are counted ("+12 more")."""
STANDINGS_SHOWN = 16
"""Lines of the standings board; the rest are counted."""
TABLES_SHOWN = 20
BOARD = 1500
"""Characters of a text board (entrants, tables, standings), cut at a whole line."""
GOLD = 0xF1C40F
STATUS_WORDS = {"signup": say("sign-up"), "running": say("running"), "finished": say("finished"),
                "cancelled": say("cancelled")}
"""A tournament's status (as stored) in words."""


def title(row: TournamentRow, language: str) -> str:
    """The tournament's name as typed (escaped), or "<Game> tournament"."""
    if row.name:
        return literal(row.name)
    return say("{game} tournament", game=ui_for(row.game_id, language).title).render(language)


def points_text(points: Fraction, language: str) -> str:
    """Match points as people write them: 2, 2½, ½; other fractions as decimals."""
    whole, part = divmod(points, 1)
    if part == 0:
        return str(int(whole))
    if part == Fraction(1, 2):
        return f"{int(whole) if whole else ''}½"
    return str(round(float(points), 2)) if language == SOURCE else format_decimal(round(float(points), 2),
                                                                                  locale=language)


def status_line(view: TournamentView, now: float, language: str) -> Text:
    row = view.row
    if row.status == "cancelled":
        return say("🛑 This tournament was cancelled.")
    if row.status == "finished":
        winner = view.standings[0] if view.standings else None
        if winner is None:
            return say("🏁 The tournament is over.")
        return say("🏁 The tournament is over: {winner} wins!", winner=literal(view.entrant(winner.entrant).name))
    if row.status == "running":
        line = say("Round {round} of {rounds}", round=row.round, rounds=row.rounds or row.round)
        if row.paused:
            return say("⏸ {round} · paused by the host", round=line)
        if row.deadline is not None:
            return say("▶ {round} · ⏰ ends <t:{when}:R>", round=line, when=str(int(row.deadline)))
        return say("▶ {round}", round=line)
    if row.starts_at is None:
        return say("📝 Sign-up is open: the host starts the tournament.")
    if row.checking_in(now):
        return say("✅ Check-in is open: check in before the start, <t:{when}:F> (<t:{when}:R>).",
                   when=str(int(row.starts_at)))
    return say("📝 Sign-up is open · starts <t:{when}:F> (<t:{when}:R>)", when=str(int(row.starts_at)))


def rules_line(row: TournamentRow, language: str) -> str:
    """Format, rounds, the turn timer, the round limit and the size cap, in small print."""
    ui = ui_for(row.game_id, language)
    parts: list[Text | str] = [
        plural("Swiss, {count} round", "Swiss, {count} rounds", row.rounds) if row.rounds else say("Swiss"),
        say("{minutes} min per turn", minutes=row.timer_minutes),
    ]
    if row.round_minutes:
        parts.append(say("rounds end after {minutes} min", minutes=row.round_minutes))
    if row.max_players:
        parts.append(plural("at most {count} player", "at most {count} players", row.max_players))
    if row.check_in_opens is not None:
        parts.append(say("check-in {minutes} min before", minutes=row.check_in_minutes))
    words = [part.render(language) if isinstance(part, Text) else part for part in parts]
    return " · ".join(filter(None, [options_line(ui, row.options), *words]))


def entrants_board(view: TournamentView, now: float, language: str) -> str:
    people = view.entrants
    checking = view.row.checking_in(now)
    lines = [say("**Players ({count})**", count=len(people)).render(language)]
    names = [("✅ " if checking and e.checked_in else "") + literal(e.name) for e in people[:NAMES_SHOWN]]
    lines.append(", ".join(names) if names else "—")
    if len(people) > NAMES_SHOWN:
        lines.append(say("+{count} more", count=len(people) - NAMES_SHOWN).render(language))
    return "\n".join(lines)


def tables_board(view: TournamentView, language: str) -> str:
    """The round's tables: who plays whom (a link to the table's thread) and how it ended."""
    row = view.row
    lines = [say("**Round {round}**", round=row.round).render(language)]
    for table in view.tables[:TABLES_SHOWN]:
        names = [literal(view.entrant(e).name) for e in table.entrants if e is not None]
        if table.bye:
            lines.append(say("Bye: {player} (a win)", player=names[0]).render(language))
            continue
        players = " v ".join(names)
        where = message_link(row.guild_id, table.thread_id, None) if table.thread_id else None
        shown = f"[{players}]({where})" if where else players
        result = view.results.get(table.table_id) if table.table_id is not None else None
        lines.append(f"{table.grp}. {shown} — {outcome_words(view, table.entrants, result, language)}")
    if len(view.tables) > TABLES_SHOWN:
        lines.append(say("+{count} more", count=len(view.tables) - TABLES_SHOWN).render(language))
    return "\n".join(lines)


def outcome_words(view: TournamentView, entrants: tuple[int | None, ...], result: Any, language: str) -> str:
    if result is None:
        return say("playing").render(language)
    if result.status != "finished":
        return say("ended early").render(language)
    best = min((s.place for s in result.seats if s.place is not None), default=None)
    winners = [entrants[s.seat] for s in result.seats if s.place == best and s.seat < len(entrants)]
    if len(winners) != 1 or winners[0] is None:
        return say_as("a game's result", "draw").render(language)
    return say("{player} won", player=literal(view.entrant(winners[0]).name)).render(language)


def standings_board(view: TournamentView, language: str) -> str:
    """The standings as text: place, name, points, then the first tiebreaks (Buchholz, Sonneborn–Berger)."""
    lines = [say("**Standings** · points · Buchholz (Bh) · Sonneborn–Berger (SB)").render(language)]
    for line in view.standings[:STANDINGS_SHOWN]:
        entrant = view.entrant(line.entrant)
        figures = (points_text(value, language) for value in (line.points, line.buchholz, line.sonneborn_berger))
        words = "{}. {} — {} · Bh {} · SB {}".format(line.rank, literal(entrant.name), *figures)  # no words: names
        lines.append(words + (say(" (out)").render(language) if line.dropped else ""))
    if len(view.standings) > STANDINGS_SHOWN:
        lines.append(say("+{count} more", count=len(view.standings) - STANDINGS_SHOWN).render(language))
    return "\n".join(lines)


def controls(view: TournamentView, now: float, language: str) -> list[dict[str, Any]]:
    """The buttons that can be used now: Join and Leave during sign-up (Leave while it runs, to
    drop out), Check in while check-in is open, and Host while the tournament is open."""
    row = view.row
    if not row.is_open:
        return []
    verbs = ["join", "leave"] if row.status == "signup" else ["leave"]
    if row.checking_in(now):
        verbs.append("checkin")
    verbs.append("host")
    buttons = []
    for verb in verbs:
        label, style = VERBS[verb]
        buttons.append(button_component(f"dh:tn:{row.id}:{verb}", label.render(language), style))
    return [action_row(buttons)]


def tournament_layout(view: TournamentView, now: float, language: str, *, with_controls: bool = True) -> Layout:
    row = view.row
    ui = ui_for(row.game_id, language)
    head = "\n".join([f"### 🏆 {title(row, language)} · {ui.title}", status_line(view, now, language).render(language)])
    parts: list[dict[str, Any]] = [text_display("-# " + rules_line(row, language))]
    if row.status == "signup":
        parts.append(text_display(whole_lines(entrants_board(view, now, language), BOARD)))
    if view.tables:
        parts.append(text_display(whole_lines(tables_board(view, language), BOARD)))
    board = [text_display(whole_lines(standings_board(view, language), BOARD))] if view.standings else []
    tail = [separator(), *controls(view, now, language)] if with_controls and row.is_open else []
    return Layout(accent=GOLD if row.status == "finished" else ui.colour, head=[text_display(head), *parts],
                  board=board, tail=tail, alt=standings_board(view, language) if view.standings else "")


def tournament_message(view: TournamentView, now: float, language: str, *, with_controls: bool = True) -> Rendered:
    return Rendered(LayoutMessage(tournament_layout(view, now, language, with_controls=with_controls)))
