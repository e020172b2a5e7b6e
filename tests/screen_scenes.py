"""The scenes :mod:`tests.screens` photographs: real messages from the bot's own builders, for
each game's sample position (``games.pictures.samples``) and a few moments worth seeing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from dataclasses import replace

import games
from bot.results import GameTally, RatingPoint, Stats
from bot.service import HandSnapshot, TableSnapshot
from bot.storage import SeatRow, TableRow
from bot.tournaments import EntrantRow, RoundTableRow, TableResult, TournamentRow, TournamentView
from bot.tournaments.records import SeatResult
from bot.tournaments.rounds import round_rows
from bot.tournaments.scoring import current_standings, next_pairing, scores
from cogs.attachments import clear_cache, hand_picture, table_picture, with_picture
from cogs.components import LayoutMessage, action_row
from cogs.game_log import HistoryButton, HistoryQuery
from cogs.looks import load_game_uis
from cogs.messages import hand_message, table_message
from cogs.scores import stats_layout, stats_picture
from cogs.tournaments.message import tournament_message
from cogs.tournaments.pictures import tournament_picture
from cogs.ui import Rendered, ui_for
from games.base import Event, GameState
from games.i18n import say
from games.pictures.samples import SAMPLE_NAMES, SAMPLE_POINT, SAMPLE_SEED, sample_players
from games.rng import Rng
from tests.screens import Message, message_of

Scene = tuple[list[Message], dict[int, str]]
"""A scene's messages, and the names of the users they mention."""
TABLE_ID = 7
LEVELS = ("hard", "easy")


def seats(players: int) -> list[SeatRow]:
    """The sample names: people, and AI seats at a level."""
    found, ai = [], 0
    for seat, name in enumerate(SAMPLE_NAMES[:players]):
        if name.startswith("AI "):
            found.append(SeatRow(seat, None, name, True, ai_level=LEVELS[ai % 2]))
            ai += 1
        else:
            found.append(SeatRow(seat, 1000 + seat, name, False))
    return found


def names_of(rows: list[SeatRow]) -> dict[int, str]:
    return {seat.user_id: seat.name for seat in rows if seat.user_id is not None}


def played(game: games.Game, players: int, stop: float | None, language: str) -> tuple[GameState, list[str]]:
    """The sample game (seeded random moves, as ``games.pictures.samples`` plays it) at ``stop``
    of its length (None: to its end), and its public events in words in ``language``."""
    names = [seat.shown_name for seat in seats(players)]
    limit = None if stop is None else int(sum(1 for _ in moves(game, players)) * stop)
    lines: list[str] = []
    for count, (state, events) in enumerate(moves(game, players)):
        lines += [e.render(names, language) for e in events if e.private_to is None]
        if count == limit:
            break
    return state, lines


def moves(game: games.Game, players: int) -> Iterator[tuple[GameState, list[Event]]]:
    """Every position of the sample game with the events that led to it (the deal's first)."""
    state = game.new_game(players, dict(game.quick_options), SAMPLE_SEED)
    rng = Rng(SAMPLE_SEED)
    yield state, state.opening_events()
    while not state.is_over():
        acting = state.to_act()
        seat = acting[rng.below(len(acting))]
        legal = state.legal_actions(seat)
        yield state, state.apply(seat, legal[rng.below(len(legal))])


def table_of(game: games.Game, state: GameState, events: list[str], **changes: object) -> TableSnapshot:
    now = time.time()
    over = state.is_over()
    row = TableRow(
        id=TABLE_ID, guild_id=1, channel_id=2, game_id=game.id, options=game.normalize_options(dict(game.quick_options)),
        host_id=1000, status="finished" if over else "running", seed=SAMPLE_SEED, version=42, state=None,
        timer_minutes=10, deadline=None if over else now + 9 * 60, reminded=False, recent_events=events[-20:],
        outcome=state.outcome().to_json() if over else None, lobby_message_id=2, table_message_id=2,
        ping_message_id=None, created_at=now - 1500, started_at=now - 1400, finished_at=now if over else None,
        seats=seats(state.players),
    )
    for key, value in changes.items():
        setattr(row, key, value)
    return TableSnapshot(row, state.view(None))


def pictured_table(table: TableSnapshot, language: str) -> Message:
    clear_cache()  # every scene's table is #7 at one version: never another scene's picture
    picture = asyncio.run(table_picture(table, language))
    return message_of(with_picture(table_message(table, language).kwargs(), picture, edit=False))


def pictured_hand(hand: HandSnapshot, rendered: Rendered, language: str) -> Message:
    """The hand message with its picture (its text board when it has none)."""
    clear_cache()
    picture = asyncio.run(hand_picture(hand, language))
    body = rendered.kwargs() if picture is None else with_picture(rendered.kwargs(), picture, edit=False)
    return message_of(body, ephemeral=True)


def hand_of(table: TableSnapshot, state: GameState) -> HandSnapshot:
    seat = state.to_act()[0]
    return HandSnapshot(table, seat, state.view(seat), state.legal_actions(seat))


def game_scene(game_id: str) -> Callable[[str], Scene]:
    """The table of the game's sample position, and below it the hand of the seat to act."""
    def build(language: str) -> Scene:
        game = games.get_game(game_id)
        state, events = played(game, sample_players(game), SAMPLE_POINT, language)
        table = table_of(game, state, events)
        messages = [pictured_table(table, language)]
        if state.to_act():
            hand = hand_of(table, state)
            messages.append(pictured_hand(hand, hand_message(hand, language=language), language))
        return messages, names_of(table.row.seats)
    return build


def text_scene(language: str) -> Scene:
    """Pictures off: the Q2J table and hand with their text in the picture's place."""
    game = games.get_game("q2j")
    state, events = played(game, 4, SAMPLE_POINT, language)
    table = table_of(game, state, events)
    hand = hand_of(table, state)
    return [message_of(table_message(table, language).kwargs()),
            message_of(hand_message(hand, language=language).kwargs(), ephemeral=True)], names_of(table.row.seats)


def ending_scene(language: str) -> Scene:
    game = games.get_game("queen-of-spades")
    state, events = played(game, 4, None, language)
    table = table_of(game, state, events)
    return [pictured_table(table, language)], names_of(table.row.seats)


def lobby_scene(language: str) -> Scene:
    game = games.get_game("q2j")
    state = game.new_game(3, {}, SAMPLE_SEED)
    table = table_of(game, state, [], status="lobby", started_at=None, deadline=None, version=1)
    return [message_of(table_message(table, language).kwargs())], names_of(table.row.seats)


def step_scene(game_id: str, players: int, step_kind: str) -> Callable[[str], Scene]:
    """A hand after its first step menu (NG's attack targets), or the first position whose
    hand offers a step of ``step_kind`` (Queen of Spades' discards by rank)."""
    def build(language: str) -> Scene:
        game = games.get_game(game_id)
        state = game.new_game(players, dict(game.quick_options), SAMPLE_SEED)
        rng = Rng(SAMPLE_SEED)
        lines: list[str] = []
        rows = seats(players)
        names = [seat.shown_name for seat in rows]
        while not state.is_over():
            table = table_of(game, state, lines)
            hand = hand_of(table, state)
            layout = ui_for(game_id).move_layout(hand)
            chosen = [value for menu in layout.menus for value, _ in menu.choices if value.startswith(step_kind)]
            if chosen and len(hand.actions) > 12:
                best = max(chosen, key=lambda v: len(ui_for(game_id).move_layout(hand, v).actions))
                return [pictured_hand(hand, hand_message(hand, step=best, language=language), language)], names_of(rows)
            seat = hand.seat
            legal = state.legal_actions(seat)
            events = state.apply(seat, legal[rng.below(len(legal))])
            lines += [e.render(names, language) for e in events if e.private_to is None]
        raise AssertionError(f"no {step_kind} step in the sample game")
    return build


def quash_swap_scene(language: str) -> Scene:
    """Advanced QUASH: a hand after choosing a card that can go on a spot or swap into one
    (placements first, the swap below), and the table while a swap chain is in the air."""
    game = games.get_game("quash")
    options = {"advanced": True, "finish": 12}
    state = game.new_game(2, options, SAMPLE_SEED)
    rng, lines, messages = Rng(SAMPLE_SEED), [], []
    names = [seat.shown_name for seat in seats(2)]
    ui = ui_for("quash")
    while not state.is_over() and len(messages) < 3:
        table = table_of(game, state, lines, options=game.normalize_options(options))
        hand = hand_of(table, state)
        chain = hand.view.get("chain")
        if not messages:
            steps = [value for menu in ui.move_layout(hand).menus for value, _ in menu.choices]
            both = [v for v in steps if (layout := ui.move_layout(hand, v)).actions and layout.menus]
            if both:
                messages.append(pictured_hand(hand, hand_message(hand, step=both[0], language=language), language))
        elif chain and chain["seat"] == hand.seat:
            messages += [pictured_table(table, language),
                         pictured_hand(hand, hand_message(hand, language=language), language)]
        swaps = [a for a in hand.actions if a.kind == "swap"]
        action = swaps[0] if swaps and messages else hand.actions[rng.below(len(hand.actions))]
        events = state.apply(hand.seat, action)
        lines += [e.render(names, language) for e in events if e.private_to is None]
    return messages, names_of(seats(2))


def stats_scene(language: str) -> Scene:
    """``/stats`` of a player of three games, ratings made up to look like a season."""
    rng = Rng(SAMPLE_SEED)
    played_games = [("war", 9, 5), ("q2j", 6, 2), ("quash", 3, 2)]
    history, when = [], 0.0
    ratings = {game_id: 0.0 for game_id, _, _ in played_games}
    for n in range(12):
        game_id = played_games[n % 3 if n < 9 else 0][0]
        ratings[game_id] += (rng.below(100) - 40) / 60
        when += 3600
        history.append(RatingPoint(game_id, when, ratings[game_id]))
    rated = {game_id: sum(1 for p in history if p.game_id == game_id) for game_id, _, _ in played_games}
    tallies = [GameTally(game_id, games, wins, ratings[game_id], rated[game_id]) for game_id, games, wins in played_games]
    stats = Stats(18, 9, 1.4, "war", 12, tallies, history)
    history = HistoryButton.component("recent", 1, HistoryQuery(1000), language)
    layout = stats_layout("ana", None, stats, [action_row([history])], language)
    body = with_picture(Rendered(LayoutMessage(layout)).kwargs(), stats_picture("ana", None, stats, language),
                        edit=False)
    return [message_of(body, ephemeral=True)], {}


TOURNAMENT_NAMES = ("ana", "ben", "Cat the Great", "dan", "eve", "fay", "gus", "hal", "ivy")


def tournament_view(round_now: int = 2) -> TournamentView:
    """A 9-person War Swiss in round ``round_now`` of 3: earlier rounds decided (seat 0 wins, the
    second table drawn), this round's first two tables over."""
    now = time.time()
    row = TournamentRow(
        id=3, guild_id=1, channel_id=2, message_id=5, host_id=1000, name="Friday game night", game_id="war",
        options={"loss": "no-cards", "hints": False}, timer_minutes=5, format="swiss", top=0, rounds=3,
        table_size=2, advance=1, seeding="standings", drop_after=3, round_minutes=40, max_players=None,
        check_in_minutes=15, starts_at=now - 3600, status="running", paused=False, stage="swiss", round=round_now,
        deadline=now + 25 * 60, seed=SAMPLE_SEED, version=30, created_at=now - 7200, started_at=now - 3600,
        finished_at=None, shown=None)
    entrants = [EntrantRow(3, n, 100 + n, name, None, None, 0, True, None, None)
                for n, name in enumerate(TOURNAMENT_NAMES, 1)]
    order = list(range(1, 10))
    tables, results = [], []
    for round in range(1, round_now + 1):
        order = order[1:] + order[:1]
        for grp in range(1, 5):
            seated = (order[2 * grp - 2], order[2 * grp - 1])
            table_id = 100 * round + grp
            tables.append(RoundTableRow(3, round, grp, seated, False, 1000 + table_id, table_id))
            if round < round_now or grp <= 2:
                places = (1, 1) if grp == 2 else (1, 2)
                results.append(TableResult(round, grp, table_id, "finished",
                                           (SeatResult(0, places[0], 12), SeatResult(1, places[1], 0))))
        tables.append(RoundTableRow(3, round, 5, (order[8],), True, None, None))
    standings = current_standings(row, entrants, tables, results)
    current = [t for t in tables if t.round == round_now]
    return TournamentView(row, entrants, current, {r.table_id: r for r in results if r.round == round_now}, standings)


def tournament_shown(view: TournamentView, language: str) -> Scene:
    """The tournament message as posted, with its picture."""
    body = tournament_message(view, time.time(), language).kwargs()
    clear_cache()
    picture = asyncio.run(tournament_picture(view, language))
    return [message_of(with_picture(body, picture, edit=False) if picture else body)], {}


def tournament_scene(language: str) -> Scene:
    """A tournament message mid-tournament: its round's tables and the standings."""
    return tournament_shown(tournament_view(), language)


def knockout_view() -> TournamentView:
    """A knockout of four QUASH teams of two, over: its semi-finals and final played (the better
    seed, at seat 0, winning each)."""
    now = time.time()
    row = TournamentRow(
        id=4, guild_id=1, channel_id=2, message_id=6, host_id=1000, name="", game_id="quash",
        options={"advanced": False, "finish": 30, "hints": False}, timer_minutes=5, format="knockout", top=0,
        rounds=0, table_size=4, advance=1, seeding="random", drop_after=3, round_minutes=None, max_players=None,
        check_in_minutes=0, starts_at=None, status="finished", paused=False, stage="knockout", round=2, deadline=None,
        seed=SAMPLE_SEED, version=40, created_at=now - 7200, started_at=now - 3600, finished_at=now, shown=None)
    names = TOURNAMENT_NAMES[:8]
    entrants = [EntrantRow(4, n, 100 + 2 * n, names[2 * n - 2], 101 + 2 * n, names[2 * n - 1], 0, True, None, None)
                for n in range(1, 5)]
    tables: list[RoundTableRow] = []
    results: list[TableResult] = []
    for round in (1, 2):
        pairing = next_pairing(replace(row, round=round - 1), entrants, tables, results, round)
        for grp, (seated, _) in enumerate(round_rows(row, pairing), 1):
            table_id = 10 * round + grp
            tables.append(RoundTableRow(4, round, grp, seated, False, 1000 + table_id, table_id))
            results.append(TableResult(round, grp, table_id, "finished", tuple(
                SeatResult(seat, 1 if seat % 2 == 0 else 3, 30 if seat % 2 == 0 else 21) for seat in range(4))))
    now_scores = scores(row, entrants, tables, results)
    final = [t for t in tables if t.round == 2]
    return TournamentView(row, entrants, final, {r.table_id: r for r in results if r.round == 2}, now_scores.standings,
                          now_scores.bracket, now_scores.bracket_tables, now_scores.placings)


def tournament_knockout_scene(language: str) -> Scene:
    """A knockout of teams, over: its final, the crown and the placings."""
    return tournament_shown(knockout_view(), language)


def bracket_view() -> TournamentView:
    """A 16-person War knockout in its quarter-finals: round 1 played (the better seed winning),
    two quarter-finals over."""
    now = time.time()
    row = replace(tournament_view().row, id=5, format="knockout", rounds=0, stage="knockout", seeding="rating",
                  round=0, round_minutes=None, deadline=None, version=50)
    names = (*TOURNAMENT_NAMES, "jo", "kim", "lou", "max", "ned", "oli", "pam")
    entrants = [EntrantRow(5, n, 100 + n, name, None, None, 0, True, None, 1500.0 - 10 * n)
                for n, name in enumerate(names, 1)]
    tables: list[RoundTableRow] = []
    results: list[TableResult] = []
    for round, decided in ((1, 8), (2, 2)):
        pairing = next_pairing(replace(row, round=round - 1), entrants, tables, results, round)
        for grp, (seated, _) in enumerate(round_rows(row, pairing), 1):
            table_id = 10 * round + grp
            tables.append(RoundTableRow(5, round, grp, seated, False, 1000 + table_id, table_id))
            if grp <= decided:
                results.append(TableResult(round, grp, table_id, "finished",
                                           (SeatResult(0, 1, 20), SeatResult(1, 2, 7))))
    row = replace(row, round=2, started_at=now - 3600)
    now_scores = scores(row, entrants, tables, results)
    current = [t for t in tables if t.round == 2]
    return TournamentView(row, entrants, current, {r.table_id: r for r in results if r.round == 2},
                          now_scores.standings, now_scores.bracket, now_scores.bracket_tables, now_scores.placings)


def tournament_bracket_scene(language: str) -> Scene:
    """A knockout of sixteen in its quarter-finals: the bracket from the quarter-finals on."""
    return tournament_shown(bracket_view(), language)


def tournament_table_scene(language: str) -> Scene:
    """A round table of a tournament: its message names the round and its two players."""
    game = games.get_game("war")
    state, events = played(game, 2, SAMPLE_POINT)
    table = table_of(game, state, events)
    banner = say("🏆 [{tournament}]({link}) · round {round} · table {table}: {players}", tournament="Friday game night",
                 link="https://discord.com/channels/1/2/5", round=2, table=3, players="<@1000> v <@1001>")
    clear_cache()
    picture = asyncio.run(table_picture(table))
    body = with_picture(table_message(table, banner=banner.render(language)).kwargs(), picture, edit=False)
    return [message_of(body)], names_of(table.row.seats)


load_game_uis()
SCENES: dict[str, Callable[[str], Scene]] = {
    **{game_id: game_scene(game_id) for game_id in games.GAME_IDS},
    "text": text_scene,
    "lobby": lobby_scene,
    "ending": ending_scene,
    "ng-targets": step_scene("ng", 4, "attack:"),
    "qos-discard": step_scene("queen-of-spades", 4, "discard:"),
    "quash-swap": quash_swap_scene,
    "stats": stats_scene,
    "tournament": tournament_scene,
    "tournament-knockout": tournament_knockout_scene,
    "tournament-bracket": tournament_bracket_scene,
    "tournament-table": tournament_table_scene,
}
