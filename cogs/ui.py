"""How games look on Discord: the :class:`GameUI` each game's module subclasses, and what every
game's messages share (names, turns, latest events, colours, the layout of move controls).

A game's module (``cogs/looks/<package>.py``) only describes its board, its hands and its
moves; everything around that (lobby, turn line, recent events, timer, result, the layout of
the move controls, Discord's size limits) is shared, so every game looks and behaves alike.
The messages themselves are laid out by :mod:`cogs.layouts`; this module builds no controls:
:mod:`cogs.moves` turns a :class:`MoveLayout` into buttons and menus.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

import discord

import games
from bot.errors import UserError
from bot.service import HandSnapshot, TableSnapshot
from bot.table_options import engine_options, hints_allowed
from games.base import Action, Game, count_text
from games.cards import parse_card
from games.i18n import SOURCE, Text, card_name, render_value, say

from .components import LayoutMessage
from .limits import SELECT_OPTIONS, clip

EMBED_COLOUR = discord.Colour(0x239C55)
"""The colour of Deckhand's embeds (rules, Log, /history, leaderboards)."""
DESCRIPTION = 4000
"""Room we give an embed's description: a little under Discord's 4096, for the embed's other parts."""
SEAT_COLOURS = (0x3BA55C, 0x717DF4, 0xBE7904, 0xEB459E, 0x159A7F, 0xED4245, 0xAA73C1, 0xD06E17, 0x3498DB,
                0xA3850A)
"""The table message's accent while a seat is to act, one colour per seat (seat 1 first); like
every accent, it reads on Discord's dark and light themes (3:1)."""
MAX_BUTTONS = 5
"""Moves a step offers as buttons (a handful: a phone shows each button on a line of its own when
its label is long, so ten made ten lines); more are menus (:func:`cogs.messages.action_controls`)."""
LATEST_TEXT = 240
"""Characters the latest events take on the table message (a phone's few lines): the newest
event is shown whole however long, an older one only while both fit."""
ASIDE = re.compile(r" ?\([^()]*\)")
WINS, NEUTRAL, LOSES = "wins", "neutral", "loses"
MOVE_STYLES = {WINS: discord.ButtonStyle.success, NEUTRAL: discord.ButtonStyle.secondary,
               LOSES: discord.ButtonStyle.danger}
"""The one colour rule of every game's move buttons: green for a move that wins (a card,
points, or forces a penalty on another player), grey for a neutral one, red only for a move
that loses your own card."""
UNAVAILABLE_STEP = say("That choice isn't available now.")


@lru_cache(maxsize=4096)  # each event line is shown on several table messages in a row
def short_event(line: str) -> str:
    """The table message's form of an event: its sentences whole, without their parenthesised
    asides, where engines put rule explanations and running totals ("7♣ beats 4♦ (different
    suits, higher is stronger): …"). The asides stay in the Log."""
    return ASIDE.sub("", line).strip() or line


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


def latest_events(lines: list[str], count: int) -> list[str]:
    """The newest events in short form (:func:`short_event`), oldest first: at most ``count``,
    as many as fit in :data:`LATEST_TEXT` characters, the newest always. An event is never cut:
    when room is short, fewer are shown (the Log has every one)."""
    shown: list[str] = []
    for line in reversed(lines[-count:] if count else []):
        event = short_event(line)
        if shown and sum(map(len, shown)) + len(event) > LATEST_TEXT:
            break
        shown.insert(0, event)
    return shown


def hint_line(actions: list[Action], hints: Mapping[str, str]) -> str:
    """What the player may do: the sentence of each kind of move offered, in ``hints``' order
    ('' when none is offered), so it never explains a move the player doesn't have."""
    kinds = {action.kind for action in actions}
    return " ".join(sentence for kind, sentence in hints.items() if kind in kinds)


def shown(arg: Any, language: str = SOURCE) -> str:
    """An action argument as players read it: a card with its suit symbol (and the language's
    rank letters), else as is."""
    try:
        return card_name(parse_card(arg), language)
    except games.GameError:
        return str(arg)


def cards_text(codes: Any, language: str) -> str:
    """Cards as players read them (``Q♥ 9♠``, ``D♥ 9♠`` in French), one after another."""
    return " ".join(shown(code, language) for code in codes)


@dataclass
class Rendered:
    """A message body, Components V2: pass as ``**rendered.kwargs()`` to send or edit. It
    clears content and embeds, so an edit also turns a message posted with an embed into V2."""

    view: LayoutMessage
    allowed_mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)

    def kwargs(self) -> dict[str, Any]:
        return {"content": None, "embed": None, "view": self.view, "allowed_mentions": self.allowed_mentions}


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
    """The controls of a hand message, top to bottom: number buttons, moves, then step menus;
    ``chosen`` names the step choices made so far (the hand message's header says them)."""

    numbers: list[NumberAsk]
    menus: list[StepMenu]
    actions: list[Action]
    chosen: str = ""


class GameUI:
    """How one game looks. A game's module subclasses this (overriding the ``board``,
    ``hand`` and ``action_*`` hooks, declaring its two-step moves in :attr:`steps`);
    a game without a module is shown by :class:`DefaultUI`.

    A GameUI writes in one :attr:`language`: :func:`ui_for` gives the registered look
    speaking the language a message is written in; its words are :class:`~games.i18n.Text`
    until :meth:`words` renders them."""

    language: str = SOURCE
    """The language this look writes in (see :meth:`speaking`)."""
    start_description: ClassVar[Text | None] = None
    """The ``/<game> start`` description; None: "Open a <name> table … (<n> players)"."""
    colour: ClassVar[int] = EMBED_COLOUR.value
    """The game's colour: its lobby's and finished table's accent."""
    steps: ClassVar[Mapping[str, Text]] = {}
    """Moves chosen in two steps, by action kind: first a menu picks the kind and first
    argument (e.g. War's attacking card), then the moves that complete it are offered.
    The value is that menu's placeholder; kinds sharing one share the menu."""
    step_end: ClassVar[str] = ","
    """Ends each choice in a step menu's value: ``attack:9S,`` (War), ``9D>1>`` (a QUASH swap)."""
    number_prompts: ClassVar[Mapping[str, Text]] = {}
    """Action kinds whose single whole-number argument the player types in a form
    (e.g. a cut of 40 cards) instead of choosing among buttons; the value is the button's label."""
    hints: ClassVar[Mapping[str, Text]] = {}
    """How to make each kind of move chosen in steps (menus), one short sentence each: the hand
    message says those offered (buttons say what they do themselves)."""
    menus: ClassVar[Mapping[str, Text]] = {}
    """What a menu of moves of one kind holds, by kind (its placeholder, short enough for a phone:
    "Play a card…"); a kind without one is shown by its first and last moves."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def speaking(self, language: str) -> GameUI:
        """This look writing in ``language``."""
        if language == self.language:
            return self
        other = copy.copy(self)
        other.language = language
        return other

    def words(self, text: Any) -> str:
        """``text`` (a :class:`~games.i18n.Text`, or a value such as a number) in this look's language."""
        return render_value(text, self.language)

    @property
    def title(self) -> str:
        return self.game.name

    def start_text(self) -> Text:
        """What ``/<game> start`` says it does (its description, translated by the command tree)."""
        return self.start_description or say("Open a {game} table in this channel ({counts} players)",
                                             game=self.game.name,
                                             counts=count_text(self.game.allowed_player_counts()))

    def option_label(self, name: str, value: Any) -> str:
        """The name the option's spec gives ``value`` (e.g. War's loss rule), else the value."""
        spec = next(spec for spec in self.game.options if spec.name == name)
        return self.words(spec.labels.get(value, value))

    def options_text(self, options: dict[str, Any]) -> str:
        """One line describing the table options, e.g. ``Classic · elimination match``."""
        return " · ".join(f"{k}: {v}" for k, v in options.items())

    # -- the table -------------------------------------------------------------------------------

    def board(self, table: TableSnapshot) -> str:
        """The public state of play (Markdown): the table message's text in the picture's place."""
        return "\n".join(seat_heading(table, seat) for seat in range(len(table.names)))

    def facts(self, table: TableSnapshot) -> list[str]:
        """The few numbers that matter while the game runs, a line each, for the table message's
        header above the picture (e.g. the top card and the stock, then what a Q² obliges to);
        the picture, or the text board in its place, shows the rest."""
        return []

    def turn_words(self, table: TableSnapshot) -> str:
        """What the people to act are to do, after their names: "to play"."""
        return self.words(say("to play"))

    def turn_colour(self, table: TableSnapshot, seat: int) -> int:
        """The accent of the table message while ``seat`` is to act."""
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    def standing(self, table: TableSnapshot, seat: int) -> str:
        """A seat's result at the end, with its unit ("3 cards left", "42 pts"); '' for none.
        By default its score in the outcome, in the words the game gives it (``Game.standing_text``)."""
        scores = (table.row.outcome or {}).get("scores") or []
        result = self.game.standing_text(scores[seat]) if seat < len(scores) else None
        return self.words(result) if result is not None else ""

    # -- a hand ----------------------------------------------------------------------------------

    def hand(self, hand: HandSnapshot) -> str:
        """What the seat sees privately (Markdown): the hand message's text in the picture's place."""
        cards = hand.view.get("hand")
        return f"**{cards_text(cards, self.language) or '—'}**" if isinstance(cards, list) else "—"

    def prompt(self, hand: HandSnapshot) -> str:
        """One line saying what the seat may do now, or whom it waits for."""
        if hand.table.row.status != "running":
            return self.words(say("The game is over."))
        if hand.actions:
            hints = {kind: self.words(sentence) for kind, sentence in self.hints.items()}
            return hint_line(hand.actions, hints) or self.words(say("Your move: choose below."))
        acting = players_to_act(hand.table)
        names = ", ".join(hand.table.names[s] for s in acting)
        return self.words(say("Waiting for {names}.", names=names) if acting else say("Waiting."))

    # -- moves -----------------------------------------------------------------------------------

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        return self.words(action.words())

    def move_text(self, action: Action, hand: HandSnapshot) -> str:
        """A move in full, outside the steps that lead to it (a hint names it so): the step
        choices, then its label ("Attack with A♦ · Wins · K♠ (ben)")."""
        path = self.step_path(action, hand)
        steps = [self.step_label(path[:depth], hand) for depth in range(1, len(path) + 1)]
        return " · ".join([*steps, self.action_label(action, hand)])

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        """What ``action`` does for the mover, as far as the mover can see: :data:`WINS`,
        :data:`NEUTRAL` (the default) or :data:`LOSES`; it decides the button's colour."""
        return NEUTRAL

    def action_style(self, action: Action, hand: HandSnapshot) -> discord.ButtonStyle:
        return MOVE_STYLES[self.move_outlook(action, hand)]

    def menu_placeholder(self, actions: list[Action], hand: HandSnapshot) -> str:
        """The placeholder of a menu of moves (when there are too many for buttons): says
        what the menu holds: the :attr:`menus` words of its kind, else its first and last moves
        ("Discard A♠ – 9♣")."""
        kinds = {action.kind for action in actions}
        if len(kinds) == 1 and (said := self.menus.get(actions[0].kind)) is not None:
            return self.words(said)
        if len(actions) == 1:
            return self.action_label(actions[0], hand)
        return f"{self.action_label(actions[0], hand)} – {self.action_label(actions[-1], hand)}"

    def move_group(self, action: Action, hand: HandSnapshot) -> str | None:
        """When moves are too many for buttons, moves of one group share a menu whose
        placeholder this is (NG: a target's owner); None: menus just follow the move order."""
        return None

    def ordered_actions(self, hand: HandSnapshot) -> list[Action]:
        """The legal moves in the order the controls show them."""
        return hand.actions

    def step_path(self, action: Action, hand: HandSnapshot) -> tuple[str, ...]:
        """The menu choices that lead to ``action``, one menu each; ``()`` offers it at once.
        By default ``kind:first-argument`` for the kinds in :attr:`steps`."""
        if action.kind in self.steps and action.args:
            return (f"{action.kind}:{action.args[0]}",)
        return ()

    def step_label(self, path: tuple[str, ...], hand: HandSnapshot) -> str:
        """The menu choice that ends ``path``: "Attack with 9♠" for War's ``attack:9S``."""
        kind, _, arg = path[-1].partition(":")
        return f"{self.words(self.steps[kind]).rstrip('…')} {shown(arg, self.language)}"

    def step_placeholder(self, path: tuple[str, ...]) -> str:
        """The placeholder of the menu offering the choice that ends ``path``."""
        return self.words(self.steps[path[0].partition(":")[0]])

    def asked_numbers(self, actions: list[Action]) -> Mapping[str, Text]:
        """The :attr:`number_prompts` (kinds asked in a form, and their buttons' labels)."""
        return self.number_prompts

    def step_text(self, path: tuple[str, ...]) -> str:
        """A step menu's value for the choices ``path``."""
        return "".join(token + self.step_end for token in path)

    def step_key(self, action: Action, hand: HandSnapshot) -> str:
        """Every step menu value leading to ``action`` is a prefix of this."""
        return self.step_text(self.step_path(action, hand)) + action.code()

    def move_layout(self, hand: HandSnapshot, step: str | None = None) -> MoveLayout:
        """The controls for the legal moves, after the step menu choices ``step`` (a
        :meth:`step_text`); a step no move continues raises :class:`UserError`."""
        actions = self.ordered_actions(hand)
        numbers = []
        if not step:
            prompts = self.asked_numbers(actions)
            for kind, label in prompts.items():
                values = [n for a in actions if a.kind == kind and isinstance(n := a.args[0], int)]
                if values:
                    numbers.append(NumberAsk(kind, min(values), max(values), self.words(label)))
            actions = [a for a in actions if a.kind not in prompts]
        # A modified client can send any menu value: only whole choices ("9D>", never "9" or "9D>1") count.
        if step and not step.endswith(self.step_end):
            raise UserError(UNAVAILABLE_STEP)
        chosen = tuple(step.split(self.step_end)[:-1]) if step else ()
        complete: list[Action] = []
        deeper: dict[tuple[str, ...], None] = {}
        for action in actions:
            path = self.step_path(action, hand)
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
            choice = (self.step_text(path), self.step_label(path, hand))
            menus.setdefault(self.step_placeholder(path), []).append(choice)
        placeholders = dict.fromkeys(self.words(placeholder) for placeholder in self.steps.values())
        order = {placeholder: i for i, placeholder in enumerate(placeholders)}
        ordered = sorted(menus.items(), key=lambda menu: order.get(menu[0], len(order)))
        said = self.step_label(chosen, hand) if chosen else ""
        return MoveLayout(numbers, [StepMenu(p, choices[:SELECT_OPTIONS]) for p, choices in ordered], complete, said)

    def outcome_text(self, table: TableSnapshot) -> str:
        outcome = table.row.outcome
        if not outcome:
            return ""
        return games.Outcome.from_json(outcome).reason.render(self.language, table.names)


class DefaultUI(GameUI):
    """The look of a game without a Discord module: :class:`GameUI`'s defaults, and every
    move with two or more arguments chosen in two steps (kind and first argument, then the
    rest) or, for many whole numbers, typed in a form: even a game with hundreds of moves
    offers them all."""

    def step_path(self, action: Action, hand: HandSnapshot) -> tuple[str, ...]:
        return (f"{action.kind}:{action.args[0]}",) if len(action.args) > 1 else ()

    def asked_numbers(self, actions: list[Action]) -> Mapping[str, Text]:
        """Kinds with more single whole-number moves than a menu holds are asked in a form."""
        numbers = Counter(a.kind for a in actions if len(a.args) == 1 and type(a.args[0]) is int)
        return {kind: Text.from_json(f"{kind.capitalize()}…")
                for kind, count in numbers.items() if count > SELECT_OPTIONS}

    def step_placeholder(self, path: tuple[str, ...]) -> str:
        return f"{path[0].partition(':')[0].capitalize()}…"

    def step_label(self, path: tuple[str, ...], hand: HandSnapshot) -> str:
        kind, _, arg = path[-1].partition(":")
        return f"{kind.capitalize()} {shown(arg, self.language)}"


_REGISTRY: dict[str, GameUI] = {}
_SPEAKING: dict[tuple[str, str], GameUI] = {}


def register(ui: GameUI) -> None:
    _REGISTRY[ui.game.id] = ui
    _SPEAKING.clear()


def ui_for(game_id: str, language: str = SOURCE) -> GameUI:
    """The registered look of ``game_id`` (every game is registered when the cogs load:
    :func:`cogs.looks.load_game_uis`), writing in ``language``."""
    found = _SPEAKING.get((game_id, language))
    if found is None:
        found = _SPEAKING[game_id, language] = _REGISTRY[game_id].speaking(language)
    return found


def mention(table: TableSnapshot, seat: int, language: str) -> str:
    """A seat in a line about turns: its person mentioned, an AI player by name."""
    row = table.row.seats[seat]
    if row.user_id is None:
        return f"**{table.names[seat]}**"
    if row.is_ai:
        return say("**{name}** (AI)", name=table.names[seat]).render(language)
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
    """A player's name with the number the pictures' seat order gives it ("2. ana")."""
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
    parts = [ui.options_text(engine_options(options)), "" if hints_allowed(options) else ui.words(say("hints off"))]
    return " · ".join(part for part in parts if part)
