"""The messages of a table as Components V2 layouts, the same frame for every game: one
container whose accent says whose turn it is, a short header, the picture (or a text board in
its place), the latest events, and the controls (built by the caller and handed in).

- the table message (:func:`table_layout`): heading, whose turn with a mention and the
  deadline, the game's few numbers; the picture (or the text board); while the game runs the
  newest :data:`LATEST_EVENTS` events, once finished the standings; options and timer in
  small print; My hand, Log, Watch (Log and Play again at the end).
- a hand (:func:`hand_layout`): heading, one line of what you may do; the picture of your
  hand; private news; your moves.
- the lobby (:func:`lobby_layout`): heading, what to press, the seats, the options.
"""

from __future__ import annotations

from typing import Any

from bot.markdown import literal, plain
from bot.service import HandSnapshot, TableSnapshot
from games.base import count_text

from .components import Layout, separator, text_display
from .endings import final_standings
from .ui import GameUI, MoveLayout, latest_events, mention, options_line, players_to_act, ui_for, whole_lines
from .words import Word, Words

WORDS: dict[str, Word] = {
    "heading": "### {game} · #{table}",
    "watching": "### 👁 {game} · #{table}",
    "hand_heading": "### Your hand · {game} #{table}",
    "to_act": "▶ {who} {what}",
    "deadline": "⏰ {when}",
    "finished": "🏁 {outcome}",
    "ended_early": "🛑 This game was ended before it finished.",
    "per_turn": "{minutes} min per turn",
    "no_timer": "no turn timer",
    "players": "{counts} players",
    "chosen": "**{choice}**: now choose below.",
    "just_now": "**Just now:** {notes}",
    "picture_of": "{game}, table #{table}: {board}",
    "lobby_open": "Press **Join** to take a seat. The host adds AI players and starts the game.",
    "lobby_cancelled": "This table was cancelled.",
    "lobby_closed": "This table is closed.",
    "seats": "**Players ({count}/{most})**",
    "seat": "{number}. {name}",
    "seat_level": "{number}. {name} · {level}",
    "host": " — host",
    "side": " · {side}",
    "nobody": "—",
}
WORD = Words(WORDS)

LATEST_EVENTS = 2
"""Events the table message shows under the picture; the **Log** has every one."""
BOARD = 1500
"""Characters of the text board in the picture's place (cut at a whole line): the whole
message stays well within Discord's 4,000 characters of text."""
HAND = 2000
"""Characters of a hand's text in the picture's place."""
NOTES = 500


def table_layout(table: TableSnapshot, controls: list[dict[str, Any]], watching: bool = False) -> Layout:
    """A started game's table message (running, finished or ended early); ``watching``: as
    **Watch** shows it, privately."""
    row = table.row
    ui = ui_for(row.game_id)
    heading = WORD("watching" if watching else "heading", game=ui.title, table=row.id)
    facts = ui.facts(table) if row.status == "running" else []
    lines = [heading, *status_lines(ui, table, facts)]
    board = ui.board(table) if table.view is not None else ""
    tail: list[dict[str, Any]] = []
    standings = final_standings(table)
    if standings:
        tail.append(text_display(standings))
    latest = latest_events(row.recent_events, LATEST_EVENTS) if row.status == "running" else []
    if latest:
        tail.append(text_display("\n".join(latest)))
    tail.append(text_display("-# " + footer(ui, table)))
    return Layout(
        accent=accent(ui, table), head=[text_display("\n".join(lines))],
        board=[text_display(whole_lines(board, BOARD))] if board else [], tail=[*tail, separator(), *controls],
        alt=WORD("picture_of", game=ui.title, table=row.id, board=spoken("\n".join([*facts, board]))),
    )


def spoken(text: str) -> str:
    """Message text as a picture's description reads it (shown as is): no bold, names as typed."""
    return plain(text.replace("**", ""))


def status_lines(ui: GameUI, table: TableSnapshot, facts: list[str]) -> list[str]:
    """Under the heading: whose turn and until when, and the game's few numbers (``facts``); or the result."""
    row = table.row
    if row.status == "finished":
        return [WORD("finished", outcome=ui.outcome_text(table))]
    if row.status != "running":
        return [WORD("ended_early")]
    lines = []
    acting = players_to_act(table)
    if acting:
        line = WORD("to_act", who=", ".join(mention(table, seat) for seat in acting), what=ui.turn_words(table))
        if row.deadline:
            line += " · " + WORD("deadline", when=f"<t:{int(row.deadline)}:R>")
        lines.append(line)
    return lines + facts


def accent(ui: GameUI, table: TableSnapshot) -> int:
    """Whose turn it is (the first to act's colour), else the game's colour."""
    acting = players_to_act(table) if table.row.status == "running" else []
    return ui.turn_colour(table, acting[0]) if acting else ui.colour


def footer(ui: GameUI, table: TableSnapshot) -> str:
    row = table.row
    timer = WORD("per_turn", minutes=row.timer_minutes) if row.timer_minutes else WORD("no_timer")
    return " · ".join(part for part in (options_line(ui, row.options), timer) if part)


def hand_layout(hand: HandSnapshot, moves: MoveLayout | None, controls: list[dict[str, Any]],
                notice: str | None = None) -> Layout:
    """A seat's private message: ``notice`` (the answer to a click that did not play), what the
    seat may do, its hand, private news and its controls."""
    row = hand.table.row
    ui = ui_for(row.game_id)
    prompt = WORD("chosen", choice=moves.chosen) if moves is not None and moves.chosen else ui.prompt(hand)
    lines = [*([notice] if notice else []), WORD("hand_heading", game=ui.title, table=row.id), prompt]
    text = ui.hand(hand)
    tail = [text_display(whole_lines(WORD("just_now", notes="\n".join(hand.notes)), NOTES))] if hand.notes else []
    return Layout(
        accent=ui.turn_colour(hand.table, hand.seat), head=[text_display("\n".join(lines))],
        board=[text_display(whole_lines(text, HAND))], tail=[*tail, *controls],
        alt=spoken(text),
    )


def lobby_layout(table: TableSnapshot, controls: list[dict[str, Any]], invitation: str | None = None) -> Layout:
    """The lobby: what to press (under Play again's ``invitation``), the seats, the options."""
    row = table.row
    ui = ui_for(row.game_id)
    game = ui.game
    what = {"lobby": "lobby_open", "cancelled": "lobby_cancelled"}.get(row.status, "lobby_closed")
    head = [WORD("heading", game=ui.title, table=row.id), *([invitation] if invitation else []), WORD(what)]
    seats = [WORD("seats", count=len(row.seats), most=game.max_players)]
    for seat in row.seats:
        name = literal(seat.shown_name)
        line = WORD("seat_level" if seat.ai_level else "seat", number=seat.seat + 1, name=name, level=seat.ai_level)
        if seat.user_id is not None and seat.user_id == row.host_id:
            line += WORD("host")
        if game.sides:
            line += WORD("side", side=game.sides[seat.seat % len(game.sides)])
        seats.append(line)
    if not row.seats:
        seats.append(WORD("nobody"))
    timer = WORD("per_turn", minutes=row.timer_minutes) if row.timer_minutes else WORD("no_timer")
    counts = WORD("players", counts=str(count_text(game.allowed_player_counts())).replace("–", "\u2060–\u2060"))
    small = " · ".join(part for part in (options_line(ui, row.options), timer, counts) if part)
    return Layout(accent=ui.colour, head=[text_display("\n".join(head))], board=[],
                  tail=[text_display("\n".join(seats)), text_display("-# " + small), *controls])
