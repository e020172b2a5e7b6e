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
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

import games
from bot.records import shown_name
from games.ai import LEVEL_NAMES, LEVELS, choose_action
from games.base import Action, Event, Game, GameState, OptionSpec, Outcome, bool_option
from games.errors import GameError
from games.hints import hint
from games.i18n import say
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
        return [say("You").render(language) if seat == HUMAN else shown_name(f"AI {seat}", True, language)
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


def read_options(game: Game[Any], form: Any) -> dict[str, Any]:
    """The options a start form names, as their values (anything else in the form is ignored);
    :class:`GameError` saying which option is wrong, and why, for a number out of its range."""
    options: dict[str, Any] = {}
    for spec, choices in choice_options(game):
        text = form.get(f"option-{spec.name}")
        if text is None:
            continue
        if text not in choices:
            raise GameError(BAD_FORM)
        options[spec.name] = choices[text]
    for spec in number_options(game):
        text = form.get(f"option-{spec.name}")
        if text is None:
            continue
        text = str(text).strip()
        options[spec.name] = spec.check(int(text) if WHOLE_NUMBER.fullmatch(text) else text[:20])
    return options


# -- pages --------------------------------------------------------------------------------


async def home(request: web.Request) -> web.Response:
    language = reader_language(request)
    cards = []
    for game in games.all_games():
        counts = join(html('<option value="{n}">{n}</option>', n=n) for n in game.allowed_player_counts())
        levels = join(html('<option value="{level}"{selected}>{name}</option>', level=level,
                           selected=Html(" selected" if level == "normal" else ""),
                           name=LEVEL_NAMES[level].render(language)) for level in LEVELS)
        option_fields = []
        for spec, choices in choice_options(game):
            labels = join(html('<option value="{value}">{label}</option>', value=value,
                               label=choice_label(spec, choice, language)) for value, choice in choices.items())
            option_fields.append(html('<label class="option">{prompt} <select name="option-{name}">{labels}</select>'
                                      '</label>', prompt=(spec.prompt or spec.description).render(language),
                                      name=spec.name, labels=labels))
        for spec in number_options(game):
            low, high = spec.bounds or (0, 0)
            option_fields.append(html('<label class="option">{prompt} <input type="number" name="option-{name}" '
                                      'min="{low}" max="{high}" step="1" value="{default}" required></label>',
                                      prompt=(spec.prompt or spec.description).render(language), name=spec.name,
                                      low=low, high=high, default=spec.default))
        cards.append(html(
            '<section class="card"><h2>{name}</h2><form method="post" action="/new">'
            '<input type="hidden" name="game" value="{id}">'
            '<label>{players_word} <select name="players">{counts}</select></label>'
            '<label>{level_word} <select name="level">{levels}</select></label>{options}'
            '<button type="submit">{start}</button> <a href="/rules/{id}">{rules}</a></form></section>',
            name=game.name, id=game.id,
            players_word=say("Players").render(language), counts=counts,
            level_word=say("AI level").render(language), levels=levels, options=join(option_fields),
            start=say("Play").render(language), rules=say("Rules").render(language),
        ))
    body = html('<h1>Deckhand</h1><p>{intro}</p>{cards}',
                intro=say("Play any game against AI players, right here: no Discord needed.").render(language),
                cards=join(cards))
    return _html(page("Deckhand", body, language))


async def new_game(request: web.Request) -> web.Response:
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
        raise web.HTTPBadRequest(text=exc.text.render(language)) from None
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
        parts.append(html('<p class="hint">💡 {move}: {why}</p>', move=advice.action.words().render(language),
                          why=advice.why.render(language, played.names(language))))
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
