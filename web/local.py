"""``python -m web``: play any game in a browser against AI seats, with no Discord and nothing to set up.

One person plays seat 1 of each game; the other seats are AI players of the level chosen. The
engine runs in this process and games live in memory (:data:`KEPT_GAMES` at most, the oldest
forgotten first): the page is a way to try Deckhand, not a server. Each game has an unguessable
address. A move is a form sent with the game's version and the move's code; the engine judges it
(:meth:`GameState.apply` validates), so a forged, stale or doubled move is refused with a note
and changes nothing, as in Discord. The pictures are Discord's (:mod:`games.pictures`), the
hint is the ``normal`` AI's (:mod:`games.hints`), the rules are ``/rules``' (:mod:`web.rules`).
"""

from __future__ import annotations

import asyncio
import random
import re
import secrets
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

import games
from bot.records import shown_name
from games.ai import LEVEL_NAMES, LEVELS, choose_action
from games.base import Action, Event, Game, GameState, OptionSpec, Outcome, bool_option
from games.errors import GameError
from games.hints import hint
from games.i18n import Text, say
from games.pictures import hand_png, table_png
from games.rng import Rng

from .guard import LIMITS, Limits, guard
from .html import Html, html, join, page
from .reader import reader_language
from .rules import add_rules_routes
from .static import add_static_routes

KEPT_GAMES = 200
"""Games kept in memory; starting one more forgets the one played longest ago."""
SHOWN_EVENTS = 12
"""Events the page lists, newest last."""
MAX_MOVE_BUTTONS = 40
"""More legal moves than this are offered in one menu instead of buttons."""
HUMAN = 0
"""The person's seat."""

STALE = say("The game moved on since this page was shown: here it is as it is now.")
NOT_YOUR_TURN = say("It isn't your turn.")
BAD_FORM = say("That form was incomplete or malformed: nothing was played.")


@dataclass
class LocalGame:
    """One game in play: the engine's state, and what the person was told."""

    game: Game[Any]
    state: GameState
    level: str
    rng: Rng
    events: list[Event] = field(default_factory=list)
    version: int = 0
    """Moves applied so far: a form names the version it was shown at."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while a move and the AI's replies are played (in a worker thread: a hard AI thinks a while)."""

    @classmethod
    def begin(cls, game: Game[Any], players: int, options: dict[str, Any], level: str, seed: int) -> LocalGame:
        """A new game, dealt, the AI seats played until the person is to act."""
        state = game.new_game(players, options, seed)
        played = cls(game, state, level, Rng(seed))
        played.tell(state.opening_events())
        played.play_ai()
        return played

    def names(self, language: str) -> list[str]:
        """The seats' names: the events speak of each seat in the third person ("{player} deals",
        "{player} a pioché"), so the person is "Player", not "You"; the AI seats are named as in Discord."""
        return [say("Player").render(language) if seat == HUMAN else shown_name(f"AI {seat}", True, language)
                for seat in range(self.state.players)]

    def tell(self, events: list[Event]) -> None:
        self.events += [event for event in events if event.visible_to(HUMAN)]
        del self.events[:-SHOWN_EVENTS]

    def play(self, action: Action) -> None:
        """The person's move (validated by the engine), then the AI seats' until the person is to act."""
        if HUMAN not in self.state.to_act():
            raise GameError(NOT_YOUR_TURN)
        self.tell(self.state.apply(HUMAN, action))
        self.version += 1
        self.play_ai()

    def play_ai(self) -> None:
        while not self.state.is_over():
            seats = [seat for seat in self.state.to_act() if seat != HUMAN]
            if not seats:
                return
            self.tell(self.state.apply(seats[0], choose_action(self.state, seats[0], self.rng, self.level)))
            self.version += 1


class LocalGames:
    """The games in play, by their unguessable key."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, LocalGame] = OrderedDict()

    def __len__(self) -> int:
        return len(self._games)

    def add(self, played: LocalGame) -> str:
        """Keep ``played`` under a new key (forgetting the game played longest ago beyond :data:`KEPT_GAMES`)."""
        key = secrets.token_urlsafe(12)
        self._games[key] = played
        while len(self._games) > KEPT_GAMES:
            self._games.popitem(last=False)
        return key

    def get(self, key: str) -> LocalGame:
        played = self._games.get(key)
        if played is None:
            raise web.HTTPNotFound()
        self._games.move_to_end(key)
        return played


GAMES = web.AppKey("games", LocalGames)


def choice_options(game: Game[Any]) -> list[tuple[OptionSpec, dict[str, Any]]]:
    """The options a person picks from a list on the start page (those with fixed choices, and
    true/false ones), each with its choices by form value; the default first."""
    picked = []
    for spec in game.options:
        choices = spec.choices or ((False, True) if spec.parse is bool_option else ())
        if choices:
            ordered = sorted(choices, key=lambda c: c != spec.default)
            picked.append((spec, {str(c).lower(): c for c in ordered}))
    return picked


def choice_label(spec: OptionSpec, value: Any, language: str) -> str:
    label = spec.labels.get(value)
    if label is None and isinstance(value, bool):
        label = say("on") if value else say("off")
    return label.render(language) if label is not None else str(value)


def number_options(game: Game[Any]) -> list[OptionSpec]:
    """The whole-number options a person types on the start page (a target score, a finish line)."""
    return [spec for spec in game.options if spec.bounds is not None and not spec.choices]


WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,12}")
QUOTED = 20
"""Characters of a refused number quoted back to the person."""


class RefusedOption(GameError):
    """An option of a start form that the game refuses, and the form field that holds it."""

    def __init__(self, field: str, text: Text) -> None:
        super().__init__(text)
        self.field = field


def read_options(game: Game[Any], form: Any) -> dict[str, Any]:
    """The options a start form names, as their values (anything else in the form is ignored);
    :class:`RefusedOption` saying which range it must be in, for a number out of it or not a whole number."""
    options: dict[str, Any] = {}
    for spec, choices in choice_options(game):
        text = form.get(f"option-{spec.name}")
        if text is None:
            continue
        if text not in choices:
            raise GameError(BAD_FORM)
        options[spec.name] = choices[text]
    for spec in number_options(game):
        name = f"option-{spec.name}"
        text = form.get(name)
        if text is None:
            continue
        text = str(text).strip()
        try:
            options[spec.name] = spec.check(int(text) if WHOLE_NUMBER.fullmatch(text) else text)
        except GameError:
            raise RefusedOption(name, number_refusal(spec, text)) from None
    return options


def number_refusal(spec: OptionSpec, text: str) -> Text:
    """Why ``text`` is refused for ``spec``, a whole-number option, quoting it (cut short when long)."""
    low, high = spec.bounds or (0, 0)
    if not text:
        return say("Type a whole number from {low} to {high}.", low=low, high=high)
    quoted = text if len(text) <= QUOTED else f"{text[:QUOTED]}…"
    return say("Type a whole number from {low} to {high}, not “{input}”.", low=low, high=high, input=quoted)


@dataclass(frozen=True)
class Refusal:
    """A start form the game refused, shown again in its game's card as it was filled in, with why:
    under the input of ``field`` when one option is to blame, else above the Play button."""

    game: str
    form: Mapping[str, str]
    why: str
    field: str | None = None


# -- pages --------------------------------------------------------------------------------


async def home(request: web.Request) -> web.Response:
    return _html(start_page(reader_language(request)))


def start_page(language: str, refusal: Refusal | None = None) -> Html:
    """Every game's card, to start it with the players, AI level and options chosen."""
    cards = join(game_card(game, language, refusal if refusal is not None and refusal.game == game.id else None)
                 for game in games.all_games())
    body = html('<h1>Deckhand</h1><p>{intro}</p>{cards}',
                intro=say("Play any game against AI players, right here: no Discord needed.").render(language),
                cards=cards)
    return page("Deckhand", body, language)


def game_card(game: Game[Any], language: str, refusal: Refusal | None) -> Html:
    """One game's start form: as the person filled it in when ``refusal`` sends it back, else its defaults.
    The refusal is said where the person looks (``role="alert"``), and the field to mend has the focus."""
    sent = refusal.form if refusal is not None else {}
    blamed = refusal.field if refusal is not None else None

    def notice(here: bool) -> Html:
        if refusal is None or not here:
            return Html("")
        return html('<p class="notice" id="refused" role="alert">{why}</p>', why=refusal.why)

    def options_list(name: str, labels: Mapping[str, str], default: str = "") -> Html:
        """The choices of list ``name``, the one sent (else ``default``, else the first) selected."""
        chosen = sent.get(name, default)
        return join(html('<option value="{value}"{selected}>{label}</option>', value=value, label=label,
                         selected=Html(" selected" if value == chosen else "")) for value, label in labels.items())

    counts = {str(n): str(n) for n in game.allowed_player_counts()}
    levels = {level: LEVEL_NAMES[level].render(language) for level in LEVELS}
    fields = [html('<label>{players} <select name="players">{counts}</select></label>'
                   '<label>{level} <select name="level">{levels}</select></label>',
                   players=say("Players").render(language), counts=options_list("players", counts),
                   level=say("AI level").render(language), levels=options_list("level", levels, "normal"))]
    for spec, choices in choice_options(game):
        name = f"option-{spec.name}"
        labels = {value: choice_label(spec, choice, language) for value, choice in choices.items()}
        fields.append(html('<label class="option">{prompt} <select name="{name}">{labels}</select></label>',
                           prompt=(spec.prompt or spec.description).render(language), name=name,
                           labels=options_list(name, labels)))
    for spec in number_options(game):
        name = f"option-{spec.name}"
        low, high = spec.bounds or (0, 0)
        mend = Html(' aria-invalid="true" aria-describedby="refused" autofocus' if name == blamed else "")
        fields.append(html('<label class="option">{prompt} <input type="number" name="{name}" min="{low}" '
                           'max="{high}" step="1" value="{value}" required{mend}></label>{notice}',
                           prompt=(spec.prompt or spec.description).render(language), name=name, low=low,
                           high=high, value=sent.get(name, spec.default), mend=mend, notice=notice(name == blamed)))
    unplaced = refusal is not None and blamed is None
    return html(
        '<section class="card"><h2>{name}</h2><form method="post" action="/new">'
        '<input type="hidden" name="game" value="{id}">{fields}{notice}'
        '<button type="submit"{focus}>{start}</button> <a href="/rules/{id}">{rules}</a></form></section>',
        name=game.name, id=game.id, fields=join(fields), notice=notice(unplaced),
        focus=Html(" autofocus" if unplaced else ""),
        start=say("Play").render(language), rules=say("Rules").render(language),
    )


async def new_game(request: web.Request) -> web.Response:
    """Start the game the form describes and go to its page; a form the game refuses comes back
    (400) in the start page, as it was filled in, saying why."""
    form = await request.post()
    language = reader_language(request)
    game_id, level = str(form.get("game", "")), str(form.get("level", ""))
    if game_id not in games.GAME_IDS or level not in LEVELS:
        raise web.HTTPBadRequest(text=BAD_FORM.render(language))
    game = games.get_game(game_id)
    players_text = str(form.get("players", ""))
    if not players_text.isdigit() or int(players_text) not in game.allowed_player_counts():
        raise web.HTTPBadRequest(text=BAD_FORM.render(language))
    try:
        options = read_options(game, form)
        played = await asyncio.to_thread(LocalGame.begin, game, int(players_text), options, level,
                                         random.SystemRandom().getrandbits(63))
    except GameError as exc:
        blamed = exc.field if isinstance(exc, RefusedOption) else None
        sent = {name: str(value) for name, value in form.items()}
        return _html(start_page(language, Refusal(game_id, sent, exc.text.render(language), blamed)), status=400)
    raise web.HTTPSeeOther(f"/play/{request.app[GAMES].add(played)}")


async def play_page(request: web.Request) -> web.Response:
    played = request.app[GAMES].get(request.match_info["key"])
    return _html(game_page(played, request.match_info["key"], reader_language(request),
                           show_hint="hint" in request.query))


async def move(request: web.Request) -> web.Response:
    key = request.match_info["key"]
    played = request.app[GAMES].get(key)
    language = reader_language(request)
    form = await request.post()
    version, code = str(form.get("version", "")), str(form.get("move", ""))
    if not version.isdigit() or not code or len(code) > 100:
        return _html(game_page(played, key, language, notice=BAD_FORM.render(language)), status=400)
    async with played.lock:
        if int(version) != played.version:
            return _html(game_page(played, key, language, notice=STALE.render(language)), status=409)
        try:
            await asyncio.to_thread(played.play, played.game.action_class.from_code(code))
        except GameError as exc:
            return _html(game_page(played, key, language, notice=exc.text.render(language)), status=400)
    raise web.HTTPSeeOther(f"/play/{key}")


async def table_picture(request: web.Request) -> web.Response:
    played = request.app[GAMES].get(request.match_info["key"])
    language = reader_language(request)
    png = await asyncio.to_thread(table_png, played.state.view(None), played.names(language), language)
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "no-store"})


async def hand_picture(request: web.Request) -> web.Response:
    played = request.app[GAMES].get(request.match_info["key"])
    language = reader_language(request)
    legal = [a.code() for a in played.state.legal_actions(HUMAN)] if HUMAN in played.state.to_act() else []
    png = await asyncio.to_thread(hand_png, played.state.view(HUMAN), legal, played.names(language), language)
    if png is None:
        raise web.HTTPNotFound()
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "no-store"})


def game_page(played: LocalGame, key: str, language: str, notice: str | None = None, show_hint: bool = False) -> Html:
    """The page of one game: whose turn or the result, the table, the news, the hand and the moves."""
    state, names = played.state, played.names(language)
    name = played.game.name
    parts: list[Html] = [html('<h1>{name}</h1>', name=name)]
    if notice:
        parts.append(html('<p class="notice" role="alert">{notice}</p>', notice=notice))
    parts.append(html('<p class="status" id="status">{status}</p>', status=status_line(played, language, names)))
    parts.append(html('<img class="picture" src="/play/{key}/table.png?v={v}" alt="{alt}">', key=key,
                      v=played.version, alt=say("The table").render(language)))
    if played.events:
        parts.append(html('<ol class="events">{items}</ol>', items=join(
            html("<li>{line}</li>", line=event.render(names, language)) for event in played.events)))
    if not state.is_over():
        parts.append(html('<img class="picture hand" src="/play/{key}/hand.png?v={v}" alt="{alt}">', key=key,
                          v=played.version, alt=say("Your hand").render(language)))
        if HUMAN in state.to_act():
            parts.append(move_forms(played, key, language, show_hint))
    parts.append(html('<p class="links"><a href="/">{again}</a> · <a href="/rules/{game}">{rules}</a></p>',
                      again=say("New game").render(language), game=played.game.id,
                      rules=say("Rules").render(language)))
    return page(name, join(parts), language)


def status_line(played: LocalGame, language: str, names: list[str]) -> str:
    state = played.state
    if state.is_over():
        outcome: Outcome | None = state.outcome()
        result = outcome.reason.render(language, names) if outcome is not None else ""
        ending = say("You won!") if outcome is not None and HUMAN in outcome.winners else say("Game over.")
        return f"🏁 {ending.render(language)} {result}"
    if HUMAN in state.to_act():
        return say("▶ Your move.").render(language)
    return say("Waiting for the AI players.").render(language)


def move_forms(played: LocalGame, key: str, language: str, show_hint: bool) -> Html:
    """The legal moves, each a form button (or one menu when there are many), and the hint."""
    legal = played.state.legal_actions(HUMAN)
    action = f"/play/{key}/move"
    parts: list[Html] = []
    if len(legal) <= MAX_MOVE_BUTTONS:
        parts.append(html('<div class="moves">{buttons}</div>', buttons=join(html(
            '<form method="post" action="{action}"><input type="hidden" name="version" value="{v}">'
            '<button type="submit" name="move" value="{code}">{label}</button></form>',
            action=action, v=played.version, code=a.code(), label=a.words().render(language)) for a in legal)))
    else:
        choices = join(html('<option value="{code}">{label}</option>', code=a.code(),
                            label=a.words().render(language)) for a in legal)
        parts.append(html(
            '<form class="moves" method="post" action="{action}"><input type="hidden" name="version" value="{v}">'
            '<select name="move">{choices}</select> <button type="submit">{play}</button></form>',
            action=action, v=played.version, choices=choices, play=say("Play").render(language)))
    if show_hint:
        advice = hint(played.state, HUMAN)
        move = advice.action.words().render(language)
        advised = say("💡 {move}: {why}.", move=move[:1].upper() + move[1:], why=advice.why)
        parts.append(html('<p class="hint">{advice}</p>', advice=advised.render(language, played.names(language))))
    else:
        parts.append(html('<p><a class="hint-link" href="/play/{key}?hint=1">💡 {hint}</a></p>', key=key,
                          hint=say("Hint").render(language)))
    return join(parts)


def _html(body: str, status: int = 200) -> web.Response:
    return web.Response(text=body, status=status, content_type="text/html")


def local_app(limits: Limits | None = None) -> web.Application:
    """The local play site: ``/`` to choose a game, ``/play/<key>`` to play it, ``/rules/<game>``."""
    app = web.Application(middlewares=[guard])
    app[LIMITS] = limits or Limits()
    app[GAMES] = LocalGames()
    app.router.add_get("/", home)
    app.router.add_post("/new", new_game)
    app.router.add_get("/play/{key}", play_page)
    app.router.add_post("/play/{key}/move", move)
    app.router.add_get("/play/{key}/table.png", table_picture)
    app.router.add_get("/play/{key}/hand.png", hand_picture)
    add_rules_routes(app)
    add_static_routes(app)
    return app
