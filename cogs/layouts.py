"""The frame of every table, hand and lobby message: one Components V2 container, the same for every game.

The container's accent says whose turn it is; inside, a short header, the picture (or a text
board in its place), the latest events, and the controls (built by the caller and handed in).

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
from bot.records import event_words
from bot.service import HandSnapshot, TableSnapshot
from games.ai import LEVEL_NAMES
from games.base import count_text
from games.i18n import SOURCE, say

from .badges import unlock_lines
from .components import Layout, separator, text_display
from .endings import final_standings
from .ui import GameUI, MoveLayout, latest_events, mention, options_line, players_to_act, ui_for, whole_lines

LATEST_EVENTS = 2
"""Events the table message shows under the picture; the **Log** has every one."""
BOARD = 1500
"""Characters of the text board in the picture's place (cut at a whole line): the whole
message stays well within Discord's 4,000 characters of text."""
HAND = 2000
"""Characters of a hand's text in the picture's place."""
NOTES = 500


def heading(ui: GameUI, table_id: int) -> str:
    return f"### {ui.title} · #{table_id}"


def table_layout(table: TableSnapshot, controls: list[dict[str, Any]], watching: bool = False,
                 language: str = SOURCE, banner: str | None = None) -> Layout:
    """A started game's table message (running, finished or ended early) in ``language``;
    ``watching``: as **Watch** shows it, privately; ``banner``: what opened it, under whose turn
    it is (a tournament's round, naming its players)."""
    row, table = table.row, table.speaking(language)
    ui = ui_for(row.game_id, language)
    top = f"### 👁 {ui.title} · #{row.id}" if watching else heading(ui, row.id)
    facts = ui.facts(table) if row.status == "running" else []
    lines = [top, *status_lines(ui, table, facts), *([banner] if banner else [])]
    board = ui.board(table) if table.view is not None else ""
    tail: list[dict[str, Any]] = []
    for block in (final_standings(table, language), unlock_lines(table, language)):
        if block:
            tail.append(text_display(block))
    recent = [event_words(line, table.names, language) for line in row.recent_events[-LATEST_EVENTS:]]
    latest = latest_events(recent, LATEST_EVENTS) if row.status == "running" else []
    if latest:
        tail.append(text_display("\n".join(latest)))
    tail.append(text_display("-# " + footer(ui, table)))
    alt = say("{game}, table #{table}: {board}", game=ui.title, table=str(row.id),
              board=spoken("\n".join([*facts, board])))
    return Layout(
        accent=accent(ui, table), head=[text_display("\n".join(lines))],
        board=[text_display(whole_lines(board, BOARD))] if board else [], tail=[*tail, separator(), *controls],
        alt=ui.words(alt),
    )


def spoken(text: str) -> str:
    """Message text as a picture's description reads it (shown as is): no bold, names as typed."""
    return plain(text.replace("**", ""))


def status_lines(ui: GameUI, table: TableSnapshot, facts: list[str]) -> list[str]:
    """Under the heading: whose turn and until when, and the game's few numbers (``facts``); or the result."""
    row = table.row
    if row.status == "finished":
        return [f"🏁 {ui.outcome_text(table)}"]
    if row.status != "running":
        return [ui.words(say("🛑 This game was ended before it finished."))]
    lines = []
    acting = players_to_act(table)
    if acting:
        line = f"▶ {', '.join(mention(table, seat, ui.language) for seat in acting)} {ui.turn_words(table)}"
        if row.deadline:
            line += f" · ⏰ <t:{int(row.deadline)}:R>"
        lines.append(line)
    return lines + facts


def accent(ui: GameUI, table: TableSnapshot) -> int:
    """Whose turn it is (the first to act's colour), else the game's colour."""
    acting = players_to_act(table) if table.row.status == "running" else []
    return ui.turn_colour(table, acting[0]) if acting else ui.colour


def timer_text(ui: GameUI, minutes: int) -> str:
    return ui.words(say("{minutes} min per turn", minutes=minutes) if minutes else say("no turn timer"))


def footer(ui: GameUI, table: TableSnapshot) -> str:
    row = table.row
    return " · ".join(part for part in (options_line(ui, row.options), timer_text(ui, row.timer_minutes)) if part)


def hand_layout(hand: HandSnapshot, moves: MoveLayout | None, controls: list[dict[str, Any]],
                notice: str | None = None, language: str = SOURCE) -> Layout:
    """A seat's private message in ``language``: ``notice`` (the answer to a click that did not
    play), what the seat may do, its hand, private news and its controls."""
    row, hand = hand.table.row, hand.speaking(language)
    ui = ui_for(row.game_id, language)
    if moves is not None and moves.chosen:
        prompt = ui.words(say("**{choice}**: now choose below.", choice=moves.chosen))
    else:
        prompt = ui.prompt(hand)
    lines = [*([notice] if notice else []), ui.words(say("### Your hand · {game} #{table}", game=ui.title,
                                                         table=str(row.id))), prompt]
    text = ui.hand(hand)
    notes = "\n".join(event_words(note, hand.table.names, language) for note in hand.notes)
    news = ui.words(say("**Just now:** {notes}", notes=notes))
    tail = [text_display(whole_lines(news, NOTES))] if hand.notes else []
    return Layout(
        accent=ui.turn_colour(hand.table, hand.seat), head=[text_display("\n".join(lines))],
        board=[text_display(whole_lines(text, HAND))], tail=[*tail, *controls],
        alt=spoken(text),
    )


def lobby_layout(table: TableSnapshot, controls: list[dict[str, Any]], invitation: str | None = None,
                 language: str = SOURCE) -> Layout:
    """The lobby in ``language``: what to press (under Play again's ``invitation``), the seats, the options."""
    row = table.row
    ui = ui_for(row.game_id, language)
    game = ui.game
    if row.status == "lobby" and len(row.seats) >= game.max_players:
        what = say("Every seat is taken: the host starts the game.")
    else:
        what = {"lobby": say("Press **Join** to take a seat. The host adds AI players and starts the game."),
                "cancelled": say("This table was cancelled.")}.get(row.status, say("This table is closed."))
    head = [heading(ui, row.id), *([invitation] if invitation else []), ui.words(what)]
    seats = [ui.words(say("**Players ({count}/{most})**", count=len(row.seats), most=game.max_players))]
    for seat in row.seats:
        line = f"{seat.seat + 1}. {literal(seat.name_in(language))}"
        if seat.ai_level:
            line += f" · {ui.words(LEVEL_NAMES.get(seat.ai_level, seat.ai_level))}"
        if seat.user_id is not None and seat.user_id == row.host_id:
            line += ui.words(say(" — host"))
        if game.sides:
            line += f" · {ui.words(game.sides[seat.seat % len(game.sides)])}"
        seats.append(line)
    if not row.seats:
        seats.append("—")
    counts = ui.words(count_text(game.allowed_player_counts())).replace("–", "\u2060–\u2060")
    players = ui.words(say("{counts} players", counts=counts))
    small = " · ".join(part for part in (options_line(ui, row.options), timer_text(ui, row.timer_minutes), players)
                       if part)
    return Layout(accent=ui.colour, head=[text_display("\n".join(head))], board=[],
                  tail=[text_display("\n".join(seats)), text_display("-# " + small), *controls])
