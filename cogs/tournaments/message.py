"""The tournament message.

Components V2, in the server's language: what it is, when it starts,
who is in, then the stage (Swiss or knockout) and the round with its tables (each a link to its
thread), the standings, the final placings once a knockout ends, and the buttons that can be
used now.

The board is text here (readable by screen readers, and what servers with pictures off see): the
standings, a knockout's bracket, or at the end the final placings (:func:`picture_board`). The
picture of the same (:mod:`.pictures`) takes the board's place through :attr:`Layout.picture` like
a table's picture does (:class:`~cogs.components.Layout`), the board its description.
"""

from __future__ import annotations

from typing import Any

from bot.markdown import literal
from bot.pictures.tournament import knockout_round, points_text
from bot.records import shown_name
from bot.tournaments import RoundTableRow, TournamentRow, TournamentView
from games.i18n import Text, plural, say, say_as
from games.tournament import BracketTable

from ..components import Layout, LayoutMessage, action_row, button_component, separator, text_display
from ..site_links import open_in_browser
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
STAGE_WORDS = {"swiss": say("Swiss"), "knockout": say("Knockout")}


def title(row: TournamentRow, language: str) -> str:
    """The tournament's name as typed (escaped), or "<Game> tournament"."""
    if row.name:
        return literal(row.name)
    return say("{game} tournament", game=ui_for(row.game_id, language).title).render(language)


def round_title(view: TournamentView) -> Text:
    """The current round: "Round 2 of 3" in the Swiss stage; in the knockout, "Semi-finals"…"""
    row, left = view.row, view.rounds_left
    if left is None:
        return say("Round {round} of {rounds}", round=row.round, rounds=row.rounds or row.round)
    assert view.bracket is not None  # a knockout round is counted from its bracket
    return knockout_round(left, view.bracket.rounds - left + 1)


def label(view: TournamentView, entrant: int) -> str:
    """An entrant's name (a team's two) as the message shows it."""
    return literal(view.entrant(entrant).label)


def status_line(view: TournamentView, now: float, language: str) -> Text:
    row = view.row
    if row.status == "cancelled":
        return say("🛑 This tournament was cancelled.")
    if row.status == "finished":
        if not view.placings:
            return say("🏁 The tournament is over.")
        (winner, *_) = view.placings[0]
        if row.in_teams:
            return say("🏁 The tournament is over: {winners} win it!", winners=label(view, winner))
        return say("🏁 The tournament is over: {winner} wins!", winner=label(view, winner))
    if row.status == "running":
        stage = STAGE_WORDS[row.stage].render(language)
        line = f"{stage} · {round_title(view).render(language)}"
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


def format_words(row: TournamentRow) -> list[Text]:
    """The format in words: Swiss (its rounds, a top cut) or knockout (its seeding), and the
    tables' shape (their size, teams, how many go through)."""
    if row.format == "knockout":
        parts = [say("Knockout, seeded by rating") if row.seeding == "rating" else say("Knockout, seeded at random")]
    else:
        parts = [plural("Swiss, {count} round", "Swiss, {count} rounds", row.rounds) if row.rounds else say("Swiss")]
        if row.top:
            parts.append(say("then a knockout of the best {count}", count=row.top))
    if row.in_teams:
        parts.append(say("teams of two"))
    elif row.per_table > 2:
        parts.append(say("tables of {count}", count=row.table_size))
        if row.format == "knockout" or row.top:
            parts.append(plural("{count} goes through from each table", "{count} go through from each table",
                                row.advance))
    return parts


def rules_line(row: TournamentRow, language: str) -> str:
    """Format, tables, the turn timer, the round limit and the size cap, in small print."""
    ui = ui_for(row.game_id, language)
    parts: list[Text | str] = [*format_words(row), say("{minutes} min per turn", minutes=row.timer_minutes)]
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
    heading = say("**Teams ({count})**", count=len(people)) if view.row.in_teams else \
        say("**Players ({count})**", count=len(people))
    lines = [heading.render(language)]
    names = [("✅ " if checking and e.checked_in else "") + literal(e.label) for e in people[:NAMES_SHOWN]]
    lines.append(", ".join(names) if names else "—")
    if len(people) > NAMES_SHOWN:
        lines.append(plural("+{count} more", "+{count} more", len(people) - NAMES_SHOWN).render(language))
    return "\n".join(lines)


def tables_board(view: TournamentView, language: str) -> str:
    """The round's tables: who plays whom (a link to the table's thread) and how it ended, or in
    a knockout who goes through."""
    row = view.row
    heading = f"**{round_title(view).render(language)}**" if row.stage == "knockout" else \
        say("**Round {round}**", round=row.round).render(language)
    lines = [heading]
    for table in view.tables[:TABLES_SHOWN]:
        if table.bye:
            player = label(view, table.playing[0])
            bye = say("Bye: {player} goes through", player=player) if row.stage == "knockout" else \
                say("Bye: {player} (a win)", player=player)
            lines.append(bye.render(language))
            continue
        seats = [seat for seat, e in enumerate(table.entrants) if e is None or table.entrants.index(e) == seat]
        players = " v ".join(seat_name(view, table, seat, language) for seat in seats)
        where = message_link(row.guild_id, table.thread_id, None) if table.thread_id else None
        shown = f"[{players}]({where})" if where else players
        lines.append(f"{table.grp}. {shown} — {outcome_words(view, table, language)}")
    if len(view.tables) > TABLES_SHOWN:
        lines.append(plural("+{count} more", "+{count} more", len(view.tables) - TABLES_SHOWN).render(language))
    return "\n".join(lines)


def seat_name(view: TournamentView, table: RoundTableRow, seat: int, language: str) -> str:
    """Who sits at ``seat`` of ``table``: an entrant (a team's two names), or an AI seat named as the table names it."""
    entrant = table.entrants[seat]
    if entrant is None:
        return shown_name(f"AI {table.entrants[:seat + 1].count(None)}", True, language)
    return label(view, entrant)


def outcome_words(view: TournamentView, table: RoundTableRow, language: str) -> str:
    """How a round's table ended: who won (or a draw), or in a knockout who goes through."""
    through = bracket_table(view, table)
    if through is not None and through.going_on is not None:
        if view.rounds_left == 1:  # the final: its winner
            return say("{player} won", player=label(view, through.going_on[0])).render(language)
        names = " & ".join(label(view, e) for e in through.going_on)
        people = len(through.going_on) * len(view.row.sides[0])
        return plural("{players} goes through", "{players} go through", people, players=names).render(language)
    result = view.results.get(table.table_id) if table.table_id is not None else None
    if result is None:
        return say("playing").render(language)
    if result.status != "finished":
        return say("ended early").render(language)
    best = min((s.place for s in result.seats if s.place is not None), default=None)
    first = [s.seat for s in result.seats if s.place == best and s.seat < len(table.entrants)]
    if len({table.entrants[seat] for seat in first}) != 1 or (table.entrants[first[0]] is None and len(first) > 1):
        return say_as("a game's result", "draw").render(language)
    return say("{player} won", player=seat_name(view, table, first[0], language)).render(language)


def bracket_table(view: TournamentView, table: RoundTableRow) -> BracketTable | None:
    """The knockout's table that is ``table`` of the current round (None outside the knockout)."""
    if view.bracket is None or view.rounds_left is None:
        return None
    row = view.bracket_tables[view.row.round - view.bracket.first_round]
    return next((t for t in row if set(t.entrants) == set(table.playing)), None)


def placings_board(view: TournamentView, language: str) -> str:
    """A knockout's final places, best first, those sharing a place on one line."""
    lines = [say("**Final placings**").render(language)]
    place = 1
    for group in view.placings[:STANDINGS_SHOWN]:
        lines.append(f"{place}. " + ", ".join(label(view, e) for e in group))
        place += len(group)
    if len(view.placings) > STANDINGS_SHOWN:
        lines.append(plural("+{count} more", "+{count} more", len(view.placings) - STANDINGS_SHOWN).render(language))
    return "\n".join(lines)


def standings_board(view: TournamentView, language: str) -> str:
    """The standings as text: place, name, points, then the first tiebreaks (Buchholz, Sonneborn–Berger)."""
    lines = [say("**Standings** · points · Buchholz (Bh) · Sonneborn–Berger (SB)").render(language)]
    for line in view.standings[:STANDINGS_SHOWN]:
        figures = (points_text(value, language) for value in (line.points, line.buchholz, line.sonneborn_berger))
        words = "{}. {} — {} · Bh {} · SB {}".format(line.rank, label(view, line.entrant), *figures)  # no words: names
        lines.append(words + (say(" (out)").render(language) if line.dropped else ""))
    if len(view.standings) > STANDINGS_SHOWN:
        lines.append(plural("+{count} more", "+{count} more", len(view.standings) - STANDINGS_SHOWN).render(language))
    return "\n".join(lines)


def bracket_board(view: TournamentView, language: str) -> str:
    """The knockout as text, the latest round first: each table's entrants ("…" for each place
    still awaited) and who went on."""
    assert view.bracket is not None
    rounds = view.bracket_tables
    lines = []
    for k in reversed(range(len(rounds))):
        if not any(t.entrants for t in rounds[k]):
            continue
        lines.append(f"**{knockout_round(len(rounds) - k, k + 1).render(language)}**")
        for table in rounds[k]:
            names = [label(view, e) for e in table.entrants] + ["…"] * (view.bracket.advance * table.waiting)
            if table.bye:
                lines.append(say("Bye: {player} goes through", player=" & ".join(names)).render(language))
            elif table.going_on is not None:
                lines.append(f"{' v '.join(names)} → " + ", ".join(label(view, e) for e in table.going_on))
            else:
                lines.append(" v ".join(names))
    return "\n".join(lines)


def picture_board(view: TournamentView, language: str) -> str:
    """In words, what the message's picture shows (:mod:`.pictures`): the final placings, the
    bracket, or the standings; its text board, and its description for screen readers."""
    if view.row.status == "finished" and view.placings and (view.bracket is not None or not view.standings):
        return placings_board(view, language)
    if view.row.status == "running" and view.rounds_left is not None:
        return bracket_board(view, language)
    return standings_board(view, language) if view.standings else ""


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


def tournament_layout(view: TournamentView, now: float, language: str, *, with_controls: bool = True,
                      site: str | None = None) -> Layout:
    """The message's layout; ``site``: the tournament's page in the server's site, when that is on."""
    row = view.row
    ui = ui_for(row.game_id, language)
    head = "\n".join([f"### 🏆 {title(row, language)} · {ui.title}", status_line(view, now, language).render(language)])
    parts: list[dict[str, Any]] = [text_display("-# " + rules_line(row, language))]
    if row.status == "signup":
        parts.append(text_display(whole_lines(entrants_board(view, now, language), BOARD)))
    if view.tables:
        parts.append(text_display(whole_lines(tables_board(view, language), BOARD)))
    pictured = picture_board(view, language)
    boards = [placings_board(view, language)] if view.bracket is not None and view.placings else []
    boards += [standings_board(view, language)] if view.standings else []
    parts += [text_display(whole_lines(text, BOARD)) for text in boards if text != pictured]
    board = [text_display(whole_lines(pictured, BOARD))] if pictured else []
    rows = controls(view, now, language) if with_controls else []
    rows += [action_row([open_in_browser(site, language)])] if site else []
    tail = [separator(), *rows] if rows else []
    return Layout(accent=GOLD if row.status == "finished" else ui.colour, head=[text_display(head), *parts],
                  board=board, tail=tail, alt=pictured)


def tournament_message(view: TournamentView, now: float, language: str, *, with_controls: bool = True,
                       site: str | None = None) -> Rendered:
    return Rendered(LayoutMessage(tournament_layout(view, now, language, with_controls=with_controls, site=site)))


def tournament_path(tournament_id: int) -> str:
    """The tournament's page in its server's site (:func:`~cogs.site_links.page_url`)."""
    return f"tournaments/{tournament_id}"
