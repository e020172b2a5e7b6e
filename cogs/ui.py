"""How games look on Discord: the :class:`GameUI` each game's module subclasses, and
the table, lobby and hand embeds shared by every game.

A game's module (``cogs/games/<package>.py``) only describes its board, its hands and
its moves; everything around that (lobby, turn line, recent events, timer, result,
the layout of the move controls, Discord's size limits) is shared here so every game
looks and behaves alike. This module builds no controls: :mod:`cogs.moves` turns a
:class:`MoveLayout` into buttons and menus.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Mapping

import discord

import games
from bot.errors import UserError
from bot.markdown import literal
from bot.service import HandSnapshot, TableSnapshot
from bot.table_options import engine_options, hints_allowed
from games.base import Action, Game, count_text
from games.cards import parse_card

from .endings import final_standings
from .limits import CONTENT, EMBED_FIELD_VALUE, EMBED_FOOTER, SELECT_OPTIONS, clip

EMBED_COLOUR = discord.Colour.dark_green()
DESCRIPTION = 4000
"""Room we give a board or hand: a little under Discord's 4096, for the embed's other parts."""
DASHBOARD = 1500
"""The table message's description and fields together (board and latest events) stay within this."""
DASHBOARD_EVENTS = 5
SHORT_EVENT = 120
EVENT_ROOM = 3 * SHORT_EVENT
"""What the board always leaves the latest events (at least three of them)."""
LATEST = "Latest"
WINS, NEUTRAL, LOSES = "wins", "neutral", "loses"
MOVE_STYLES = {WINS: discord.ButtonStyle.success, NEUTRAL: discord.ButtonStyle.secondary,
               LOSES: discord.ButtonStyle.danger}
"""The one colour rule of every game's move buttons: green for a move that wins (a card,
points, or forces a penalty on another player), grey for a neutral one, red only for a move
that loses your own card."""
RESULT = "Final standings"
ASIDE = re.compile(r" ?\([^()]*\)")
UNAVAILABLE_STEP = "That choice isn't available now."


@lru_cache(maxsize=4096)  # each event line is shown on several dashboards in a row
def short_event(line: str) -> str:
    """The dashboard's form of an event: without its parenthesised asides, where engines put
    rule explanations and running totals ("7♣ beats 4♦ (different suits, higher is
    stronger): …"), clipped to :data:`SHORT_EVENT`. The whole sentence stays in the Log."""
    return clip(ASIDE.sub("", line).strip() or line, SHORT_EVENT)


def whole_lines(text: str, limit: int) -> str:
    """As many whole lines of ``text`` as fit in ``limit`` characters, "…" marking a cut."""
    if len(text) <= limit:
        return text
    kept = ""
    for line in text.split("\n"):
        if len(kept) + len(line) + 3 > limit:
            break
        kept += line + "\n"
    return kept + "…" if kept else clip(text, limit)


def latest_events(lines: list[str], room: int) -> str:
    """The newest :data:`DASHBOARD_EVENTS` events in short form, oldest first, within ``room``."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines[-DASHBOARD_EVENTS:]):
        line = short_event(line)
        if used + len(line) > room:
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(reversed(kept))


def hint_line(actions: list[Action], hints: Mapping[str, str]) -> list[str]:
    """The hint under a hand: the sentence of each kind of move offered, in ``hints``' order
    (``[]`` when none is offered), so it never explains a move the player doesn't have."""
    kinds = {action.kind for action in actions}
    said = [sentence for kind, sentence in hints.items() if kind in kinds]
    return [" ".join(said)] if said else []


def shown(arg: Any) -> str:
    """An action argument as players read it: a card with its suit symbol, else as is."""
    try:
        return parse_card(arg).pretty
    except games.GameError:
        return str(arg)


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


@dataclass(frozen=True)
class StepMenu:
    """A menu of steps: each choice is ``(value, label)``, the value a :meth:`GameUI.step_text`."""

    placeholder: str
    choices: list[tuple[str, str]]


@dataclass(frozen=True)
class NumberAsk:
    """One button asking for a number: it plays ``<kind>:<number>`` for a number in ``low``–``high``."""

    kind: str
    low: int
    high: int
    label: str


@dataclass(frozen=True)
class MoveLayout:
    """The controls of a hand message, top to bottom: number buttons, step menus, then moves."""

    numbers: list[NumberAsk]
    menus: list[StepMenu]
    actions: list[Action]


class GameUI:
    """How one game looks. A game's module subclasses this (overriding the ``board``,
    ``hand`` and ``action_*`` hooks, declaring its two-step moves in :attr:`steps`);
    a game without a module is shown by :class:`DefaultUI`."""

    start_description: ClassVar[str] = ""
    """The ``/<game> start`` description; empty: "Open a <name> table … (<n> players)"."""
    steps: ClassVar[Mapping[str, str]] = {}
    """Moves chosen in two steps, by action kind: first a menu picks the kind and first
    argument (e.g. War's attacking card), then the moves that complete it are offered.
    The value is that menu's placeholder; kinds sharing one share the menu."""
    step_end: ClassVar[str] = ","
    """Ends each choice in a step menu's value: ``attack:9S,`` (War), ``9D>1>`` (a QUASH swap)."""
    number_prompts: ClassVar[Mapping[str, str]] = {}
    """Action kinds whose single whole-number argument the player types in a form
    (e.g. a cut of 40 cards) instead of choosing among buttons; the value is the button's label."""

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def title(self) -> str:
        return self.game.name

    def start_text(self) -> str:
        return self.start_description or (
            f"Open a {self.game.name} table in this channel ({count_text(self.game.allowed_player_counts())} players)")

    def option_label(self, name: str, value: Any) -> str:
        """The name the option's spec gives ``value`` (e.g. War's loss rule), else the value."""
        spec = next(spec for spec in self.game.options if spec.name == name)
        return str(spec.labels.get(value, value))

    def options_text(self, options: dict[str, Any]) -> str:
        """One line describing the table options, e.g. ``Classic · elimination match``."""
        return " · ".join(f"{k}: {v}" for k, v in options.items())

    def board(self, table: TableSnapshot) -> str:
        """The public state of play (Markdown), shown in the table embed."""
        return "\n".join(seat_heading(table, seat) for seat in range(len(table.names)))

    def hand(self, hand: HandSnapshot) -> str:
        """What the seat sees privately (Markdown)."""
        cards = hand.view.get("hand")
        return f"**Your cards:** {' '.join(map(shown, cards)) or '—'}" if isinstance(cards, list) else "—"

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        return str(action)

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        """What ``action`` does for the mover, as far as the mover can see: :data:`WINS`,
        :data:`NEUTRAL` (the default) or :data:`LOSES`; it decides the button's colour."""
        return NEUTRAL

    def action_style(self, action: Action, hand: HandSnapshot) -> discord.ButtonStyle:
        return MOVE_STYLES[self.move_outlook(action, hand)]

    def menu_placeholder(self, actions: list[Action], hand: HandSnapshot) -> str:
        """The placeholder of a menu of moves (when there are too many for buttons): says
        what the menu holds, e.g. "Discard A♠ – 9♣"; by default its first and last moves."""
        if len(actions) == 1:
            return self.action_label(actions[0], hand)
        return f"{self.action_label(actions[0], hand)} – {self.action_label(actions[-1], hand)}"

    def ordered_actions(self, hand: HandSnapshot) -> list[Action]:
        """The legal moves in the order the controls show them."""
        return hand.actions

    def step_path(self, action: Action) -> tuple[str, ...]:
        """The menu choices that lead to ``action``, one menu each; ``()`` offers it at once.
        By default ``kind:first-argument`` for the kinds in :attr:`steps`."""
        if action.kind in self.steps and action.args:
            return (f"{action.kind}:{action.args[0]}",)
        return ()

    def step_label(self, path: tuple[str, ...], hand: HandSnapshot) -> str:
        """The menu choice that ends ``path``: "Attack with 9♠" for War's ``attack:9S``."""
        kind, _, arg = path[-1].partition(":")
        return f"{self.steps[kind].rstrip('…')} {shown(arg)}"

    def step_placeholder(self, path: tuple[str, ...]) -> str:
        """The placeholder of the menu offering the choice that ends ``path``."""
        return self.steps[path[0].partition(":")[0]]

    def asked_numbers(self, actions: list[Action]) -> Mapping[str, str]:
        """The :attr:`number_prompts` (kinds asked in a form, and their buttons' labels)."""
        return self.number_prompts

    def step_text(self, path: tuple[str, ...]) -> str:
        """A step menu's value for the choices ``path``."""
        return "".join(token + self.step_end for token in path)

    def step_key(self, action: Action) -> str:
        """Every step menu value leading to ``action`` is a prefix of this."""
        return self.step_text(self.step_path(action)) + action.code()

    def move_layout(self, hand: HandSnapshot, step: str | None = None) -> MoveLayout:
        """The controls for the legal moves, after the step menu choices ``step`` (a
        :meth:`step_text`); a step no move continues raises :class:`UserError`."""
        actions = self.ordered_actions(hand)
        numbers = []
        if not step:
            prompts = self.asked_numbers(actions)
            for kind, label in prompts.items():
                values = [a.args[0] for a in actions if a.kind == kind]
                if values:
                    numbers.append(NumberAsk(kind, min(values), max(values), label))
            actions = [a for a in actions if a.kind not in prompts]
        # A modified client can send any menu value: only whole choices ("9D>", never "9" or "9D>1") count.
        if step and not step.endswith(self.step_end):
            raise UserError(UNAVAILABLE_STEP)
        chosen = tuple(step.split(self.step_end)[:-1]) if step else ()
        complete: list[Action] = []
        deeper: dict[tuple[str, ...], None] = {}
        for action in actions:
            path = self.step_path(action)
            if path[:len(chosen)] != chosen:
                continue
            if len(path) == len(chosen):
                complete.append(action)
            else:
                deeper[path[:len(chosen) + 1]] = None
        if step and not (complete or deeper):
            raise UserError(UNAVAILABLE_STEP)
        menus: dict[str, list[tuple[str, str]]] = {}
        for path in deeper:
            menus.setdefault(self.step_placeholder(path), []).append((self.step_text(path), self.step_label(path, hand)))
        order = {placeholder: i for i, placeholder in enumerate(dict.fromkeys(self.steps.values()))}
        ordered = sorted(menus.items(), key=lambda menu: order.get(menu[0], len(order)))
        return MoveLayout(numbers, [StepMenu(p, choices[:SELECT_OPTIONS]) for p, choices in ordered], complete)

    def outcome_text(self, table: TableSnapshot) -> str:
        outcome = table.row.outcome
        if not outcome:
            return ""
        return games.Outcome.from_json(outcome).reason.render(names=table.names)


class DefaultUI(GameUI):
    """The look of a game without a Discord module: :class:`GameUI`'s defaults, and every
    move with two or more arguments chosen in two steps (kind and first argument, then the
    rest) or, for many whole numbers, typed in a form: even a game with hundreds of moves
    offers them all."""

    def step_path(self, action: Action) -> tuple[str, ...]:
        return (f"{action.kind}:{action.args[0]}",) if len(action.args) > 1 else ()

    def asked_numbers(self, actions: list[Action]) -> Mapping[str, str]:
        """Kinds with more single whole-number moves than a menu holds are asked in a form."""
        numbers = Counter(a.kind for a in actions if len(a.args) == 1 and type(a.args[0]) is int)
        return {kind: f"{kind.capitalize()}…" for kind, count in numbers.items() if count > SELECT_OPTIONS}

    def step_placeholder(self, path: tuple[str, ...]) -> str:
        return f"{path[0].partition(':')[0].capitalize()}…"

    def step_label(self, path: tuple[str, ...], hand: HandSnapshot) -> str:
        kind, _, arg = path[-1].partition(":")
        return f"{kind.capitalize()} {shown(arg)}"


_REGISTRY: dict[str, GameUI] = {}


def register(ui: GameUI) -> None:
    _REGISTRY[ui.game.id] = ui


def ui_for(game_id: str) -> GameUI:
    """The registered look of ``game_id`` (every game is registered when the cogs load:
    :func:`cogs.games.load_game_uis`)."""
    return _REGISTRY[game_id]


def mention(table: TableSnapshot, seat: int) -> str:
    row = table.row.seats[seat]
    if row.is_ai or row.user_id is None:
        return f"**{literal(row.name)}** (AI)"
    return f"<@{row.user_id}>"


def message_link(guild_id: int, channel_id: int, message_id: int | None) -> str:
    """A link to a message (to its channel while it has none)."""
    if message_id is None:
        return f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def players_to_act(table: TableSnapshot) -> list[int]:
    view = table.view or {}
    return list(view.get("to_act", []))


def turn_marker(table: TableSnapshot, seat: int) -> str:
    """``▶`` before the name of a seat to act, ``•`` before the others."""
    return "▶" if seat in players_to_act(table) else "•"


def seat_number(names: list[str], seat: int) -> str:
    """A player's name with the number the pictures call the seat by ("Seat 2")."""
    return f"{seat + 1}. {names[seat]}"


def seat_heading(table: TableSnapshot, seat: int, marker: str | None = None) -> str:
    """A seat's line on the board starts so: its turn marker, then its number and name."""
    return f"{marker or turn_marker(table, seat)} {seat + 1}. **{table.names[seat]}**"


def options_line(ui: GameUI, options: dict[str, Any]) -> str:
    """The game's options in its own words, then the table options changed from their defaults."""
    try:
        return _options_line(ui, tuple(options.items()))
    except TypeError:  # an unhashable option value: worded afresh
        return _options_line.__wrapped__(ui, tuple(options.items()))


@lru_cache(maxsize=1024)  # a table's options never change while it plays
def _options_line(ui: GameUI, items: tuple[tuple[str, Any], ...]) -> str:
    options = dict(items)
    parts = [ui.options_text(engine_options(options)), "" if hints_allowed(options) else "hints off"]
    return " · ".join(part for part in parts if part)


def lobby_embed(table: TableSnapshot) -> discord.Embed:
    ui = ui_for(table.row.game_id)
    row = table.row
    game = ui.game
    sides = game.sides
    seats = "\n".join(
        f"{s.seat + 1}. {literal(s.name)}{' (AI)' if s.is_ai and not s.ai_level else ''}{' — host' if s.user_id == row.host_id else ''}"
        + (f" · {sides[s.seat % len(sides)]}" if sides else "")
        for s in row.seats
    )
    timer = f"{row.timer_minutes} min per turn" if row.timer_minutes else "no turn timer"
    embed = discord.Embed(title=f"{ui.title} — table #{row.id}", colour=EMBED_COLOUR)
    embed.add_field(name="Options", value=clip(options_line(ui, row.options) or "defaults", EMBED_FIELD_VALUE),
                    inline=False)
    embed.add_field(name=f"Players ({len(row.seats)}/{game.max_players})", value=seats or "—", inline=False)
    embed.set_footer(text=f"{timer} · {game.min_players}–{game.max_players} players")
    if row.status == "lobby":
        embed.description = "Press **Join** to take a seat. The host adds AI players and starts the game."
    else:
        embed.description = "This table was cancelled." if row.status == "cancelled" else "This table is closed."
    return embed


def table_embed(table: TableSnapshot) -> tuple[str | None, discord.Embed]:
    """The public table message of a started game (content, embed), a dashboard: whose
    turn (content), the board (description), once finished the standings (:mod:`cogs.endings`),
    the latest events in short form (one field),
    timer and options (footer), the result (content). The **Log** button has the rest."""
    row = table.row
    ui = ui_for(row.game_id)
    embed = discord.Embed(title=f"{ui.title} — table #{row.id}", colour=EMBED_COLOUR)
    ending = clip(final_standings(table), EMBED_FIELD_VALUE)
    room = DASHBOARD - EVENT_ROOM - len(LATEST) - (len(ending) + len(RESULT) if ending else 0)
    embed.description = whole_lines(ui.board(table), room)
    if ending:
        embed.add_field(name=RESULT, value=ending, inline=False)
    latest = latest_events(row.recent_events, room + EVENT_ROOM - len(embed.description))
    if latest:
        embed.add_field(name=LATEST, value=latest, inline=False)
    footer = options_line(ui, row.options)
    content = None
    if row.status == "running":
        acting = players_to_act(table)
        if acting:
            content = f"▶ {', '.join(mention(table, s) for s in acting)} to play"
            if row.deadline:
                content += f" · ⏰ <t:{int(row.deadline)}:R>"
        if row.timer_minutes:
            footer += f" · {row.timer_minutes} min per turn"
    elif row.status == "finished":
        content = "🏁 " + ui.outcome_text(table)
    else:
        content = "🛑 This game was ended before it finished."
    embed.set_footer(text=clip(footer, EMBED_FOOTER))
    return (clip(content, CONTENT) if content else None), embed


def hand_embed(hand: HandSnapshot) -> discord.Embed:
    """A seat's private view: its cards, any private news, and whether it is to move."""
    ui = ui_for(hand.table.row.game_id)
    row = hand.table.row
    embed = discord.Embed(title=f"Your hand — {ui.title} #{row.id}", colour=EMBED_COLOUR)
    embed.description = clip(ui.hand(hand), DESCRIPTION)
    if hand.notes:
        embed.add_field(name="Just now", value=clip("\n".join(hand.notes), EMBED_FIELD_VALUE), inline=False)
    if row.status != "running":
        status = "The game is over."
    elif hand.actions:
        status = "Your move: choose below."
    else:
        acting = players_to_act(hand.table)
        status = "Waiting for " + ", ".join(row.seats[s].name for s in acting) + "." if acting else "Waiting."
    embed.set_footer(text=status)
    return embed
