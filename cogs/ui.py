"""How games look on Discord: :class:`GameUI`, the hooks each game's look overrides, and what every look shares.

A game's look (``cogs/looks/<package>.py``) only describes its board, its hands and its
moves; everything around that (lobby, turn line, recent events, timer, result, the layout of
the move controls, Discord's size limits) is shared, so every game looks and behaves alike.
The messages themselves are laid out by :mod:`cogs.layouts`; this module builds no controls:
:mod:`cogs.messages` turns a :class:`MoveLayout` into buttons and menus.
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
    """How one game looks on Discord. A game's look (``cogs/looks/<package>.py``, setting ``UI``)
    subclasses this; a game without one is shown by :class:`DefaultUI`.

    A look only describes its game: the lobby, headings, whose turn, latest events, timer,
    results, controls and Discord's limits are shared. It writes in one :attr:`language`
    (:func:`ui_for` gives the registered look speaking a message's language); its words are
    :class:`~games.i18n.Text` (``say("…")``) until :meth:`words` renders them.

    The hooks a look may override, each with a default that works (each one's docstring says
    what it returns, when it is called, and gives an example; ``docs/adding-a-game.md``,
    "A look's hooks", has them in one table):

    - declared on the class: :attr:`start_description`, :attr:`colour`, :attr:`steps`,
      :attr:`step_end`, :attr:`number_prompts`, :attr:`hints`, :attr:`menus`;
    - the table message: :meth:`board`, :meth:`facts`, :meth:`turn_words`,
      :meth:`turn_colour`, :meth:`options_text`, :meth:`standing`;
    - a hand message: :meth:`hand`, :meth:`prompt`;
    - the moves' controls: :meth:`action_label`, :meth:`move_outlook`, :meth:`move_group`,
      :meth:`ordered_actions`, :meth:`step_path`, :meth:`step_label`, :meth:`step_placeholder`,
      :meth:`asked_numbers`, and :meth:`move_layout` itself for steps a path can't describe.

    The other methods are what the shared messages call (:meth:`words`, :meth:`speaking`,
    :attr:`title`, :meth:`start_text`, :meth:`option_label`, :meth:`move_text`,
    :meth:`action_style`, :meth:`menu_placeholder`, :meth:`step_text`, :meth:`step_key`,
    :meth:`outcome_text`): a look calls them and overrides none."""

    language: str = SOURCE
    """The language this look writes in (see :meth:`speaking`)."""
    start_description: ClassVar[Text | None] = None
    """The ``/<game> start`` description, read when the command is built at start-up; None:
    "Open a <name> table in this channel (<n> players)". Example: War's
    ``say("Open a Q2J War table in this channel (2–4 players)")``."""
    colour: ClassVar[int] = EMBED_COLOUR.value
    """The game's colour (``0xRRGGBB``, reading 3:1 on Discord's dark and light themes): its
    lobby's and finished table's accent, and its line in ``/stats``. Example: War's ``0xE95652``."""
    steps: ClassVar[Mapping[str, Text]] = {}
    """Moves chosen in two steps, by action kind: first a menu picks the kind and first
    argument (e.g. War's attacking card), then the moves that complete it are offered.
    The value is that menu's placeholder; kinds sharing one share the menu. Read whenever a
    hand's controls are laid out (:meth:`move_layout`). Example: War's
    ``{"attack": say("Attack with…")}``."""
    step_end: ClassVar[str] = ","
    """Ends each choice in a step menu's value: ``attack:9S,`` (War), ``9D>1>`` (a QUASH swap)."""
    number_prompts: ClassVar[Mapping[str, Text]] = {}
    """Action kinds whose single whole-number argument the player types in a form
    (e.g. a cut of 40 cards) instead of choosing among buttons; the value is the button's label.
    Read when a hand's controls are laid out (:meth:`asked_numbers`). Example: Queen of Spades'
    ``{"cut": say("Cut the deck…")}``."""
    hints: ClassVar[Mapping[str, Text]] = {}
    """How to make each kind of move chosen in steps (menus), one short sentence each: the hand
    message says those offered (buttons say what they do themselves), under its heading
    (:meth:`prompt`). Example: War's ``{"attack": say("Attack: choose an untapped card, then its
    target.")}``."""
    menus: ClassVar[Mapping[str, Text]] = {}
    """What a menu of moves of one kind holds, by kind (its placeholder, short enough for a phone:
    "Play a card…"); a kind without one is shown by its first and last moves. Read when more moves
    than :data:`MAX_BUTTONS` are offered (:meth:`menu_placeholder`). Example: War's
    ``{"recover": say("Recover a card…")}``."""

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
        """Hook: the game's options as one line, in the small print under the lobby and the table
        message (the shared options, timer and hints, follow it). ``options`` are the engine's.
        Default: ``name: value`` pairs. Example: ``Classic · Single game`` (Q2J), ``First to 30``
        (QUASH)."""
        return " · ".join(f"{k}: {v}" for k, v in options.items())

    # -- the table -------------------------------------------------------------------------------

    def board(self, table: TableSnapshot) -> str:
        """Hook: the public state of play in Markdown, from ``table.view`` (the public view). Called
        for every table message and **Watch** of a started game: shown in the picture's place when
        pictures are off or fail, and read to screen readers as the picture's description.
        Begin each seat's line with :func:`seat_heading`, numbered as the pictures name seats.
        Default: a line per seat. Example (War)::

            ▶ 1. **ana** — deck 12
            **9♠**  **K♥**  ↷ 4♦ tapped
            **Discard pile:** 3 (latest Q♣)"""
        return "\n".join(seat_heading(table, seat) for seat in range(len(table.names)))

    def facts(self, table: TableSnapshot) -> list[str]:
        """Hook: the few numbers that matter while the game runs, a line each, in the table
        message's header under whose turn it is (above the picture, which shows the rest).
        Called for every table message of a running game. Default: none. Example (Q2J):
        ``["Top **Q♥** · stock 23 · discard 7"]``, then what a Q² obliges to."""
        return []

    def turn_words(self, table: TableSnapshot) -> str:
        """Hook: what the people to act are to do, after their names, in the table message's turn
        line ("▶ @ana **to play** · ⏰ in 5 minutes") and in turn pings. Default: "to play".
        Example (Queen of Spades, by phase): "to lay sets and discard"."""
        return self.words(say("to play"))

    def turn_colour(self, table: TableSnapshot, seat: int) -> int:
        """Hook: the accent (``0xRRGGBB``) of the table message while ``seat`` is the first to act,
        and of ``seat``'s hand message. Default: one colour per seat (:data:`SEAT_COLOURS`).
        Example (QUASH): its side's colour, red or black."""
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    def standing(self, table: TableSnapshot, seat: int) -> str:
        """Hook: a seat's result at the end, with its unit, after its place in the final standings
        (:mod:`cogs.endings`) of a finished table's message; '' for none. Default: its score in the
        outcome, in the words the game gives it (``Game.standing_text``). Example (War):
        "3 cards left", in "2. **ben** — 3 cards left"."""
        scores = (table.row.outcome or {}).get("scores") or []
        result = self.game.standing_text(scores[seat]) if seat < len(scores) else None
        return self.words(result) if result is not None else ""

    # -- a hand ----------------------------------------------------------------------------------

    def hand(self, hand: HandSnapshot) -> str:
        """Hook: what the seat sees privately, in Markdown, from ``hand.view`` (the seat's view).
        Called for every hand message: shown in the picture's place when pictures are off, fail or
        the seat has nothing to draw, and read to screen readers. Default: the seat's cards in bold.
        Example (War): "**Your field:** **9♠**  **K♥** · deck 12", then a line per opponent's field."""
        cards = hand.view.get("hand")
        return f"**{cards_text(cards, self.language) or '—'}**" if isinstance(cards, list) else "—"

    def prompt(self, hand: HandSnapshot) -> str:
        """Hook: one line under a hand message's heading saying what the seat may do now, or whom
        it waits for (not called once a step is chosen: the chosen step is said instead). Default:
        the :attr:`hints` of the moves offered, else "Your move: choose below.", or "Waiting for
        ben." Example (QUASH): "You play for **RED**." before what it may do."""
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
        """Hook: a move as its button or menu option says it, outcome first, short enough for a
        phone (30 characters: ``tests/test_discord_words.py``). Called for every move offered, in
        every hand message, and in a hint. Default: the move's own words (``Action.words``).
        Example (War): "Wins · K♠ (ben)"."""
        return self.words(action.words())

    def move_text(self, action: Action, hand: HandSnapshot) -> str:
        """A move in full, outside the steps that lead to it (a hint names it so): the step
        choices, then its label ("Attack with A♦ · Wins · K♠ (ben)")."""
        path = self.step_path(action, hand)
        steps = [self.step_label(path[:depth], hand) for depth in range(1, len(path) + 1)]
        return " · ".join([*steps, self.action_label(action, hand)])

    def move_outlook(self, action: Action, hand: HandSnapshot) -> str:
        """Hook: what ``action`` does for the mover, as far as the mover can see: :data:`WINS`,
        :data:`NEUTRAL` (the default) or :data:`LOSES`; it decides the move's button colour
        (:data:`MOVE_STYLES`: green, grey, red). Called for every move shown as a button.
        Example (War): an attack that beats its target :data:`WINS`, one that ties or loses
        :data:`LOSES` (the attacker's card goes)."""
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
        """Hook: when a step offers more moves than :data:`MAX_BUTTONS`, the moves of one group
        share a menu whose placeholder this is; None (the default): menus group moves by kind.
        Example (War): "ben's cards…" for the attacks on ben's field."""
        return None

    def ordered_actions(self, hand: HandSnapshot) -> list[Action]:
        """Hook: the legal moves in the order the controls show them, each time a hand's
        controls are laid out. Default: the engine's order. Example (NG): attacks on your own
        stacks last."""
        return hand.actions

    def step_path(self, action: Action, hand: HandSnapshot) -> tuple[str, ...]:
        """Hook: the menu choices that lead to ``action``, one menu each (a choice never holds
        :attr:`step_end`); ``()`` offers it at once. Called for every legal move each time a
        hand's controls are laid out. Default: ``kind:first-argument`` for the kinds in
        :attr:`steps`. Example (War): ``("attack:9S",)`` for ``attack:9S:KH``; (Queen of Spades,
        many discards) ``("discard:K",)``, the rank first."""
        if action.kind in self.steps and action.args:
            return (f"{action.kind}:{action.args[0]}",)
        return ()

    def step_label(self, path: tuple[str, ...], hand: HandSnapshot) -> str:
        """Hook: the menu option (and, once chosen, the hand's header) for the choice that ends
        ``path``. Default: the kind's :attr:`steps` words and the argument. Example (War):
        "Attack with 9♠" for ``("attack:9S",)``."""
        kind, _, arg = path[-1].partition(":")
        return f"{self.words(self.steps[kind]).rstrip('…')} {shown(arg, self.language)}"

    def step_placeholder(self, path: tuple[str, ...]) -> str:
        """Hook: the placeholder of the menu offering the choice that ends ``path``; choices with
        the same placeholder share a menu. Default: the :attr:`steps` words of ``path``'s kind.
        Example (QUASH): "Or swap into a full spot…" for a swap's second choice."""
        return self.words(self.steps[path[0].partition(":")[0]])

    def asked_numbers(self, actions: list[Action]) -> Mapping[str, Text]:
        """Hook: the kinds among ``actions`` whose number is typed in a form, and their buttons'
        labels, each time a hand's controls are laid out. Default: :attr:`number_prompts`.
        Example (:class:`DefaultUI`): any kind with more whole-number moves than a menu holds."""
        return self.number_prompts

    def step_text(self, path: tuple[str, ...]) -> str:
        """A step menu's value for the choices ``path``."""
        return "".join(token + self.step_end for token in path)

    def step_key(self, action: Action, hand: HandSnapshot) -> str:
        """Every step menu value leading to ``action`` is a prefix of this."""
        return self.step_text(self.step_path(action, hand)) + action.code()

    def move_layout(self, hand: HandSnapshot, step: str | None = None) -> MoveLayout:
        """The controls for the legal moves, after the step menu choices ``step`` (a
        :meth:`step_text`); a step no move continues raises :class:`UserError`. Called for every
        hand message of a running game (:func:`cogs.messages.hand_message`). A look overrides it
        only to say more than the steps do (QUASH's swap chain names the card in the air); the
        hooks above decide everything else."""
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
