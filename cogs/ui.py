"""Rendering tables, lobbies and hands into Discord messages.

Each game registers a :class:`GameUI` that knows how to describe its board,
its hands and its moves; everything around that (lobby, turn line, recent
events, timer, result, the My hand button, move controls, Discord's size
limits) is shared here so every game looks and behaves alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

import games
from bot.service import HandSnapshot, TableSnapshot
from games.base import Action

from . import controls

EMBED_COLOUR = discord.Colour.dark_green()
MAX_DESCRIPTION = 4000
MAX_FIELD = 1024
MAX_EMBED = 6000
MAX_FOOTER = 2048
LATEST_FIELDS = 3
MAX_BUTTON_MOVES = 20
SELECT_OPTIONS = 25
MOVE_ROWS = 4


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def latest_lines(lines: list[str], limit: int) -> str:
    """As many of the newest lines as fit in ``limit`` characters, oldest first."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        line = clip(line, limit)
        if size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(reversed(kept))


def field_chunks(text: str, limit: int) -> list[str]:
    """``text`` cut at line ends into pieces of at most ``limit`` characters."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        line = clip(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    return [*chunks, current] if current else chunks


@dataclass
class Rendered:
    """A message body: pass as ``**rendered.kwargs()`` to send or edit."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    allowed_mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)

    def kwargs(self) -> dict[str, Any]:
        return {"content": self.content, "embed": self.embed, "view": self.view,
                "allowed_mentions": self.allowed_mentions}


class GameUI:
    """How one game looks. Subclasses override the ``board``/``hand`` hooks."""

    game_id: str = ""
    sides: tuple[str, ...] = ()
    """Side names for games played in two sides by seat parity (seat 0, 2… and 1, 3…)."""

    @property
    def title(self) -> str:
        return games.get_game(self.game_id).name

    def options_text(self, options: dict[str, Any]) -> str:
        """One line describing the table options, e.g. ``Classic · elimination match``."""
        return " · ".join(f"{k}: {v}" for k, v in options.items())

    def board(self, table: TableSnapshot) -> str:
        """The public state of play (Markdown), shown in the table embed."""
        raise NotImplementedError

    def hand(self, hand: HandSnapshot) -> str:
        """What the seat sees privately (Markdown)."""
        raise NotImplementedError

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        return str(action)

    def action_style(self, action: Action) -> discord.ButtonStyle:
        return discord.ButtonStyle.primary

    def step_key(self, action: Action) -> str:
        """The text a step menu's prefixes are matched against (the action code unless a
        game lays its steps out differently)."""
        return action.code()

    def ordered_actions(self, hand: HandSnapshot) -> list[Action]:
        """The legal moves in the order the controls show them."""
        return hand.actions

    def move_items(self, hand: HandSnapshot, step: str | None = None) -> list[discord.ui.Item]:
        """Controls for the legal moves. Games with two-step moves override this and use
        :meth:`step_menu` for the first step and :meth:`action_controls` for the second."""
        return self.action_controls(hand, self.ordered_actions(hand))

    def step_menu(self, hand: HandSnapshot, choices: list[tuple[str, str]], placeholder: str,
                  n: int = 0, row: int = 0) -> discord.ui.Item:
        """A menu whose ``(prefix, label)`` choices narrow the moves to those starting with the prefix."""
        options = [discord.SelectOption(label=clip(label, 100), value=prefix) for prefix, label in choices[:SELECT_OPTIONS]]
        return controls.MenuSelect.make("st", hand.table.row.id, hand.version, n, options, row=row,
                                        placeholder=placeholder)

    def action_controls(self, hand: HandSnapshot, actions: list[Action], first_row: int = 0) -> list[discord.ui.Item]:
        """Buttons for a few moves, select menus (25 a menu) for many."""
        table_id, version = hand.table.row.id, hand.version
        rows = MOVE_ROWS - first_row
        if len(actions) <= 5 * rows and len(actions) <= MAX_BUTTON_MOVES:
            return [
                controls.MoveButton.make(
                    table_id, version, action, clip(self.action_label(action, hand), 80),
                    self.action_style(action), row=first_row + i // 5,
                )
                for i, action in enumerate(actions)
            ]
        items: list[discord.ui.Item] = []
        for n, start in enumerate(range(0, len(actions), SELECT_OPTIONS)):
            if n >= rows:
                break
            chunk = actions[start:start + SELECT_OPTIONS]
            options = [
                discord.SelectOption(label=clip(self.action_label(a, hand), 100), value=a.code())
                for a in chunk
            ]
            items.append(controls.MenuSelect.make("ms", table_id, version, n, options, row=first_row + n,
                                                 placeholder="Choose a move…"))
        return items

    def outcome_text(self, table: TableSnapshot) -> str:
        outcome = table.row.outcome
        if not outcome:
            return ""
        names = table.names
        return games.Event("result", outcome["reason"]).render(names)


_REGISTRY: dict[str, GameUI] = {}


def register(ui: GameUI) -> None:
    _REGISTRY[ui.game_id] = ui


def ui_for(game_id: str) -> GameUI:
    return _REGISTRY[game_id]


def mention(table: TableSnapshot, seat: int) -> str:
    row = table.row.seats[seat]
    if row.is_ai or row.user_id is None:
        return f"**{row.name}** (AI)"
    return f"<@{row.user_id}>"


def players_to_act(table: TableSnapshot) -> list[int]:
    view = table.view or {}
    return list(view.get("to_act", []))


def lobby_message(table: TableSnapshot) -> Rendered:
    ui = ui_for(table.row.game_id)
    row = table.row
    game = games.get_game(row.game_id)
    seats = "\n".join(
        f"{s.seat + 1}. {s.name}{' (AI)' if s.is_ai else ''}{' — host' if s.user_id == row.host_id else ''}"
        + (f" · {ui.sides[s.seat % len(ui.sides)]}" if ui.sides else "")
        for s in row.seats
    )
    timer = f"{row.timer_minutes} min per turn" if row.timer_minutes else "no turn timer"
    embed = discord.Embed(title=f"{ui.title} — table #{row.id}", colour=EMBED_COLOUR)
    embed.add_field(name="Options", value=clip(ui.options_text(row.options) or "defaults", MAX_FIELD), inline=False)
    embed.add_field(name=f"Players ({len(row.seats)}/{game.max_players})", value=seats or "—", inline=False)
    embed.set_footer(text=f"{timer} · {game.min_players}–{game.max_players} players")
    if row.status == "lobby":
        embed.description = "Press **Join** to take a seat. The host adds AI players and starts the game."
        return Rendered(embed=embed, view=controls.lobby_view(row.id, sides=bool(ui.sides)))
    embed.description = "This table was cancelled." if row.status == "cancelled" else "This table is closed."
    return Rendered(embed=embed, view=None)


def table_message(table: TableSnapshot) -> Rendered:
    """The public table message: board, whose turn, recent events, timer, result."""
    row = table.row
    if row.status in ("lobby", "cancelled"):
        return lobby_message(table)
    ui = ui_for(row.game_id)
    embed = discord.Embed(title=f"{ui.title} — table #{row.id}", colour=EMBED_COLOUR)
    embed.description = clip(ui.board(table), MAX_DESCRIPTION)
    if row.recent_events:
        # A burst of events (a QUASH round's scoring is up to 16 lines) outgrows one field:
        # go on over a few fields, within what the embed has left of its 6000 characters.
        room = MAX_EMBED - len(embed.title or "") - len(embed.description or "") - MAX_FOOTER - 100
        text = latest_lines(row.recent_events, max(MAX_FIELD // 2, min(LATEST_FIELDS * MAX_FIELD, room)))
        for i, chunk in enumerate(field_chunks(text, MAX_FIELD)):
            embed.add_field(name="Latest" if i == 0 else "Latest (continued)", value=chunk, inline=False)
    footer = ui.options_text(row.options)
    content = None
    view = None
    if row.status == "running":
        acting = players_to_act(table)
        if acting:
            who = ", ".join(mention(table, s) for s in acting)
            content = f"▶ {who} to play"
            if row.deadline:
                content += f" · ⏰ <t:{int(row.deadline)}:R>"
        view = controls.table_view(row.id)
        if row.timer_minutes:
            footer += f" · {row.timer_minutes} min per turn"
    elif row.status == "finished":
        content = "🏁 " + ui.outcome_text(table)
    else:
        content = "🛑 This game was ended before it finished."
    embed.set_footer(text=clip(footer, 2048))
    return Rendered(content=clip(content, 2000) if content else None, embed=embed, view=view)


def hand_message(hand: HandSnapshot, notice: str | None = None, step: str | None = None) -> Rendered:
    """A seat's private message: its cards, any private news, and its legal moves."""
    ui = ui_for(hand.table.row.game_id)
    row = hand.table.row
    embed = discord.Embed(title=f"Your hand — {ui.title} #{row.id}", colour=EMBED_COLOUR)
    embed.description = clip(ui.hand(hand), MAX_DESCRIPTION)
    if hand.notes:
        embed.add_field(name="Just now", value=clip("\n".join(hand.notes), MAX_FIELD), inline=False)
    if row.status != "running":
        status = "The game is over."
    elif hand.actions:
        status = "Your move: choose below."
    else:
        acting = players_to_act(hand.table)
        status = "Waiting for " + ", ".join(row.seats[s].name for s in acting) + "." if acting else "Waiting."
    embed.set_footer(text=status)
    items = ui.move_items(hand, step) if row.status == "running" else []
    items.append(controls.HandButton.make(row.id, "← Back" if step else "🔄 Refresh", row=4))
    return Rendered(content=notice, embed=embed, view=controls.static_view(items))
